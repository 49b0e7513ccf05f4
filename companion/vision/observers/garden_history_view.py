"""Whether a cell's top, as read, has a view of its own: the share of its face that the neighbours,
as read, hide from the camera.

A reading of a cell whose face a taller neighbour nearer the camera hides is not a view of that
cell: what fits there is often the neighbour's own top seen at another height (parallax). The
single-frame bench counts such cells apart (less than 60 % of the top in sight); history reads
them from what was seen there before. The face is a grid of points over the middle of the cell
(a pillar's section: every kind of top covers it), at the height of the top read: the board,
a pillar's top, a tile's top or a decoration's (garden_occlusion.Occlusion, one set of heights).
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..boards import BABYLON_GARDEN
from ..types import CellReading
from .dimensions import GardenDimensions
from .garden_occlusion import Occlusion

FACE_POINTS = 4  # a FACE_POINTS × FACE_POINTS grid over the face
DECO_LABELS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)


def top_height(dims: GardenDimensions, cell: CellReading) -> float:
    """The height (mm) of the top face a reading shows: the board for a recess, else its piece's top
    (a pair of stairs: the step on its lower space, the one a cell shows at the least)."""
    level = cell.attrs.get("level", 0)
    if isinstance(level, list | tuple):
        level = min(level)
    if cell.label in (labels.PILLAR1, labels.PILLAR2):
        return dims.pillar_top(int(level))
    if cell.label == labels.TILE:
        return dims.tile_top(int(level))
    if cell.label in DECO_LABELS:
        return dims.deco_top(int(level))
    return 0.0


class FaceView:
    """Per geometry: which points of each cell's face, at every height a top can have, each kind
    of neighbour hides (made once; per read a comparison of heights)."""

    def __init__(self, geometry, dims: GardenDimensions, cell_mm: float, max_level: int):
        self.geometry, self.dims = geometry, dims
        heights = [0.0]
        for level in range(1, max_level + 1):
            heights += [dims.pillar_top(level), dims.tile_top(level), dims.deco_top(level)]
        self.heights = np.array(heights)
        half = dims.pillar_mm / 2 - 1.0
        axis = cell_mm / 2 + (np.arange(FACE_POINTS) + 0.5) / FACE_POINTS * 2 * half - half
        points = np.stack(np.meshgrid(axis, axis), axis=-1).reshape(-1, 2)
        # Occlusion numbers its heights from 1 (its index 0 is the board's, unused there).
        self.occlusion = Occlusion(geometry, dims, cell_mm, list(range(1, len(heights) + 1)), points, heights=heights)

    def height_index(self, height: float) -> int:
        return int(np.argmin(np.abs(self.heights - height))) + 1

    def hidden(self, rows: list[list[CellReading]], faces: list[tuple[int, int, CellReading]]) -> np.ndarray:
        """(len(faces),): for each (row, col, reading) the share of that reading's top face, on that
        cell, that the neighbours as read in `rows` hide."""
        if not faces:
            return np.zeros(0)
        cells = [(r, c, self.height_index(top_height(self.dims, cell))) for r, c, cell in faces]
        return self.occlusion.hidden(rows, cells).mean(axis=1)


def face_view(observer) -> FaceView:
    """The garden observer's FaceView for its geometry (made at its first read with history, ~0.2 s,
    and kept on the observer)."""
    view = getattr(observer, "_history_faces", None)
    if view is None or view.geometry is not observer.sampler.geometry:
        view = observer._history_faces = FaceView(observer.sampler.geometry, observer.dims, BABYLON_GARDEN.cell_mm,
                                                  observer.dims.max_level)
    return view
