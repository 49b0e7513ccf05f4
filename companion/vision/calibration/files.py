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

from ...errors import CompanionError, FormatError
from ..boards import BoardSpec
from ..locate.location import METHODS, BoardLocation
from .intrinsics import Intrinsics

CAMERA_FORMAT = "companion.camera"
BOARD_FORMAT = "companion.board"
VERSION = 1


def calibration_dir(state_dir: Path) -> Path:
    return Path(state_dir) / "calibration"


def camera_path(state_dir: Path) -> Path:
    return calibration_dir(state_dir) / "camera.json"


def board_path(state_dir: Path, region: str) -> Path:
    return calibration_dir(state_dir) / f"board-{region}.json"


# --- reading ---------------------------------------------------------------------------------------
class _At:
    """A value in a parsed file, and the key path that leads to it (for error messages)."""

    def __init__(self, value: Any, source: str, where: str = ""):
        self.value, self.source, self.where = value, source, where

    def fail(self, expected: str) -> FormatError:
        shown = json.dumps(self.value)[:60] if self.value is not ... else "nothing"
        return FormatError(self.source, self.where or "top level", f"{expected}, got {shown}")

    def key(self, name: str, default: Any = ...) -> _At:
        if not isinstance(self.value, dict):
            raise self.fail("expected an object")
        where = f"{self.where}.{name}" if self.where else name
        if name not in self.value:
            if default is ...:
                raise FormatError(self.source, where, "missing (required)")
            return _At(default, self.source, where)
        return _At(self.value[name], self.source, where)

    def number(self, minimum: float | None = None, positive: bool = False) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float) or not math.isfinite(self.value):
            raise self.fail("expected a number")
        if positive and self.value <= 0:
            raise self.fail("expected a number > 0")
        if minimum is not None and self.value < minimum:
            raise self.fail(f"expected a number ≥ {minimum:g}")
        return float(self.value)

    def whole(self, minimum: int = 0) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int) or self.value < minimum:
            raise self.fail(f"expected a whole number ≥ {minimum}")
        return self.value

    def text(self, choices: tuple[str, ...] | None = None) -> str:
        if not isinstance(self.value, str) or (choices is not None and self.value not in choices):
            raise self.fail("expected " + ("one of " + ", ".join(choices) if choices else "a string"))
        return self.value

    def numbers(self, lengths: tuple[int, ...]) -> list[float]:
        if not isinstance(self.value, list) or len(self.value) not in lengths:
            raise self.fail(f"expected a list of {' or '.join(map(str, lengths))} numbers")
        return [_At(v, self.source, f"{self.where}[{i}]").number() for i, v in enumerate(self.value)]

    def matrix3(self) -> np.ndarray:
        if not isinstance(self.value, list) or len(self.value) != 3:
            raise self.fail("expected a 3×3 matrix (3 lists of 3 numbers)")
        rows = [_At(row, self.source, f"{self.where}[{i}]").numbers((3,)) for i, row in enumerate(self.value)]
        return np.array(rows, dtype=np.float64)

    def size(self) -> tuple[int, int]:
        if not isinstance(self.value, list) or len(self.value) != 2:
            raise self.fail("expected [width, height] in pixels")
        w, h = (_At(v, self.source, f"{self.where}[{i}]").whole(1) for i, v in enumerate(self.value))
        return w, h


def _read(path: Path, expected_format: str) -> _At:
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CompanionError(f"{source}: no such calibration file") from None
    except OSError as exc:
        raise FormatError(source, "", f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise FormatError(source, "", "is not UTF-8 text (expected a JSON calibration file)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(source, f"line {exc.lineno} column {exc.colno}", f"is not valid JSON ({exc.msg})") from None
    root = _At(data, source)
    kind = root.key("format").text()
    if kind != expected_format:
        raise FormatError(source, "format", f"expected {expected_format!r}, got {kind!r} (another kind of file)")
    version = root.key("version").whole(1)
    if version > VERSION:
        raise FormatError(source, "version", f"expected version {VERSION} or older, got {version} "
                          "(written by a newer companion)")
    return root


def intrinsics_from_json(root: _At) -> Intrinsics:
    size = root.key("image_size").size()
    k = root.key("camera_matrix").matrix3()
    if k[0, 0] <= 0 or k[1, 1] <= 0 or k[2].tolist() != [0.0, 0.0, 1.0] or k[1, 0] != 0 or k[0, 1] < 0:
        raise root.key("camera_matrix").fail("expected [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] with fx, fy > 0")
    dist = root.key("dist_coeffs", []).numbers((0, 4, 5, 8, 12, 14))
    rms = root.key("rms_px", None)
    rms_value = None if rms.value is None else rms.number(minimum=0.0)
    views = root.key("views", 0).whole(0)
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
    saved_region = root.key("region").text()
    if region is not None and saved_region != region:
        raise FormatError(str(path), "region", f"this file locates {saved_region!r}, expected {region!r}")
    board = root.key("board")
    spec = BoardSpec(
        saved_region,
        board.key("rows").whole(1),
        board.key("cols").whole(1),
        board.key("cell_mm").number(positive=True),
        board.key("level_mm", 0.0).number(minimum=0.0),
        _bool(board.key("on_points", False)),
    )
    method = root.key("method").text(METHODS)
    size = root.key("image_size").size()
    if image_size is not None and tuple(image_size) != size:
        raise FormatError(str(path), "image_size", f"calibrated for {size[0]}×{size[1]} frames, this frame is "
                          f"{image_size[0]}×{image_size[1]} (run `companion calibrate board` again)")
    homography = root.key("homography").matrix3()
    if abs(np.linalg.det(homography)) < 1e-12:
        raise root.key("homography").fail("expected an invertible 3×3 matrix")
    error = root.key("error_px", 0.0).number(minimum=0.0)
    undistorted = _bool(root.key("undistorted", False))
    if undistorted and (intrinsics is None or not any(intrinsics.dist_coeffs)):
        raise FormatError(str(path), "undistorted", "this location was fitted with the camera's lens "
                          "distortion removed: the camera calibration (camera.json) is needed with it")
    return BoardLocation(spec, homography / homography[2, 2], size, method, error,
                         intrinsics.for_size(*size) if intrinsics else None)


def _bool(at: _At) -> bool:
    if not isinstance(at.value, bool):
        raise at.fail("expected true or false")
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
            raise CompanionError(f"{path} exists and is not a valid calibration file, so it was left "
                                 f"untouched ({exc}); move it away to save a new one") from None
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
    """Every key checked; a location needing intrinsics is still a valid file to replace."""
    try:
        load_location(path)
    except FormatError as exc:
        if exc.where != "undistorted":
            raise
