"""`companion recognise`: read a board from an image and print the observation.

- `--grid 19x19 [--on points|cells] IMAGE`: the plain grid reader, no calibration, no markers;
  prints one line per row ('.' empty, 'B' dark piece, 'W' light piece), top row first as the
  image shows it.
- `--game G IMAGE [--calibration FILE]`: locate each board region of the game (a saved board
  calibration, else the mat's markers), then ask that region's observer what lies on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import CompanionError, ErrorText, FormatError, listed
from ..games.api import Message
from ..i18n import N_, NP_, translate
from ..vision.boards import REGIONS, BoardSpec, grid_board
from ..vision.calibration import files
from ..vision.calibration.intrinsics import Intrinsics
from ..vision.grid import parse_grid_size, read_grid
from ..vision.locate import BoardLocation, LocateError
from ..vision.locate.markers import locate_from_markers
from ..vision.locate.overlay import draw_observation
from ..vision.observers import observer_class
from ..vision.types import Observation

LOW_CONFIDENCE = 0.5
UNSURE_SHARE = 0.15  # more unsure places than this and the reading is flagged
PLACES_ON = {"points": N_("points"), "cells": N_("cells")}  # --on: where a grid's pieces lie


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "recognise", help=N_("read a board from an image and print the observation"),
        description=N_("Read a board from an image. --grid needs nothing else; --game uses the board "
        "calibration (companion calibrate board) or the play mat's markers, and the game's observer."),
    )
    add_board_options(parser, regions=False)
    parser.add_argument("image", help=N_("a photo of the board (PNG or JPEG)"))
    parser.add_argument("--calibration", metavar="FILE", help=N_("a board calibration file (board-<region>.json)"))
    parser.add_argument("--profile", metavar="FILE", help=N_("an appearance profile for the observer "
                        "(default: <state dir>/calibration/appearance-<region>.json)"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.add_argument("--overlay", metavar="OUT.png", help=N_("also write the image with what was recognised"))
    parser.set_defaults(handler=handle)


# --- options shared with `calibrate` ---------------------------------------------------------------
def add_board_options(parser: argparse.ArgumentParser, regions: bool = True) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", help=N_("a game: every board region it is read from"))
    if regions:
        which.add_argument("--region", help=Message.of(N_("one board region: {choices}"), choices=", ".join(REGIONS)))
    which.add_argument("--grid", metavar="ROWSxCOLS", help=N_("a plain line grid, e.g. 19x19"))
    parser.add_argument("--on", choices=("points", "cells"), default="points",
                        help=N_("with --grid: pieces on the line crossings (Go) or in the cells (default: points)"))


def regions_of_game(game: str) -> list[str]:
    """The board regions a game is read from (boards.py names them "<game>" or "<game>.<part>")."""
    found = [r for r in REGIONS if r == game or r.startswith(game + ".")]
    if not found:
        games = sorted({r.split(".")[0] for r in REGIONS})
        raise CompanionError(message=ErrorText.of(N_("{option}: unknown game {value}; expected one of {choices}"),
                                                  option="--game", value=repr(game), choices=", ".join(games)))
    return found


def board_specs(args: argparse.Namespace) -> list[BoardSpec]:
    if args.grid:
        try:
            rows, cols = parse_grid_size(args.grid)
        except ValueError:
            raise CompanionError(message=ErrorText.of(
                N_("{option}: expected ROWSxCOLS such as 19x19, 2 to 40 each, got {value}"), option="--grid",
                value=repr(args.grid))) from None
        return [grid_board(rows, cols, args.on == "points")]
    region = getattr(args, "region", None)
    if region:
        if region not in REGIONS:
            raise CompanionError(message=ErrorText.of(N_("{option}: unknown region {value}; expected one of {choices}"),
                                                      option="--region", value=repr(region), choices=", ".join(REGIONS)))
        return [REGIONS[region]]
    return [REGIONS[r] for r in regions_of_game(args.game)]


def read_image(path: str) -> np.ndarray:
    """A BGR image from a file, or a clear error naming the file."""
    file = Path(path)
    if not file.is_file():
        raise CompanionError(message=ErrorText.of(N_("{file}: no such image file"), file=path))
    image = cv2.imread(str(file), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise FormatError(path, "", ErrorText.of(N_("is not an image OpenCV can read (expected PNG, JPEG, BMP or TIFF)")))
    return image


def check_overlay_path(path: str | None) -> None:
    """Fail before the work, not after it, when the overlay cannot be written."""
    if path is None:
        return
    target = Path(path)
    if target.suffix.lower() not in (".png", ".jpg", ".jpeg", ".bmp"):
        raise CompanionError(message=ErrorText.of(N_("{option} {file}: expected a .png, .jpg or .bmp file name"),
                                                  option="--overlay", file=path))
    if not target.parent.is_dir():
        raise CompanionError(message=ErrorText.of(N_("{option} {file}: folder {folder} does not exist"),
                                                  option="--overlay", file=path, folder=str(target.parent)))


def write_image(path: str, image: np.ndarray) -> None:
    if not cv2.imwrite(str(path), image):
        raise CompanionError(message=ErrorText.of(N_("{option} {file}: could not write the image"), option="--overlay",
                                                  file=str(path)))


def load_camera(config) -> Intrinsics | None:
    """The measured intrinsics if `companion calibrate camera` saved them, else None."""
    path = files.camera_path(config.state_dir())
    return files.load_intrinsics(path) if path.exists() else None


# --- the command -----------------------------------------------------------------------------------
def handle(args: argparse.Namespace, config) -> int:
    check_overlay_path(args.overlay)
    specs = board_specs(args)
    image = read_image(args.image)
    if args.grid:
        return _recognise_grid(args, specs[0], image, config.get("general", "language"))
    return _recognise_game(args, config, specs, image)


def _recognise_grid(args: argparse.Namespace, spec: BoardSpec, image: np.ndarray, lang: str | None = None) -> int:
    location = None
    if args.calibration:
        height, width = image.shape[:2]
        location = files.load_location(Path(args.calibration), "grid", (width, height))
        if (location.spec.rows, location.spec.cols, location.spec.on_points) != (spec.rows, spec.cols, spec.on_points):
            raise FormatError(args.calibration, "board", ErrorText.of(
                N_("locates a {rows}x{cols} grid, expected {grid} on {on}"), rows=location.spec.rows,
                cols=location.spec.cols, grid=args.grid, on=ErrorText.of(PLACES_ON[args.on])))
    reading = read_grid(image, spec.rows, spec.cols, spec.on_points, location)
    observation = reading.observation()
    if args.json:
        print(json.dumps(observation_json(observation), indent=1))
    else:
        print(reading.text())
    unsure = sum(c < LOW_CONFIDENCE for row in reading.confidence for c in row)
    if unsure > UNSURE_SHARE * spec.rows * spec.cols:
        # A misplaced grid reads confidently nowhere: say so rather than let the text pass as true.
        warning = ErrorText.of(N_("warning: {unsure} of {places} places read with low confidence; check the overlay "
                                  "(--overlay) or place the board with {command}"), unsure=unsure,
                               places=spec.rows * spec.cols, command="companion calibrate board")
        print("companion recognise: " + warning.render(lang), file=sys.stderr)
    if args.overlay:
        write_image(args.overlay, draw_observation(image, reading.location, observation))
    return 0


def _recognise_game(args: argparse.Namespace, config, specs: list[BoardSpec], image: np.ndarray) -> int:
    """Every region that can be read is printed; the others are each said why, and the exit
    status is then non-zero."""
    camera = load_camera(config)
    overlay = image
    results = []
    failures: list[ErrorText] = []
    for spec in specs:
        observer_type = observer_class(spec.region)
        if observer_type is None:
            failures.append(ErrorText.of(N_("{where}: no observer for this region on this build yet (expected {file})"),
                                         where=spec.region,
                                         file=f"companion/vision/observers/{spec.region.replace('.', '_')}.py"))
            continue
        location = profile = None
        try:
            location = _locate(args, config, spec, image, camera)
            profile = _profile(args, config, spec.region)
            observer = observer_type(location, profile)
            observation = observer.observe(image)
        except (CompanionError, ValueError) as exc:  # no profile: ProfileMissing, a ValueError too
            reason: Any = exc
            if location is not None and profile is None and not isinstance(exc, CompanionError):  # no profile: why
                reason = ErrorText.of(N_("its pieces' colours are not learned yet: calibrate them with {command}"),
                                      command=f"companion calibrate appearance --region {spec.region}")
            failures.append(ErrorText.of(N_("{region}: {reason}"), region=spec.region, reason=reason))
            continue
        results.append(observation)
        overlay = draw_observation(overlay, location, observation)
    if args.json:
        print(json.dumps([observation_json(o) for o in results], indent=1, ensure_ascii=False))
    else:
        for observation in results:
            print("\n".join(format_observation(observation, config.get("general", "language"))))
    if args.overlay and results:
        write_image(args.overlay, overlay)
    if failures:
        raise CompanionError(message=ErrorText.of(
            NP_("{count} region cannot be read: {reasons}", "{count} regions cannot be read: {reasons}"),
            count=len(failures), reasons=listed(failures)))  # sentences holding commas: "; " between
    return 0


def _locate(args, config, spec: BoardSpec, image: np.ndarray, camera: Intrinsics | None) -> BoardLocation:
    height, width = image.shape[:2]
    if args.calibration:
        path = Path(args.calibration)
        return files.load_location(path, spec.region, (width, height), camera)
    saved = files.board_path(config.state_dir(), spec.region)
    if saved.exists():
        return files.load_location(saved, spec.region, (width, height), camera)
    try:
        return locate_from_markers(spec, image, intrinsics=camera)
    except LocateError as exc:
        raise LocateError(message=ErrorText.of(
            N_("{reason}. Without markers, save the board's place first: {command}"),
            reason=exc.reason if exc.reason is not None else exc,
            command=f"companion calibrate board --region {spec.region} --corners ... IMAGE")) from None


def _profile(args, config, region: str):
    from ..vision.appearance import AppearanceProfile

    path = Path(args.profile) if args.profile else files.calibration_dir(config.state_dir()) / f"appearance-{region}.json"
    if not path.exists():
        if args.profile:
            raise CompanionError(message=ErrorText.of(N_("{option} {file}: no such file"), option="--profile",
                                                      file=args.profile))
        return None
    return AppearanceProfile.load(path)


def observation_json(observation: Observation) -> dict[str, Any]:
    return {
        "region": observation.region,
        "rows": observation.rows,
        "cols": observation.cols,
        "cells": [
            [
                {"label": cell.label, "confidence": cell.confidence, "attrs": cell.attrs,
                 **({"alternatives": [list(a) for a in cell.alternatives]} if cell.alternatives else {})}
                for cell in row
            ]
            for row in observation.cells
        ],
        "extras": json.loads(json.dumps(observation.extras, default=str)),
    }


def format_observation(observation: Observation, lang: str | None = None) -> list[str]:
    lines = [translate(N_("{region} ({size}), lowest confidence {confidence}"), lang,
                       {"region": observation.region, "size": f"{observation.rows}x{observation.cols}",
                        "confidence": f"{observation.min_confidence:.2f}"})]
    for r, row in enumerate(observation.cells):
        cells = []
        for cell in row:
            attrs = ",".join(f"{k}={v}" for k, v in sorted(cell.attrs.items()))
            cells.append(f"{cell.label}{'[' + attrs + ']' if attrs else ''}{'?' if cell.confidence < 0.5 else ''}")
        lines.append(f"{r:>2}: " + " ".join(cells))
    return lines
