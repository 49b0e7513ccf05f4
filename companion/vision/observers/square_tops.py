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
from .geometry import RegionGeometry

SIDE_BITS = np.array([1, 2, 4, 8])  # sides y−, x+, y+, x− as bits of a near-side code


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
        self.codes = (near * SIDE_BITS).sum(axis=-1).ravel()
        points = np.concatenate([layout.inside, layout.ring])  # (P + Q, 2)
        self.n_inside = len(layout.inside)
        corner_y, corner_x = np.mgrid[0:rows, 0:cols].astype(np.float64) * spec.cell_mm
        xy = np.stack([corner_x.ravel(), corner_y.ravel()], axis=-1)[:, None, :] + points[None]  # (RC, N, 2)
        maps = []
        for z in self.heights:
            xyz = np.concatenate([xy.reshape(-1, 2), np.full((xy.shape[0] * xy.shape[1], 1), z)], axis=1)
            maps.append(geometry.to_pixels(xyz).reshape(xy.shape[0], xy.shape[1], 2))
        full = np.concatenate(maps, axis=0).astype(np.float32)  # (K·RC, N, 2)
        self.map_x, self.map_y = cv2.convertMaps(full[..., 0], full[..., 1], cv2.CV_16SC2)
        # Per near-side code: the cells that have it and the points they use.
        self.groups = []
        for code in np.unique(self.codes):
            sides = [i for i in range(4) if code & (1 << i)]
            cells = np.flatnonzero(self.codes == code)
            inside = layout.keep(layout.inside, layout.inside_side, sides)
            ring = layout.keep(layout.ring, layout.ring_side, sides)
            ring_sides = [(side, self.n_inside + ring[layout.ring_side[ring] == side]) for side in range(4)]
            self.groups.append((cells, inside, [(s, idx) for s, idx in ring_sides if len(idx)]))

    def sample_lab(self, image: np.ndarray) -> np.ndarray:
        """(K, R·C, N, 3) Lab float32 (L 0..100) of every point at every height."""
        bgr = cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        lab = cv2.cvtColor(bgr.astype(np.float32) * np.float32(1.0 / 255.0), cv2.COLOR_BGR2Lab)
        return lab.reshape(len(self.heights), -1, lab.shape[1], 3)

    def fit(self, image: np.ndarray | None = None, lab: np.ndarray | None = None) -> TopFit:
        if lab is None:
            lab = self.sample_lab(image)
        k, cells = lab.shape[0], lab.shape[1]
        score = np.zeros((k, cells), np.float32)
        inside_like = np.zeros((k, cells), np.float32)
        ring_max = np.zeros((k, cells), np.float32)
        colour = np.zeros((k, cells, 3), np.float32)
        features = np.zeros((k, cells, 6), np.float32)
        sides = np.zeros((k, cells, 4), np.float32)
        for group_cells, inside_idx, ring_groups in self.groups:
            sub = lab[:, group_cells]  # (K, G, N, 3)
            pixels = sub[:, :, inside_idx]
            med = np.median(pixels, axis=2)  # the majority colour of the face
            tau = np.clip(0.12 * med[..., 0] + 3.0, *self.tau)
            tau2 = (tau * tau)[..., None]
            diff = pixels - med[:, :, None, :]
            like = np.einsum("...c,...c->...", diff, diff) < tau2
            share = like.mean(axis=2)
            weight = like[..., None].astype(np.float32)
            count = np.maximum(weight.sum(axis=2), 1.0)
            mean = (pixels * weight).sum(axis=2) / count
            var = np.maximum(((pixels * pixels) * weight).sum(axis=2) / count - mean * mean, 0.0)
            side_share = np.zeros((*share.shape, 4), np.float32)
            for side, idx in ring_groups:
                d = sub[:, :, idx] - med[:, :, None, :]
                side_share[..., side] = (np.einsum("...c,...c->...", d, d) < tau2).mean(axis=2)
            top = side_share.max(axis=-1)
            score[:, group_cells] = share - top
            inside_like[:, group_cells] = share
            ring_max[:, group_cells] = top
            colour[:, group_cells] = med
            features[:, group_cells] = np.concatenate([mean, np.sqrt(var)], axis=-1)
            sides[:, group_cells] = side_share
        shape = (k, self.spec.rows, self.spec.cols)
        return TopFit(score.reshape(shape), inside_like.reshape(shape), ring_max.reshape(shape),
                      colour.reshape(*shape, 3), features.reshape(*shape, 6), sides.reshape(*shape, 4))
