"""Compiled: which points of tile spaces the neighbours, as read, hide (garden_occlusion.Occlusion.hidden).

A read asks this two or three times (the flower dots' ~200 points per space, the icons' middles,
the floors), for a few dozen spaces each. In numpy it is one fancy-indexing gather of every
(space, neighbour, point) height, (n, 8, P) floats, then a comparison and an `any` along the
neighbours; here one loop compares each neighbour's top with the heights in place. The same
booleans (a comparison of the same floats: tests/vision/test_garden_speed_occlusion.py).
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel


@kernel
def hidden_points(heights, neighbour, tops, kinds, index, level, out):
    """heights (L, 64, 8, F, P) float64 (Occlusion.heights_by_point: per level, cell, neighbour and
    footprint, the top height above which that neighbour hides each point), neighbour (64, 8)
    int64 (-1 off the board), tops (65,) float64 and kinds (65,) int64 (Occlusion.standing; index
    64: nothing), index and level (n,) int64: each space's cell and level. Out: out (n, P) bool,
    whether some neighbour's top stands higher than the height above which it hides the point."""
    n = index.shape[0]
    n_p = heights.shape[4]
    for i in range(n):
        cell = index[i]
        k = level[i]
        for p in range(n_p):
            out[i, p] = False
        for j in range(neighbour.shape[1]):
            other = neighbour[cell, j]
            if other < 0:
                other = tops.shape[0] - 1
            top = tops[other]
            row = heights[k, cell, j, kinds[other]]
            for p in range(n_p):
                out[i, p] |= top > row[p]


def warm() -> None:
    """Compile (or load from the disk cache) hidden_points for the types a read passes."""
    if _WARM:
        return
    hidden_points(np.zeros((1, 1, 1, 1, 1)), np.zeros((1, 1), np.int64), np.zeros(2), np.zeros(2, np.int64),
                  np.zeros(1, np.int64), np.zeros(1, np.int64), np.empty((1, 1), bool))
    _WARM.append(True)


_WARM: list[bool] = []
