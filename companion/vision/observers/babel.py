"""Babel Builders: the number of cubes on each cell of the 3×3 base card.

A tower is built as 2×2 columns of cubes; each column's height is read by parallax (its top face
must fit the view at its height, judged on the column's two outer sides, which face the card or
the neighbouring cell), and the count is the sum of the four heights.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BABEL
from ..types import CellReading, Observation
from .common import class_support, confidence, need_profile
from .dimensions import CUBES, CubeDimensions
from .fit import Tagged, fit, frame_rects, ring_rects
from .geometry import RegionGeometry
from .views import ViewStack

CARD, CUBE = "card", "cube"
COLUMNS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # TL, TR, BL, BR as signs of (dx, dy) from the centre


def column_heights(count: int) -> tuple[int, int, int, int]:
    """How a tower of `count` cubes is built layer by layer on its 2×2 footprint (calibration towers
    are built this way; reading does not assume it)."""
    return tuple((count - k + 3) // 4 for k in range(4))  # type: ignore[return-value]


class BabelObserver:
    region = BABEL.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: CubeDimensions = CUBES, px_per_cell: int = 32):
        self.profile = profile
        self.dims = dims
        heights = [k * dims.cube_mm for k in range(dims.max_column + 1)]
        self.stack = ViewStack(geometry, BABEL, heights, px_per_cell, margin_cells=0.25)
        self.near = self.stack.near_sides()

    def _column_rects(self, column: int) -> tuple[list[Tagged], list[Tagged], tuple[float, float]]:
        q, c = self.dims.cube_mm, BABEL.cell_mm / 2.0
        sx, sy = COLUMNS[column]
        x0 = c if sx > 0 else c - q
        y0 = c if sy > 0 else c - q
        square = (x0, y0, x0 + q, y0 + q)
        core = (x0 + 0.7, y0 + 0.7, x0 + q - 0.7, y0 + q - 0.7)
        inside = [(r, i) for i, r in enumerate(frame_rects(core, 0.0, 2.0))]
        inside.append(((core[0] + 2.0, core[1] + 2.0, core[2] - 2.0, core[3] - 2.0), -1))
        ring = [(r, i) for i, r in enumerate(ring_rects(square, 0.6, 2.0))]
        return inside, ring, (x0 + q / 2, y0 + q / 2)

    def _measure(self, image: np.ndarray):
        lab = self.stack.sample_lab(image)
        fits = []
        for column in range(4):
            inside, ring, centre = self._column_rects(column)
            fits.append(fit(self.stack, lab, inside, ring, centre=centre))
        return fits

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        fits = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                for column, h in enumerate(column_heights(attrs["count"])):
                    name = CUBE if h else CARD
                    samples.setdefault(name, []).append(fits[column].features[h, r, c])
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        profile = need_profile(self.profile, self.region)
        fits = self._measure(image)
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                heights, confidences = self._read_tower(profile, fits, r, c)
                total = sum(heights)
                alternatives = ((labels.CUBES, {"count": total + 1}, 0.0), (labels.CUBES, {"count": max(0, total - 1)}, 0.0))
                row.append(CellReading(labels.CUBES, float(min(confidences)), {"count": total}, alternatives))
            rows.append(tuple(row))
        return Observation(self.region, 3, 3, tuple(rows), frame_index, timestamp)

    def _read_tower(self, profile, fits, r: int, c: int) -> tuple[list[int], list[float]]:
        """Column heights of one tower. A column's top is judged on its outer sides, and on the
        inner side facing the camera when the neighbour there is lower: the camera then sees this
        column's side face beyond the edge. (A lower neighbour on the far side shows its own top,
        the same colour: no evidence.) Neighbours' heights come from the previous pass."""
        facing = [int(i) for i in np.flatnonzero(self.near[r, c])]
        card = [class_support(profile, f.features[0, r, c], (CARD, CUBE))[CARD] for f in fits]
        cube = [class_support(profile, f.features[:, r, c], (CARD, CUBE))[CUBE] for f in fits]
        heights = [-1] * 4
        confidences = [0.0] * 4
        for _ in range(3):
            new = []
            for column, f in enumerate(fits):
                sx, sy = COLUMNS[column]
                outer = [0 if sy < 0 else 2, 1 if sx > 0 else 3]
                inner = {2 if sy < 0 else 0: column ^ 2, 3 if sx > 0 else 1: column ^ 1}  # side -> neighbour
                scores = [0.8 * float(card[column])]
                for h in range(1, f.score.shape[0]):
                    sides = outer + [side for side, other in inner.items()
                                     if side in facing and 0 <= heights[other] < h]
                    ring = float(f.sides[h, r, c, sides].max())
                    fit_h = float(np.clip(f.inside[h, r, c] - ring, 0.0, 1.0))
                    scores.append(fit_h * float(cube[column][h]))
                order = np.argsort(scores)[::-1]
                new.append(int(order[0]))
                confidences[column] = confidence(scores[order[0]], scores[order[1]])
            if new == heights:
                break
            heights = new
        return heights, confidences
