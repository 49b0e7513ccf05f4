"""Which points of a tile space's middle a taller neighbour nearer the camera hides.

An icon is read from the middle of its space. Seen at a slant, a pillar, a decoration or a higher
tile standing on the camera's side of the space covers part of that middle with its own colours
(a pillar's orange side read as a brown bridge icon). Once the neighbours are read, the box each
one fills (its footprint, from the space's height up to its top) is projected into the frame;
the middle's points inside that outline are not evidence of the icon.
"""

from __future__ import annotations

import cv2
import numpy as np

from .. import labels
from ..types import CellReading
from .dimensions import GardenDimensions

NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
TOWARDS = 0.3  # a neighbour is on the camera's side when its direction is this close to the camera's


def occluder(cell: CellReading, dims: GardenDimensions) -> tuple[float, float] | None:
    """(top height mm, footprint side mm) of what a cell's reading stands up as, centred on the
    cell (None for a recess)."""
    level = cell.attrs.get("level", 0)
    if isinstance(level, list):  # stairs, once paired
        level = max(level)
    if cell.label in (labels.PILLAR1, labels.PILLAR2):
        return dims.pillar_top(level), dims.pillar_mm
    if cell.label == labels.TILE:
        return dims.tile_top(level), 25.0  # a tile covers its space to the edge
    if cell.label in (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE):
        return dims.deco_top(level), dims.deco_mm
    return None


def _inside_convex(points: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """(n,) whether each image point lies inside a convex polygon (m, 2), either winding."""
    edges = np.roll(hull, -1, axis=0) - hull  # (m, 2)
    rel = points[:, None, :] - hull[None, :, :]  # (n, m, 2)
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    return np.all(cross >= 0, axis=1) | np.all(cross <= 0, axis=1)


def hidden_points(geometry, dims: GardenDimensions, cell_mm: float, rows: list[list[CellReading]], r: int, c: int,
                  z: float, points: np.ndarray, nadir: tuple[float, float]) -> np.ndarray:
    """(n,) True for the points (mm from the cell's corner, at height z) of cell (r, c) that a
    neighbour read in `rows`, standing taller than z on the camera's side, hides."""
    hidden = np.zeros(len(points), bool)
    centre = np.array([(c + 0.5) * cell_mm, (r + 0.5) * cell_mm])
    towards = np.asarray(nadir, float) - centre
    towards /= max(float(np.hypot(*towards)), 1e-6)
    pixels = None
    for dr, dc in NEIGHBOURS:
        rr, cc = r + dr, c + dc
        if not (0 <= rr < len(rows) and 0 <= cc < len(rows[0])):
            continue
        if (dc * towards[0] + dr * towards[1]) / np.hypot(dr, dc) < TOWARDS:
            continue
        box = occluder(rows[rr][cc], dims)
        if box is None or box[0] <= z + 0.5:
            continue
        top, side = box
        x0, y0 = (cc + 0.5) * cell_mm - side / 2, (rr + 0.5) * cell_mm - side / 2
        corners = np.array([(x, y, h) for h in (z, top) for x in (x0, x0 + side) for y in (y0, y0 + side)])
        hull = cv2.convexHull(geometry.to_pixels(corners).astype(np.float32)).reshape(-1, 2).astype(np.float64)
        if pixels is None:
            xyz = np.column_stack([points + [c * cell_mm, r * cell_mm], np.full(len(points), z)])
            pixels = geometry.to_pixels(xyz)
        hidden |= _inside_convex(pixels, hull)
    return hidden
