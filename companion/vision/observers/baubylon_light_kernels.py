"""Compiled loop of the Baubylon light fit (baubylon_light): how well each tilt of the plane agrees
with the ring's places. A few hundred tilts × ~150 places a read: in numpy, (tilts, places)
temporaries for each step; compiled, one pass without them (the same numbers)."""

from __future__ import annotations

import numpy as np

from ..jit import kernel


@kernel
def tilt_scores(brightness, dx, dy, unhidden, level, tx, ty, tolerance, above, penalty):
    """(k,) per tilt (tx[i], ty[i]): the places (n,) whose `brightness` is within `tolerance` of the
    plane level + tx·dx + ty·dy (relative; the plane at least 1e-3), less `penalty` per unhidden
    place more than `above` brighter than it. float64 arrays (n,) and (k,); `unhidden` bool (n,)."""
    count = tx.shape[0]
    out = np.empty(count)
    for i in range(count):
        agree = 0
        over = 0
        for j in range(brightness.shape[0]):
            plane = level + tx[i] * dx[j] + ty[i] * dy[j]
            if plane < 1e-3:
                plane = 1e-3
            relative = brightness[j] / plane
            if abs(relative - 1.0) < tolerance:
                agree += 1
            if unhidden[j] and relative > 1.0 + above:
                over += 1
        out[i] = agree - penalty * over
    return out
