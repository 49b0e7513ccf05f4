"""Compiled inner loops of the Baubylon read (numba, through companion.vision.jit.kernel).

Each kernel gives the numbers of the numpy code it stands in for: the same float32 or float64
operations, in the same order, on the same types (constants typed as the numpy code's weak scalars
become). Exponentials of float32 values stay with numpy (its SIMD exp is not the compiled one's:
they differ in the last bit), so a kernel writes their arguments and a second kernel goes on from
numpy's results. tests/vision/test_baubylon_kernels.py checks each against its numpy reference.
"""

from __future__ import annotations

import numpy as np

from ..jit import kernel

_F32 = np.float32
_HALF = np.float32(0.5)
_TINY = np.float32(1e-6)
_ZERO = np.float32(0.0)
_ONE = np.float32(1.0)

# Outline.evidence's and seam_evidence's defaults (as baubylon_speed), typed as numpy makes them.
_NOISE = np.float32(3.0)
_STEP_INV = np.float32(1.0 / 10.0)
_LIKE_SCALE = np.float32(15.0)
_SHARPNESS_PX = np.float32(1.2)


@kernel
def _maximum(a, b):
    """np.maximum of two scalars (NaN if either is)."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a >= b else b


@kernel
def _minimum(a, b):
    """np.minimum of two scalars (NaN if either is)."""
    if a != a:
        return a
    if b != b:
        return b
    return a if a <= b else b


@kernel
def _outline_args(across, reference, offsets, expected, alike_scale, fields, args):
    """stack_sampling.outline() of faces of colour `reference` (S, 3), one per square at every
    height, from their samples `across` (S, K, 4, P, O, 3) float32 at `offsets` (O,) px, into
    `fields` (5, S, K, 4, P): crossing, step, inside, outside, middle; and the arguments of the
    exponentials block_outline_terms takes, into `args` (5, S, K, 4, P): −(inside / 15)²,
    −((crossing − expected) / 1.2)², −(max(inside, outside) / 15)², −(inside / a)² − (outside / a)²,
    −(inside / a)² (a: `alike_scale`; `expected` (S, K, 4))."""
    n_s, n_k, n_sides, n_p, n_o = across.shape[:5]
    rows = n_k * n_sides * n_p
    centre = n_o // 2
    flat = across.reshape(n_s, rows * n_o, 3)
    distance = np.empty(rows * n_o, np.float32)
    for s in range(n_s):
        r0, r1, r2 = reference[s, 0], reference[s, 1], reference[s, 2]
        for i in range(rows * n_o):  # colour_distance: ((d0² + d1²) + d2²), then the root
            d0 = flat[s, i, 0] - r0
            d1 = flat[s, i, 1] - r1
            d2 = flat[s, i, 2] - r2
            distance[i] = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
        at = -n_o  # where each row's distances start
        for k in range(n_k):
            for side in range(n_sides):
                for p in range(n_p):
                    at += n_o
                    lo, hi = distance[at], distance[at + n_o - 1]
                    half = _HALF * (lo + hi)
                    first = 0  # argmax(distance >= half): the first offset past halfway, else 0
                    for o in range(n_o):
                        if distance[at + o] >= half:
                            first = o
                            break
                    if first < 1:
                        first = 1
                    before, after = distance[at + first - 1], distance[at + first]
                    # (builtin max and min keep a NaN first argument, as np.maximum and np.minimum do)
                    frac = min(max((half - before) / max(after - before, _TINY), _ZERO), _ONE)
                    start = offsets[first - 1]
                    crossing = start + frac * (offsets[first] - start)
                    middle = _maximum(_maximum(distance[at + centre - 1], distance[at + centre]),
                                      distance[at + centre + 1])
                    fields[0, s, k, side, p] = crossing
                    fields[1, s, k, side, p] = hi - lo
                    fields[2, s, k, side, p] = lo
                    fields[3, s, k, side, p] = hi
                    fields[4, s, k, side, p] = middle
                    t = lo / _LIKE_SCALE
                    args[0, s, k, side, p] = -(t * t)
                    t = (crossing - expected[s, k, side]) / _SHARPNESS_PX
                    args[1, s, k, side, p] = -(t * t)
                    t = _maximum(lo, hi) / _LIKE_SCALE
                    args[2, s, k, side, p] = -(t * t)
                    t = lo / alike_scale
                    u = hi / alike_scale
                    args[3, s, k, side, p] = -(t * t) - u * u
                    args[4, s, k, side, p] = -(t * t)


@kernel
def _block_terms_from(fields, exps, out):
    """block_outline_terms' four terms from _outline_args' `fields` and numpy's exp of its `args`
    (`exps`), along each side (stack_sampling.along_side: the sum, the best and the worst taken
    position by position, in its order), into `out` (4, S, levels, 4) whose level 0 (the table)
    is left as it is (zeros). (Scalars only: a helper taking an array costs more than the sums.)"""
    n_s, n_k, n_sides, n_p = fields.shape[1:]
    for s in range(n_s):
        for k in range(n_k):
            for side in range(n_sides):
                for term in range(4):
                    total = high = low = _ZERO
                    for p in range(n_p):
                        if term == 0:
                            step = fields[1, s, k, side, p]
                            value = (min(max(step - _NOISE, _ZERO) * _STEP_INV, _ONE)
                                     * exps[0, s, k, side, p]) * exps[1, s, k, side, p]
                        elif term == 1:
                            both = _maximum(fields[2, s, k, side, p], fields[3, s, k, side, p])
                            seam = (fields[4, s, k, side, p] - both) - _NOISE
                            value = min(max(seam, _ZERO) * _STEP_INV, _ONE) * exps[2, s, k, side, p]
                        else:
                            value = exps[term + 1, s, k, side, p]
                        if p == 0:
                            total = high = low = value
                        else:
                            # (a NaN makes the total NaN, and the result, whatever high and low are)
                            total = total + value
                            high = max(high, value)
                            low = min(low, value)
                    if n_p < 3:  # along_side: the mean
                        out[term, s, k + 1, side] = total / np.float32(n_p)
                    else:
                        out[term, s, k + 1, side] = ((total - high) - low) / np.float32(n_p - 2)


def block_outline_terms(across: np.ndarray, reference: np.ndarray, offsets, expected: np.ndarray,
                        alike_scale: float, rows: int, cols: int):
    """baubylon_speed.block_outline_terms(outline(ProbeSamples(…, across, offsets), reference),
    expected, alike_scale) from the block tops' samples across their sides (S, levels − 1, 4, P,
    O, 3 Lab) and their colour, one per square (S, 3): the same four (rows, cols, levels, 4)
    float32 arrays, zeros on the table level."""
    across = np.ascontiguousarray(across, np.float32)
    reference = np.ascontiguousarray(reference, np.float32)
    offsets = np.ascontiguousarray(offsets, np.float32)
    expected = np.ascontiguousarray(expected, np.float32)
    shape = across.shape[:4]
    fields = np.empty((5, *shape), np.float32)
    args = np.empty((5, *shape), np.float32)
    _outline_args(across, reference, offsets, expected, np.float32(alike_scale), fields, args)
    np.exp(args, out=args)
    out = np.zeros((4, shape[0], shape[1] + 1, shape[2]), np.float32)
    _block_terms_from(fields, args, out)
    out = out.reshape(4, rows, cols, shape[1] + 1, shape[2])
    return out[0], out[1], out[2], out[3]
