"""Compiled inner loops of the garden's decisions (numba, through companion.vision.jit.kernel).

A garden read judges some 2 000 feature rows against the learned colour classes and reads the
icon of 320 tile middles. In numpy each of those is a dozen small calls over short axes, whose
per-call cost outweighs the arithmetic; here each is one loop. Every kernel does the numpy code's
operations on the same types and, where numpy's order of a sum is known (einsum's and a reduction's
running sum over a few elements, numpy's pairwise sum), in the same order. Exponentials are the
compiled ones (numpy's SIMD exp may differ in the last bit), so supports agree with numpy's to
~1e-15, not always bitwise; shares, counts and the icon colours are numpy's bit for bit.
tests/vision/test_garden_decide_speed_kernels.py checks each against its numpy reference.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from .class_support import ClassSupport, support_arguments, support_finish, whitened_d2  # noqa: F401 (re-exported)
from .class_support import warm as warm_class_support
from .kernel_sums import pairwise_sum


@kernel
def dot_posterior(lab, means, inverses, logdets, outlier, out):
    """garden_tiles.dot_support's posterior: rows `lab` (n, 3) float64 against C colour classes
    (`means` (C, 3), `inverses` (C, 3, 3), `logdets` (C,)) and an "anything else" class of log
    likelihood `outlier`; the first out.shape[1] classes' shares into `out` (n, ≤ C)."""
    n = lab.shape[0]
    n_c = means.shape[0]
    logs = np.empty(n_c + 1)
    diff = np.empty(3)
    for row in range(n):
        best = -np.inf
        for c in range(n_c):
            for i in range(3):
                diff[i] = lab[row, i] - means[c, i]
            d2 = 0.0
            for i in range(3):
                for j in range(3):
                    d2 += diff[i] * inverses[c, i, j] * diff[j]
            logs[c] = -0.5 * (d2 + logdets[c])
            if logs[c] > best:
                best = logs[c]
        logs[n_c] = outlier
        if outlier > best:
            best = outlier
        for c in range(n_c + 1):
            logs[c] = np.exp(logs[c] - best)
        norm = pairwise_sum(logs, 0, n_c + 1)
        for c in range(out.shape[1]):
            out[row, c] = logs[c] / norm


@kernel
def glyph_stats(strips, patch, keep, tile_mean, tile_inverse, use_model, delta_e, pairwise, share, colour):
    """babylon_garden._glyph_stats of N middles: `strips` (N, 4, 6) float32 (the four edge strips'
    features), `patch` (N, P, 3) float32 (the middle's Lab points; both strided: views of a read's measurements), `keep` (N, P) bool (the points
    read). The tile's colour is the strip most like the tile model in all six features, colour and
    spread (`tile_mean` (6,), `tile_inverse` (6, 6), float64) when `use_model`, else the least
    spread one. Into `share` (N,) float64: the
    kept points' share farther than `delta_e` from it; `colour` (N, 3) float64: the mean difference
    of the core points (at least 0.7 of the farthest), 0 where no point is unlike. The core's float32
    sum runs as numpy's over the patch did: pairwise over the P points (`pairwise`: numpy's layout
    had them innermost) or one running sum (channels innermost)."""
    n, n_p = keep.shape
    diff = np.empty((n_p, 3), np.float32)
    distance = np.empty(n_p, np.float32)
    n_f = tile_mean.shape[0]
    centred = np.empty(n_f)
    lanes = np.empty(8, np.float32)
    zero = np.float32(0.0)
    for item in range(n):
        pick = 0
        lowest = np.inf
        for k in range(4):
            if use_model:
                for i in range(n_f):
                    centred[i] = np.float64(strips[item, k, i]) - tile_mean[i]
                unlike = 0.0
                for i in range(n_f):
                    for j in range(n_f):
                        unlike += centred[i] * tile_inverse[i, j] * centred[j]
            else:
                unlike = np.float64(strips[item, k, 3] + strips[item, k, 4] + strips[item, k, 5])
            if unlike < lowest:  # the first lowest, as np.argmin
                lowest = unlike
                pick = k
        top = np.float32(-np.inf)
        kept = 0
        unlike_count = 0
        for p in range(n_p):
            total = zero
            for i in range(3):
                d = patch[item, p, i] - strips[item, pick, i]
                diff[p, i] = d
                total += d * d
            if keep[item, p]:
                distance[p] = np.sqrt(total)
                kept += 1
                if distance[p] > delta_e:
                    unlike_count += 1
            else:
                distance[p] = np.float32(-1.0)
            if distance[p] > top:
                top = distance[p]
        share[item] = unlike_count / max(kept, 1)
        threshold = np.float32(0.7) * top
        count = 0
        for p in range(n_p):
            if keep[item, p] and distance[p] >= threshold:
                count += 1
        for i in range(3):
            if not share[item] > 0:
                colour[item, i] = 0.0
                continue
            if pairwise and n_p >= 8:
                for j in range(8):
                    lanes[j] = diff[j, i] if keep[item, j] and distance[j] >= threshold else zero
                p = 8
                while p < n_p - (n_p % 8):
                    for j in range(8):
                        if keep[item, p + j] and distance[p + j] >= threshold:
                            lanes[j] += diff[p + j, i]
                        else:
                            lanes[j] += zero
                    p += 8
                total = ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]))
            else:
                total = zero
                p = 0
            while p < n_p:
                total += diff[p, i] if keep[item, p] and distance[p] >= threshold else zero
                p += 1
            colour[item, i] = np.float64(total) / max(count, 1)


_WARM = []  # whether warm() ran in this process


def warm() -> None:
    """Run every kernel once on tiny inputs of the types a read passes, so that they are compiled
    (or loaded from the disk cache) now rather than in the live loop's first read. Once per process."""
    if _WARM:
        return
    warm_class_support()
    dot_posterior(np.zeros((1, 3)), np.zeros((1, 3)), np.ones((1, 3, 3)), np.zeros(1), 0.0, np.empty((1, 1)))
    # strips and patch strided (babylon_garden._strided: a read's middles are views of its measurements)
    glyph_stats(np.zeros((1, 4, 12), np.float32)[..., ::2], np.zeros((1, 1, 6), np.float32)[..., ::2],
                np.ones((1, 1), bool), np.zeros(6), np.eye(6), True, 15.0, True, np.empty(1), np.empty((1, 3)))
    _WARM.append(True)
