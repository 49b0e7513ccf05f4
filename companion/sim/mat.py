"""The printed ArUco play mat (vision/mat.py layout) drawn into the twin's table, marker by marker.

Handedness: the board frame is the one vision/boards.py defines (right-handed, z up, row 0 at the
bottom seen from above), and the mats are printed that way round, markers upright on the page. So
the twin draws each marker as the printed sheet shows it from above (its rows of bits towards +y);
its centre is where vision/mat.py says, and the corners ArUco reports run TL, TR, BR, BL =
(x−, y+), (x+, y+), (x+, y−), (x−, y−).
"""

from __future__ import annotations

import numpy as np

from ..vision.mat import QUIET_MM, marker_image, marker_layout
from .camera import region_to_world
from .scene import Mark, RegionScene

WHITE = (235, 235, 235)
BLACK = (25, 25, 25)


def mat_marks(region: RegionScene) -> tuple[Mark, ...]:
    """The region's four markers with their white quiet zones, as flat marks in the table frame."""
    marks: list[Mark] = []
    for placement in marker_layout(region.spec):
        cells = 6  # a 4×4 marker with its one-cell black border
        bits = marker_image(placement.marker_id, cells) < 128  # True = black cell
        corner = placement.corners_mm()[0]
        size = placement.size_mm
        cell = size / cells

        def to_table(x0: float, y0: float, x1: float, y1: float) -> tuple[tuple[float, float], ...]:
            pts = np.array([[x0, y0, 0.0], [x1, y0, 0.0], [x1, y1, 0.0], [x0, y1, 0.0]])
            world = region_to_world(pts, region.origin_mm, region.rotation_deg)
            return tuple((float(x), float(y)) for x, y, _ in world)

        marks.append(Mark(to_table(corner[0] - QUIET_MM, corner[1] - QUIET_MM, corner[0] + size + QUIET_MM,
                                   corner[1] + size + QUIET_MM), WHITE))
        # One black square, then the white bits a hair larger: cells drawn edge to edge with
        # anti-aliasing would leave seams that break the bit pattern.
        marks.append(Mark(to_table(corner[0], corner[1], corner[0] + size, corner[1] + size), BLACK))
        for i in range(cells):
            for j in range(cells):
                if not bits[i, j]:
                    x0, y0 = corner[0] + j * cell, corner[1] + (cells - 1 - i) * cell
                    marks.append(Mark(to_table(x0 - 0.1, y0 - 0.1, x0 + cell + 0.1, y0 + cell + 0.1), WHITE))
    return tuple(marks)
