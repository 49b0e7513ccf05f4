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
from .common import class_support, need_profile
from .dimensions import CUBES, CubeDimensions
from .geometry import RegionGeometry
from .stack_sampling import (
    PointSampler,
    ProbeSamples,
    SquareProbes,
    along_side,
    balance_gains,
    facing_classes,
    offset_samples,
    outline,
    outline_offsets,
    surface_colour,
    to_lab,
)

CARD, CUBE = "card", "cube"
COLUMNS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # TL, TR, BL, BR as signs of (dx, dy) from the centre
_SIDE_NORMALS = np.array([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])  # y−, x+, y+, x−
_EMPTY_WEIGHT = 0.8  # an empty column looks like the card...
_NO_OUTLINE = 0.3  # ...or shows no outline at any height
_NO_OUTLINE_HIDDEN = 0.15  # (where a taller column in front hides its footprint, less is enough)


def column_heights(count: int) -> tuple[int, int, int, int]:
    """How a tower of `count` cubes is built layer by layer on its 2×2 footprint (calibration towers
    are built this way; reading does not assume it)."""
    return tuple((count - k + 3) // 4 for k in range(4))  # type: ignore[return-value]


def _sides() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column and side (y−, x+, y+, x−): is it an outer side (towards the card), and for an
    inner side the column across it."""
    outer = np.zeros((4, 4), bool)
    neighbour = np.zeros((4, 4), int)
    for column, (sx, sy) in enumerate(COLUMNS):
        outer[column, 0 if sy < 0 else 2] = outer[column, 1 if sx > 0 else 3] = True
        neighbour[column, 2 if sy < 0 else 0] = column ^ 2
        neighbour[column, 3 if sx > 0 else 1] = column ^ 1
    return outer, neighbour, ~outer


_OUTER_SIDES, _NEIGHBOUR, _NEIGHBOUR_VALID = _sides()
_OUTER = _OUTER_SIDES[None, None, :, None, :]  # broadcast over (row, col, column, level, side)


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
        self.probes = _BabelProbes(geometry, squares, [k * q for k in range(self.levels)])
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
        # Where each column's top lies in the frame at each height, and how wide it looks there.
        tops = np.concatenate([np.repeat(np.asarray(centres)[:, None, :], self.levels, axis=1),
                               np.broadcast_to((np.arange(self.levels) * q)[None, :, None], (len(centres), self.levels, 1))],
                              axis=-1)
        self.top_pixels = geometry.to_pixels(tops.reshape(-1, 3)).reshape(len(centres), self.levels, 2)
        self.top_px = self.probes.px_per_mm.mean(axis=(2, 3)) * q
        # How much each side's outline moves per level (px): its weight as height evidence.
        moves = np.abs(self.probes.shift_px_per_mm) * q  # (S, K, 4)
        self.weight = np.clip(moves / 3.0, 0.1, 1.0).reshape(3, 3, 4, self.levels, 4)

    def _measure(self, image: np.ndarray, profile: AppearanceProfile | None = None):
        """Interior features and outlines per (row, col, column, level). With a profile, the light
        is first balanced on the card around each tower, and the outline is judged against the
        learned cube-top colour (a top half hidden behind a taller column still shows its far
        outline); without one (calibration), against the face's own colour."""
        samples = self.probes.sample(image, self._gains(image, profile))
        features = samples.interior_features().reshape(3, 3, 4, self.levels, 6)
        return features, outline(samples, self._reference(samples, profile))

    def _gains(self, image: np.ndarray, profile: AppearanceProfile | None) -> np.ndarray | None:
        """(squares, 3) BGR gains that bring the card around each tower back to its calibrated colour."""
        if profile is None or CARD not in profile.names:
            return None
        card_lab = profile.classes[CARD].mean[:3]
        seen = surface_colour(self.card.bgr(image).reshape(9, self.ring_size, 3), card_lab)
        return np.repeat(balance_gains(card_lab, seen), 4, axis=0)

    @staticmethod
    def _reference(samples: ProbeSamples, profile: AppearanceProfile | None) -> np.ndarray:
        """(S, K, 3) the colour whose outline is looked for: the learned cube top, else the face's own."""
        if profile is not None and CUBE in profile.names:
            return np.broadcast_to(profile.classes[CUBE].mean[:3], (*samples.interior.shape[:2], 3))
        return samples.interior_colour()

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        """Card and cube colours, and where this camera draws a top's outline on the near, far and
        oblique sides (stack_sampling.offset_samples)."""
        features, lines = self._measure(image)
        kinds = facing_classes(self.facing)
        crossing = np.median(lines.crossing, axis=-1).reshape(3, 3, 4, self.levels, 4)
        step = np.median(lines.step, axis=-1).reshape(3, 3, 4, self.levels, 4)
        samples: dict[str, list[np.ndarray]] = {}
        crossings: dict[int, list[float]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                for column, h in enumerate(column_heights(attrs["count"])):
                    samples.setdefault(CUBE if h else CARD, []).append(features[r, c, column, h])
                    for side in np.flatnonzero(_OUTER_SIDES[column]) if h else ():
                        if step[r, c, column, h, side] > 10.0 and abs(crossing[r, c, column, h, side]) < 2.0:
                            crossings.setdefault(int(kinds[r, c, column, side]), []).append(
                                float(crossing[r, c, column, h, side]))
        samples.update(offset_samples(crossings))
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0,
                previous: Observation | None = None) -> Observation:
        """Read one still frame. `previous` (the last reading, given to every observer alike) is
        not used: this board is read from the frame alone."""
        profile = need_profile(self.profile, self.region)
        samples = self.probes.sample(image, self._gains(image, profile))
        features = _robust_features(samples.interior).reshape(3, 3, 4, self.levels, 6)
        expected = self.offsets_for(profile)[:, :, :, None, :]
        evidence = _outline_evidence(samples, self._reference(samples, profile),
                                     np.broadcast_to(expected, (3, 3, 4, self.levels, 4)).reshape(-1, self.levels, 4))
        evidence = evidence.reshape(3, 3, 4, self.levels, 4)
        support = class_support(profile, features, (CARD, CUBE))
        heights, scores = self._read_towers(support[CARD], support[CUBE], evidence)
        # Per column: the best and the runner-up height; a cell is as sure as its least sure column.
        order = np.argsort(-scores, axis=-1)[..., :2]
        top = np.take_along_axis(scores, order, axis=-1)
        margin = np.maximum(top[..., 0] - top[..., 1], 0.0)
        sure = np.clip(top[..., 0], 0.0, 1.0) * (1.0 - np.exp(-margin / 0.15))  # common.confidence
        # Python numbers from here on (9 cells: numpy's per-call cost would dominate).
        totals = heights.sum(axis=-1).tolist()
        least_sure = np.argsort(sure, axis=-1)[..., :2].tolist()  # the two least sure columns
        cell_sure = sure.min(axis=-1).tolist()
        heights_list, runner_up = heights.tolist(), order[..., 1].tolist()
        runner_score = np.clip(top[..., 1], 0.0, 1.0).tolist()
        rows = []
        for r in range(3):
            row = []
            for c in range(3):
                total = totals[r][c]
                alternatives: dict[int, float] = {}
                for column in least_sure[r][c]:
                    other = total - heights_list[r][c][column] + runner_up[r][c][column]
                    if other != total:
                        alternatives[other] = max(alternatives.get(other, 0.0), runner_score[r][c][column])
                alts = tuple((labels.CUBES, {"count": n}, a) for n, a in sorted(alternatives.items(), key=lambda kv: -kv[1]))
                row.append(CellReading(labels.CUBES, cell_sure[r][c], {"count": total}, alts))
            rows.append(tuple(row))
        return Observation(self.region, 3, 3, tuple(rows), frame_index, timestamp)

    def offsets_for(self, profile: AppearanceProfile | None) -> np.ndarray:
        """(3, 3, 4, 4) where this camera's outlines cross, per column side, from the profile."""
        return outline_offsets(profile, self.facing)

    def _read_towers(self, card, cube, evidence) -> tuple[np.ndarray, np.ndarray]:
        """Column heights (3, 3, 4) and their scores (3, 3, 4, levels). A height is scored on the
        column's outer sides, and on an inner side where the outline shows: facing the camera above
        a lower neighbour (this column's own side face lies beyond), or facing away below a taller
        one (the neighbour's side face lies beyond). A lower neighbour on the far side shows its own
        top, the same colour, and a taller one on the near side hides the edge: no evidence.
        Neighbours' heights come from the previous pass.

        A column h cubes tall fills the space below its top: where its top would lie at any lower
        level (above the card) the frame shows the column itself, or something in front of it, but
        never the bare card. Card seen there rules the height out (a top read on another tower's
        face further along the same ray, with the card in between)."""
        level = np.arange(self.levels)[None, None, None, :, None]
        facing = self.facing[:, :, :, None, :]
        body_clear = np.ones(card.shape)  # per height: 1 − the most card seen below it, above level 0
        body_clear[..., 2:] = 1.0 - np.maximum.accumulate(card[..., 1:-1], axis=-1)
        scores = np.zeros((3, 3, 4, self.levels))
        scores[..., 0] = np.maximum(_EMPTY_WEIGHT * card[..., 0], _NO_OUTLINE)
        heights = None
        for _ in range(3):
            use = np.broadcast_to(_OUTER, evidence.shape).copy()
            if heights is not None:
                across = heights[:, :, _NEIGHBOUR][..., None, :]  # (3, 3, 4, 1, 4) height beyond each side
                inner = _NEIGHBOUR_VALID[None, None, :, None, :]
                use |= inner & (((facing > 0) & (across < level)) | ((facing < 0) & (across > level)))
                # A taller column between this one's footprint and the camera hides the card
                # there: "empty" then rests only on no outline showing.
                hidden = (_NEIGHBOUR_VALID[None, None] & (self.facing > 0) & (across[..., 0, :] > 0)).any(axis=-1)
                scores[..., 0] = np.maximum(_EMPTY_WEIGHT * card[..., 0], np.where(hidden, _NO_OUTLINE_HIDDEN, _NO_OUTLINE))
            w = self.weight * use
            outline = (evidence * w).sum(axis=-1) / np.maximum(w.sum(axis=-1), 1e-6)
            scores[..., 1:] = outline[..., 1:] * (0.6 + 0.4 * cube[..., 1:]) * body_clear[..., 1:]
            scores = np.where(self._one_top_per_place(scores), scores, -1.0)
            new = scores.argmax(axis=-1)
            if heights is not None and np.array_equal(new, heights):
                break
            heights = new
        return heights, np.maximum(scores, 0.0)

    def _one_top_per_place(self, scores: np.ndarray) -> np.ndarray:
        """(3, 3, 4, levels) False for a column top that would land in the frame right where a
        column of another tower has its top read: a square at another place and height seen along
        the same ray looks just the same, and two tops cannot both be seen in one place. The better
        outline keeps it."""
        best = scores.argmax(axis=-1).reshape(-1)
        flat = scores.reshape(len(best), -1)
        ok = np.ones(flat.shape, bool)
        raised = np.flatnonzero(best > 0)
        if len(raised) < 2:
            return ok.reshape(scores.shape)
        raised = raised[np.argsort(-flat[raised, best[raised]])]
        where = self.top_pixels[raised, best[raised]]
        near = np.linalg.norm(where[:, None, :] - where[None, :, :], axis=-1) < 0.3 * self.top_px[raised, best[raised]]
        near &= (raised[:, None] // 4) != (raised[None, :] // 4)  # columns of one tower stand side by side
        kept = np.ones(len(raised), bool)
        for n in np.flatnonzero(near.any(axis=1)):
            if (near[n, :n] & kept[:n]).any():
                kept[n] = False
                ok[raised[n], best[raised[n]]] = False
        return ok.reshape(scores.shape)


class _BabelProbes(SquareProbes):
    """SquareProbes with a cheaper white balance: the same numbers (checked in
    tests/vision/test_babel_fast_read.py), the per-square gains applied channel by channel (numpy's
    broadcast over a last axis of 3 costs more than the Lab conversion itself)."""

    def sample(self, image: np.ndarray, gains: np.ndarray | None = None) -> ProbeSamples:
        raw = self._points.raw(image)
        s_count = self._shapes[0][0]
        scale = np.full((s_count, 3), 1.0 / 255.0, np.float32)
        if gains is not None:
            scale = scale * np.asarray(gains, np.float32)
        parts = []
        for part, shape in ((raw[: self._interior_count], self._shapes[0]), (raw[self._interior_count :], self._shapes[1])):
            scaled = part.reshape(s_count, -1, 3).astype(np.float32)
            for channel in range(3):
                scaled[:, :, channel] *= scale[:, None, channel]
            parts.append(to_lab(scaled).reshape(shape))
        return ProbeSamples(parts[0], parts[1], self.across_px)


def _robust_features(grid: np.ndarray) -> np.ndarray:
    """stack_sampling.robust_features for an odd number of samples per face: the median is then
    the middle sample, which np.partition finds without np.median's overhead (same numbers)."""
    middle = grid.shape[-2] // 2
    centre = np.partition(grid, middle, axis=-2)[..., middle, :]
    spread = 1.4826 * np.partition(np.abs(grid - centre[..., None, :]), middle, axis=-2)[..., middle, :]
    return np.concatenate([centre, spread], axis=-1)


def _outline_evidence(samples: ProbeSamples, reference: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """stack_sampling.outline(samples, reference).evidence(expected) in one pass, for observe()
    (same numbers, fewer temporaries: indexing instead of take_along_axis, no seam measure)."""
    across = samples.across
    reference = np.asarray(reference, np.float32)
    squared = None
    for channel in range(3):  # channel by channel: a broadcast over a last axis of 3 is slow
        d = across[..., channel] - reference[:, :, None, None, None, channel]
        d *= d
        squared = d if squared is None else squared + d
    p = np.sqrt(squared)  # (S, K, 4, P, O) colour distance to the face
    count = p.shape[-1]
    flat = p.reshape(-1, count)
    lo, hi = flat[:, 0], flat[:, -1]
    half = 0.5 * (lo + hi)
    first = np.clip(np.argmax(flat >= half[:, None], axis=-1), 1, count - 1)
    rows = np.arange(len(flat))
    before, after = flat[rows, first - 1], flat[rows, first]
    frac = np.clip((half - before) / np.maximum(after - before, 1e-6), 0.0, 1.0)
    offsets = np.asarray(samples.offsets, np.float32)
    crossing = offsets[first - 1] + frac * (offsets[first] - offsets[first - 1])
    shape = p.shape[:-1]
    off = crossing.reshape(shape) - np.asarray(expected, np.float32)[..., None]
    # Outline.evidence with its defaults: step_scale 10, like_scale 15, sharpness 1.2 px, noise 3.
    score = (np.minimum(np.maximum((hi - lo) - 3.0, 0.0) * 0.1, 1.0).reshape(shape)
             * np.exp(-((lo.reshape(shape) / 15.0) ** 2)) * np.exp(-((off / 1.2) ** 2)))
    return along_side(score)
