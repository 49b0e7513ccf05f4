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
from .common import need_profile
from .dimensions import QUARRY, QuarryDimensions
from .geometry import RegionGeometry
from .square_tops import SquareLayout, SquareTops, TopFit, readings
from .views import ViewStack

LAYERS = (labels.QUARRY_EMPTY, labels.QUARRY_BASALT, labels.QUARRY_GRANITE, labels.QUARRY_CLAY)


class QuarryObserver:
    region = BABYLON_QUARRY.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: QuarryDimensions = QUARRY, px_per_cell: int = 20):
        self.profile = profile
        self.dims = dims
        # The view stack only says which side of each place faces the camera; the tiles are sampled
        # sparsely (square_tops: points every 2.5 mm, as the 20 px views did), px_per_cell is kept
        # for callers that pass it.
        self.stack = ViewStack(geometry, BABYLON_QUARRY, [0.0], 4)
        self.near = self.stack.near_sides()
        side = BABYLON_QUARRY.cell_mm - 2 * dims.tile_inset_mm
        layout = SquareLayout.square(BABYLON_QUARRY.cell_mm, side, 6.0, (0.6, 2.5), 2.5, 2.5)
        self.tops = SquareTops(geometry, BABYLON_QUARRY, [k * dims.layer_mm for k in range(4)], layout, self.near)

    def _measure(self, image: np.ndarray) -> TopFit:
        return self.tops.fit(image)

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        f = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                samples.setdefault(label, []).append(f.features[attrs["layers"], r, c])
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0,
                previous: Observation | None = None) -> Observation:
        """Read one still frame. `previous` (the last reading, given to every observer alike) is
        not used: this board is read from the frame alone."""
        profile = need_profile(self.profile, self.region)
        f = self._measure(image)
        support = profile.support(f.features, LAYERS)  # (4, 4, 4, classes)
        scores = np.stack([support[k, ..., profile.index(LAYERS[k])] * (0.5 + 0.5 * np.clip(f.score[k], 0, 1))
                           for k in range(4)], axis=-1)
        rows = readings(scores, [(LAYERS[k], {"layers": k}) for k in range(4)])
        return Observation(self.region, 4, 4, tuple(rows), frame_index, timestamp)
