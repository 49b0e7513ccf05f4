"""Physical geometry of each board region the camera reads, in millimetres, and THE board frame.

The board frame (one convention for every locator, observer, printed mat and the digital twin):
origin at the outer corner of the row 0 / column 0 cell; x along the columns, y along the rows,
z up towards the camera; right-handed. Seen from above, with column 0 on the left, row 0 is
therefore at the BOTTOM and rows count upwards, like a chessboard seen from White's side (a1 at the
bottom left). Printed mats and stickers are printed that way (row 0 along the page's bottom edge),
the twin draws that way, and a location whose frame is mirrored (a mirrored camera picture,
corners given the wrong way round) is refused: see `frame_is_mirrored`. Table z = 0.

Sizes are defaults for the published sets and can be measured and overridden by calibration;
nothing here is a colour.
"""

from __future__ import annotations

from dataclasses import dataclass


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


ROW0_AT_BOTTOM = True  # seen from above (right-handed frame, z up): for diagrams and printed mats

REGIONS = {spec.region: spec for spec in (BABYLON_GARDEN, BABYLON_QUARRY, RECLAMATION, BABEL, BAUBYLON)}
