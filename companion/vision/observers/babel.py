"""Babel Builders: the number of cubes on each cell of the 3×3 base card.

A tower is built as 2×2 columns of cubes; each column's height is read by parallax and the count
is the sum of the four heights. A column's top face at height h lands where the level-h mapping
puts it; at h ± 1 its outline moves by 3 to 12 pixels at the benchmark's distances (300–420 mm),
so each height is scored by how well the face's outline shows at that height in the full-resolution
frame (stack_sampling.SquareProbes): just inside each side the face's own colour, just outside
something else. The evidence sides are the column's two outer sides (towards the card) and an
inner side where a neighbouring column of a different height makes the outline visible (see
_read_tower). Colour (the learned profile) only says whether a face is a cube or the card.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BABEL
from ..types import CellReading, Observation
from .common import class_support, confidence, need_profile
from .dimensions import CUBES, CubeDimensions
from .geometry import RegionGeometry
from .stack_sampling import PointSampler, SquareProbes, balance_gains, side_evidence, surface_colour

CARD, CUBE = "card", "cube"
COLUMNS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # TL, TR, BL, BR as signs of (dx, dy) from the centre
_SIDE_NORMALS = np.array([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])  # y−, x+, y+, x−
_EMPTY_WEIGHT = 0.8  # an empty column looks like the card...
_NO_OUTLINE = 0.3  # ...or, where a neighbour hides its footprint, shows no outline at any height


def column_heights(count: int) -> tuple[int, int, int, int]:
    """How a tower of `count` cubes is built layer by layer on its 2×2 footprint (calibration towers
    are built this way; reading does not assume it)."""
    return tuple((count - k + 3) // 4 for k in range(4))  # type: ignore[return-value]


def _outer_sides(column: int) -> tuple[int, int]:
    sx, sy = COLUMNS[column]
    return (0 if sy < 0 else 2), (1 if sx > 0 else 3)


def _inner_sides(column: int) -> dict[int, int]:
    """Inner side → the neighbouring column across it."""
    sx, sy = COLUMNS[column]
    return {(2 if sy < 0 else 0): column ^ 2, (3 if sx > 0 else 1): column ^ 1}


class BabelObserver:
    region = BABEL.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: CubeDimensions = CUBES):
        self.profile = profile
        self.dims = dims
        self.levels = dims.max_column + 1
        q, half = dims.cube_mm, BABEL.cell_mm / 2.0
        squares, centres = [], []
        for r in range(BABEL.rows):
            for c in range(BABEL.cols):
                for sx, sy in COLUMNS:
                    x0 = c * BABEL.cell_mm + (half if sx > 0 else half - q)
                    y0 = r * BABEL.cell_mm + (half if sy > 0 else half - q)
                    squares.append((x0, y0, x0 + q, y0 + q))
                    centres.append((x0 + q / 2, y0 + q / 2))
        self.probes = SquareProbes(geometry, squares, [k * q for k in range(self.levels)])
        # The card around each tower, the white reference for the light at read time.
        ring = [(x, y) for t in (5.0, 14.0, 26.0, 35.0) for x, y in ((t, 4.0), (36.0, t), (40.0 - t, 36.0), (4.0, 40.0 - t))]
        card_points = [(c * BABEL.cell_mm + x, r * BABEL.cell_mm + y, 0.0)
                       for r in range(BABEL.rows) for c in range(BABEL.cols) for x, y in ring]
        self.card = PointSampler(geometry, np.asarray(card_points))
        self.ring_size = len(ring)
        # Which sides of each column face the camera (+1), face away (−1) or neither (0).
        nadir = np.asarray(geometry.nadir_xy(), float)
        towards = nadir[None, :] - np.asarray(centres)
        towards /= np.maximum(np.linalg.norm(towards, axis=1, keepdims=True), 1e-6)
        dots = towards @ _SIDE_NORMALS.T  # (S, 4)
        self.facing = np.where(dots > 0.2, 1, np.where(dots < -0.2, -1, 0)).reshape(3, 3, 4, 4)
        # How much each side's outline moves per level (px): its weight as height evidence.
        moves = np.abs(self.probes.shift_px_per_mm) * q  # (S, K, 4)
        self.weight = np.clip(moves / 3.0, 0.1, 1.0).reshape(3, 3, 4, self.levels, 4)

    def _measure(self, image: np.ndarray, profile: AppearanceProfile | None = None):
        """Interior features and outline evidence per (row, col, column, level). With a profile, the
        light is first balanced on the card around each tower, and the outline is judged against
        the learned cube-top colour (a top half hidden behind a taller column still shows its far
        outline); without one (calibration), against the face's own colour."""
        gains = None
        if profile is not None and CARD in profile.names:
            card_lab = profile.classes[CARD].mean[:3]
            seen = surface_colour(self.card.bgr(image).reshape(9, self.ring_size, 3), card_lab)
            gains = np.repeat(balance_gains(card_lab, seen), 4, axis=0)
        samples = self.probes.sample(image, gains)
        features = samples.interior_features().reshape(3, 3, 4, self.levels, 6)
        if profile is not None and CUBE in profile.names:
            reference = np.broadcast_to(profile.classes[CUBE].mean[:3], (*samples.interior.shape[:2], 3))
        else:
            reference = samples.interior_colour()
        evidence = side_evidence(samples, reference).reshape(3, 3, 4, self.levels, 4)
        return features, evidence

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        features, _ = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                for column, h in enumerate(column_heights(attrs["count"])):
                    samples.setdefault(CUBE if h else CARD, []).append(features[r, c, column, h])
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        profile = need_profile(self.profile, self.region)
        features, evidence = self._measure(image, profile)
        support = class_support(profile, features, (CARD, CUBE))
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                heights, scores = self._read_tower(support[CARD][r, c], support[CUBE][r, c], evidence[r, c], r, c)
                row.append(self._reading(heights, scores))
            rows.append(tuple(row))
        return Observation(self.region, 3, 3, tuple(rows), frame_index, timestamp)

    def _reading(self, heights: list[int], scores: np.ndarray) -> CellReading:
        """The count, its confidence (the least sure column) and the counts the runner-up height of
        the least sure columns would give."""
        total = sum(heights)
        confidences, alternatives = [], {}
        for column, h in enumerate(heights):
            order = np.argsort(scores[column])[::-1]
            best, runner = float(scores[column][order[0]]), float(scores[column][order[1]])
            confidences.append(confidence(best, runner))
            other = total - h + int(order[1])
            alternatives[other] = max(alternatives.get(other, 0.0), float(np.clip(runner, 0.0, 1.0)))
        alts = tuple((labels.CUBES, {"count": n}, s) for n, s in sorted(alternatives.items(), key=lambda kv: -kv[1])
                     if n != total)[:2]
        return CellReading(labels.CUBES, float(min(confidences)), {"count": total}, alts)

    def _read_tower(self, card, cube, evidence, r: int, c: int) -> tuple[list[int], np.ndarray]:
        """Column heights of one tower, scores (4, levels). A height is scored on the column's outer
        sides, and on an inner side where the outline shows: facing the camera above a lower
        neighbour (this column's own side face lies beyond), or facing away below a taller one (the
        neighbour's side face lies beyond). A lower neighbour on the far side shows its own top, the
        same colour, and a taller one on the near side hides the edge: no evidence. Neighbours'
        heights come from the previous pass."""
        heights = [-1] * 4
        scores = np.zeros((4, self.levels))
        for _ in range(3):
            new = []
            for column in range(4):
                facing = self.facing[r, c, column]
                weight = self.weight[r, c, column]  # (levels, 4)
                scores[column, 0] = max(_EMPTY_WEIGHT * float(card[column, 0]), _NO_OUTLINE)
                for h in range(1, self.levels):
                    use = np.zeros(4, bool)
                    use[list(_outer_sides(column))] = True
                    for side, other in _inner_sides(column).items():
                        n = heights[other]
                        if n >= 0 and ((facing[side] > 0 and n < h) or (facing[side] < 0 and n > h)):
                            use[side] = True
                    w = weight[h] * use
                    outline = float((evidence[column, h] * w).sum() / max(w.sum(), 1e-6))
                    scores[column, h] = outline * (0.6 + 0.4 * float(cube[column, h]))
                new.append(int(np.argmax(scores[column])))
            if new == heights:
                break
            heights = new
        return heights, scores
