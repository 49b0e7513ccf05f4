"""Board location from four corners tapped on the touchscreen or given on the command line."""

from __future__ import annotations

import numpy as np

from ...i18n import N_
from ..boards import BoardSpec, board_to_page, rows_run_up
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, fit_homography, located_nowhere, undistort


def parse_corners(text: str) -> np.ndarray:
    """"x1,y1,x2,y2,x3,y3,x4,y4" (top-left, top-right, bottom-right, bottom-left) → 4×2 array."""
    parts = [p.strip() for p in text.replace(";", ",").split(",") if p.strip()]
    try:
        values = [float(p) for p in parts]
    except ValueError:
        raise located_nowhere(N_("--corners: expected 8 numbers x1,y1,...,x4,y4, got {value}"), value=repr(text)) from None
    if len(values) != 8:
        raise located_nowhere(N_("--corners: expected 8 numbers x1,y1,...,x4,y4 (4 corners), got {count}"),
                              count=len(values))
    return np.array(values, dtype=np.float64).reshape(4, 2)


def board_corners_mm(spec: BoardSpec) -> np.ndarray:
    """The board's outer corners top-left, top-right, bottom-right, bottom-left as seen from above
    (boards.board_to_page: for a game region row 0 is at the bottom), in board mm (the corner
    points for on-points boards)."""
    w, h = spec.width_mm, spec.height_mm
    page = np.array([[0, 0, 1], [w, 0, 1], [w, h, 1], [0, h, 1]], dtype=np.float64)
    board = page @ np.linalg.inv(board_to_page(spec)).T
    return board[:, :2] / board[:, 2:3]


def locate_from_corners(spec: BoardSpec, corners_px: np.ndarray, image_size: tuple[int, int],
                        intrinsics: Intrinsics | None = None) -> BoardLocation:
    """Corners in the order top-left, top-right, bottom-right, bottom-left of the board as seen from
    above (row 1 of a game board along the bottom edge): clockwise in the picture. Anticlockwise
    would place the board's mirror image, so it is refused."""
    corners = np.asarray(corners_px, dtype=np.float64).reshape(4, 2)
    width, height = image_size
    outside = [i for i, (x, y) in enumerate(corners) if not (0 <= x <= width and 0 <= y <= height)]
    if outside:
        x, y = corners[outside[0]]
        raise located_nowhere(N_("corner {number} ({x}, {y}) lies outside the {size} image"),
                              number=outside[0] + 1, x=f"{x:g}", y=f"{y:g}", size=f"{width}×{height}")
    if not _goes_round(corners):
        raise located_nowhere(N_("the 4 corners must go round the board: top-left, top-right, bottom-right, "
                                 "bottom-left (clockwise on the image), without crossing"))
    if not _clockwise(corners):
        raise located_nowhere(
            N_("the 4 corners go round anticlockwise on the image, which would place the board's mirror image: "
               "give them clockwise, top-left, top-right, bottom-right, bottom-left as seen from above "
               "(row 1 along the bottom edge)") if rows_run_up(spec) else
            N_("the 4 corners go round anticlockwise on the image, which would place the board's mirror image: "
               "give them clockwise, top-left, top-right, bottom-right, bottom-left as seen from above"))
    intrinsics = intrinsics.for_size(width, height) if intrinsics else None
    homography, error = fit_homography(board_corners_mm(spec), undistort(corners, intrinsics))
    return BoardLocation(spec, homography, image_size, "corners", error, intrinsics)


def _crosses(quad: np.ndarray) -> list[float]:
    crosses = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        (ux, uy), (vx, vy) = b - a, c - b
        crosses.append(ux * vy - uy * vx)
    return crosses


def _goes_round(quad: np.ndarray) -> bool:
    """A convex quadrilateral, its corners in order round it (either way)."""
    crosses = _crosses(quad)
    return all(c > 1e-6 for c in crosses) or all(c < -1e-6 for c in crosses)


def _clockwise(quad: np.ndarray) -> bool:
    """Clockwise on screen: positive cross products with the image's y axis pointing down."""
    return all(c > 0 for c in _crosses(quad))
