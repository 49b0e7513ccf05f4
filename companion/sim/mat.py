"""The printed ArUco play mat (vision/mat.py layout) drawn into the twin's table, marker by marker.

Handedness: the region frame (x along columns, y along rows, z up) is right-handed, so seen from
above y runs the other way from a printed page's rows. A marker printed "top edge towards row 0"
would then look mirrored to the camera and ArUco would not find it, so the twin prints each
marker the way a real sheet shows it from above (rows of bits towards +y). Its centre is where
vision/mat.py says; the corner order ArUco reports then runs TL, TR, BR, BL = (x−, y+), (x+, y+),
(x+, y−), (x−, y−), i.e. corners_mm() mirrored in y about the marker's centre.
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
