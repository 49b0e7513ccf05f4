"""The Reclamation: per square, the height of the stone stack (0-3) and the face on top.

A stack of h stones has its top face at h stone heights; each candidate height is tested on its
own view (the stone's square outline must fit there: parallax), and the face is read on it.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import RECLAMATION
from ..types import Observation
from .common import class_support, need_profile, reading
from .dimensions import STONES, StoneDimensions
from .geometry import RegionGeometry
from .square_tops import SquareLayout, SquareTops, TopFit
from .views import ViewStack

FACES = (labels.FLOWER, labels.VINE)
CLASSES = (labels.EMPTY, *FACES)


def _inner_sides(rows: int, cols: int) -> np.ndarray:
    """(rows, cols, 4) True for the sides (y−, x+, y+, x−) of each cell that have a cell beyond."""
    r, c = np.mgrid[0:rows, 0:cols]
    return np.stack([r > 0, c < cols - 1, r < rows - 1, c > 0], axis=-1)


class ReclamationObserver:
    region = RECLAMATION.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: StoneDimensions = STONES, px_per_cell: int = 30):
        self.profile = profile
        self.dims = dims
        # The view stack only says which sides of each cell face the camera; the faces themselves are
        # sampled sparsely (square_tops), px_per_cell is kept for callers that pass it.
        self.stack = ViewStack(geometry, RECLAMATION, [0.0], 6)
        # A near side hides nothing where no stack can stand beyond it (the board's edge).
        self.near = self.stack.near_sides() & _inner_sides(RECLAMATION.rows, RECLAMATION.cols)
        self.facing = self.stack.facing_sides()
        cell = RECLAMATION.cell_mm
        stone_heights = [h * dims.stone_height_mm for h in range(1, dims.max_stack + 1)]
        self.stones = SquareTops(geometry, RECLAMATION, stone_heights,
                                 SquareLayout.square(cell, dims.stone_mm, 0.6, (0.6, 2.2), 1.5, 1.0), self.near)
        # An empty square: the board between the grid lines, seen on the board plane.
        self.squares = SquareTops(geometry, RECLAMATION, [0.0],
                                  SquareLayout.square(cell, cell - 4.0, 4.0, (0.5, 1.5), 1.5, 1.0), self.near)

    def _measure(self, image: np.ndarray) -> tuple[TopFit, TopFit]:
        """The stone test at heights 1..max (index h − 1) and the empty-square test on the board."""
        return self.stones.fit(image), self.squares.fit(image)

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        stone, square = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                h = attrs["height"]
                vec = square.features[0, r, c] if h == 0 else stone.features[h - 1, r, c]
                samples.setdefault(label, []).append(vec)
        return samples

    def _stone_fits(self, stone, heights: np.ndarray) -> dict[int, np.ndarray]:
        """Fit of a stack top at each height. Stone faces share two colours: an edge shows only
        towards an empty square, on a camera-facing side above a lower neighbour (this stack's own
        side is seen there), or on a far side below a higher neighbour (its side is seen); sides
        towards an equal neighbour or a lower one on the far side are no evidence. Neighbours'
        heights come from the previous pass."""
        padded = np.pad(heights, 1, constant_values=0)
        neighbour = np.stack([padded[:-2, 1:-1], padded[1:-1, 2:], padded[2:, 1:-1], padded[1:-1, :-2]], axis=-1)
        fits = {}
        for h in range(1, self.dims.max_stack + 1):
            use = (neighbour == 0) | (self.facing & (neighbour < h)) | (~self.facing & (neighbour > h))
            ring = np.where(use, stone.sides[h - 1], 0.0).max(axis=-1)
            fits[h] = np.clip(stone.inside[h - 1] - ring, 0.0, 1.0)
        return fits

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        profile = need_profile(self.profile, self.region)
        stone, square = self._measure(image)
        empty = class_support(profile, square.features[0], CLASSES)[labels.EMPTY]
        faces = class_support(profile, stone.features, CLASSES)
        heights = np.zeros((6, 6), int)
        fits = None
        for _ in range(3):
            fits = self._stone_fits(stone, heights)
            scores = np.stack([empty * (0.6 + 0.4 * np.clip(square.score[0], 0, 1))]
                              + [fits[h] * np.maximum(faces[labels.FLOWER][h - 1], faces[labels.VINE][h - 1])
                                 for h in range(1, self.dims.max_stack + 1)], axis=-1)
            new = scores.argmax(axis=-1)
            if np.array_equal(new, heights):
                break
            heights = new
        rows = []
        for r in range(6):
            row = []
            for c in range(6):
                scored = [(float(empty[r, c]) * (0.6 + 0.4 * float(np.clip(square.score[0, r, c], 0, 1))),
                           labels.EMPTY, {"height": 0, "gardener": False})]
                for h in range(1, self.dims.max_stack + 1):
                    for face in FACES:
                        scored.append((float(fits[h][r, c]) * float(faces[face][h - 1, r, c]), face,
                                       {"height": h, "gardener": h == 3}))
                scored.sort(key=lambda s: -s[0])
                row.append(reading(scored[0][1], scored[0][2], scored))
            rows.append(tuple(row))
        return Observation(self.region, 6, 6, tuple(rows), frame_index, timestamp)
