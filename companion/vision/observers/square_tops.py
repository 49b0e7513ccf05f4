"""Square top faces tested at several heights from a few hundred points per cell, in one remap.

The same parallax test as fit.square_fit (a top face at the right height lies on its footprint:
its inside is one colour and a thin ring just outside it is something else), but instead of warping
whole board views per height it samples only the points the test looks at: a grid over each cell's
face and short bands along its four sides. The point → pixel maps are built once per geometry, so a
frame costs one cv2.remap of those points on the full-resolution frame (bilinear: each point reads
a 2×2 neighbourhood), one Lab conversion of the samples and a few vectorised reductions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from ..boards import BoardSpec
from ..types import CellReading
from .geometry import RegionGeometry

SIDE_BITS = np.array([1, 2, 4, 8])  # sides y−, x+, y+, x− as bits of a near-side code


def board_pixels(geometry, spec, heights, points: np.ndarray) -> np.ndarray:
    """Image points (K·RC, N, 2) float32 of `points` (mm from each cell's corner: (RC, N, 2), or
    (1, N, 2) for the same points in every cell) at each of the K heights, cells row-major."""
    corner_y, corner_x = np.mgrid[0 : spec.rows, 0 : spec.cols].astype(np.float64) * spec.cell_mm
    xy = np.stack([corner_x.ravel(), corner_y.ravel()], axis=-1)[:, None, :] + points  # (RC, N, 2)
    maps = []
    for z in heights:
        xyz = np.concatenate([xy.reshape(-1, 2), np.full((xy.shape[0] * xy.shape[1], 1), z)], axis=1)
        maps.append(geometry.to_pixels(xyz).reshape(xy.shape[0], xy.shape[1], 2))
    return np.concatenate(maps, axis=0).astype(np.float32)


@dataclass(frozen=True)
class TopFit:
    """Per height k and cell (r, c), like fit.Fit."""

    score: np.ndarray  # (K, R, C) inside − ring
    inside: np.ndarray  # (K, R, C) share of the inside like its median colour
    ring: np.ndarray  # (K, R, C) the largest share of a ring side like the inside
    colour: np.ndarray  # (K, R, C, 3) median Lab of the inside
    features: np.ndarray  # (K, R, C, 6) mean and spread of the inside's like pixels (appearance.FEATURES)
    sides: np.ndarray  # (K, R, C, 4) per side (y−, x+, y+, x−) the share of the ring side like the inside


def _axis(lo: float, hi: float, step: float) -> np.ndarray:
    """Points every `step` mm covering [lo, hi], centred in it."""
    count = max(1, int(round((hi - lo) / step)))
    return lo + (np.arange(count) + 0.5) * (hi - lo) / count


class PointSampler:
    """Several sets of image points read in one cv2.remap and one Lab conversion."""

    WIDTH = 512  # points per row of the combined map

    def __init__(self, point_sets: Sequence[np.ndarray]):
        flat = [np.asarray(p, np.float32).reshape(-1, 2) for p in point_sets]
        self.sizes = [len(p) for p in flat]
        total = sum(self.sizes)
        rows = -(-total // self.WIDTH)
        pad = np.zeros((rows * self.WIDTH - total, 2), np.float32)
        full = np.concatenate([*flat, pad]).reshape(rows, self.WIDTH, 2)
        self.map_x, self.map_y = cv2.convertMaps(full[..., 0], full[..., 1], cv2.CV_16SC2)

    def sample_lab(self, image: np.ndarray) -> list[np.ndarray]:
        """Per point set, (n, 3) Lab float32 (L 0..100) of its points, bilinear on the full frame."""
        bgr = cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lab = cv2.cvtColor(bgr.astype(np.float32) * np.float32(1.0 / 255.0), cv2.COLOR_BGR2Lab).reshape(-1, 3)
        return np.split(lab[: sum(self.sizes)], np.cumsum(self.sizes)[:-1])


@dataclass(frozen=True)
class SquareLayout:
    """The points of one cell's test, in mm from the cell's corner, with their roles."""

    inside: np.ndarray  # (P, 2) x, y over the face's core
    inside_side: np.ndarray  # (P,) the frame band a point lies in (0..3), −1 for the centre
    ring: np.ndarray  # (Q, 2) points of the ring bands
    ring_side: np.ndarray  # (Q,) the side each ring point belongs to
    centre: tuple[float, float]

    @classmethod
    def square(cls, cell_mm: float, side_mm: float, inset_mm: float, ring_mm: tuple[float, float],
               step_mm: float, ring_step_mm: float | None = None) -> SquareLayout:
        c = cell_mm / 2.0
        h = side_mm / 2.0
        x0, x1 = c - h + inset_mm, c + h - inset_mm
        band = max(1.0, (x1 - x0) / 4.0)  # the frame bands of fit.square_fit
        axis = _axis(x0, x1, step_mm)
        xs, ys = np.meshgrid(axis, axis)
        xs, ys = xs.ravel(), ys.ravel()
        tag = np.full(xs.shape, -1)
        tag[xs > x1 - band] = 1
        tag[xs < x0 + band] = 3
        tag[ys < x0 + band] = 0  # the top and bottom bands run the full width (frame_rects)
        tag[ys > x1 - band] = 2
        ring_step = ring_step_mm or step_mm
        across = _axis(ring_mm[0], ring_mm[1], min(ring_step, 0.6))
        along = _axis(c - h, c + h, ring_step)
        ring, ring_side = [], []
        for side in range(4):
            a, t = np.meshgrid(along, across)
            a, t = a.ravel(), t.ravel()
            if side == 0:
                pts = np.column_stack([a, c - h - t])
            elif side == 1:
                pts = np.column_stack([c + h + t, a])
            elif side == 2:
                pts = np.column_stack([a, c + h + t])
            else:
                pts = np.column_stack([c - h - t, a])
            ring.append(pts)
            ring_side.append(np.full(len(pts), side))
        return cls(np.column_stack([xs, ys]), tag, np.concatenate(ring), np.concatenate(ring_side), (c, c))

    def keep(self, points: np.ndarray, tags: np.ndarray, near_sides: Sequence[int]) -> np.ndarray:
        """Indices of the points a cell with these near sides uses: none of a near side's own band,
        and only the far half of the face from each near side (fit._clip_far)."""
        cx, cy = self.centre
        ok = ~np.isin(tags, list(near_sides))
        for side in near_sides:
            if side == 0:
                ok &= points[:, 1] >= cy
            elif side == 2:
                ok &= points[:, 1] <= cy
            elif side == 1:
                ok &= points[:, 0] <= cx
            else:
                ok &= points[:, 0] >= cx
        return np.flatnonzero(ok)


class SquareTops:
    """Samples of every cell's square test at each height; `fit(image)` gives a TopFit."""

    def __init__(self, geometry: RegionGeometry, spec: BoardSpec, heights_mm: Sequence[float],
                 layout: SquareLayout, near: np.ndarray | None = None,
                 tau: tuple[float, float] = (5.0, 12.0)):
        self.spec = spec
        self.heights = tuple(float(z) for z in heights_mm)
        self.layout = layout
        self.tau = tau
        rows, cols = spec.rows, spec.cols
        if near is None:
            near = np.zeros((rows, cols, 4), bool)
        codes = (near * SIDE_BITS).sum(axis=-1).ravel()
        # Each cell samples only the points its test uses (a near side drops some), repeated in
        # turn up to a common count so that the whole board is one array; weights undo the repeats.
        kept_inside, kept_ring = {}, {}
        for code in np.unique(codes):
            sides = [i for i in range(4) if code & (1 << i)]
            kept_inside[code] = layout.keep(layout.inside, layout.inside_side, sides)
            kept_ring[code] = layout.keep(layout.ring, layout.ring_side, sides)
        self.n_inside = max(len(v) for v in kept_inside.values())
        n_ring = max(len(v) for v in kept_ring.values())
        cells = rows * cols
        points = np.zeros((cells, self.n_inside + n_ring, 2))
        self.inside_weight = np.zeros((cells, self.n_inside), np.float32)
        self.ring_weight = np.zeros((cells, n_ring, 4), np.float32)  # per side, summing to 1
        for cell, code in enumerate(codes):
            inside, ring = kept_inside[code], kept_ring[code]
            take = np.arange(self.n_inside) % len(inside)
            points[cell, : self.n_inside] = layout.inside[inside[take]]
            repeats = np.bincount(take, minlength=len(inside))
            self.inside_weight[cell] = 1.0 / (len(inside) * repeats[take])
            take = np.arange(n_ring) % len(ring)
            points[cell, self.n_inside :] = layout.ring[ring[take]]
            self.ring_weight[cell, np.arange(n_ring), layout.ring_side[ring[take]]] = 1.0
        self.ring_weight /= np.maximum(self.ring_weight.sum(axis=1, keepdims=True), 1.0)
        self.pixels = board_pixels(geometry, spec, self.heights, points)  # points: (RC, N, 2) per cell
        self.sampler = PointSampler([self.pixels])

    def sample_lab(self, image: np.ndarray) -> np.ndarray:
        """(K, R·C, N, 3) Lab float32 (L 0..100) of every point at every height."""
        return self.shape_lab(self.sampler.sample_lab(image)[0])

    def shape_lab(self, lab: np.ndarray) -> np.ndarray:
        """Lab samples of `self.pixels` (any shape with that many points) as (K, R·C, N, 3)."""
        return lab.reshape(len(self.heights), -1, self.pixels.shape[1], 3)

    def fit(self, image: np.ndarray | None = None, lab: np.ndarray | None = None) -> TopFit:
        if lab is None:
            lab = self.sample_lab(image)
        k = lab.shape[0]
        # (K, cells, 3, N), contiguous: per-point sums over the channels add three planes
        channels_first = np.ascontiguousarray(lab.transpose(0, 1, 3, 2))
        pixels = channels_first[..., : self.n_inside]
        half = self.n_inside // 2
        med = np.partition(pixels, half, axis=-1)[..., half]  # the majority colour of the face
        tau = np.clip(0.12 * med[..., 0] + 3.0, *self.tau)
        tau2 = (tau * tau)[..., None]
        diff = pixels - med[..., None]
        weight = ((diff * diff).sum(axis=2) < tau2) * self.inside_weight  # (K, cells, P)
        share = weight.sum(axis=-1)
        count = np.maximum(share, 1e-6)[..., None]
        mean = np.matmul(pixels, weight[..., None])[..., 0] / count
        var = np.maximum(np.matmul(pixels * pixels, weight[..., None])[..., 0] / count - mean * mean, 0.0)
        ring = channels_first[..., self.n_inside :] - med[..., None]
        ring_like = ((ring * ring).sum(axis=2) < tau2).astype(np.float32)  # (K, cells, Q)
        sides = np.matmul(ring_like[:, :, None, :], self.ring_weight)[:, :, 0]
        top = sides.max(axis=-1)
        shape = (k, self.spec.rows, self.spec.cols)
        features = np.concatenate([mean, np.sqrt(var)], axis=-1)
        return TopFit((share - top).reshape(shape), share.reshape(shape), top.reshape(shape),
                      med.reshape(*shape, 3), features.reshape(*shape, 6), sides.reshape(*shape, 4))


class EdgeProfiles:
    """Where exactly each side of a square top lies, to a fraction of a pixel, at each height.

    Across every side, a short profile (from inside the face to beyond its edge) is sampled along
    the middle of the side and averaged along it; the edge is where the profile's colour distance
    from the face rises from its inside level to its outside level (the integral of the rise, so
    blur does not move it). At the right height every visible side lies where the footprint says
    (offset 0); one level off, the face is shifted by the parallax of one level — often well under
    a millimetre below a camera looking nearly straight down, where the area test (with its
    inset and ring gap) cannot tell the heights apart.
    """

    def __init__(self, geometry: RegionGeometry, spec: BoardSpec, heights_mm: Sequence[float], side_mm: float,
                 reach_mm: float = 2.5, step_mm: float = 0.5, along_mm: float = 6.0, along_step_mm: float = 2.4):
        self.spec = spec
        self.heights = tuple(float(z) for z in heights_mm)
        c = spec.cell_mm / 2.0
        h = side_mm / 2.0
        count = int(round(2 * reach_mm / step_mm)) + 1
        self.t = np.linspace(-reach_mm, reach_mm, count)  # outward from the edge
        self.step = float(self.t[1] - self.t[0])
        along = _axis(c - along_mm, c + along_mm, along_step_mm)
        self.n_along = len(along)
        # Ordered (along, side, across): averaging along a side then adds whole contiguous blocks.
        a, side, t = np.meshgrid(along, np.arange(4), self.t, indexing="ij")  # (A, 4, T)
        points = np.select(
            [side[..., None] == 0, side[..., None] == 1, side[..., None] == 2],
            [np.stack([a, c - h - t], axis=-1), np.stack([c + h + t, a], axis=-1), np.stack([a, c + h + t], axis=-1)],
            np.stack([c - h - t, a], axis=-1),
        ).reshape(-1, 2)
        self.pixels = board_pixels(geometry, spec, self.heights, points[None])  # the same points in every cell
        self.sampler = PointSampler([self.pixels])

    def offsets(self, image: np.ndarray | None, colour: np.ndarray,
                lab: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Per height, cell and side (K, R, C, 4): the edge's offset outward from where the
        footprint puts it (mm), and the contrast across it (ΔE; small = no edge to see there).
        `colour` (K, R, C, 3) is each face's Lab colour at each height; `lab`, if given, the Lab
        samples of `self.pixels` (read together with other tests' points)."""
        if lab is None:
            lab = self.sampler.sample_lab(image)[0]
        k, rows, cols = len(self.heights), self.spec.rows, self.spec.cols
        lab = lab.reshape(k, rows, cols, self.n_along, 4, len(self.t), 3).mean(axis=3)
        d = np.linalg.norm(lab - colour[:, :, :, None, None, :], axis=-1)  # (K, R, C, 4, T)
        d_in = d[..., :2].mean(axis=-1)
        d_out = d[..., len(self.t) // 2 + 1:].max(axis=-1)
        contrast = d_out - d_in
        rise = np.clip((d - d_in[..., None]) / np.maximum(contrast, 1e-3)[..., None], 0.0, 1.0)
        # Once past the edge, stay past it: something like the face further out (a lower
        # neighbour's top seen beyond the gap) must not pull the edge outwards.
        rise = np.maximum.accumulate(rise, axis=-1)
        edge = self.t[0] - self.step / 2 + ((1.0 - rise) * self.step).sum(axis=-1)
        return edge.astype(np.float32), contrast.astype(np.float32)


def readings(scores: np.ndarray, candidates: Sequence[tuple[str, dict]]) -> list[tuple[CellReading, ...]]:
    """Rows of CellReadings from candidate scores (R, C, N), candidates[n] = (label, attrs), all
    different: the same readings as common.reading on each cell's sorted candidates, computed for
    the whole board at once (per-cell numpy scalars cost more than the rest of a read)."""
    order = np.argsort(-scores, axis=-1, kind="stable")
    ranked = np.take_along_axis(scores, order, axis=-1)
    best, runner = ranked[..., 0], ranked[..., 1]
    confidence = np.clip(best, 0.0, 1.0) * (1.0 - np.exp(-np.maximum(best - runner, 0.0) / 0.15))
    order_l, ranked_l, confidence_l = order.tolist(), np.maximum(ranked, 0.0).tolist(), confidence.tolist()
    rows = []
    for r in range(scores.shape[0]):
        row = []
        for c in range(scores.shape[1]):
            first, second, third = order_l[r][c][:3]
            label, attrs = candidates[first]
            alternatives = ((candidates[second][0], dict(candidates[second][1]), ranked_l[r][c][1]),
                            (candidates[third][0], dict(candidates[third][1]), ranked_l[r][c][2]))
            row.append(CellReading(label, confidence_l[r][c], dict(attrs), alternatives))
        rows.append(tuple(row))
    return rows
