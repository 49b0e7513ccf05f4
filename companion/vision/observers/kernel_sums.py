"""numpy's own summation order, for compiled kernels that must give numpy's numbers bit for bit.

numpy adds a float row pairwise: below 8 values in order; up to 128 in eight running sums, added
in pairs, then the rest in order; longer rows split in halves (garden_kernels_measure walks that
for float32 rows of any length).
"""

from __future__ import annotations

from ..jit import kernel


@kernel
def pairwise_sum(values, start, count):
    """numpy's sum of `count` ≤ 128 float64 values from `start`, the very same number."""
    if count < 8:
        total = 0.0
        for i in range(count):
            total += values[start + i]
        return total
    r0, r1, r2, r3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    r4, r5, r6, r7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    i = 8
    while i < count - count % 8:
        at = start + i
        r0 += values[at]
        r1 += values[at + 1]
        r2 += values[at + 2]
        r3 += values[at + 3]
        r4 += values[at + 4]
        r5 += values[at + 5]
        r6 += values[at + 6]
        r7 += values[at + 7]
        i += 8
    total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < count:
        total += values[start + i]
        i += 1
    return total
