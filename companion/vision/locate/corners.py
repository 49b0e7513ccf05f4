"""Board location from four corners tapped on the touchscreen or given on the command line."""

from __future__ import annotations

import numpy as np

from ..boards import BoardSpec
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, LocateError, fit_homography, undistort


def parse_corners(text: str) -> np.ndarray:
    """"x1,y1,x2,y2,x3,y3,x4,y4" (top-left, top-right, bottom-right, bottom-left) → 4×2 array."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise LocateError(f"--corners: expected 8 numbers x1,y1,...,x4,y4, got {text!r}") from None
    if len(values) != 8:
        raise LocateError(f"--corners: expected 8 numbers x1,y1,...,x4,y4 (4 corners), got {len(values)}")
    return np.array(values, dtype=np.float64).reshape(4, 2)


def board_corners_mm(spec: BoardSpec) -> np.ndarray:
    """The board's outer corners TL, TR, BR, BL in mm (the corner points for on-points boards)."""
    w, h = spec.width_mm, spec.height_mm
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def locate_from_corners(spec: BoardSpec, corners_px: np.ndarray, image_size: tuple[int, int],
                        intrinsics: Intrinsics | None = None) -> BoardLocation:
    """Corners in the order top-left, top-right, bottom-right, bottom-left of the board as read."""
    corners = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
    width, height = image_size
    outside = [i for i, (x, y) in enumerate(corners) if not (0 <= x <= width and 0 <= y <= height)]
    if outside:
        raise LocateError(f"corner {outside[0] + 1} ({corners[outside[0]][0]:g}, {corners[outside[0]][1]:g}) "
                          f"lies outside the {width}×{height} image")
    if not _goes_round(corners):
        raise LocateError("the 4 corners must go round the board: top-left, top-right, bottom-right, "
                          "bottom-left (clockwise on the image), without crossing")
    intrinsics = intrinsics.for_size(width, height) if intrinsics else None
    homography, error = fit_homography(board_corners_mm(spec), undistort(corners, intrinsics))
    return BoardLocation(spec, homography, image_size, "corners", error, intrinsics)


def _goes_round(quad: np.ndarray) -> bool:
    """A convex quadrilateral, its corners in order round it.

    Clockwise on screen (positive cross products, y down) for a board whose rows run down the
    picture; counter-clockwise is accepted too, for a board frame whose y axis runs up as seen
    from above (a right-handed frame with z up, as the twin uses).
    """
    crosses = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        (ux, uy), (vx, vy) = b - a, c - b
        crosses.append(ux * vy - uy * vx)
    return all(c > 1e-6 for c in crosses) or all(c < -1e-6 for c in crosses)
