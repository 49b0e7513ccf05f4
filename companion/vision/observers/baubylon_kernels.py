"""Compiled inner loops of the Baubylon read (numba, through companion.vision.jit.kernel).

Each kernel gives the numbers of the numpy code it stands in for: the same float32 or float64
operations, in the same order, on the same types (constants typed as the numpy code's weak scalars
become). Exponentials of float32 values stay with numpy (its SIMD exp is not the compiled one's:
they differ in the last bit), so a kernel writes their arguments and a second kernel goes on from
numpy's results. tests/vision/test_baubylon_kernels.py checks each against its numpy reference.
"""

from __future__ import annotations

import math

import numpy as np

from ..jit import kernel
from .kernel_sums import pairwise_sum

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
    −(inside / a)² (a: `alike_scale`; `expected` (S, K, 4)). With a = 15 the last is the first's:
    `args` may then hold the first four only."""
    n_s, n_k, n_sides, n_p, n_o = across.shape[:5]
    n_args = args.shape[0]  # 4: the last (the same as the first when alike_scale is 15) left out
    rows = n_k * n_sides * n_p
    centre = n_o // 2
    flat = across.reshape(n_s, rows * n_o, 3)
    distance = np.empty(rows * n_o, np.float32)
    for s in range(n_s):
        r0, r1, r2 = reference[s, 0], reference[s, 1], reference[s, 2]
        for i in range(rows * n_o):  # colour_distance: ((d0² + d1²) + d2²), then the root...
            d0 = flat[s, i, 0] - r0
            d1 = flat[s, i, 1] - r1
            d2 = flat[s, i, 2] - r2
            distance[i] = (d0 * d0 + d1 * d1) + d2 * d2
        for i in range(rows * n_o):  # ...in a loop of its own, which the compiler vectorises (the same roots)
            distance[i] = np.sqrt(distance[i])
        at = -n_o  # where each row's distances start
        for k in range(n_k):
            for side in range(n_sides):
                for p in range(n_p):
                    at += n_o
                    lo, hi = distance[at], distance[at + n_o - 1]
                    half = _HALF * (lo + hi)
                    first = 0  # argmax(distance >= half): the first offset past halfway, else 0,
                    for o in range(n_o - 1, -1, -1):  # found without a branch a processor mispredicts
                        first = o if distance[at + o] >= half else first
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
                    t_off = (crossing - expected[s, k, side]) / _SHARPNESS_PX
                    args[1, s, k, side, p] = -(t_off * t_off)
                    if alike_scale == _LIKE_SCALE:
                        # max(lo, hi) / 15 is max(lo / 15, hi / 15) (a correctly rounded division by
                        # a positive number keeps the order), and the last term is the first's
                        u = hi / _LIKE_SCALE
                        both = _maximum(t, u)
                        args[2, s, k, side, p] = -(both * both)
                        args[3, s, k, side, p] = -(t * t) - u * u
                        if n_args > 4:
                            args[4, s, k, side, p] = -(t * t)
                    else:
                        both = _maximum(lo, hi) / _LIKE_SCALE
                        args[2, s, k, side, p] = -(both * both)
                        t = lo / alike_scale
                        u = hi / alike_scale
                        args[3, s, k, side, p] = -(t * t) - u * u
                        args[4, s, k, side, p] = -(t * t)


@kernel
def _block_terms_from(fields, exps, out):
    _terms_from(fields, exps, out, 4)


@kernel
def _terms_from(fields, exps, out, terms):
    """block_outline_terms' first `terms` terms (of evidence, seams, alike, inside) from
    _outline_args' `fields` and numpy's exp of its `args` (`exps`), along each side
    (stack_sampling.along_side: the sum, the best and the worst taken position by position, in
    its order), into `out` (terms, S, levels, 4) whose level 0 (the table) is left as it is.
    (Scalars only: a helper taking an array costs more than the sums.)"""
    n_s, n_k, n_sides, n_p = fields.shape[1:]
    for s in range(n_s):
        for k in range(n_k):
            for side in range(n_sides):
                for term in range(terms):
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
                        elif term == 3 and exps.shape[0] == 4:  # (the inside's likeness: the first's)
                            value = exps[0, s, k, side, p]
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
    alike_scale = np.float32(alike_scale)
    args = np.empty((4 if alike_scale == _LIKE_SCALE else 5, *shape), np.float32)
    _outline_args(across, reference, offsets, expected, alike_scale, fields, args)
    np.exp(args, out=args)
    out = np.zeros((4, shape[0], shape[1] + 1, shape[2]), np.float32)
    _block_terms_from(fields, args, out)
    out = out.reshape(4, rows, cols, shape[1] + 1, shape[2])
    return out[0], out[1], out[2], out[3]


def outline_evidence(across: np.ndarray, reference: np.ndarray, offsets, expected: np.ndarray) -> np.ndarray:
    """outline(ProbeSamples(…, across, offsets), reference).evidence(expected) for faces of
    colour `reference` (S, 3), one per square at every height, from their samples `across` (S,
    K, 4, P, O, 3 Lab), `expected` (S, K, 4): the same (S, K, 4) float32 numbers."""
    across = np.ascontiguousarray(across, np.float32)
    reference = np.ascontiguousarray(reference, np.float32)
    offsets = np.ascontiguousarray(offsets, np.float32)
    expected = np.ascontiguousarray(expected, np.float32)
    shape = across.shape[:4]
    fields = np.empty((5, *shape), np.float32)
    args = np.empty((5, *shape), np.float32)
    _outline_args(across, reference, offsets, expected, _LIKE_SCALE, fields, args)
    np.exp(args[:2], out=args[:2])  # (the evidence's two: the inside's likeness, the crossing's place)
    out = np.zeros((1, shape[0], shape[1] + 1, shape[2]), np.float32)
    _terms_from(fields, args, out, 1)
    return out[0, :, 1:]


@kernel
def unlike_table_and_blocks(seen, table, blocks):
    """baubylon._unlike_table_and_blocks: (N, 3) Lab (float32 or float64) → (N,) float64 ΔE to
    the nearer of `table` and `blocks` (3,) float64, each ((d0² + d1²) + d2²) in float64."""
    count = seen.shape[0]
    out = np.empty(count)
    for i in range(count):
        a0 = np.float64(seen[i, 0])
        a1 = np.float64(seen[i, 1])
        a2 = np.float64(seen[i, 2])
        d0, d1, d2 = a0 - table[0], a1 - table[1], a2 - table[2]
        to_table = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
        d0, d1, d2 = a0 - blocks[0], a1 - blocks[1], a2 - blocks[2]
        to_blocks = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
        out[i] = _minimum(to_table, to_blocks)
    return out


@kernel
def colour_support(lab, means, whiten, logdet, typical):
    """baubylon.colour_support's (N, C) table: each colour (N, 3 float64) against C classes'
    means (C, 3), whitening (C, 3, 3) and half log-determinant (C,): the posterior among them
    times exp(−max(0, d² − typical) / 10), in numpy's order of operations (float64)."""
    count, classes = lab.shape[0], means.shape[0]
    out = np.empty((count, classes))
    d2 = np.empty(classes)
    post = np.empty(classes)
    for n in range(count):
        for c in range(classes):
            e0 = lab[n, 0] - means[c, 0]
            e1 = lab[n, 1] - means[c, 1]
            e2 = lab[n, 2] - means[c, 2]
            y0 = (e0 * whiten[c, 0, 0] + e1 * whiten[c, 1, 0]) + e2 * whiten[c, 2, 0]
            y1 = (e0 * whiten[c, 0, 1] + e1 * whiten[c, 1, 1]) + e2 * whiten[c, 2, 1]
            y2 = (e0 * whiten[c, 0, 2] + e1 * whiten[c, 1, 2]) + e2 * whiten[c, 2, 2]
            d2[c] = (y0 * y0 + y2 * y2) + y1 * y1
            post[c] = -0.5 * d2[c] + logdet[c]
        top = post[0]
        for c in range(1, classes):
            top = _maximum(top, post[c])
        for c in range(classes):
            post[c] = np.exp(post[c] - top)
        total = pairwise_sum(post, 0, classes)
        for c in range(classes):
            out[n, c] = (post[c] / total) * np.exp(-_maximum(0.0, d2[c] - typical) / 10.0)
    return out


@kernel
def block_scores(edge, evidence, seams, joints, open_, table, values, near, far, weight, beside, heights,
                 known, floor, seen, support, near_support):
    """One block pass's scores (BaubylonObserver._block_scores_given, then np.maximum with
    `floor` when it has rows): per space and level, the sides' weighted outline evidence given
    the neighbours' heights (`heights` (S,) pawn heights; `beside` (4, S) each side's neighbour,
    S off the field), into `seen` and `support` (S, L) float64. The terms are laid out (L, 4, S)
    as _block_terms makes them (`near`, `far`, `open_`: (4, S), the same at every level); `table` (S,) the table level's score; `values` (L,) the levels
    in pawn heights. `near_support` (S, L): the support of the sides not facing away from the
    camera (BaubylonObserver._near_support_given). The sides summed in order, as numpy did; the first pass's shortcut there
    (every neighbour at 0, no joint) gives these numbers too (it only left out adding zeros)."""
    n_levels, n_spaces = edge.shape[0], edge.shape[2]
    has_floor = floor.shape[0] > 0
    for s in range(n_spaces):
        for level in range(n_levels):
            value = values[level]
            total_edge = 0.0
            total_seam = 0.0
            shown = 0.0
            joint_sum = 0.0
            seam_sum = 0.0
            near_sum = 0.0
            for side in range(4):
                other = beside[side, s]
                height = heights[other] if other < n_spaces else 0
                use = height == 0 or (near[side, s] and height < value) or (far[side, s] and height > value)
                w_edge = edge[level, side, s] if use else 0.0
                joint = known and height == value and open_[side, s]
                w_seam = weight[level, side, s] if joint else 0.0
                if side == 0:
                    total_edge = w_edge
                    total_seam = w_seam
                    shown = evidence[level, side, s] * w_edge
                    joint_sum = joints[level, side, s] * w_seam
                    seam_sum = seams[level, side, s] * w_seam
                else:
                    total_edge = total_edge + w_edge
                    total_seam = total_seam + w_seam
                    shown = shown + evidence[level, side, s] * w_edge
                    joint_sum = joint_sum + joints[level, side, s] * w_seam
                    seam_sum = seam_sum + seams[level, side, s] * w_seam
                if not far[side, s]:
                    near_sum = near_sum + (evidence[level, side, s] * w_edge + seams[level, side, s] * w_seam)
            if level == 0:
                score = table[s]
            else:
                score = (shown + joint_sum) / max(total_edge + total_seam, 1e-6)
            if has_floor:
                score = _maximum(score, floor[s, level])
            seen[s, level] = score
            support[s, level] = shown + seam_sum
            near_support[s, level] = near_sum


@kernel
def _argmax_row(values, row):
    """np.argmax(values[row]): the first largest (the first NaN, if any)."""
    best = 0
    top = values[row, 0]
    if top != top:
        return 0
    for k in range(1, values.shape[1]):
        value = values[row, k]
        if value != value:
            return k
        if value > top:
            best, top = k, value
    return best


@kernel
def raised_tops(seen, support, best, raised, score):
    """A block pass's choice before one top per place: each space's likeliest level (`best` (S,),
    seen.argmax(axis=-1)), the spaces whose likeliest is above the table into `raised`, in order
    (np.flatnonzero(best > 0)), and their ranking support[s, b] + 0.01 · seen[s, b] into `score`.
    Returns how many are raised."""
    count = 0
    for s in range(seen.shape[0]):
        b = _argmax_row(seen, s)
        best[s] = b
        if b > 0:
            raised[count] = s
            score[count] = support[s, b] + 0.01 * seen[s, b]
            count += 1
    return count


@kernel
def stand_on_allowed(chosen, seen, fewer, allowed):
    """baubylon._stand_on_allowed in place: where the level `chosen` (S,) is not `allowed` (S, L)
    but some level is, the allowed level with the most seen + fewer (the first such; -inf for the
    others, as np.where then argmax)."""
    levels = allowed.shape[1]
    for s in range(chosen.shape[0]):
        if allowed[s, chosen[s]]:
            continue
        best = -1
        top = -np.inf
        for k in range(levels):
            value = seen[s, k] + fewer[s, k] if allowed[s, k] else -np.inf
            if best < 0:
                best, top = k, value
                if value != value:
                    break
            elif value != value:
                best = k
                break
            elif value > top:
                best, top = k, value
        if best >= 0:
            any_allowed = False
            for k in range(levels):
                if allowed[s, k]:
                    any_allowed = True
            if any_allowed:
                chosen[s] = best


@kernel
def stack_allowed(unlike, top, stacked, values, most_pawns, column_unlike, out):
    """observe's `allowed` (S, L) in one loop: True for every level where no stack is read
    (`stacked` (S,) False); where one is, at its top `top` (S,) (pawn heights) the block levels
    `values` (L,) below it with at most `most_pawns` pawns on them, under which every pawn of
    the stack shows along the space's middle unlike table and blocks (BaubylonObserver.
    _column_shows: `unlike` (S, heights) at heights level .. top − 2 at least `column_unlike`;
    none to show: True; a NaN among them: False)."""
    for s in range(stacked.shape[0]):
        for level in range(values.shape[0]):
            if not stacked[s]:
                out[s, level] = True
                continue
            value = values[level]
            if not (value < top[s] and top[s] - value <= most_pawns):
                out[s, level] = False
                continue
            lowest = np.inf
            for k in range(max(value, 0), min(top[s] - 1, unlike.shape[1])):
                lowest = _minimum(lowest, unlike[s, k])
            out[s, level] = lowest >= column_unlike


@kernel
def stand_fit(evidence, weights, sides, under, no_outline, out):
    """BaubylonObserver._stand_fit into `out` (S, T): per space and stack top, of the block level
    `under` (T,) it would stand on, the sides' `evidence` (S, L, 4) times their `weights` (S, L, 4,
    float64) summed in order over `sides` (S, L); `no_outline` on the table level."""
    for s in range(out.shape[0]):
        for t in range(under.shape[0]):
            level = under[t]
            if level == 0:
                out[s, t] = no_outline
                continue
            total = evidence[s, level, 0] * weights[s, level, 0]
            for side in range(1, 4):
                total = total + evidence[s, level, side] * weights[s, level, side]
            out[s, t] = total / sides[s, level]


@kernel
def ring_means(like, open_, sides, out):
    """BaubylonObserver._ring into `out` (S, L): per space and level, `like` (S, L, 4) summed in
    order (its own type) over the sides `open_` (S, 4) (0 for the others), over `sides` (S,)."""
    zero = like.dtype.type(0)
    for s in range(out.shape[0]):
        for level in range(out.shape[1]):
            total = like[s, level, 0] if open_[s, 0] else zero
            for side in range(1, 4):
                total = total + (like[s, level, side] if open_[s, side] else zero)
            out[s, level] = total / sides[s]


@kernel
def columns_drop(best, found, kinds, others, beside, depth, under, on_column, drop):
    """baubylon_columns.seen_on_columns in one loop, into `drop` (S,) (all False to start): the
    same pairs (a found space, another found space near it that is its neighbour beyond a side,
    farther from the camera, with a lower top of the same colour over the same block level, the
    space's top lying on that stack's column)."""
    n_found = 0
    for s in range(found.shape[0]):
        if found[s]:
            n_found += 1
    if n_found < 2:
        return
    for s in range(found.shape[0]):
        if not found[s]:
            continue
        top = best[s] + 1
        for k in range(others.shape[1]):
            o = others[s, k]
            if not found[o] or o == s or not depth[o] > depth[s]:
                continue
            beside_it = False
            for side in range(beside.shape[1]):
                if beside[s, side] == o:
                    beside_it = True
            if not beside_it:
                continue
            near_top = best[o] + 1
            if (near_top < top and kinds[o, best[o]] == kinds[s, best[s]] and under[best[o]] == under[best[s]]
                    and on_column[s, k, top, near_top]):
                drop[s] = True
                break


@kernel
def block_choice(order, best, seen, support, near_support, depth, far_shows, meet, values, others, nearer, hiding,
                 hiding_start, stride, shows, allowed, fewer, scores, chosen, no_outline, shows_nothing, lying_shows):
    """The rest of a block pass (BaubylonObserver._one_top_per_place and _hides_no_better_top,
    then the choice): of the raised tops (`order`: spaces whose best level `best` (S,) is above
    the table, surest first), each that lands where a surer one kept lands in the frame (`meet`
    (S·L, S·L) by flat (space, level)) is not kept, unless the surer one is a lower top farther
    from the camera (`depth` (S,): from the nadir) whose sides not facing away show less than
    `far_shows` times this one's outline (`near_support`, `support`): its far sides show past this
    top, so it does not say this top is not there; a top a taller stand nearer the camera would
    hide (`others`, `nearer` (S, K); `hiding` flat, from `hiding_start` (S, K) + own top ·
    `stride` + the other's) does not keep that stand's level where it shows more than `shows`
    times as much outline (`support`) as that stand. Into `scores` (S, L): seen + fewer where allowed and kept, else
    −1; and `chosen` (S,): each space's argmax, except that where no stack stands (`fewer` 0) a
    raised argmax gives way to the best level whose `support` is over `shows` times its own and
    at least `shows_nothing`, and that scores at least `no_outline`; and a bare top so chosen one
    lying block high whose `support` is below `lying_shows` gives way to the lowest level above
    it that is allowed and kept."""
    n_spaces, n_levels = seen.shape
    ok = np.ones((n_spaces, n_levels), np.bool_)
    count = order.shape[0]
    if count >= 2:
        kept = np.ones(count, np.bool_)
        for n in range(count):
            at_n = order[n] * n_levels + best[order[n]]
            here = order[n]
            for m in range(n):
                there = order[m]
                if (depth[there] > depth[here] and values[best[there]] < values[best[here]]
                        and near_support[there, best[there]] < support[here, best[here]] * far_shows):
                    continue
                if kept[m] and meet[at_n, order[m] * n_levels + best[order[m]]]:
                    kept[n] = False
                    break
            if not kept[n]:
                ok[order[n], best[order[n]]] = False
    for s in range(n_spaces):
        own = values[best[s]]
        if own <= 0:
            continue
        for k in range(others.shape[1]):
            other = others[s, k]
            stand = values[best[other]]
            if (nearer[s, k] and stand > own and hiding[hiding_start[s, k] + own * stride + stand]
                    and support[s, best[s]] > support[other, best[other]] * shows):
                ok[other, best[other]] = False
    for s in range(n_spaces):
        top = 0
        for level in range(n_levels):
            value = seen[s, level] + fewer[s, level] if (allowed[s, level] and ok[s, level]) else -1.0
            scores[s, level] = value
            if level == 0 or value > scores[s, top] or (value != value and scores[s, top] == scores[s, top]):
                top = level
        # A bare top that shows little of itself (its score is a mean: the wood going on across
        # where its sides would be, as any wood there does at any height, or a side or two whose
        # outline hardly moves with height) gives way to a level whose outline shows `shows`
        # times as much, at least `shows_nothing`, and that scores at least `no_outline`
        # (baubylon.units: a top is seen by its edges). Not under a stack (`fewer` above 0): its
        # block shows round the pawns instead.
        if top > 0 and fewer[s, n_levels - 1] == 0.0:
            better = -1
            for level in range(1, n_levels):
                if (support[s, level] > shows * support[s, top] and support[s, level] >= shows_nothing
                        and scores[s, level] >= no_outline and (better < 0 or scores[s, level] > scores[s, better])):
                    better = level
            if better > 0:
                top = better
            # A bare top read one lying block high that shows less than `lying_shows` of its own
            # outline (the wood going on across its sides, no edge, no joint line) is higher: a
            # lying block's top shows its edges (baubylon.units), and a taller block's own wood is
            # what goes on there. The lowest level above it that is allowed and kept.
            if top == 1 and support[s, 1] < lying_shows:
                for level in range(2, n_levels):
                    if scores[s, level] >= 0.0:
                        top = level
                        break
        chosen[s] = top


@kernel
def taller_in_front(own, stands, near, beside, others, nearer, middle_table, part_table, start, stride, middle, part):
    """Per space, whether a taller stand nearer the camera may hide its top at height `own` (S,)
    (pawn heights), given the stands read, `stands` (S,): into `middle` (S,) bool, one that hides
    its middle (among `others` (S, K) where `nearer`: `middle_table`[start[s, k] + own · `stride` +
    the stand's height]); into `part` (S,) bool, one that may hide part of it (`part_table`, the
    same way) or a taller neighbour beyond a side facing the camera (`near` (S, 4); `beside` (4, S)
    each side's neighbour, S off the field: height 0). BaubylonObserver._any_hides and _beside's
    comparisons, the same booleans."""
    count = own.shape[0]
    for s in range(count):
        height = own[s]
        hides_middle = False
        hides_part = False
        for k in range(others.shape[1]):
            other = others[s, k]
            stand = stands[other]
            if nearer[s, k] and stand > height:
                at = start[s, k] + height * stride + stand
                hides_middle |= middle_table[at]
                hides_part |= part_table[at]
        for side in range(4):
            other = beside[side, s]
            stand = stands[other] if other < count else 0
            hides_part |= near[s, side] and stand > height
        middle[s] = hides_middle
        part[s] = hides_part


_WARM = False


def warm() -> None:
    """Run every kernel once on tiny inputs of the types a read passes them (dtypes, dimensions,
    contiguity: one compiled version each), so that the live loop's first read does not pay the
    compile (or, with the compiled code cached on disk, its loading). Once per process."""
    global _WARM
    if _WARM:
        return
    f32, f64, i64 = np.float32, np.float64, np.int64
    across = np.zeros((1, 1, 4, 2, 3, 3), f32)
    block_outline_terms(across, np.zeros((1, 3), f32), np.zeros(3, f32), np.zeros((1, 1, 4), f32), 15.0, 1, 1)
    outline_evidence(across, np.zeros((1, 3), f32), np.zeros(3, f32), np.zeros((1, 1, 4), f32))
    unlike_table_and_blocks(np.zeros((1, 3), f32), np.zeros(3), np.zeros(3))
    colour_support(np.zeros((1, 3)), np.zeros((2, 3)), np.ones((2, 3, 3)), np.zeros(2), 16.3)
    levels, count = 2, 2
    flat32 = np.zeros((levels, 4, count), f32)
    seen, support = np.zeros((count, levels)), np.zeros((count, levels))
    values = np.arange(levels, dtype=i64)
    beside = np.full((4, count), count, i64)
    block_scores(np.zeros((levels, 4, count)), flat32, flat32, flat32, np.ones((4, count), np.bool_), np.zeros(count),
                 values, np.zeros((4, count), np.bool_), np.zeros((4, count), np.bool_), np.zeros((levels, 4, count)),
                 beside, np.zeros(count, i64), False, np.zeros((0, levels)), seen, support, np.zeros((count, levels)))
    others = np.zeros((count, 1), i64)
    best, flags_i = np.zeros(count, np.intp), np.zeros(count, np.intp)
    raised_tops(seen, support, best, flags_i, np.zeros(count))
    stand_on_allowed(best, seen, seen, np.ones((count, levels), np.bool_))
    stack_allowed(np.zeros((count, 3)), np.ones(count, i64), np.ones(count, np.bool_), values, 5, 14.0,
                  np.empty((count, levels), np.bool_))
    terms32 = np.zeros((count, levels, 4), f32)
    stand_fit(terms32, np.ones((count, levels, 4)), np.ones((count, levels)), np.zeros(3, i64), 0.3,
              np.empty((count, 3)))
    ring_means(terms32, np.ones((count, 4), np.bool_), np.ones(count), np.empty((count, levels)))
    columns_drop(np.zeros(count, np.intp), np.zeros(count, np.bool_), np.zeros((count, 2), np.intp), others,
                 np.zeros((count, 4), i64), np.zeros(count), np.zeros(2, i64), np.zeros((count, 1, 3, 3), np.bool_),
                 np.zeros(count, np.bool_))
    block_choice(np.zeros(0, np.intp), np.zeros(count, np.intp), seen, support, support, np.zeros(count), 0.5,
                 np.zeros((count * levels, count * levels), np.bool_), values, others, np.zeros((count, 1), np.bool_),
                 np.zeros(64, np.bool_), others, 3, 2.0, np.ones((count, levels), np.bool_), np.zeros((count, levels)),
                 np.zeros((count, levels), f64), np.zeros(count, np.intp), 0.3, 0.05, 0.2)
    one_stack_kept(np.zeros(2, np.intp), np.zeros(count, np.intp), np.zeros((count, 1, 2)), np.ones((count, 1)),
                   others, np.zeros((count, 1), np.bool_), np.zeros((count, 1, 2, 2), np.bool_),
                   np.zeros((count, 1), np.intp), True, np.zeros(count), 1.0)
    flags = np.zeros(count, np.bool_)
    taller_in_front(np.zeros(count, i64), np.zeros(count, i64), np.zeros((count, 4), np.bool_), beside, others,
                    np.zeros((count, 1), np.bool_), np.zeros(64, np.bool_), np.zeros(64, np.bool_), others, 3,
                    flags, flags.copy())
    samples = np.zeros((2, 4, 3), f32)
    sorting_pairs(4)
    median_rows(samples)
    robust_rows(samples)
    part_median(samples, np.ones((2, 4), np.bool_), np.zeros(1, np.intp))
    _WARM = True


@kernel
def one_stack_kept(found, best, pixels, widths, others, nearer, hiding_pawn, kinds, same_kind, shown, side_shows):
    """BaubylonObserver._one_stack_per_top's choice among the stack tops read (`found` (N,)
    spaces, likeliest first; `best` (S,) each space's top, as a pawn-height index): (N,) which
    are kept. Two tops meet where their places in the frame (`pixels` (S, T, 2)) lie within half
    the later one's pawn width (`widths` (S, T)) — measured as _apart does — or where a taller
    stand nearer the camera (`others`, `nearer` (S, K)) would hide the other's top
    (`hiding_pawn` (S, K, T + 1, T + 1)), of the same colour when `same_kind` (`kinds` (S, T)),
    unless the other's top, less likely, shows more than `side_shows` times as well (`shown` (S,):
    each space's score at its top) as the taller stand's top.
    Each is kept unless it meets one kept before it (_first_in_place)."""
    count = found.shape[0]
    near = np.zeros((count, count), np.bool_)
    for n in range(count):
        x, y = pixels[found[n], best[found[n]], 0], pixels[found[n], best[found[n]], 1]
        for m in range(count):
            dx = x - pixels[found[m], best[found[m]], 0]
            dy = y - pixels[found[m], best[found[m]], 1]
            near[n, m] = np.sqrt(dx * dx + dy * dy) < 0.5 * widths[found[m], best[found[m]]]
    place = np.full(pixels.shape[0], -1, np.int64)
    for n in range(count):
        place[found[n]] = n
    for n in range(count):
        space = found[n]
        top_n = best[space] + 1
        for k in range(others.shape[1]):
            m = place[others[space, k]]
            if m < 0 or not nearer[space, k]:
                continue
            top_m = best[found[m]] + 1
            if top_m <= top_n:
                continue
            if same_kind and kinds[found[m], best[found[m]]] != kinds[space, best[space]]:
                continue
            if m < n and shown[space] > side_shows * shown[found[m]]:
                continue  # (the taller, likelier, is not what this top showed; it does not lose either)
            if hiding_pawn[space, k, top_n, top_m]:
                near[n, m] = True
                near[m, n] = True
    kept = np.ones(count, np.bool_)
    for n in range(count):
        for m in range(n):
            if near[n, m] and kept[m]:
                kept[n] = False
                break
    return kept


@kernel
def _sorted_row(values, row, channel, buffer):
    """values[row, :, channel] into `buffer`, sorted as np.sort sorts (NaN last)."""
    count = values.shape[1]
    for g in range(count):
        value = values[row, g, channel]
        at = g
        # insert: move up the larger values (and NaN, which sorts after every number)
        while at > 0 and (buffer[at - 1] != buffer[at - 1] and value == value or buffer[at - 1] > value):
            buffer[at] = buffer[at - 1]
            at -= 1
        buffer[at] = value


@kernel
def sorting_pairs(count):
    """(M, 2) the compare-exchanges of Batcher's odd-even merge sort of `count` values, in order
    (the network for the next power of two, less the pairs that touch a place at or past `count`:
    there it would hold +inf, which no pair moves). Applied to a row, they leave it sorted."""
    size, log = 1, 0
    while size < count:
        size *= 2
        log += 1
    pairs = np.empty(((log * log - log + 4) * size // 4 + 1, 2), np.int64)  # the network's size, + 1
    made = 0
    step = 1
    while step < size:
        k = step
        while k >= 1:
            j = k % step
            while j <= size - 1 - k:
                for i in range(min(k, size - j - k)):
                    a, b = i + j, i + j + k
                    if a // (2 * step) == b // (2 * step) and b < count:
                        pairs[made, 0] = a
                        pairs[made, 1] = b
                        made += 1
                j += 2 * k
            k //= 2
        step *= 2
    return pairs[:made]


@kernel
def _sort_lanes(grid, pairs, lower):
    """Each column (lane) of `grid` (G, lanes) sorted along G by the sorting network `pairs`, all
    lanes at once: each compare-exchange a pass along the lanes (contiguous: the compiler
    vectorises it; `lower` (lanes,) scratch). A lower and a higher value of the pair, with no
    branch on the values: a lane with neither a NaN nor a −0.0 ends sorted as np.sort sorts it,
    bit for bit (equal values are then the same bits, so any sort puts the same bits in place)."""
    lanes = grid.shape[1]
    for q in range(pairs.shape[0]):
        a, b = pairs[q, 0], pairs[q, 1]
        for lane in range(lanes):
            low, high = grid[a, lane], grid[b, lane]
            lower[lane] = high if high < low else low
            grid[b, lane] = low if high < low else high
        for lane in range(lanes):
            grid[a, lane] = lower[lane]


@kernel
def median_rows(values):
    """stack_sampling.small_median: (R, G, C) → (R, C) the median along G (the middle value, or
    the mean of the middle two in the values' type), as np.sort then the middle takes it. Every
    (row, channel) is a lane sorted by the network (_sort_lanes); a lane holding a NaN or a −0.0
    is sorted again on its own by _sorted_row (np.sort's order: NaN last, equal values as they
    came), whose bits the network would not keep."""
    rows, count, channels = values.shape
    out = np.empty((rows, channels), values.dtype)
    if count == 0:
        out[:] = np.nan
        return out
    lanes = rows * channels
    grid = np.empty((count, lanes), values.dtype)
    for r in range(rows):
        for g in range(count):
            for c in range(channels):
                grid[g, r * channels + c] = values[r, g, c]
    plain = np.ones(lanes, np.bool_)
    for g in range(count):
        for lane in range(lanes):
            value = grid[g, lane]
            odd = value != value or (value == 0.0 and math.copysign(1.0, value) < 0.0)
            plain[lane] &= not odd
    _sort_lanes(grid, sorting_pairs(count), np.empty(lanes, values.dtype))
    middle = count // 2
    buffer = np.empty(count, values.dtype)
    for r in range(rows):
        for c in range(channels):
            lane = r * channels + c
            if plain[lane]:
                high = grid[middle, lane]
                low = grid[middle - 1, lane] if count > 1 else high
            else:
                _sorted_row(values, r, c, buffer)
                high = buffer[middle]
                low = buffer[middle - 1] if count > 1 else high
            if count % 2:
                out[r, c] = high
            else:
                out[r, c] = _HALF * (low + high)
    return out


_SPREAD = np.float32(1.4826)  # robust_features' scale of the median deviation (float32 values)


@kernel
def robust_rows(values):
    """stack_sampling.robust_features of float32 (R, G, 3) samples → (R, 6): the median and
    1.4826 × the median absolute deviation from it, per channel."""
    rows, count, channels = values.shape
    centre = median_rows(values)
    deviation = np.empty_like(values)
    for r in range(rows):
        for g in range(count):
            for c in range(channels):
                deviation[r, g, c] = abs(values[r, g, c] - centre[r, c])
    spread = median_rows(deviation)
    out = np.empty((rows, 2 * channels), values.dtype)
    for r in range(rows):
        for c in range(channels):
            out[r, c] = centre[r, c]
            out[r, channels + c] = _SPREAD * spread[r, c]
    return out


@kernel
def part_median(values, far, rows):
    """baubylon._nan_median(np.where(far[rows, :, None], values[rows], np.nan), far[rows].sum(-1)):
    per chosen row of `values` (N, G, C), the median of its points marked in `far` (N, G) (the
    middle one, or the mean of the middle two), each channel sorted as np.sort does."""
    count, channels = values.shape[1], values.shape[2]
    out = np.empty((rows.shape[0], channels), values.dtype)
    buffer = np.empty(count, values.dtype)
    for k in range(rows.shape[0]):
        row = rows[k]
        marked = 0
        for g in range(count):
            marked += far[row, g]
        for c in range(channels):
            for g in range(count):
                value = values[row, g, c] if far[row, g] else np.nan
                at = g
                while at > 0 and (buffer[at - 1] != buffer[at - 1] and value == value or buffer[at - 1] > value):
                    buffer[at] = buffer[at - 1]
                    at -= 1
                buffer[at] = value
            out[k, c] = _HALF * (buffer[(marked - 1) // 2] + buffer[marked // 2])
    return out
