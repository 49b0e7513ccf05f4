"""Calibration files: versioned JSON under <state dir>/calibration/ (format in docs/calibration.md).

- camera.json: the camera's intrinsics (format "companion.camera", version 1);
- board-<region>.json: where a board region lies in the frame (format "companion.board", version 1).

A file that is corrupt, of another kind, of a newer version, or for another region or frame size
gives a FormatError naming the file and the key. Saving never touches such a file: the user moves
it away first. A valid older calibration is kept beside the new one as <name>.prev.json.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import CompanionError, ErrorText, FormatError, line_column, os_error_text
from ...i18n import N_, NP_
from ...jsonread import JsonReader
from ..boards import BoardSpec, frame_is_mirrored
from ..locate.location import METHODS, BoardLocation
from .intrinsics import Intrinsics

CAMERA_FORMAT = "companion.camera"
BOARD_FORMAT = "companion.board"
VERSION = 1


# A location saved mirrored is refused when read, but may be replaced by a new one (kept as .prev.json)
MIRRORED = N_("places the board as its mirror image (saved before the board frame was settled, or from corners "
              "given anticlockwise): run {command} again")

def calibration_dir(state_dir: Path) -> Path:
    return Path(state_dir) / "calibration"


def camera_path(state_dir: Path) -> Path:
    return calibration_dir(state_dir) / "camera.json"


def board_path(state_dir: Path, region: str) -> Path:
    return calibration_dir(state_dir) / f"board-{region}.json"


# --- reading ---------------------------------------------------------------------------------------
# The calibration files' value checks, on the shared JsonReader (companion/jsonread.py).
def _number(at: JsonReader, minimum: float | None = None, positive: bool = False) -> float:
    value = at.float()
    if not math.isfinite(value):
        raise at.fail(N_("expected a number"))
    if positive and value <= 0:
        raise at.fail(N_("expected a number > 0"))
    if minimum is not None and value < minimum:
        raise at.fail(N_("expected a number ≥ {limit}"), limit=f"{minimum:g}")
    return value


def _whole(at: JsonReader, minimum: int = 0) -> int:
    if isinstance(at.value, bool) or not isinstance(at.value, int) or at.value < minimum:
        raise at.fail(N_("expected a whole number ≥ {limit}"), limit=minimum)
    return at.value


def _numbers(at: JsonReader, lengths: tuple[int, ...]) -> list[float]:
    if not isinstance(at.value, list) or len(at.value) not in lengths:
        # "3", or "0, 4, 5 or 8": the last count chooses the plural ("a list of 1 or 2 numbers")
        raise at.fail(NP_("expected a list of {counts} number", "expected a list of {counts} numbers"),
                      counts=_either(lengths), count=lengths[-1])
    return [_number(item) for item in at.list()]


def _either(counts: tuple[int, ...]) -> Any:
    """"3", or "0, 4, 5 or 8" in the player's language."""
    if len(counts) == 1:
        return counts[0]
    return ErrorText.of(N_("{some} or {last}"), some=", ".join(map(str, counts[:-1])), last=counts[-1])


def _matrix3(at: JsonReader) -> np.ndarray:
    if not isinstance(at.value, list) or len(at.value) != 3:
        raise at.fail(N_("expected a 3×3 matrix (3 lists of 3 numbers)"))
    return np.array([_numbers(row, (3,)) for row in at.list()], dtype=np.float64)


def _size(at: JsonReader) -> tuple[int, int]:
    if not isinstance(at.value, list) or len(at.value) != 2:
        raise at.fail(N_("expected [width, height] in pixels"))
    width, height = (_whole(v, 1) for v in at.list())
    return width, height


def _read(path: Path, expected_format: str) -> JsonReader:
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FormatError(source, "", ErrorText.of(N_("no such calibration file"))) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(source, "", os_error_text(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(source, line_column(exc.lineno, exc.colno), ErrorText.of(N_("not valid JSON"))) from None
    root = JsonReader(data, source)
    kind = root.get("format").str()
    if kind != expected_format:
        raise FormatError(source, "format", ErrorText.of(N_("expected {expected}, got {value} (another kind of file)"),
                                                        expected=repr(expected_format), value=repr(kind)))
    version = _whole(root.get("version"), 1)
    if version > VERSION:
        raise FormatError(source, "version", ErrorText.of(
            N_("expected version ≤ {limit} (a newer companion wrote it)"), limit=VERSION))
    return root


def intrinsics_from_json(root: JsonReader) -> Intrinsics:
    size = _size(root.get("image_size"))
    k = _matrix3(root.get("camera_matrix"))
    if k[0, 0] <= 0 or k[1, 1] <= 0 or k[2].tolist() != [0.0, 0.0, 1.0] or k[1, 0] != 0 or k[0, 1] < 0:
        raise root.get("camera_matrix").fail(N_("expected {matrix} with fx, fy > 0"),
                                              matrix="[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]")
    dist = _numbers(root.get("dist_coeffs", []), (0, 4, 5, 8, 12, 14))
    rms = root.get("rms_px", None)
    rms_value = None if rms.value is None else _number(rms, minimum=0.0)
    views = _whole(root.get("views", 0), 0)
    return Intrinsics(size, tuple(tuple(row) for row in k.tolist()), tuple(dist), rms_value, views)


def load_intrinsics(path: Path) -> Intrinsics:
    return intrinsics_from_json(_read(path, CAMERA_FORMAT))


def intrinsics_to_json(intrinsics: Intrinsics) -> dict[str, Any]:
    return {
        "format": CAMERA_FORMAT,
        "version": VERSION,
        "image_size": list(intrinsics.image_size),
        "camera_matrix": [list(row) for row in intrinsics.camera_matrix],
        "dist_coeffs": list(intrinsics.dist_coeffs),
        "rms_px": intrinsics.rms_px,
        "views": intrinsics.views,
    }


def location_to_json(location: BoardLocation) -> dict[str, Any]:
    spec = location.spec
    return {
        "format": BOARD_FORMAT,
        "version": VERSION,
        "region": spec.region,
        "board": {"rows": spec.rows, "cols": spec.cols, "cell_mm": spec.cell_mm, "level_mm": spec.level_mm,
                  "on_points": spec.on_points},
        "method": location.method,
        "image_size": list(location.image_size),
        "homography": [[float(v) for v in row] for row in location.homography],
        "error_px": location.error_px,
        "undistorted": location.intrinsics is not None and any(location.intrinsics.dist_coeffs),
    }


def load_location(path: Path, region: str | None = None, image_size: tuple[int, int] | None = None,
                  intrinsics: Intrinsics | None = None) -> BoardLocation:
    """A saved board location; `region` and `image_size`, when given, must match the file.

    A location fitted on undistorted points needs the camera's intrinsics to be used.
    """
    root = _read(path, BOARD_FORMAT)
    saved_region = root.get("region").str()
    if region is not None and saved_region != region:
        raise FormatError(str(path), "region", ErrorText.of(N_("this file locates {located}, expected {wanted}"),
                                                            located=repr(saved_region), wanted=repr(region)))
    board = root.get("board")
    spec = BoardSpec(
        saved_region,
        _whole(board.get("rows"), 1),
        _whole(board.get("cols"), 1),
        _number(board.get("cell_mm"), positive=True),
        _number(board.get("level_mm", 0.0), minimum=0.0),
        board.get("on_points", False).bool(),
    )
    method = _choice(root.get("method"), METHODS)
    size = _size(root.get("image_size"))
    if image_size is not None and tuple(image_size) != size:
        raise FormatError(str(path), "image_size", ErrorText.of(
            N_("calibrated for {width}×{height} frames, this frame is {frame_width}×{frame_height} (run {command} "
               "again)"), width=size[0], height=size[1], frame_width=image_size[0], frame_height=image_size[1],
            command="companion calibrate board"))
    homography = _matrix3(root.get("homography"))
    if abs(np.linalg.det(homography)) < 1e-12:
        raise root.get("homography").fail(N_("expected an invertible 3×3 matrix"))
    if frame_is_mirrored(spec, homography):
        raise FormatError(str(path), "homography", ErrorText.of(
            MIRRORED, command=f"companion calibrate board --region {saved_region}"))
    error = _number(root.get("error_px", 0.0), minimum=0.0)
    undistorted = root.get("undistorted", False).bool()
    if undistorted and (intrinsics is None or not any(intrinsics.dist_coeffs)):
        raise FormatError(str(path), "undistorted", ErrorText.of(
            N_("this location was fitted with the camera's lens distortion removed: the camera calibration "
               "({file}) is needed with it"), file="camera.json"))
    return BoardLocation(spec, homography / homography[2, 2], size, method, error,
                         intrinsics.for_size(*size) if intrinsics else None)


def _choice(at: JsonReader, choices: tuple[str, ...]) -> str:
    if not isinstance(at.value, str) or at.value not in choices:
        raise at.fail(N_("expected one of {choices}"), choices=", ".join(choices))
    return at.value


# --- writing ---------------------------------------------------------------------------------------
def save(path: Path, data: dict[str, Any], validate: Callable[[Path], object]) -> Path | None:
    """Write JSON atomically. An existing file must be a valid calibration (checked with
    `validate`): it is then kept as <name>.prev.json, and that path is returned. An invalid one
    is left untouched and the save is refused."""
    path = Path(path)
    previous = None
    if path.exists():
        try:
            validate(path)
        except CompanionError as exc:
            raise CompanionError(message=ErrorText.of(
                N_("{file} exists and is not a valid calibration file, so it was left untouched ({reason}); move "
                   "it away to save a new one"), file=str(path), reason=exc)) from None
        previous = path.with_name(path.stem + ".prev.json")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        if previous is not None:
            os.replace(path, previous)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return previous


def save_intrinsics(path: Path, intrinsics: Intrinsics) -> Path | None:
    return save(path, intrinsics_to_json(intrinsics), load_intrinsics)


def save_location(path: Path, location: BoardLocation) -> Path | None:
    return save(path, location_to_json(location), _validate_location)


def _validate_location(path: Path) -> None:
    """Every key checked; a location needing intrinsics, or one saved mirrored before the board
    frame was settled, is still a valid file to replace (it is kept as .prev.json)."""
    try:
        load_location(path)
    except FormatError as exc:
        if exc.where != "undistorted" and getattr(exc.expected, "msgid", None) != MIRRORED:
            raise
