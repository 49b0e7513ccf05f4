"""The garden's measurement kernels run for many rows side by side (garden_points.GardenSampler).

garden_kernels_measure's kernels read one row (a probe at one cell and height) at a time: scalar
loops over 6 to 97 points, which the compiler cannot vectorise. Here LANES rows are worked on
together: their points are gathered into (points, LANES) blocks (the index arrays laid out so
once per camera set-up: `blocked`), and every step runs across the lanes, so each vector
instruction serves several rows while every row keeps its own order of operations:
- patch_stats_lanes: patches' mean and spread (patch_stats);
- face_scores_lanes: a face's like points, its inside and ring shares and the like points'
  features (face_scores); with find_colour (face_scores_coloured) it first finds each row's
  majority colour as code_medians does, on the inside points it then tests (gathered once);
- code_medians_lanes: the majority colour's binary search on the samples' codes (code_medians).

The numbers are the row kernels' to the bit, hence numpy's (tests/vision/test_garden_speed_lanes.py):
each lane sums its points in numpy's pairwise order (under 8 terms one after another; up to 128 in
eight running sums added as a tree) in the row kernels' types. Rows of more than 128 points (numpy
halves those) go to the row kernels themselves.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel
from .garden_kernels_measure import face_scores, patch_stats

LANES = 64  # rows worked on together: a block's values (3 × points × LANES float32) stay in L1
_PAIRWISE_BLOCK = 128  # numpy sums up to this many terms without halving the row
_F32_0 = np.float32(0.0)


def blocked(idx: np.ndarray) -> np.ndarray:
    """(R, n) row indices → (ceil(R / LANES), n, LANES) int32: each block's rows side by side, point
    by point (lanes past the last row read sample 0; their results are dropped). int32, not int64:
    a read streams ~1.5 MB of these blocks through the cache, and half of that costs less (a frame
    has ~94 000 samples; the sentinels are −2 and −1)."""
    rows, n = idx.shape
    if len(idx) and (idx.max(initial=0) >= 2**31 or idx.min(initial=0) < -(2**31)):
        raise ValueError("sample indices beyond int32")
    count = -(-rows // LANES)
    out = np.zeros((count * LANES, n), np.int32)
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


@kernel
def _gather(lab, src, g0, g1, g2):
    """The three channels of the samples src (LANES,) into g0, g1, g2."""
    for t in range(src.shape[0]):
        i = src[t]
        g0[t], g1[t], g2[t] = lab[0, i], lab[1, i], lab[2, i]


@kernel
def _code(c, value):
    """A sample's code (lab_samples: its 8-bit value + 1; −inf 0, +inf 257) from its value: L is
    the byte · 100/255 (a byte's L times 2.55 lies within 0.01 of it), a and b the byte − 128."""
    if c == 0:
        v = min(max(value, np.float32(-0.5)), np.float32(100.4))  # ±inf to the sentinels' codes below
        return np.int16(np.int32(v * np.float32(2.55) + np.float32(1.5)))
    v = min(max(value, np.float32(-129.0)), np.float32(128.0))
    return np.int16(np.int32(v) + np.int32(129))


@kernel
def _median_codes(codes, m, top, steps, low, high, mid, count):
    """code_medians' binary search on the rows codes[:m] (m, lanes) side by side: low[t] = the
    smallest code (of 0..top) with more than half of lane t's m codes at or below it."""
    lanes = codes.shape[1]
    half = m // 2
    for t in range(lanes):
        low[t] = 0
        high[t] = top
    for _ in range(steps):
        for t in range(lanes):
            mid[t] = (low[t] + high[t]) >> 1
            count[t] = 0
        for j in range(m):
            row16 = codes[j]
            for t in range(lanes):
                count[t] += np.int16(row16[t] <= mid[t])
        for t in range(lanes):
            more = count[t] > half
            high[t] = mid[t] if more else high[t]
            low[t] = low[t] if more else mid[t] + 1


@kernel
def _search(seen, codes, m, values, steps, low, high, mid, count, c, out):
    """code_medians' binary search for channel c of the rows in seen (3, m, lanes) side by side:
    out[t] = the value of the smallest code with more than half of row t's codes at or below it."""
    lanes = seen.shape[2]
    for j in range(m):
        row, dst = seen[c, j], codes[j]
        for t in range(lanes):
            dst[t] = _code(c, row[t])
    _median_codes(codes, m, values.shape[1] - 1, steps, low, high, mid, count)
    for t in range(lanes):
        out[t] = values[c, low[t]]


@kernel
def face_scores_lanes(lab, colour, blocks, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance, n_k, n_r,
                      find_colour, values):
    """garden_kernels_measure.face_scores from blocked(both.reshape(K·R, -1)) (K = n_k, R = n_r):
    the same five arrays, bit for bit, the rows worked on LANES at a time.

    With `find_colour`, each row's majority colour is found here and written into `colour` (3, K, R):
    code_medians' binary search on the codes of the row's first `width` points (its median's
    points: a probe's inside), which are gathered once for both. Only for samples lab_samples made
    (`values` = LAB_VALUES): a sample's code is then its value's place among `values` (_code)."""
    n_b, total, lanes = blocks.shape
    rows = n_k * n_r
    n_s = ring_n.shape[1]
    q = (total - width) // n_s if n_s else 0
    score = np.empty((n_k, n_r), np.float32)
    inside = np.empty((n_k, n_r), np.float64)
    ring_max = np.empty((n_k, n_r), np.float32)
    features = np.zeros((n_k, n_r, 6), np.float64)
    sides = np.zeros((n_k, n_r, 4), np.float32)
    # The like points' sums and sums of squares per channel, in _lane_sums' order but as the points
    # come (no array of the like points to read back): eight running sums from the first eight
    # points to the last multiple of eight, added as a tree, then the rest one after another;
    # under eight points, one after another from zero.
    run = np.empty((6, 8, lanes), np.float32)  # channel c's sums (c) and squares (3 + c)
    sums = np.empty((6, lanes), np.float32)
    stop = width - width % 8
    lane_colour = np.empty((3, lanes), np.float32)
    c0, c1, c2 = lane_colour[0], lane_colour[1], lane_colour[2]
    tau2 = np.empty(lanes, np.float32)
    # find_colour: the inside points' values (read again by the face test) and codes (searched)
    seen = np.empty((3, max(width, 1) if find_colour else 1, lanes), np.float32)
    codes = np.empty((max(width, 1) if find_colour else 1, lanes), np.int16)
    low = np.empty(lanes, np.int16)
    high = np.empty(lanes, np.int16)
    mid = np.empty(lanes, np.int16)
    count = np.empty(lanes, np.int16)
    steps = 0
    while (1 << steps) < values.shape[1]:
        steps += 1
    g0 = np.empty(lanes, np.float32)
    g1 = np.empty(lanes, np.float32)
    g2 = np.empty(lanes, np.float32)
    hits = np.empty(lanes, np.int64)
    cell = np.empty(lanes, np.int64)
    f012 = np.float32(0.12)
    f3 = np.float32(3.0)
    lo, hi = np.float32(tau_lo), np.float32(tau_hi)  # compared in float32, as numpy's weak scalars
    for b in range(n_b):
        first = b * lanes
        used = min(lanes, rows - first)
        block = blocks[b]
        if find_colour:
            for j in range(width):
                _gather(lab, block[j], seen[0, j], seen[1, j], seen[2, j])
            for c in range(3):  # (one call site: the compiled kernel holds one copy of the search)
                _search(seen, codes, width, values, steps, low, high, mid, count, c, lane_colour[c])
            for t in range(used):
                lane = first + t
                k, r = lane // n_r, lane % n_r
                colour[0, k, r], colour[1, k, r], colour[2, k, r] = c0[t], c1[t], c2[t]
        for t in range(lanes):
            lane = min(first + t, rows - 1)  # lanes past the last row repeat it (dropped)
            k, r = lane // n_r, lane % n_r
            cell[t] = r
            if not find_colour:
                c0[t], c1[t], c2[t] = colour[0, k, r], colour[1, k, r], colour[2, k, r]
            tau = f012 * c0[t] + f3
            tau = tau if tau >= lo or tau != tau else lo  # np.maximum, np.minimum: NaN kept
            tau = tau if tau <= hi or tau != tau else hi
            tau2[t] = tau * tau
            hits[t] = 0
        if appearance and width < 8:
            for u in range(6):
                for t in range(lanes):
                    sums[u, t] = _F32_0
        for j in range(width):
            if find_colour:
                for t in range(lanes):
                    g0[t], g1[t], g2[t] = seen[0, j, t], seen[1, j, t], seen[2, j, t]
            else:
                _gather(lab, block[j], g0, g1, g2)
            if appearance:
                for t in range(lanes):
                    d0, d1, d2 = g0[t] - c0[t], g1[t] - c1[t], g2[t] - c2[t]
                    like = (d0 * d0 + d1 * d1) + d2 * d2 < tau2[t]
                    hits[t] += like
                    # the like point's channels (a point unlike the colour counts as zero)
                    g0[t] = g0[t] if like else _F32_0
                    g1[t] = g1[t] if like else _F32_0
                    g2[t] = g2[t] if like else _F32_0
                if width < 8:
                    for t in range(lanes):
                        sums[0, t] += g0[t]
                        sums[1, t] += g1[t]
                        sums[2, t] += g2[t]
                        sums[3, t] += g0[t] * g0[t]
                        sums[4, t] += g1[t] * g1[t]
                        sums[5, t] += g2[t] * g2[t]
                elif j < 8:
                    for t in range(lanes):
                        run[0, j, t] = g0[t]
                        run[1, j, t] = g1[t]
                        run[2, j, t] = g2[t]
                        run[3, j, t] = g0[t] * g0[t]
                        run[4, j, t] = g1[t] * g1[t]
                        run[5, j, t] = g2[t] * g2[t]
                elif j < stop:
                    slot = j % 8
                    for t in range(lanes):
                        run[0, slot, t] += g0[t]
                        run[1, slot, t] += g1[t]
                        run[2, slot, t] += g2[t]
                        run[3, slot, t] += g0[t] * g0[t]
                        run[4, slot, t] += g1[t] * g1[t]
                        run[5, slot, t] += g2[t] * g2[t]
                else:
                    for t in range(lanes):
                        sums[0, t] += g0[t]
                        sums[1, t] += g1[t]
                        sums[2, t] += g2[t]
                        sums[3, t] += g0[t] * g0[t]
                        sums[4, t] += g1[t] * g1[t]
                        sums[5, t] += g2[t] * g2[t]
                if width >= 8 and j == stop - 1:  # the eight running sums done: their tree
                    for u in range(6):
                        a = run[u]
                        for t in range(lanes):
                            sums[u, t] = ((a[0, t] + a[1, t]) + (a[2, t] + a[3, t])) + ((a[4, t] + a[5, t]) + (a[6, t] + a[7, t]))
            else:
                for t in range(lanes):
                    d0, d1, d2 = g0[t] - c0[t], g1[t] - c1[t], g2[t] - c2[t]
                    hits[t] += (d0 * d0 + d1 * d1) + d2 * d2 < tau2[t]
        for t in range(used):
            lane = first + t
            k, r = lane // n_r, lane % n_r
            inside[k, r] = hits[t] / max(inside_n[r], 1)
        if appearance:
            for c in range(3):
                for t in range(used):
                    lane = first + t
                    k, r = lane // n_r, lane % n_r
                    features[k, r, c] = np.float64(sums[c, t]) / max(hits[t], 1)
                for t in range(used):
                    lane = first + t
                    k, r = lane // n_r, lane % n_r
                    mean = features[k, r, c]
                    var = np.float64(sums[3 + c, t]) / max(hits[t], 1) - mean * mean
                    if not var >= 0.0 and var == var:  # np.maximum(var, 0.0): NaN and -0.0 kept
                        var = 0.0
                    features[k, r, 3 + c] = np.sqrt(var)
        for s in range(n_s):
            start = width + s * q
            for t in range(lanes):
                hits[t] = 0
            for j in range(start, start + q):
                _gather(lab, block[j], g0, g1, g2)
                for t in range(lanes):
                    d0, d1, d2 = g0[t] - c0[t], g1[t] - c1[t], g2[t] - c2[t]
                    hits[t] += (d0 * d0 + d1 * d1) + d2 * d2 < tau2[t]
            for t in range(used):
                lane = first + t
                k, r = lane // n_r, lane % n_r
                sides[k, r, side_of[r, s]] = np.float32(hits[t] / max(ring_n[r, s], 1))
        for t in range(used):
            lane = first + t
            k, r = lane // n_r, lane % n_r
            top = max(max(sides[k, r, 0], sides[k, r, 1]), max(sides[k, r, 2], sides[k, r, 3]))
            ring_max[k, r] = top
            score[k, r] = np.float32(inside[k, r] - np.float64(top))
    return score, inside, ring_max, features, sides


def face_scores_blocked(lab, colour, both, blocks, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance):
    """face_scores(lab, colour, both, ...), side by side (blocks = blocked of both's rows) when the
    insides are short enough."""
    if width > _PAIRWISE_BLOCK or width == 0 or both.shape[0] * both.shape[1] == 0:
        return face_scores(lab, colour, both, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance)
    return face_scores_lanes(lab, colour, blocks, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance,
                             both.shape[0], both.shape[1], False, _NO_VALUES)


def face_scores_coloured(lab, values, both, blocks, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance):
    """(colour (3, K, R), then face_scores_blocked's five arrays): each row's majority colour found in
    the same pass (face_scores_lanes with find_colour), for samples lab_samples made (values =
    LAB_VALUES) and rows whose first `width` points are their median's; None where the rows are
    not laid out side by side (width 0 or over 128)."""
    if width > _PAIRWISE_BLOCK or width == 0 or both.shape[0] * both.shape[1] == 0:
        return None
    colour = np.empty((3, both.shape[0], both.shape[1]), np.float32)
    out = face_scores_lanes(lab, colour, blocks, width, ring_n, side_of, inside_n, tau_lo, tau_hi, appearance,
                            both.shape[0], both.shape[1], True, values)
    return (colour, *out)


_NO_VALUES = np.zeros((3, 1), np.float32)  # face_scores_lanes' values when it is not finding colours


@kernel
def code_medians_lanes(codes, values, blocks, n_k, n_r):
    """garden_kernels_measure.code_medians(codes, values, idx) from blocked(idx.reshape(K·R, M))
    (K = n_k, R = n_r): the same binary search on the codes, its gathers laid out per block, in
    16-bit lanes (values: at most 32 767 codes, as LAB_VALUES; a row: fewer points than that)."""
    n_b, m, lanes = blocks.shape
    rows = n_k * n_r
    out = np.empty((3, rows), np.float32)
    work = np.empty((max(m, 1), lanes), np.int16)
    low = np.empty(lanes, np.int16)
    high = np.empty(lanes, np.int16)
    mid = np.empty(lanes, np.int16)
    count = np.empty(lanes, np.int16)
    top = values.shape[1] - 1
    steps = 0
    while (1 << steps) < values.shape[1]:
        steps += 1
    for c in range(3):
        plane = codes[c]
        for b in range(n_b):
            first = b * lanes
            block = blocks[b]
            for j in range(m):
                src = block[j]
                dst = work[j]
                for t in range(lanes):
                    dst[t] = plane[src[t]]
            _median_codes(work, m, top, steps, low, high, mid, count)
            for t in range(min(lanes, rows - first)):
                out[c, first + t] = values[c, low[t]]
    return out.reshape(3, n_k, n_r)
