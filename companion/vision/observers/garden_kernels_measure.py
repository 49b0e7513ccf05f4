"""Compiled loops for the garden's measurements (garden_points.py): one pass over a probe's points.

A face test in numpy is a gather of its points, a median, a distance, a comparison and several
short-row sums: a dozen calls over arrays of ~20 000 to ~75 000 points and thousands of rows of 6 to
65 points, whose per-call and per-row overhead outweighs the arithmetic. Here each row (a cell at a
height) is read once from the frame's samples and reduced in place.

The numbers are numpy's, to the bit (tests/vision/test_garden_measure_speed.py compares them):
- a median of an odd count is an order statistic: found on the samples' codes (their rank among
  the channel's distinct values; the 8-bit Lab value itself for a frame's samples), by a binary
  search run for many rows side by side (code_medians: no branch per value, vector compares; a
  quickselect per row lost to numpy's SIMD np.partition, this beats it), then read back as the
  value of that code;
- float32 arithmetic stays float32 (constants are float32), divisions into shares and means are
  float64 as numpy's int64 / int64 and float32 / int64 are;
- a sum of a row is numpy's pairwise sum (_pairwise: under 8 terms one after another, up to 128 eight
  running sums added as a tree, longer rows split in two at a multiple of 8);
- the colour distance is ((d0² + d1²) + d2²) in float32, as numpy's einsum over the channels.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel

_F32_0 = np.float32(0.0)


@kernel
def _block_sum(a, start, n):
    """numpy's pairwise sum of a block of at most 128 terms (float32)."""
    if n < 8:
        res = _F32_0
        for i in range(start, start + n):
            res += a[i]
        return res
    r0, r1, r2, r3 = a[start], a[start + 1], a[start + 2], a[start + 3]
    r4, r5, r6, r7 = a[start + 4], a[start + 5], a[start + 6], a[start + 7]
    i = 8
    stop = n - n % 8
    while i < stop:
        p = start + i
        r0 += a[p]
        r1 += a[p + 1]
        r2 += a[p + 2]
        r3 += a[p + 3]
        r4 += a[p + 4]
        r5 += a[p + 5]
        r6 += a[p + 6]
        r7 += a[p + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for p in range(start + i, start + n):
        res += a[p]
    return res


@kernel
def _pairwise(a, start, n):
    """float32 sum of a[start:start + n] in numpy's pairwise order (see the module docstring).
    Over 128 terms numpy halves the row (at a multiple of 8) and adds the halves' sums; that
    recursion is walked here with explicit stacks (numba's on-disk cache mishandles a recursive
    kernel: it crashed when loaded back)."""
    if n <= 128:
        return _block_sum(a, start, n)
    seg_start = np.empty(128, np.int64)  # pending segments: start, length, halves done (0/1)
    seg_n = np.empty(128, np.int64)
    seg_done = np.empty(128, np.int64)
    values = np.empty(128, np.float32)  # sums of finished segments, in order
    top, n_values = 0, 0
    seg_start[0], seg_n[0], seg_done[0] = start, n, 0
    while top >= 0:
        s0, n0 = seg_start[top], seg_n[top]
        if n0 <= 128:
            values[n_values] = _block_sum(a, s0, n0)
            n_values += 1
            top -= 1
        elif seg_done[top]:
            values[n_values - 2] = values[n_values - 2] + values[n_values - 1]
            n_values -= 1
            top -= 1
        else:
            seg_done[top] = 1
            n2 = n0 // 2
            n2 -= n2 % 8
            # the right half below the left: the left is summed first
            seg_start[top + 1], seg_n[top + 1], seg_done[top + 1] = s0 + n2, n0 - n2, 0
            seg_start[top + 2], seg_n[top + 2], seg_done[top + 2] = s0, n2, 0
            top += 2
    return values[0]


@kernel
def face_scores(lab, colour, both, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance):
    """Face tests over rows of points (garden_points.GardenSampler.fit and .scores in one).

    lab (3, N) float32 samples; colour (3, K, R) float32 each row's majority colour (the median of
    its first points: numpy's SIMD partition finds it faster than a loop here); both (K, R,
    width + S·Q) int64 indices into lab: a row's inside, then S ring sides of Q points each; ring_n
    (R, S) real points per side; side_of (R, S) which of the 4 sides (y−, x+, y+, x−) each is;
    inside_n (R,) real inside points. Returns per (K, R): score float32, inside share float64, the
    largest ring share float32, features (6: mean and spread of the like inside points; zero
    without `appearance`) float64, and the four sides' shares float32.
    """
    n_k, n_r, total = both.shape
    n_s = ring_n.shape[1]
    q = (total - width) // n_s if n_s else 0
    score = np.empty((n_k, n_r), np.float32)
    inside = np.empty((n_k, n_r), np.float64)
    ring_max = np.empty((n_k, n_r), np.float32)
    features = np.zeros((n_k, n_r, 6), np.float64)
    sides = np.zeros((n_k, n_r, 4), np.float32)
    chosen = np.empty((3, max(width, 1)), np.float32)
    squares = np.empty((3, max(width, 1)), np.float32)
    f012 = np.float32(0.12)
    f3 = np.float32(3.0)
    lo, hi = np.float32(tau_lo), np.float32(tau_hi)  # compared in float32, as numpy's weak scalars
    for k in range(n_k):
        for r in range(n_r):
            row = both[k, r]
            c0, c1, c2 = colour[0, k, r], colour[1, k, r], colour[2, k, r]
            tau = f012 * c0 + f3
            tau = tau if tau >= lo or tau != tau else lo  # np.maximum, np.minimum: NaN kept
            tau = tau if tau <= hi or tau != tau else hi
            tau2 = tau * tau
            hits = 0
            for j in range(width):
                i = row[j]
                v0, v1, v2 = lab[0, i], lab[1, i], lab[2, i]
                d0, d1, d2 = v0 - c0, v1 - c1, v2 - c2
                like = (d0 * d0 + d1 * d1) + d2 * d2 < tau2
                if like:
                    hits += 1
                if appearance:
                    if like:
                        chosen[0, j], chosen[1, j], chosen[2, j] = v0, v1, v2
                    else:
                        chosen[0, j], chosen[1, j], chosen[2, j] = _F32_0, _F32_0, _F32_0
            share = hits / max(inside_n[r], 1)
            inside[k, r] = share
            if appearance:
                count = max(hits, 1)
                for c in range(3):
                    for j in range(width):
                        squares[c, j] = chosen[c, j] * chosen[c, j]
                    mean = np.float64(_pairwise(chosen[c], 0, width)) / count
                    var = np.float64(_pairwise(squares[c], 0, width)) / count - mean * mean
                    if not var >= 0.0 and var == var:  # np.maximum(var, 0.0): NaN and -0.0 kept
                        var = 0.0
                    features[k, r, c] = mean
                    features[k, r, 3 + c] = np.sqrt(var)
            for s in range(n_s):
                start = width + s * q
                like_n = 0
                for j in range(start, start + q):
                    i = row[j]
                    d0, d1, d2 = lab[0, i] - c0, lab[1, i] - c1, lab[2, i] - c2
                    if (d0 * d0 + d1 * d1) + d2 * d2 < tau2:
                        like_n += 1
                sides[k, r, side_of[r, s]] = np.float32(like_n / max(ring_n[r, s], 1))
            top = max(max(sides[k, r, 0], sides[k, r, 1]), max(sides[k, r, 2], sides[k, r, 3]))
            ring_max[k, r] = top
            score[k, r] = np.float32(share - np.float64(top))
    return score, inside, ring_max, features, sides


@kernel
def patch_stats(lab, idx, lead):
    """Mean and spread (appearance.FEATURES) of patches: idx (R, n) int64 → (lead + R, 6) float32,
    as np.mean and np.std over each row's points (float32, pairwise sums), after `lead` rows of
    zeros (a level nothing is measured on)."""
    n_r, n = idx.shape
    out = np.empty((lead + n_r, 6), np.float32)
    out[:lead] = 0.0
    vals = np.empty((3, max(n, 1)), np.float32)
    dev = np.empty(max(n, 1), np.float32)
    count = np.float32(n)
    for r in range(n_r):
        for j in range(n):
            i = idx[r, j]
            vals[0, j], vals[1, j], vals[2, j] = lab[0, i], lab[1, i], lab[2, i]
        for c in range(3):
            mean = _pairwise(vals[c], 0, n) / count
            for j in range(n):
                d = vals[c, j] - mean
                dev[j] = d * d
            out[lead + r, c] = mean
            out[lead + r, 3 + c] = np.sqrt(_pairwise(dev, 0, n) / count)
    return out


@kernel
def best_span(inside, sides, closed):
    """A decoration's score closed all round or open along a row or a column (it may span two or
    three spaces), whichever fits better by more than 0.05, as babylon_garden's numpy did it:
    inside (n,) float64, sides (n, 4) float32, closed (n,) float32 → (n,) float64. The first
    margin is added in float32 (to the closed score), the second in float64."""
    out = np.empty(inside.shape[0], np.float64)
    margin32 = np.float32(0.05)
    for i in range(inside.shape[0]):
        score = np.float64(closed[i])
        threshold = np.float64(closed[i] + margin32)
        for a, b in ((0, 2), (1, 3)):
            x, y = sides[i, a], sides[i, b]
            top = x if x >= y or x != x else y  # np.max: NaN kept
            run = inside[i] - np.float64(top)
            if run > threshold:
                score = run
            threshold = score + 0.05
        out[i] = score
    return out


@kernel
def lab_samples(lab8, size):
    """OpenCV's 8-bit Lab of the samples (n ≥ size, 3) uint8, C-contiguous → (3, size + 2) float32
    channel first (L 0..100, a and b −128..127, as float32(value) · float32(100/255) and
    float32(value) − 128), then the +inf and −inf sentinels (garden_points.POS_INF, NEG_INF); and
    each sample's code (3, size + 2) int16: its 8-bit value + 1, the sentinels 257 and 0 (see
    LAB_VALUES). One channel at a time over the flat samples: the compiler then vectorises each
    loop (with the three channels in one loop over (n, 3) indices it did not: ~10× slower)."""
    out = np.empty((3, size + 2), np.float32)
    codes = np.empty((3, size + 2), np.int16)
    scale = np.float32(100.0 / 255.0)
    offset = np.float32(128.0)
    flat = lab8.reshape(-1)
    for c in range(3):
        plane = out[c]
        code = codes[c]
        if c == 0:
            for i in range(size):
                value = flat[3 * i]
                plane[i] = np.float32(value) * scale
                code[i] = np.int16(value) + np.int16(1)
        else:
            for i in range(size):
                value = flat[3 * i + c]
                plane[i] = np.float32(value) - offset
                code[i] = np.int16(value) + np.int16(1)
    for c in range(3):
        out[c, size] = np.inf
        out[c, size + 1] = -np.inf
        codes[c, size] = 257
        codes[c, size + 1] = 0
    return out, codes


def _lab_values() -> np.ndarray:
    """(3, 258) float32: the value of each code lab_samples gives (−inf, the 256 8-bit values as
    floats, +inf): ascending, as codes are."""
    values = np.empty((3, 258), np.float32)
    levels = np.arange(256, dtype=np.uint8)
    values[0, 1:257] = levels * np.float32(100.0 / 255.0)
    values[1:, 1:257] = levels - np.float32(128.0)
    values[:, 0], values[:, 257] = -np.inf, np.inf
    return values


LAB_VALUES = _lab_values()


def value_codes(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes for any samples (3, N): each value's rank among its channel's distinct values, and
    those values (padded with the last) — what code_medians needs, for samples not from
    lab_samples."""
    ranked = [np.unique(channel, return_inverse=True) for channel in lab]
    width = max(len(v) for v, _ in ranked)
    values = np.stack([np.concatenate([v, np.full(width - len(v), v[-1] if len(v) else 0, np.float32)])
                       for v, _ in ranked]).astype(np.float32)
    return np.stack([i.ravel() for _, i in ranked]).astype(np.int32), values


_LANES = 256  # rows searched side by side (their codes: 256 × the row's points, in L1)


@kernel
def code_medians(codes, values, idx):
    """(3, K, R) float32: per channel the median of each row of idx (K, R, M) (M odd), as
    np.partition gives it. codes (3, N) int: each sample's rank among its channel's distinct
    values, values (3, V) those values ascending (a code is an index into them)."""
    n_k, n_r, m = idx.shape
    lanes = n_k * n_r
    out = np.empty((3, lanes), np.float32)
    work = np.empty((max(m, 1), _LANES), np.int32)
    low = np.empty(_LANES, np.int32)
    high = np.empty(_LANES, np.int32)
    mid = np.empty(_LANES, np.int32)
    count = np.empty(_LANES, np.int32)
    half = m // 2
    steps = 0
    while (1 << steps) < values.shape[1]:
        steps += 1
    for c in range(3):
        for start in range(0, lanes, _LANES):
            n = min(_LANES, lanes - start)
            for t in range(n):
                lane = start + t
                k, r = lane // n_r, lane % n_r
                for j in range(m):
                    work[j, t] = codes[c, idx[k, r, j]]
                low[t] = 0
                high[t] = values.shape[1] - 1
            # the smallest code with more than half the row at or below it; once low == high
            # a step keeps it (the count at the answer is always more than half)
            for _ in range(steps):
                for t in range(n):
                    mid[t] = (low[t] + high[t]) >> 1
                    count[t] = 0
                for j in range(m):
                    for t in range(n):
                        count[t] += np.int32(work[j, t] <= mid[t])
                for t in range(n):
                    more = count[t] > half
                    high[t] = mid[t] if more else high[t]
                    low[t] = low[t] if more else mid[t] + 1
            for t in range(n):
                out[c, start + t] = values[c, low[t]]
    return out.reshape(3, n_k, n_r)
