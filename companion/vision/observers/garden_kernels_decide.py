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

from ..appearance import TYPICAL_D2
from ..jit import kernel
from .kernel_sums import pairwise_sum


@kernel
def support_arguments(d2, logdet, typical_d2, args):
    """The arguments of AppearanceProfile.support's two exponentials, from the squared distances
    `d2` (n, S) and the classes' log-determinants `logdet` (S,), into `args` (2, n, S): each
    class's log likelihood less the row's best, and −max(0, d² − typical_d2) / 10."""
    n, n_s = d2.shape
    for row in range(n):
        best = -np.inf
        for s in range(n_s):
            loglik = -0.5 * (d2[row, s] + logdet[s])
            args[0, row, s] = loglik
            if loglik > best or best != best:  # np.max: NaN wins
                best = loglik
        for s in range(n_s):
            args[0, row, s] = args[0, row, s] - best
            beyond = d2[row, s] - typical_d2
            args[1, row, s] = -(beyond if beyond > 0.0 or beyond != beyond else 0.0) / 10.0  # np.maximum


@kernel
def support_finish(exps, chosen, out):
    """AppearanceProfile.support from numpy's exponentials of support_arguments' `exps` (2, n, S):
    each class's share of the row's likelihood (numpy's pairwise sum), times its typicality, into
    the columns `chosen` (S,) of `out` (n, C) (its other columns left as they are)."""
    n_s = exps.shape[2]
    for row in range(exps.shape[1]):
        norm = pairwise_sum(exps[0, row], 0, n_s)
        for s in range(n_s):
            out[row, chosen[s]] = exps[0, row, s] / norm * exps[1, row, s]


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
    features), `patch` (N, P, 3) float32 (the middle's Lab points), `keep` (N, P) bool (the points
    read). The tile's colour is the strip most like the tile model (`tile_mean` (3,), `tile_inverse`
    (3, 3), float64) when `use_model`, else the least spread one. Into `share` (N,) float64: the
    kept points' share farther than `delta_e` from it; `colour` (N, 3) float64: the mean difference
    of the core points (at least 0.7 of the farthest), 0 where no point is unlike. The core's float32
    sum runs as numpy's over the patch did: pairwise over the P points (`pairwise`: numpy's layout
    had them innermost) or one running sum (channels innermost)."""
    n, n_p = keep.shape
    diff = np.empty((n_p, 3), np.float32)
    distance = np.empty(n_p, np.float32)
    centred = np.empty(3)
    lanes = np.empty(8, np.float32)
    zero = np.float32(0.0)
    for item in range(n):
        pick = 0
        lowest = np.inf
        for k in range(4):
            if use_model:
                for i in range(3):
                    centred[i] = np.float64(strips[item, k, i]) - tile_mean[i]
                unlike = 0.0
                for i in range(3):
                    for j in range(3):
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


@kernel
def whitened_d2(features, chol, shift, d2):
    """Squared distances `d2` (n, S) of rows `features` (n, 6) float64 to S classes whitened by
    `chol` (S, 6, 6) and shifted by `shift` (S, 6): |x·chol_s − shift_s|², each coordinate summed
    over the six features in order, the squares as einsum sums six: two running sums, then added."""
    n = features.shape[0]
    n_s = chol.shape[0]
    for row in range(n):
        x0, x1, x2 = features[row, 0], features[row, 1], features[row, 2]
        x3, x4, x5 = features[row, 3], features[row, 4], features[row, 5]
        for s in range(n_s):
            c = chol[s]
            even = 0.0
            odd = 0.0
            for g in range(6):
                y = x0 * c[0, g]
                y += x1 * c[1, g]
                y += x2 * c[2, g]
                y += x3 * c[3, g]
                y += x4 * c[4, g]
                y += x5 * c[5, g]
                v = y - shift[s, g]
                if g == 0:
                    even = v * v
                elif g == 1:
                    odd = v * v
                elif g % 2 == 0:
                    even += v * v
                else:
                    odd += v * v
            d2[row, s] = even + odd  # einsum's two running sums (even and odd features), then added


class ClassSupport:
    """AppearanceProfile.support of one profile, its numbers bit for bit (whitened squared
    distances and the posterior's arithmetic compiled, the exponentials numpy's), with the classes'
    whitening made once per subset from the profile's public class models as the profile makes it."""

    def __init__(self, profile):
        self.profile = profile
        self.names = profile.names
        self._subsets: dict[tuple[str, ...], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}

    def _subset(self, subset: tuple[str, ...]):
        made = self._subsets.get(subset)
        if made is None:
            keep = set(subset)
            chosen = np.array([i for i, name in enumerate(self.names) if name in keep], dtype=np.int64)
            models = [self.profile.classes[self.names[i]] for i in chosen]
            chol = np.stack([np.linalg.cholesky(model.precision) for model in models])
            means = np.stack([model.mean for model in models])
            shift = np.einsum("sf,sfg->sg", means, chol)
            logdet = np.array([np.linalg.slogdet(model.cov)[1] for model in models])
            made = self._subsets[subset] = (chosen, np.ascontiguousarray(chol, dtype=np.float64),
                                            np.ascontiguousarray(shift, dtype=np.float64), logdet.astype(np.float64))
        return made

    def __call__(self, features: np.ndarray, subset: tuple[str, ...]) -> np.ndarray:
        """Per class (..., C) of the profile's names: as profile.support(features, subset)."""
        features = np.asarray(features, dtype=np.float64)
        chosen, chol, shift, logdet = self._subset(tuple(subset))
        rows = np.ascontiguousarray(features.reshape(-1, features.shape[-1]))
        if rows.shape[1] != 6:
            return self.profile.support(features, subset)
        d2 = np.empty((len(rows), len(chosen)))
        whitened_d2(rows, chol, shift, d2)
        args = np.empty((2, *d2.shape))
        support_arguments(d2, logdet, TYPICAL_D2, args)
        np.exp(args, out=args)
        out = np.zeros((len(rows), len(self.names)))
        support_finish(args, chosen, out)
        return out.reshape(*features.shape[:-1], len(self.names))


_WARM = []  # whether warm() ran in this process


def warm() -> None:
    """Run every kernel once on tiny inputs of the types a read passes, so that they are compiled
    (or loaded from the disk cache) now rather than in the live loop's first read. Once per process."""
    if _WARM:
        return
    d2 = np.empty((1, 1))
    whitened_d2(np.zeros((1, 6)), np.ones((1, 6, 6)), np.zeros((1, 6)), d2)
    args = np.empty((2, 1, 1))
    support_arguments(d2, np.zeros(1), TYPICAL_D2, args)
    support_finish(np.ones((2, 1, 1)), np.zeros(1, dtype=np.int64), np.zeros((1, 1)))
    dot_posterior(np.zeros((1, 3)), np.zeros((1, 3)), np.ones((1, 3, 3)), np.zeros(1), 0.0, np.empty((1, 1)))
    for pairwise in (True, False):
        glyph_stats(np.zeros((1, 4, 6), np.float32), np.zeros((1, 1, 3), np.float32), np.ones((1, 1), bool),
                    np.zeros(3), np.eye(3), True, 15.0, pairwise, np.empty(1), np.empty((1, 3)))
    _WARM.append(True)
