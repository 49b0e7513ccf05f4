"""Physical geometry of each board region the camera reads, in millimetres, and THE board frame.

The board frame, one convention for every locator (markers, grid lines, corners), every observer,
the printed mats and the digital twin:

- origin at the outer corner of the row 0 / column 0 cell (on-points boards: that point);
- x along the columns, y along the rows, z up from the table towards the camera; table z = 0;
- right-handed. Seen from above, with column 0 on the left, row 0 is therefore at the BOTTOM and
  rows count upwards, like a chessboard seen from White's side (a1 at the bottom left). The mats
  and stickers are printed that way (row 1 along the page's bottom edge, markers upright on the
  page) and the twin draws that way.

The one exception is the plain line grid (region "grid", the Go reader of `recognise --grid`): a
bare grid has no side of its own, so it is read as the picture shows it, row 0 along the top, which
seen from above is the mirror image. It is no game region and nothing of a game depends on it.

`board_to_page` gives the frame seen from above as a page (x right, y down); every locator and
printed target derives its orientation from it, and `frame_is_mirrored` tells a location that is
the mirror image of the convention (a mirrored camera picture, a mat printed the old way round,
corners given anticlockwise): the locators and the calibration files refuse those.

Sizes are defaults for the published sets and can be measured and overridden by calibration;
nothing here is a colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BoardSpec:
    region: str  # "babylon.garden", "babylon.quarry", "reclamation", "babel", "baubylon", "grid"
    rows: int
    cols: int
    cell_mm: float  # pitch of one cell (or, for on-points grids, between lines)
    level_mm: float = 0.0  # height of one level / stone / cube / pawn height
    on_points: bool = False  # pieces sit on the line intersections (Go-like) instead of in cells

    @property
    def width_mm(self) -> float:
        return self.cell_mm * (self.cols - 1 if self.on_points else self.cols)

    @property
    def height_mm(self) -> float:
        return self.cell_mm * (self.rows - 1 if self.on_points else self.rows)

    def cell_centre(self, row: int, col: int) -> tuple[float, float]:
        """(x, y) of a cell centre, or of an intersection for on-points boards."""
        offset = 0.0 if self.on_points else 0.5
        return ((col + offset) * self.cell_mm, (row + offset) * self.cell_mm)


# Defaults; a measured calibration may replace cell_mm and level_mm.
BABYLON_GARDEN = BoardSpec("babylon.garden", 8, 8, cell_mm=25.0, level_mm=22.0)
BABYLON_QUARRY = BoardSpec("babylon.quarry", 4, 4, cell_mm=50.0, level_mm=3.0)  # a cell = one 2×2 tile
RECLAMATION = BoardSpec("reclamation", 6, 6, cell_mm=30.0, level_mm=6.0)  # level = one stone
BABEL = BoardSpec("babel", 3, 3, cell_mm=40.0, level_mm=10.0)  # level = one 10 mm cube
BAUBYLON = BoardSpec("baubylon", 12, 12, cell_mm=24.0, level_mm=12.0)  # level = one pawn height


def grid_board(rows: int, cols: int, on_points: bool, pitch_mm: float = 22.0) -> BoardSpec:
    """A plain line-grid board (e.g. a 19×19 Go board read on its points)."""
    return BoardSpec("grid", rows, cols, cell_mm=pitch_mm, level_mm=0.0, on_points=on_points)


ROW0_AT_BOTTOM = True  # seen from above, for every game region (diagrams, printed mats)


def rows_run_up(spec: BoardSpec) -> bool:
    """Seen from above, do the rows count upwards (row 0 at the bottom)? Every game region: yes;
    the plain line grid, read as the picture shows it: no."""
    return spec.region != "grid"


def board_to_page(spec: BoardSpec) -> np.ndarray:
    """3×3: board mm (x, y, 1) → the board seen from above drawn as a page, in mm (x right, y down,
    the board in [0, width] × [0, height])."""
    if not rows_run_up(spec):
        return np.eye(3)
    return np.array([[1.0, 0.0, 0.0], [0.0, -1.0, spec.height_mm], [0.0, 0.0, 1.0]])


def frame_is_mirrored(spec: BoardSpec, homography: np.ndarray) -> bool:
    """True when a homography (board mm → image pixels) places the board as the mirror image of
    the convention. A camera looking down shows the table turned but never mirrored, so the page
    of `board_to_page` must keep its orientation in the picture (both have y down)."""
    page_to_image = np.asarray(homography, dtype=np.float64) @ np.linalg.inv(board_to_page(spec))
    centre = np.array([spec.width_mm / 2, spec.height_mm / 2, 1.0])
    w = page_to_image[2] @ centre
    # Jacobian of (u, v) = (h0·p, h1·p) / (h2·p) at the centre: its determinant's sign is the orientation.
    u, v = (page_to_image[:2] @ centre) / w
    jac = (page_to_image[:2, :2] - np.outer([u, v], page_to_image[2, :2])) / w
    return bool(np.linalg.det(jac) < 0)

REGIONS = {spec.region: spec for spec in (BABYLON_GARDEN, BABYLON_QUARRY, RECLAMATION, BABEL, BAUBYLON)}
