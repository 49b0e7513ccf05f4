"""Babylon quarry: at each of the 4×4 places, the material of the top tile (or the bottom).

The layers are stacked in a known order (basalt at the bottom, granite, clay on top:
babylon.setup.quarry), so the material says the height; each class is read on the view at its
own height, and the tile's outline must fit there.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BABYLON_QUARRY
from ..types import Observation
from .common import class_support, need_profile, reading
from .dimensions import QUARRY, QuarryDimensions
from .fit import square_fit
from .geometry import RegionGeometry
from .views import ViewStack

LAYERS = (labels.QUARRY_EMPTY, labels.QUARRY_BASALT, labels.QUARRY_GRANITE, labels.QUARRY_CLAY)


class QuarryObserver:
    region = BABYLON_QUARRY.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: QuarryDimensions = QUARRY, px_per_cell: int = 20):
        self.profile = profile
        self.dims = dims
        self.stack = ViewStack(geometry, BABYLON_QUARRY, [k * dims.layer_mm for k in range(4)], px_per_cell)
        self.near = self.stack.near_sides()

    def _measure(self, image: np.ndarray):
        lab = self.stack.sample_lab(image)
        side = BABYLON_QUARRY.cell_mm - 2 * self.dims.tile_inset_mm
        return square_fit(self.stack, lab, side, 6.0, (0.6, 2.5), near=self.near)

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        f = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                samples.setdefault(label, []).append(f.features[attrs["layers"], r, c])
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        profile = need_profile(self.profile, self.region)
        f = self._measure(image)
        support = [class_support(profile, f.features[k], LAYERS)[LAYERS[k]] for k in range(4)]
        rows = []
        for r in range(4):
            row = []
            for c in range(4):
                scored = sorted(
                    ((float(support[k][r, c] * (0.5 + 0.5 * np.clip(f.score[k, r, c], 0, 1))), LAYERS[k], {"layers": k})
                     for k in range(4)),
                    key=lambda s: -s[0],
                )
                row.append(reading(scored[0][1], scored[0][2], scored))
            rows.append(tuple(row))
        return Observation(self.region, 4, 4, tuple(rows), frame_index, timestamp)
