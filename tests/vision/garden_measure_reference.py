"""The garden measurements in plain numpy, as garden_points.py computed them before its compiled
kernels (garden_kernels_measure.py): the references the kernels are tested against, bit for bit."""

from __future__ import annotations

import numpy as np

from companion.vision.observers.fit import Fit


def counts(mask: np.ndarray) -> np.ndarray:
    return mask.sum(axis=-1).astype(np.int64)


def fit(lab: np.ndarray, probe, rows: int, cols: int, tau=(5.0, 12.0), appearance: bool = True) -> Fit:
    """GardenSampler.fit's numbers (FaceProbe of garden_points) by numpy calls."""
    both = np.take(lab, probe.both, axis=1)
    width = probe.inside.shape[-1]
    pixels = both[..., :width]
    middle = probe.median_width // 2
    colour = np.partition(pixels[..., : probe.median_width], middle, axis=-1)[..., middle]
    tau_cell = 0.12 * colour[0] + 3.0
    np.minimum(np.maximum(tau_cell, tau[0], out=tau_cell), tau[1], out=tau_cell)
    with np.errstate(invalid="ignore"):  # a sentinel less a sentinel colour: NaN, never like
        diff = both - colour[..., None]
    like_all = np.einsum("c...,c...->...", diff, diff) < (tau_cell * tau_cell)[..., None]
    like = like_all[..., :width]
    hits = counts(like)
    inside_like = hits / np.maximum(probe.inside_n, 1)
    if appearance:
        chosen = np.where(like, pixels, np.float32(0.0))
        count = np.maximum(hits, 1)
        mean = chosen.sum(axis=-1) / count
        squares = np.multiply(chosen, chosen, out=chosen)
        var = np.maximum(squares.sum(axis=-1) / count - mean * mean, 0.0)
    else:
        mean = var = np.zeros_like(colour)
    ring_like = like_all[..., width:].reshape(*like_all.shape[:2], *probe.ring.shape[2:])
    shares = counts(ring_like) / np.maximum(probe.ring_n, 1)
    sides = np.zeros((*ring_like.shape[:2], 4), np.float32)
    sides[..., list(probe.sides)] = shares
    ring_max = sides.max(axis=-1)
    shape = (probe.inside.shape[0], rows, cols)
    features = np.moveaxis(np.concatenate([mean, np.sqrt(var)]), 0, -1)
    return Fit((inside_like - ring_max).reshape(shape).astype(np.float32), inside_like.reshape(shape),
               ring_max.reshape(shape), np.moveaxis(colour, 0, -1).reshape(*shape, 3),
               features.reshape(*shape, 6), sides.reshape(*shape, 4).astype(np.float32))


def scores(lab: np.ndarray, stack, rows: int, cols: int, tau=(5.0, 12.0)) -> np.ndarray:
    """GardenSampler.scores' numbers (a FaceStack) by numpy calls: (K, rows, cols, n)."""
    both = np.take(lab, stack.both, axis=1)
    width = stack.width
    middle = width // 2
    colour = np.partition(both[..., :width], middle, axis=-1)[..., middle]
    tau_cell = 0.12 * colour[0] + 3.0
    np.minimum(np.maximum(tau_cell, tau[0], out=tau_cell), tau[1], out=tau_cell)
    diff = both - colour[..., None]
    like_all = np.einsum("c...,c...->...", diff, diff) < (tau_cell * tau_cell)[..., None]
    inside_like = counts(like_all[..., :width]) / np.maximum(stack.inside_n, 1)
    k, n = like_all.shape[0], len(stack.sides)
    cells = rows * cols
    ring_like = like_all[..., width:].reshape(k, n * cells, stack.ring_n.shape[-1], -1)
    shares = (counts(ring_like) / np.maximum(stack.ring_n, 1)).reshape(k, n, cells, -1)
    sides = np.zeros((k, n, cells, 4), np.float32)
    for i, probe_sides in enumerate(stack.sides):
        sides[:, i][..., list(probe_sides)] = shares[:, i]
    score = (inside_like.reshape(k, n, cells) - sides.max(axis=-1)).astype(np.float32)
    return np.moveaxis(score.reshape(k, n, rows, cols), 1, -1)


def features(lab: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """np.mean and np.std of each patch's points: (..., n) indices → (..., 6) float32."""
    points = np.take(lab, idx, axis=1)  # (3, ..., n)
    stats = np.concatenate([points.mean(axis=-1), points.std(axis=-1)])
    return np.moveaxis(stats, 0, -1)


def best_span(inside: np.ndarray, sides: np.ndarray, closed: np.ndarray) -> np.ndarray:
    """A decoration's score closed or open along a row or a column, as _measure computed it."""
    score = closed
    for pair in ((0, 2), (1, 3)):
        run = inside - sides[..., list(pair)].max(axis=-1)
        score = np.where(run > score + 0.05, run, score)
    return score


def lab_samples(lab8: np.ndarray, size: int) -> np.ndarray:
    """(n, 3) 8-bit Lab → (3, size + 2) float32 channel first, then the +inf and −inf sentinels."""
    planes = np.ascontiguousarray(lab8.T)
    lab = np.empty((3, size + 2), np.float32)
    np.multiply(planes[0, :size], np.float32(100.0 / 255.0), out=lab[0, :size], dtype=np.float32)
    for c in (1, 2):
        np.subtract(planes[c, :size], np.float32(128.0), out=lab[c, :size], dtype=np.float32)
    lab[:, -2] = np.inf
    lab[:, -1] = -np.inf
    return lab
