"""The garden's patch statistics computed for many rows side by side (garden_points.GardenSampler).

garden_kernels_measure.patch_stats reads one row (a patch: a cell at a height) at a time: a few
scalar loops of 6 to 25 points each, which the compiler cannot vectorise. Here LANES rows are
worked on together: their points are gathered once into (points, LANES) blocks (the index arrays
laid out so once per camera set-up: `blocked`), and every step runs across the lanes, so each
vector instruction serves several rows while every row keeps its own order of operations.

The numbers are patch_stats' to the bit (tests/vision/test_garden_speed_lanes.py): each lane sums
its points in numpy's pairwise order (under 8 terms one after another; up to 128 in eight running
sums added as a tree), in float32, and divides by the count in float32. Rows of more than 128
points (numpy halves those) go to patch_stats itself.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from .garden_kernels_measure import patch_stats

LANES = 64  # rows worked on together: a block's values (3 × points × LANES float32) stay in L1
_PAIRWISE_BLOCK = 128  # numpy sums up to this many terms without halving the row
_F32_0 = np.float32(0.0)


def blocked(idx: np.ndarray) -> np.ndarray:
    """(R, n) row indices → (ceil(R / LANES), n, LANES): each block's rows side by side, point by
    point (lanes past the last row read sample 0; their results are dropped)."""
    rows, n = idx.shape
    count = -(-rows // LANES)
    out = np.zeros((count * LANES, n), np.int64)
    out[:rows] = idx
    return np.ascontiguousarray(out.reshape(count, LANES, n).transpose(0, 2, 1))


@kernel
def _lane_sums(values, n, acc, out):
    """out[t] = numpy's float32 pairwise sum of values[:n, t] for every lane t (n ≤ 128); acc
    (8, LANES) scratch."""
    lanes = values.shape[1]
    if n < 8:
        for t in range(lanes):
            out[t] = _F32_0
        for j in range(n):
            row = values[j]
            for t in range(lanes):
                out[t] += row[t]
        return
    for q in range(8):
        for t in range(lanes):
            acc[q, t] = values[q, t]
    i = 8
    stop = n - n % 8
    while i < stop:
        for q in range(8):
            row = values[i + q]
            for t in range(lanes):
                acc[q, t] += row[t]
        i += 8
    for t in range(lanes):
        out[t] = ((acc[0, t] + acc[1, t]) + (acc[2, t] + acc[3, t])) + ((acc[4, t] + acc[5, t]) + (acc[6, t] + acc[7, t]))
    for j in range(i, n):
        row = values[j]
        for t in range(lanes):
            out[t] += row[t]


@kernel
def patch_stats_lanes(lab, idx_blocks, rows, lead):
    """patch_stats(lab, idx, lead) from blocked(idx) (`rows` = R): (lead + R, 6) float32, the mean
    and spread of each row's points per channel after `lead` rows of zeros."""
    n_b, n, lanes = idx_blocks.shape
    out = np.empty((lead + rows, 6), np.float32)
    out[:lead] = 0.0
    vals = np.empty((3, max(n, 1), lanes), np.float32)
    dev = np.empty((max(n, 1), lanes), np.float32)
    acc = np.empty((8, lanes), np.float32)
    mean = np.empty(lanes, np.float32)
    total = np.empty(lanes, np.float32)
    count = np.float32(n)
    for b in range(n_b):
        block = idx_blocks[b]
        for j in range(n):
            src = block[j]
            for c in range(3):
                plane = lab[c]
                dst = vals[c, j]
                for t in range(lanes):
                    dst[t] = plane[src[t]]
        first = b * lanes
        used = min(lanes, rows - first)
        for c in range(3):
            _lane_sums(vals[c], n, acc, total)
            for t in range(lanes):
                mean[t] = total[t] / count
            for j in range(n):
                for t in range(lanes):
                    d = vals[c, j, t] - mean[t]
                    dev[j, t] = d * d
            _lane_sums(dev, n, acc, total)
            for t in range(used):
                out[lead + first + t, c] = mean[t]
                out[lead + first + t, 3 + c] = np.sqrt(total[t] / count)
    return out


def patch_stats_blocked(lab: np.ndarray, idx: np.ndarray, idx_blocks: np.ndarray, lead: int) -> np.ndarray:
    """patch_stats(lab, idx, lead), side by side when the rows are short enough (idx_blocks =
    blocked(idx))."""
    if idx.shape[1] > _PAIRWISE_BLOCK or idx.shape[1] == 0:
        return patch_stats(lab, idx, lead)
    return patch_stats_lanes(lab, idx_blocks, idx.shape[0], lead)


def warm() -> None:
    """Compile (or load) the kernels on tiny inputs, as a live read calls them."""
    lab = np.zeros((3, 4), np.float32)
    for n in (3, 9):
        idx = np.zeros((2, n), np.int64)
        patch_stats_blocked(lab, idx, blocked(idx), 1)
