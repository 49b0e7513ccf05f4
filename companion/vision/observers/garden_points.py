"""The garden's measurements from the points they look at, sampled in one remap per frame.

The same tests as fit.py on rectified views (a top face at the right height lies on its footprint:
its inside is one colour, a thin ring just outside it is something else), but instead of warping
16 whole-board views per frame only the points the tests read are sampled: each probe (a face's
inside and ring, an icon's middle, a flower corner, an edge strip) is a small grid of points per
cell and height. The point → pixel maps and each probe's index arrays are built once per geometry;
a frame costs one area-downscale of the part of the frame round the board, one cv2.remap of those
points, one Lab conversion of the samples, and per probe one compiled pass over its points
(garden_kernels_measure.py: a face's like points, shares and features, patches' mean and spread;
a face's majority colour found on the samples' 8-bit codes), the same numbers as numpy's calls.
Those passes run 64 rows side by side (garden_kernels_lanes.py, on int32 index blocks laid out
once per geometry: _blocked), the row-by-row kernels' numbers bit for bit; a face whose inside is
its median's points finds its majority colour in its own pass (face_scores_coloured).

Only as many points as the tests need: ring bands at the fine pitch across and every 2.5 mm along,
a face's inside share measured on the points its median is taken from, tile spaces' bands every
3.5 mm along; a point several probes read is sampled once, a patch two tests share is measured
once, and the four tile positions' tests are judged as one array. About 94 000 points per frame
(175 000 at the start of the fourth sitting); a read's measurement went from ~12.6 to ~6.0 ms CPU
in the fourth sitting, ~5.0 by the fifth's end and ~3.5 with the compiled passes of the sixth
(sampling stays ~1.3 ms: OpenCV's area downscale, remap and Lab conversion; loaded 2-core machine).

A cell whose near side faces the camera keeps only the far half of its face (fit._clip_far): its
probe has fewer points than others. Arrays are padded to one size with two sentinel samples, +inf
and −inf in turn, so a padded face's median is its own (as many values above as below) and a
sentinel is never "like" any colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..boards import BoardSpec
from .fit import Fit, Tagged, _clip_far
from .garden_kernels_lanes import (
    blocked,
    code_medians_lanes,
    face_scores_blocked,
    face_scores_coloured,
    patch_stats_blocked,
)
from .garden_kernels_measure import (
    LAB_VALUES,
    code_medians,
    lab_samples,
    value_codes,
)
from .geometry import RegionGeometry
from .square_tops import SIDE_BITS, board_pixels

POS_INF, NEG_INF = -2, -1  # sentinel indices: the last two rows of a frame's samples
_MAP_ROW = 32000  # remap wants maps under 32767 px on a side


def grid_points(rect: tuple[float, float, float, float], pitch: float, pitch_y: float | None = None) -> np.ndarray:
    """(n, 2) points (x, y) in mm covering a rect, one per pitch-sized patch (pitch_y along y if
    given), centred in it."""
    x0, y0, x1, y1 = rect
    nx, ny = max(1, int(round((x1 - x0) / pitch))), max(1, int(round((y1 - y0) / (pitch_y or pitch))))
    xs = x0 + (np.arange(nx) + 0.5) * (x1 - x0) / nx
    ys = y0 + (np.arange(ny) + 0.5) * (y1 - y0) / ny
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel()], axis=-1)


def lattice_points(rect: tuple[float, float, float, float], pitch: float) -> np.ndarray:
    """(n, 2) points of the cell's lattice (every `pitch` mm, the first half a pitch from the cell's
    corner) inside a rect; a rect narrower than the lattice gets grid_points instead. On one
    lattice the halves of a face keep their share of the points however the face is clipped."""
    x0, y0, x1, y1 = rect
    xs = (np.arange(np.ceil(x0 / pitch - 0.5), np.ceil(x1 / pitch - 0.5)) + 0.5) * pitch
    ys = (np.arange(np.ceil(y0 / pitch - 0.5), np.ceil(y1 / pitch - 0.5)) + 0.5) * pitch
    if not len(xs) or not len(ys):
        return grid_points(rect, pitch)
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx.ravel(), gy.ravel()], axis=-1)


def band_points(rect: tuple[float, float, float, float], fine: float, coarse: float) -> np.ndarray:
    """grid_points of a band: `fine` across it (where an edge may cross), `coarse` along it."""
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    return grid_points(rect, fine if w < h else coarse, fine if h <= w else coarse)


def with_level(a: np.ndarray, value: float) -> np.ndarray:
    """Measurements of levels 1..m → levels 0..m, level 0 filled with `value` (what is never at
    level 0: a pillar top or a tile space on the board itself)."""
    return np.concatenate([np.full_like(a[:1], value), a])


def pad_indices(lists: list[np.ndarray], alternate: bool) -> np.ndarray:
    """Index lists of unequal length → one (n, P) array padded with sentinels (+inf and −inf in
    turn if `alternate`, else +inf). With `alternate` P is odd: its middle value is the median."""
    width = max(1, max(len(x) for x in lists))
    if alternate:
        width += 1 - width % 2
    out = np.full((len(lists), width), POS_INF, np.int64)
    for i, x in enumerate(lists):
        out[i, : len(x)] = x
        if alternate:
            out[i, len(x) + 1 :: 2] = NEG_INF
    return out


@dataclass(frozen=True)
class FaceProbe:
    """Index arrays of one face test at K heights over the board's cells (RC = rows·cols)."""

    inside: np.ndarray  # (K, RC, P) the face's inside points, the first M its median is taken from
    inside_n: np.ndarray  # (RC,) how many of them are real
    median_width: int  # M (odd)
    ring: np.ndarray  # (K, RC, S, Q) per ring side the points just outside it
    ring_n: np.ndarray  # (RC, S) how many of them are real
    sides: tuple[int, ...]  # the S ring sides (0 y−, 1 x+, 2 y+, 3 x−)
    both: np.ndarray  # (K, RC, P + S·Q) inside and ring together: one gather per frame
    side_of: np.ndarray  # (RC, S) per cell its ring sides (the same for all: the kernel's layout)
    median: np.ndarray  # (K, RC, M) the median's points (inside[..., :M], contiguous: one gather)


@dataclass(frozen=True)
class FaceStack:
    """Several face tests at the same K heights, gathered and judged as one (their shape scores
    only): each probe's cells in turn, its inside and ring padded to common widths."""

    both: np.ndarray  # (K, n·RC, W + S·Q) inside (its median's points, W odd), then the ring
    width: int  # W
    inside_n: np.ndarray  # (n·RC,)
    ring_n: np.ndarray  # (n·RC, S)
    sides: tuple[tuple[int, ...], ...]  # per probe its S ring sides
    side_of: np.ndarray  # (n·RC, S) per row its probe's ring sides
    median: np.ndarray  # (K, n·RC, W) the insides (both[..., :W], contiguous: one gather)


class GardenSampler:
    """Collects probes (points per cell at given heights), then samples them all per frame."""

    def __init__(self, geometry: RegionGeometry, spec: BoardSpec, pitch_mm: float, near: np.ndarray):
        self.geometry, self.spec, self.pitch = geometry, spec, float(pitch_mm)
        self.near = near  # (rows, cols, 4) the sides facing the camera (views.near_sides)
        self.cells = spec.rows * spec.cols
        self._chunks: list[np.ndarray] = []
        self._indices: list[np.ndarray] = []  # every index array handed out, renumbered by build()
        self.size = 0
        self.downscale = 1
        self.map_x = self.map_y = None
        self.origin = (0, 0)  # the maps' (x, y) origin in the (downscaled) frame: the points' bounding box
        self.extent = (1 << 30, 1 << 30)
        self._coded = self._codes = None  # the last samples and their codes (sample())
        self._blocks: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # per index array: it and its blocked() rows

    # --- set-up ----------------------------------------------------------------------------------
    def set_downscale(self, heights: Sequence[float]) -> None:
        """Sample an area-averaged copy of the frame when a sampling pitch spans several pixels
        (thin lines are neither missed nor aliased), as views.ViewStack does."""
        centres = np.array([[x, y] for y in (0.25, 0.5, 0.75) for x in (0.25, 0.5, 0.75)]) * self.spec.cols * self.spec.cell_mm
        steps = []
        for z in heights:
            a = np.column_stack([centres, np.full(len(centres), z)])
            b = a + [self.pitch, 0.0, 0.0]
            steps.extend(np.linalg.norm(self.geometry.to_pixels(b) - self.geometry.to_pixels(a), axis=1))
        self.downscale = int(np.clip(np.floor(np.median(steps)), 1, 4))

    def _add(self, heights: Sequence[float], points: list[np.ndarray]) -> list[np.ndarray]:
        """Points per cell (each (n_i, 2) mm from the cell's corner) at every height → per cell an
        index array (K, n_i) into the frame's samples."""
        counts = [len(p) for p in points]
        width = max(1, max(counts))
        padded = np.zeros((self.cells, width, 2))
        for i, p in enumerate(points):
            padded[i, : len(p)] = p
        pixels = board_pixels(self.geometry, self.spec, heights, padded).reshape(len(heights), self.cells, width, 2)
        out = []
        for i, n in enumerate(counts):
            chunk = pixels[:, i, :n].reshape(-1, 2)
            out.append(self.size + np.arange(len(chunk)).reshape(len(heights), n))
            self._chunks.append(chunk)
            self.size += len(chunk)
        return out

    def patch(self, heights: Sequence[float], rect: tuple[float, float, float, float]) -> np.ndarray:
        """A small patch at the same place in every cell: (K, RC, n) indices, n points row-major
        (grid_points' order: x fastest)."""
        points = grid_points(rect, self.pitch)
        return self._keep(np.stack(self._add(heights, [points] * self.cells), axis=1))

    def patches(self, heights: Sequence[float], rects: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
        """Several patches of as many points each: (K, RC, len(rects), n) indices."""
        points = [grid_points(rect, self.pitch) for rect in rects]
        if len({len(p) for p in points}) != 1:
            raise ValueError("patches sampled together need as many points each")
        k, n = len(heights), len(points[0])
        idx = np.stack(self._add(heights, [np.concatenate(points)] * self.cells), axis=1)
        return self._keep(idx.reshape(k, self.cells, len(rects), n))

    def patch_shape(self, rect: tuple[float, float, float, float]) -> tuple[int, int]:
        """(rows, cols) of the grid patch() lays over a rect."""
        x0, y0, x1, y1 = rect
        return max(1, int(round((y1 - y0) / self.pitch))), max(1, int(round((x1 - x0) / self.pitch)))

    def face(self, heights: Sequence[float], inside: Sequence[Tagged], ring: Sequence[Tagged],
             median_step: int = 1, inside_pitch: float | None = None, bands: bool = False,
             ring_pitch: float | None = None, median_only: bool = False) -> FaceProbe:
        """A face test like fit.fit (span 1): `inside` rects and `ring` rects tagged by side; a cell's
        near sides are left out and the rest clipped to its far half, as fit.fit does. The inside
        may be sampled more sparsely than the thin ring bands: on a lattice every `inside_pitch`
        mm, or with `bands`, every `inside_pitch` along each rect and at the fine pitch across it
        (rects that straddle an edge, whose position across them matters). Ring bands are sampled
        at the fine pitch across them and every `ring_pitch` mm along them (default: the fine pitch).
        With `median_only` the inside is only the points its median is taken from (every
        `median_step`-th): the same majority colour, its share estimated from half the points."""
        inside_pitch = inside_pitch or self.pitch
        if bands:
            points = lambda rect: band_points(rect, self.pitch, inside_pitch)  # noqa: E731
        else:
            points = lambda rect: lattice_points(rect, inside_pitch)  # noqa: E731
        codes = (self.near.reshape(self.cells, 4) * SIDE_BITS).sum(axis=-1)
        centre = (self.spec.cell_mm / 2.0,) * 2
        inside_pts, ring_pts, ring_side = [], [], []
        for code in codes:
            sides = [i for i in range(4) if code & (1 << i)]
            inner = _clip_far(inside, sides, centre)
            inside_pts.append(np.concatenate([points(r) for r, _ in inner]) if inner else np.zeros((0, 2)))
            outer = _clip_far(ring, sides, centre)
            pts = [band_points(r, self.pitch, ring_pitch or self.pitch) for r, _ in outer]
            ring_pts.append(np.concatenate(pts) if pts else np.zeros((0, 2)))
            ring_side.append(np.concatenate([np.full(len(p), s) for p, (_, s) in zip(pts, outer, strict=True)])
                             if pts else np.zeros(0, int))
        if any(s < 0 for _, s in ring):
            raise ValueError("ring rects belong to one side each")
        k = len(heights)
        step = max(1, int(median_step))
        if median_only:
            inside_pts, step = [p[::step] for p in inside_pts], 1
        inside_idx = self._add(heights, inside_pts)
        ring_idx = self._add(heights, ring_pts)
        # The points the majority colour is taken from first (every step-th), then the others.
        median = np.stack([pad_indices([idx[j][::step] for idx in inside_idx], True) for j in range(k)])
        if median_only:  # no other inside points (not even a column of sentinels: one less to gather)
            inside = median
        else:
            rest = np.stack([pad_indices([np.delete(idx[j], np.s_[::step]) for idx in inside_idx], False)
                             for j in range(k)])
            inside = np.concatenate([median, rest], axis=-1)
        sides = tuple(sorted({s for _, s in ring}))
        per_side = [[idx[:, side == s] for idx, side in zip(ring_idx, ring_side, strict=True)] for s in sides]
        width = max(1, max(x.shape[1] for lists in per_side for x in lists))
        ring_arr = np.full((k, self.cells, len(sides), width), POS_INF, np.int64)
        ring_n = np.zeros((self.cells, len(sides)), np.int64)
        for j, lists in enumerate(per_side):
            for i, x in enumerate(lists):
                ring_arr[:, i, j, : x.shape[1]] = x
                ring_n[i, j] = x.shape[1]
        both = np.concatenate([inside, ring_arr.reshape(k, self.cells, -1)], axis=-1)
        return FaceProbe(self._keep(inside), np.array([len(p) for p in inside_pts]), median.shape[-1],
                         self._keep(ring_arr), ring_n, sides, self._keep(both),
                         np.tile(np.array(sides, np.int64), (self.cells, 1)),
                         self._keep(inside[..., : median.shape[-1]].copy()))  # (a copy: renumbered once)

    def stack(self, probes: Sequence[FaceProbe]) -> FaceStack:
        """Probes of the same heights and ring sides count, each measured on its median's points
        only (face(median_only=True)), as one FaceStack. Padding an inside by pairs of +inf and
        −inf keeps its median, a ring by +inf keeps its shares: scores() gives each probe's
        fit().score exactly."""
        if any((p.inside[..., p.median_width :] >= 0).any() for p in probes) or len({len(p.sides) for p in probes}) != 1:
            raise ValueError("stacked faces are measured on their median's points, with as many ring sides each")
        width = max(p.median_width for p in probes)
        q = max(p.ring.shape[-1] for p in probes)
        k = probes[0].inside.shape[0]
        parts = []
        for p in probes:
            inside = np.full((*p.inside.shape[:2], width), POS_INF, np.int64)
            inside[..., : p.median_width] = p.inside[..., : p.median_width]  # (the rest: sentinels only)
            inside[..., p.median_width + 1 :: 2] = NEG_INF  # the added columns: −inf, +inf, … in turn
            ring = np.full((*p.ring.shape[:3], q), POS_INF, np.int64)
            ring[..., : p.ring.shape[-1]] = p.ring
            parts.append(np.concatenate([inside, ring.reshape(k, self.cells, -1)], axis=-1))
        both = np.concatenate(parts, axis=1)
        return FaceStack(self._keep(both), width,
                         np.concatenate([p.inside_n for p in probes]), np.concatenate([p.ring_n for p in probes]),
                         tuple(p.sides for p in probes), np.concatenate([p.side_of for p in probes]),
                         self._keep(both[..., :width].copy()))

    def scores(self, lab: np.ndarray, stack: FaceStack, tau: tuple[float, float] = (5.0, 12.0)) -> np.ndarray:
        """(K, rows, cols, n): fit(lab, probe).score of each stacked probe, in one pass."""
        args = (stack.both, self._blocked(stack.both), stack.width, stack.ring_n, stack.side_of, stack.inside_n,
                tau[0], tau[1], False)
        both = face_scores_coloured(lab, LAB_VALUES, *args) if lab is self._coded else None
        score = both[1] if both is not None else face_scores_blocked(lab, self._median(lab, stack.median), *args)[0]
        k, n = score.shape[0], len(stack.sides)
        return np.moveaxis(score.reshape(k, n, self.spec.rows, self.spec.cols), 1, -1)

    def _median(self, lab: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """(3, K, R) per channel the median of each row's points (idx (K, R, M), M odd), found on
        the samples' codes (sample() made them; other samples are ranked here)."""
        if lab is self._coded:
            return code_medians_lanes(self._codes, LAB_VALUES, self._blocked(idx), idx.shape[0], idx.shape[1])
        codes, values = value_codes(lab)
        return code_medians(codes, values, idx)

    def _blocked(self, idx: np.ndarray) -> np.ndarray:
        """garden_kernels_lanes.blocked of a probe's index array's rows (its last axis: a row's
        points), laid out once per camera set-up (after build(): indices are final then)."""
        made = self._blocks.get(id(idx))
        if made is None or made[0] is not idx:
            made = self._blocks[id(idx)] = (idx, blocked(idx.reshape(-1, idx.shape[-1])))
        return made[1]

    def _keep(self, idx: np.ndarray) -> np.ndarray:
        self._indices.append(idx)
        return idx

    def build(self) -> None:
        """The remap maps of all points; a point that several probes read (the same place at the
        same height: a tile space's inner edge band is its neighbour's too) is sampled once."""
        full = np.concatenate(self._chunks)
        key = np.round(full * 1000.0).astype(np.int64)
        _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
        full = full[first].astype(np.float32)
        # The samples in the order their points lie in the frame, 16-pixel squares row by row: a
        # probe's points are then near each other among the samples (its gathers stay in cache)
        # and remap reads the frame in order. A point's colour does not depend on where it lies.
        square = np.floor(full / np.float32(16.0 * self.downscale)).astype(np.int64)
        order = np.lexsort((full[:, 0], full[:, 1], square[:, 0], square[:, 1]))
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        full = full[order]
        inverse = rank[inverse.ravel()]
        for idx in self._indices:
            real = idx >= 0
            idx[real] = inverse[idx[real]]
        self.size = len(full)
        full = (full + 0.5) / self.downscale - 0.5
        # Only the frame's part round the points is downscaled and sampled (2 px spare for the
        # bilinear neighbours); the maps are shifted by whole pixels, which keeps every position's
        # fixed-point value (the same colours as on the whole frame).
        low = np.floor(full.min(axis=0)) - 2 if len(full) else np.zeros(2)
        high = np.ceil(full.max(axis=0)) + 3 if len(full) else np.zeros(2)
        self.origin = (int(max(0, low[0])), int(max(0, low[1])))
        self.extent = (int(max(1, high[0])), int(max(1, high[1])))  # the part's far (x, y) bound
        full -= np.array(self.origin, np.float32)
        # As few map rows as remap's size limit allows: OpenCV splits a remap (and a colour
        # conversion) of many rows over threads, which on a busy machine costs more CPU than it
        # saves. A point's colour does not depend on where it lies in the map.
        rows = max(1, -(-len(full) // _MAP_ROW))
        width = -(-len(full) // rows)
        full = np.concatenate([full, np.zeros((rows * width - len(full), 2), np.float32)]).reshape(rows, width, 2)
        self.map_x, self.map_y = cv2.convertMaps(full[..., 0], full[..., 1], cv2.CV_16SC2)
        self._chunks = []
        self._blocks = {}  # (indices renumbered above)

    # --- per frame -------------------------------------------------------------------------------
    def sample(self, image: np.ndarray) -> np.ndarray:
        """(3, size + 2) Lab float32 of every point, channel first (L 0..100), then the +inf and −inf
        sentinels. The colour conversion is OpenCV's 8-bit one (a table look-up; the float one is
        ~5× slower here): L in steps of 0.4, a and b of 1, well below the tolerances used."""
        self._frame = image  # for sample_points
        image = self._last = self._part(image)
        bgr = cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # Converted as one row (the same pixels: OpenCV would share a few rows among threads,
        # which on a busy machine costs CPU), then to float channel first in one compiled pass.
        lab8 = cv2.cvtColor(bgr.reshape(1, -1, 3), cv2.COLOR_BGR2Lab)
        lab, self._codes = lab_samples(lab8.reshape(-1, 3), self.size)
        self._coded = lab  # the samples self._codes rank (code_medians)
        return lab

    def _part(self, image: np.ndarray, whole: bool = False) -> np.ndarray:
        """The (area-downscaled) frame from the maps' origin on, or the whole of it. A crop whose
        size is a multiple of the downscale gives the same pixels as the whole frame downscaled."""
        d = self.downscale
        h, w = image.shape[:2]
        x0, y0 = (0, 0) if whole else self.origin
        x1, y1 = (w // d, h // d) if whole else (min(self.extent[0], w // d), min(self.extent[1], h // d))
        if d == 1:
            return image[y0:y1, x0:x1]
        if h % d or w % d or x1 <= x0 or y1 <= y0:
            # The downscaled whole frame's pixels are not all d × d blocks: downscale it whole.
            return cv2.resize(image, (w // d, h // d), interpolation=cv2.INTER_AREA)[y0:y1, x0:x1]
        return cv2.resize(image[y0 * d : y1 * d, x0 * d : x1 * d], (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)

    def sample_points(self, xyz: np.ndarray) -> np.ndarray:
        """(n, 3) Lab of region points (n, 3 mm) on the last frame sample() read, as sample() reads
        its points (for the few a reading needs only now and then)."""
        return self.sample_pixels(self.geometry.to_pixels(xyz))

    def sample_pixels(self, pixels: np.ndarray) -> np.ndarray:
        """sample_points of region points already projected: `pixels` (n, 2) = geometry.to_pixels(xyz)
        (for points whose projection is made once per geometry)."""
        whole = (np.asarray(pixels).astype(np.float32) + 0.5) / self.downscale - 0.5
        image = self._last
        pixels = whole - np.array(self.origin, np.float32)
        h, w = image.shape[:2]
        x, y = pixels[:, 0], pixels[:, 1]  # (each column's min and max: numpy's min(axis=0) of
        # an (n, 2) array costs ~40 us, a column's ~2 us; the same test)
        if x.min() < 1 or y.min() < 1 or x.max() > w - 2 or y.max() > h - 2:
            # Near or beyond the edge of the part sample() read: from the whole frame instead.
            image, pixels = self._part(self._frame, whole=True), whole
        bgr = cv2.remap(image, pixels[None, :, 0].copy(), pixels[None, :, 1].copy(), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
        lab8 = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3).T
        return (lab8 * _LAB_SCALE - _LAB_OFFSET).T

    def features(self, lab: np.ndarray, idx: np.ndarray, level_zero: bool = False) -> np.ndarray:
        """Mean and spread (appearance.FEATURES) of patches: (K, RC, ..., n) indices → (K, rows, cols,
        ..., 6), np.mean's and np.std's numbers (garden_kernels_measure.patch_stats); with
        `level_zero`, (K + 1, ...) with zeros first."""
        lead = idx[0].size // idx.shape[-1] if level_zero else 0
        rows = idx.reshape(-1, idx.shape[-1])
        stats = patch_stats_blocked(lab, rows, self._blocked(idx), lead)
        return stats.reshape(idx.shape[0] + level_zero, self.spec.rows, self.spec.cols, *idx.shape[2:-1], 6)

    def pixels(self, lab: np.ndarray, idx: np.ndarray, level_zero: bool = False) -> np.ndarray:
        """(K, RC, n) indices → (K, RC, n, 3) Lab; with `level_zero`, (K + 1, RC, n, 3) with zeros
        first (laid out alike: channel first underneath)."""
        if not level_zero:
            return np.moveaxis(np.take(lab, idx, axis=1), 0, -1)
        out = np.zeros((3, idx.shape[0] + 1, *idx.shape[1:]), np.float32)
        out[:, 1:] = np.take(lab, idx, axis=1)
        return np.moveaxis(out, 0, -1)

    def fit(self, lab: np.ndarray, probe: FaceProbe, tau: tuple[float, float] = (5.0, 12.0),
            appearance: bool = True) -> Fit:
        """fit.fit's numbers from the probe's points: (K, rows, cols, ...), in one compiled pass
        (garden_kernels_measure.face_scores). Without `appearance` the features (mean and spread of
        the face's like points) are left zero."""
        args = (probe.both, self._blocked(probe.both), probe.inside.shape[-1], probe.ring_n, probe.side_of,
                probe.inside_n, tau[0], tau[1], appearance)
        # The majority colour in the face test's own pass when its inside is its median's points
        # (face(median_only=True)) of samples sample() made: the same search on the same codes.
        both = None
        if lab is self._coded and probe.median_width == probe.inside.shape[-1]:
            both = face_scores_coloured(lab, LAB_VALUES, *args)
        if both is not None:
            colour, score, inside, ring, features, sides = both
        else:
            colour = self._median(lab, probe.median)
            score, inside, ring, features, sides = face_scores_blocked(lab, colour, *args)
        shape = (probe.inside.shape[0], self.spec.rows, self.spec.cols)
        if not appearance:
            features = np.zeros(features.shape, np.float32)
        return Fit(score.reshape(shape), inside.reshape(shape), ring.reshape(shape),
                   np.moveaxis(colour, 0, -1).reshape(*shape, 3),
                   features.reshape(*shape, 6), sides.reshape(*shape, 4))


_LAB_SCALE = np.array([[100.0 / 255.0], [1.0], [1.0]], np.float32)
_LAB_OFFSET = np.array([[0.0], [128.0], [128.0]], np.float32)
