"""Class supports (AppearanceProfile.support) of one profile, compiled: shared by the observers.

AppearanceProfile.support judges feature rows against the learned colour classes in a dozen small
numpy calls over short axes, whose per-call cost outweighs the arithmetic on a few hundred rows;
here the whitened distances and the posterior's arithmetic are each one loop (numba, through
companion.vision.jit.kernel), the exponentials numpy's (its SIMD exp may differ from the compiled
one in the last bit), so ClassSupport gives the profile's numbers bit for bit. Moved from
garden_kernels_decide (which re-exports them) so that Baubylon's table support uses it too.
tests/vision/test_garden_decide_speed_kernels.py and tests/vision/test_class_support.py check it
against the profile's own.
"""

from __future__ import annotations

import numpy as np

from ..appearance import TYPICAL_D2
from ..jit import kernel


@kernel
def support_arguments(d2, logdet, typical_d2, args):
    """The arguments of AppearanceProfile.support's two exponentials, from the squared distances
    `d2` (S, n) (class by class) and the classes' log-determinants `logdet` (S,), into `args`
    (2, S, n): each class's log likelihood less the row's best, and −max(0, d² − typical_d2) / 10.
    Each step runs along the rows (a row's best is still found class after class, in order)."""
    n_s, n = d2.shape
    best = np.empty(n)
    best[:] = -np.inf
    for s in range(n_s):
        half = logdet[s]
        for row in range(n):
            loglik = -0.5 * (d2[s, row] + half)
            args[0, s, row] = loglik
            b = best[row]
            best[row] = loglik if loglik > b or b != b else b  # np.max: NaN wins
    for s in range(n_s):
        for row in range(n):
            args[0, s, row] = args[0, s, row] - best[row]
            beyond = d2[s, row] - typical_d2
            args[1, s, row] = -(beyond if beyond > 0.0 or beyond != beyond else 0.0) / 10.0  # np.maximum


@kernel
def support_finish(exps, chosen, out):
    """AppearanceProfile.support from numpy's exponentials of support_arguments' `exps` (2, S, n):
    each class's share of the row's likelihood (numpy's pairwise sum over the S classes, worked
    out for all rows side by side: kernel_sums.pairwise_sum's order), times its typicality, into
    the columns `chosen` (S,) of `out` (n, C) (its other columns left as they are)."""
    n_s, n = exps.shape[1], exps.shape[2]
    norm = np.empty(n)
    if n_s < 8:
        norm[:] = 0.0
        for s in range(n_s):
            for row in range(n):
                norm[row] += exps[0, s, row]
    else:
        run = np.empty((8, n))
        for q in range(8):
            for row in range(n):
                run[q, row] = exps[0, q, row]
        stop = n_s - n_s % 8
        for s in range(8, stop):
            q = s % 8
            for row in range(n):
                run[q, row] += exps[0, s, row]
        for row in range(n):
            norm[row] = ((run[0, row] + run[1, row]) + (run[2, row] + run[3, row])) + (
                (run[4, row] + run[5, row]) + (run[6, row] + run[7, row]))
        for s in range(stop, n_s):
            for row in range(n):
                norm[row] += exps[0, s, row]
    for s in range(n_s):
        column = chosen[s]
        for row in range(n):
            out[row, column] = exps[0, s, row] / norm[row] * exps[1, s, row]


@kernel
def whitened_d2(features, chol, shift, d2):
    """Squared distances `d2` (S, n) (class by class) of rows `features` (n, 6) float64 to S classes
    whitened by `chol` (S, 6, 6) and shifted by `shift` (S, 6): |x·chol_s − shift_s|², each
    coordinate summed over the six features in order, the squares as einsum sums six: two running
    sums, then added. Every step runs along the rows (each row's own operations in the same order,
    so its numbers do not change): the compiler makes vector code of those loops."""
    n = features.shape[0]
    n_s = chol.shape[0]
    x = np.empty((6, n))  # the features column by column
    for row in range(n):
        for f in range(6):
            x[f, row] = features[row, f]
    x0, x1, x2, x3, x4, x5 = x[0], x[1], x[2], x[3], x[4], x[5]
    even = np.empty(n)
    odd = np.empty(n)
    for s in range(n_s):
        c = chol[s]
        for g in range(6):
            c0, c1, c2, c3, c4, c5 = c[0, g], c[1, g], c[2, g], c[3, g], c[4, g], c[5, g]
            shift_g = shift[s, g]
            squares = even if g % 2 == 0 else odd
            if g < 2:  # the first square of each running sum
                for row in range(n):
                    v = (((((x0[row] * c0 + x1[row] * c1) + x2[row] * c2) + x3[row] * c3) + x4[row] * c4)
                         + x5[row] * c5) - shift_g
                    squares[row] = v * v
            else:
                for row in range(n):
                    v = (((((x0[row] * c0 + x1[row] * c1) + x2[row] * c2) + x3[row] * c3) + x4[row] * c4)
                         + x5[row] * c5) - shift_g
                    squares[row] += v * v
        target = d2[s]
        for row in range(n):
            target[row] = even[row] + odd[row]  # einsum's two running sums (even and odd features), then added


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
        d2 = np.empty((len(chosen), len(rows)))  # class by class: the kernels run along the rows
        whitened_d2(rows, chol, shift, d2)
        args = np.empty((2, *d2.shape))
        support_arguments(d2, logdet, TYPICAL_D2, args)
        np.exp(args, out=args)
        out = np.zeros((len(rows), len(self.names)))
        support_finish(args, chosen, out)
        return out.reshape(*features.shape[:-1], len(self.names))


_WARM = []  # whether warm() ran in this process


def warm() -> None:
    """Run the kernels once on tiny inputs of the types ClassSupport passes, so that they are
    compiled (or loaded from the disk cache) now rather than in a live read. Once per process."""
    if _WARM:
        return
    d2 = np.empty((1, 1))
    whitened_d2(np.zeros((1, 6)), np.ones((1, 6, 6)), np.zeros((1, 6)), d2)
    args = np.empty((2, 1, 1))
    support_arguments(d2, np.zeros(1), TYPICAL_D2, args)
    support_finish(np.ones((2, 1, 1)), np.zeros(1, dtype=np.int64), np.zeros((1, 1)))
    _WARM.append(True)
