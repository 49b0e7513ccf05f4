"""Compiled: the mean colour of each flower dot's points in view, per tile space and corner.

garden_flowers.SeenDots.colours reads each partly hidden dot again from its points in view. Its
per-space, per-corner numpy means (a dozen small calls per space) cost more than the sums; here
one loop does them. The same numbers as numpy's `part[mine].mean(axis=0)`: a reduction along the
first axis of an (n, 3) array adds the rows one after another, then divides by the count
(tests/vision/test_garden_speed_flowers.py compares them).
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel


@kernel
def corner_means(lab, seen, corner, means, counts):
    """lab (N, 3) float64: the points in view, space after space, each space's in point order;
    seen (n, P) bool: which of the P dot points of each space are in view (N in all); corner
    (P,) int64: each point's corner. Out: means (n, K, 3) float64 of each corner's points (0
    where none) and counts (n, K) int64."""
    n, points = seen.shape
    at = 0
    for i in range(n):
        for k in range(means.shape[1]):
            counts[i, k] = 0
            for ch in range(3):
                means[i, k, ch] = 0.0
        for p in range(points):
            if not seen[i, p]:
                continue
            k = corner[p]
            if counts[i, k] == 0:
                for ch in range(3):
                    means[i, k, ch] = lab[at, ch]  # numpy's sum starts from the first row
            else:
                for ch in range(3):
                    means[i, k, ch] += lab[at, ch]
            counts[i, k] += 1
            at += 1
        for k in range(means.shape[1]):
            if counts[i, k]:
                for ch in range(3):
                    means[i, k, ch] = means[i, k, ch] / counts[i, k]


def warm() -> None:
    """Compile (or load from the disk cache) corner_means for the types a read passes."""
    if _WARM:
        return
    corner_means(np.zeros((1, 3)), np.ones((1, 1), bool), np.zeros(1, np.int64), np.empty((1, 4, 3)),
                 np.empty((1, 4), np.int64))
    _WARM.append(True)


_WARM: list[bool] = []
