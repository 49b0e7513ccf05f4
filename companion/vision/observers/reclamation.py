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
from .fit import square_fit
from .geometry import RegionGeometry
from .views import ViewStack

FACES = (labels.FLOWER, labels.VINE)
CLASSES = (labels.EMPTY, *FACES)


class ReclamationObserver:
    region = RECLAMATION.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: StoneDimensions = STONES, px_per_cell: int = 30):
        self.profile = profile
        self.dims = dims
        heights = [h * dims.stone_height_mm for h in range(dims.max_stack + 1)]
        self.stack = ViewStack(geometry, RECLAMATION, heights, px_per_cell)
        self.near = self.stack.near_sides()
        self.facing = self.stack.facing_sides()

    def _measure(self, image: np.ndarray):
        lab = self.stack.sample_lab(image)
        stone = square_fit(self.stack, lab, self.dims.stone_mm, 0.6, (0.6, 2.2), near=self.near)
        # An empty square: the board between the grid lines, seen on the board plane.
        square = square_fit(self.stack, lab[:1], RECLAMATION.cell_mm - 4.0, 4.0, (0.5, 1.5), near=self.near)
        return stone, square

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        stone, square = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                h = attrs["height"]
                vec = square.features[0, r, c] if h == 0 else stone.features[h, r, c]
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
            ring = np.where(use, stone.sides[h], 0.0).max(axis=-1)
            fits[h] = np.clip(stone.inside[h] - ring, 0.0, 1.0)
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
                              + [fits[h] * np.maximum(faces[labels.FLOWER][h], faces[labels.VINE][h])
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
                        scored.append((float(fits[h][r, c]) * float(faces[face][h, r, c]), face,
                                       {"height": h, "gardener": h == 3}))
                scored.sort(key=lambda s: -s[0])
                row.append(reading(scored[0][1], scored[0][2], scored))
            rows.append(tuple(row))
        return Observation(self.region, 6, 6, tuple(rows), frame_index, timestamp)
