"""The Baubylon read's compiled kernels (observers/baubylon_kernels.py) give the very numbers of
the numpy code they stand in for, on random inputs and on edge cases (empty, one element, NaN), so
readings do not change with the speed work."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.boards import BAUBYLON
from companion.vision.observers import baubylon_kernels as kernels
from companion.vision.observers.baubylon_speed import block_outline_terms
from companion.vision.observers.stack_sampling import (
    Outline,
    ProbeSamples,
    along_side,
    outline,
    robust_features,
    seam_evidence,
    small_median,
)
from tests.vision.libm import libm_exp

RNG = np.random.default_rng(61)
OFFSETS = (-2.0, -1.0, 0.0, 1.0, 2.0)


def _lab(shape) -> np.ndarray:
    return np.stack([RNG.uniform(10, 95, shape), RNG.uniform(-50, 50, shape), RNG.uniform(-50, 50, shape)],
                    axis=-1).astype(np.float32)


def _block_samples(spaces: int, heights: int = 4, positions: int = 4, offsets=OFFSETS):
    """Samples across block tops' sides (S, K, 4, P, O, 3) and one colour per space (S, 3), some
    faces like their colour inside (so the likeness terms are not all ~0)."""
    across = _lab((spaces, heights, 4, positions, len(offsets)))
    reference = _lab((spaces,))
    inner = len(offsets) // 2
    across[::3, :, :, :, :inner] = (reference[::3, None, None, None, None, :]
                                    + RNG.normal(0, 3, (1, 1, 1, 1, inner, 3)).astype(np.float32))
    return across, reference


def _plain_terms(across, reference, offsets, expected, alike_scale):
    """outline() then Outline.evidence, seam_evidence and the two likeness terms, along each side,
    with a zero table level in front: (4, S, K + 1, 4)."""
    samples = ProbeSamples(np.zeros((*across.shape[:2], 0, 3), np.float32), across, offsets)
    reference = np.broadcast_to(reference[:, None, :], (*across.shape[:2], 3))
    lines = outline(samples, reference)
    plain = Outline(lines.crossing, lines.step, lines.inside, lines.outside, lines.middle)
    terms = (plain.evidence(expected), seam_evidence(plain),
             along_side(np.exp(-((plain.inside / alike_scale) ** 2) - (plain.outside / alike_scale) ** 2)),
             along_side(plain.inside_like(alike_scale)))
    out = np.zeros((4, across.shape[0], across.shape[1] + 1, 4), np.float32)
    for index, term in enumerate(terms):
        out[index, :, 1:] = term
    return out


@pytest.mark.parametrize("alike_scale", [15.0, 9.0])
def test_block_outline_terms_are_outline_then_the_fused_terms(alike_scale):
    across, reference = _block_samples(BAUBYLON.rows * BAUBYLON.cols)
    expected = RNG.uniform(-0.5, 0.5, across.shape[:3]).astype(np.float32)
    got = kernels.block_outline_terms(across, reference, OFFSETS, expected, alike_scale, BAUBYLON.rows, BAUBYLON.cols)
    samples = ProbeSamples(np.zeros((*across.shape[:2], 0, 3), np.float32), across, OFFSETS)
    lines = outline(samples, np.broadcast_to(reference[:, None, :], (*across.shape[:2], 3)))
    want = block_outline_terms(lines, expected, alike_scale)  # the numpy path the kernel replaced
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype == np.float32 and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    assert got[0].max() > 0.1 and got[1].max() > 0.0 and got[3].max() > 0.1  # not all ~0


@pytest.mark.parametrize(("spaces", "positions", "offsets"), [
    (1, 4, OFFSETS),  # one space
    (3, 1, OFFSETS),  # one position: along_side's mean
    (2, 2, OFFSETS),
    (2, 5, (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)),  # seven offsets, five positions
    (0, 4, OFFSETS),  # nothing
])
def test_block_outline_terms_on_other_shapes(spaces, positions, offsets):
    across, reference = _block_samples(spaces, positions=positions, offsets=offsets)
    expected = RNG.uniform(-1, 1, across.shape[:3]).astype(np.float32)
    got = np.stack(kernels.block_outline_terms(across, reference, offsets, expected, 15.0, 1, spaces))
    np.testing.assert_array_equal(got.reshape(4, spaces, across.shape[1] + 1, 4), _plain_terms(across, reference, offsets, expected, 15.0))


def test_block_outline_terms_carry_nan_as_numpy_does():
    across, reference = _block_samples(6)
    across[0, 0, 0, 0, 0, 0] = np.nan  # the inside of one position
    across[1, 1, 2, :, 4, 1] = np.nan  # the outside of a whole side
    across[2, 0, 1, 3, 2, 2] = np.nan  # the middle of one position
    reference[3, 0] = np.nan  # a whole space
    expected = RNG.uniform(-1, 1, across.shape[:3]).astype(np.float32)
    got = np.stack(kernels.block_outline_terms(across, reference, OFFSETS, expected, 15.0, 2, 3))
    want = _plain_terms(across, reference, OFFSETS, expected, 15.0)
    assert np.isnan(want).any()
    np.testing.assert_array_equal(got.reshape(want.shape), want)  # NaN where numpy has NaN


def _plain_unlike(seen, table, blocks):
    """ΔE (float64, as np.linalg.norm) to the nearer of two colours."""
    seen = seen.astype(np.float64)
    return np.minimum(np.linalg.norm(seen - table, axis=-1), np.linalg.norm(seen - blocks, axis=-1))


@pytest.mark.parametrize("count", [0, 1, 500])
def test_unlike_table_and_blocks_is_the_nearer_norm(count):
    seen = _lab((count,))
    table, blocks = np.array([80.0, 2.0, 10.0]), np.array([60.0, 12.0, 35.0])
    for values in (seen, seen.astype(np.float64)):
        got = kernels.unlike_table_and_blocks(values, table, blocks)
        assert got.dtype == np.float64 and got.shape == (count,)
        np.testing.assert_array_equal(got, _plain_unlike(values, table, blocks))


def test_unlike_table_and_blocks_carries_nan():
    seen = _lab((4,))
    seen[1, 2] = np.nan
    got = kernels.unlike_table_and_blocks(seen, np.array([80.0, 2.0, 10.0]), np.array([np.nan, 0.0, 0.0]))
    assert np.isnan(got).all()  # np.minimum: NaN wherever either distance is
    got = kernels.unlike_table_and_blocks(seen, np.array([80.0, 2.0, 10.0]), np.array([60.0, 12.0, 35.0]))
    assert np.isnan(got[1]) and not np.isnan(got[[0, 2, 3]]).any()


def _plain_colour_support(lab, means, whiten, logdet, typical):
    """The numpy formulation colour_support had (einsum's sums: the third square to the first), with
    the C library's exp, which the kernel calls (numpy's SIMD exp may differ in the last bit)."""
    d = lab[:, None, :] - means[None, :, :]
    y = [d[..., 0] * whiten[None, :, 0, g] + d[..., 1] * whiten[None, :, 1, g] + d[..., 2] * whiten[None, :, 2, g]
         for g in range(3)]
    d2 = (y[0] * y[0] + y[2] * y[2]) + y[1] * y[1]
    loglik = -0.5 * d2 + logdet
    post = libm_exp(loglik - loglik.max(axis=-1, keepdims=True))
    post /= post.sum(axis=-1, keepdims=True)
    return post * libm_exp(-np.maximum(0.0, d2 - typical) / 10.0)


@pytest.mark.parametrize(("count", "classes"), [(0, 9), (1, 9), (300, 9), (50, 2), (50, 8), (50, 17)])
def test_colour_support_is_the_numpy_formulation(count, classes):
    lab = _lab((count,)).astype(np.float64)
    means = _lab((classes,)).astype(np.float64)
    factor = RNG.normal(0, 0.2, (classes, 3, 3))
    inverse = factor @ np.swapaxes(factor, 1, 2) + 0.01 * np.eye(3)
    whiten = np.ascontiguousarray(np.linalg.cholesky(inverse))
    logdet = 0.5 * np.linalg.slogdet(inverse)[1]
    lab[: count // 2] = means[RNG.integers(0, classes, count // 2)] + RNG.normal(0, 2, (count // 2, 3))
    got = kernels.colour_support(lab, means, whiten, logdet, 16.3)
    want = _plain_colour_support(lab, means, whiten, logdet, 16.3)
    assert got.shape == (count, classes)
    np.testing.assert_array_equal(got, want)
    if count > 1:
        assert want.max() > 0.5  # some colours are typical of a class


def test_colour_support_carries_nan():
    means = _lab((3,)).astype(np.float64)
    whiten = np.ascontiguousarray(np.broadcast_to(np.eye(3) * 0.3, (3, 3, 3)))
    lab = means[[0, 1]].copy()
    lab[1, 0] = np.nan
    got = kernels.colour_support(lab, means, whiten, np.zeros(3), 16.3)
    np.testing.assert_array_equal(got, _plain_colour_support(lab, means, whiten, np.zeros(3), 16.3))
    assert np.isnan(got[1]).all() and not np.isnan(got[0]).any()


def _observer():
    from companion.sim.camera import region_geometry
    from tests.sim.helpers import GAMES, camera_for

    game = GAMES["baubylon"]
    return game.observer(region_geometry(camera_for(game, tilt=30.0, azimuth=-60.0)))


def _numpy_read_blocks(observer, table, evidence, seams, joints, stacked, allowed, ring):
    """_read_blocks as numpy computed it before its passes were compiled (its own numpy steps)."""
    levels = np.zeros(table.shape[:2], int)
    known = False
    terms = observer._block_terms(table, evidence, seams, joints, stacked)
    floor = None if ring is None else np.where(stacked[..., None], 0.6 * ring, 0.0)
    fewer = np.where(stacked[..., None], 0.075 * observer.levels[None, None, :], 0.0)
    for _ in range(5):
        seen, support = observer._block_scores_given(terms, observer.levels[levels], known)
        near_support = observer._near_support_given(terms, observer.levels[levels], known)
        if floor is not None:
            seen = np.maximum(seen, floor)
        best = seen.argmax(axis=-1)
        fits = observer._one_top_per_place(best, seen, support, near_support)
        fits &= observer._hides_no_better_top(best, support)
        scores = np.where(allowed & fits, seen + fewer, -1.0)
        new = scores.argmax(axis=-1)
        # a bare top that shows little of itself gives way to a level whose outline shows twice as much
        chosen_support = np.take_along_axis(support, new[..., None], axis=-1)[..., 0]
        shows = (support > 2.0 * chosen_support[..., None]) & (support >= 0.05) & (scores >= 0.3)
        shows[..., 0] = False
        swap = (new > 0) & ~stacked & shows.any(axis=-1)
        new = np.where(swap, np.where(shows, scores, -np.inf).argmax(axis=-1), new)
        # a bare top one lying block high that shows little of its outline is higher: the lowest level above kept
        above = scores[..., 2:] >= 0.0
        lying = (new == 1) & ~stacked & (support[..., 1] < 0.2) & above.any(axis=-1)
        new = np.where(lying, 2 + above.argmax(axis=-1), new)
        # a choice the stack's column does not allow: its allowed level that shows most (s7)
        stuck = ~np.take_along_axis(allowed, new[..., None], axis=-1)[..., 0] & allowed.any(axis=-1)
        new = np.where(stuck, np.where(allowed, seen + fewer, -np.inf).argmax(axis=-1), new)
        if known and np.array_equal(new, levels):
            break
        levels, known = new, True
    return levels, np.maximum(scores, 0.0), np.where(allowed, seen, 0.0)


def _block_inputs(observer, stacks: float):
    rows, cols, levels = BAUBYLON.rows, BAUBYLON.cols, len(observer.levels)
    shape = (rows, cols, levels, 4)
    evidence = RNG.random(shape).astype(np.float32) * np.float32(0.8)
    evidence[RNG.random(shape) < 0.4] = 0.0  # sides that show nothing
    evidence[:, :, 0] = 0.0  # the table level has no outline
    seams = (RNG.random(shape) * 0.3).astype(np.float32)
    seams[:, :, 0] = 0.0
    joints = np.maximum(seams, np.float32(0.5) * RNG.random(shape).astype(np.float32))
    table = RNG.random((rows, cols))
    stacked = RNG.random((rows, cols)) < stacks
    allowed = ~stacked[..., None] | (RNG.random((rows, cols, levels)) < 0.6)
    ring = (RNG.random((rows, cols, levels)) * 0.6).astype(np.float32) / np.float64(1.5)
    ring[:, :, 0] = 0.0
    return table, evidence, seams, joints, stacked, allowed, ring


@pytest.mark.parametrize("stacks", [0.0, 0.2, 0.6])
def test_block_passes_compiled_read_as_the_numpy_passes(stacks):
    observer = _observer()
    for trial in range(6):
        table, evidence, seams, joints, stacked, allowed, ring = _block_inputs(observer, stacks)
        ring = None if trial == 0 else ring  # (observe always gives one; the method allows none)
        got = observer._read_blocks(table, evidence, seams, joints, stacked, allowed, ring)
        want = _numpy_read_blocks(observer, table, evidence, seams, joints, stacked, allowed, ring)
        for g, w in zip(got, want, strict=True):
            assert g.shape == w.shape
            np.testing.assert_array_equal(g, w)
        assert (got[0] > 0).any()  # some blocks read


def test_block_scores_kernel_is_the_general_formula_and_carries_nan():
    observer = _observer()
    table, evidence, seams, joints, stacked, allowed, _ = _block_inputs(observer, 0.3)
    evidence[0, 0, 1, 2] = np.nan
    terms = observer._block_terms(table, evidence, seams, joints, stacked)
    count, n_levels = BAUBYLON.rows * BAUBYLON.cols, len(observer.levels)
    heights = observer.levels[RNG.integers(0, n_levels, count)]
    want_seen, want_support = observer._block_scores_given(terms, heights.reshape(BAUBYLON.rows, BAUBYLON.cols), True)
    want_near = observer._near_support_given(terms, heights.reshape(BAUBYLON.rows, BAUBYLON.cols), True)
    seen, support, near = np.empty((count, n_levels)), np.empty((count, n_levels)), np.empty((count, n_levels))
    flat = {name: np.ascontiguousarray(terms[name].reshape(-1, 4, count)) for name in ("edge", "evidence", "seams",
                                                                                       "joints", "open")}
    kernels.block_scores(flat["edge"], flat["evidence"], flat["seams"], flat["joints"], flat["open"][0],
                         terms["table"].reshape(count), observer.levels, observer._near_first.reshape(4, count),
                         observer._far_first.reshape(4, count), observer._weight_first.reshape(n_levels, 4, count),
                         observer._beside_index.reshape(4, count), heights, True, np.zeros((0, n_levels)), seen, support,
                         near)
    np.testing.assert_array_equal(seen, want_seen.reshape(count, n_levels))
    np.testing.assert_array_equal(support, want_support.reshape(count, n_levels))
    np.testing.assert_array_equal(near, want_near.reshape(count, n_levels))
    assert np.isnan(seen[0, 1]) and np.isnan(support[0, 1])


@pytest.mark.parametrize(("spaces", "positions", "offsets"), [
    (250, 3, (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)),  # pawn tops, as _read_pawns samples them
    (1, 3, (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)),
    (0, 3, (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)),
    (20, 4, OFFSETS),
])
def test_outline_evidence_is_outlines_evidence(spaces, positions, offsets):
    across, reference = _block_samples(spaces, heights=1, positions=positions, offsets=offsets)
    across[0:1, :, :, :, 2] = np.nan  # a NaN sample where there is a first space
    expected = RNG.uniform(-1, 1, across.shape[:3]).astype(np.float32)
    samples = ProbeSamples(np.zeros((spaces, 1, 0, 3), np.float32), across, offsets)
    want = outline(samples, reference[:, None, :]).evidence(expected)
    got = kernels.outline_evidence(across, reference, offsets, expected)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)


def _numpy_one_stack_per_top(observer, scores, stands, kinds):
    """_one_stack_per_top as numpy computed it before its choice was compiled."""
    from companion.vision.observers import baubylon

    best = scores.argmax(axis=-1)
    found = np.flatnonzero(scores[np.arange(len(scores)), best] > baubylon._NO_PAWN)
    if len(found) < 2:
        return scores
    rank = scores[found, best[found]] - baubylon._TALLER * best[found]
    if stands is not None:
        rank = rank + baubylon._STAND * stands[found, best[found]]
    found = found[np.argsort(-rank)]
    near = baubylon._apart(observer.pawn_pixels[found, best[found]]) < 0.5 * observer.pawn_px[found, best[found]][None, :]
    tops = best[found] + 1
    slots = observer.hiding_other[found]
    place = np.full(len(scores), -1)
    place[found] = np.arange(len(found))
    n, k = np.nonzero((place[slots] >= 0) & observer.hiding_nearer[found])
    m = place[slots[n, k]]
    taller = tops[m] > tops[n]
    if kinds is not None:
        colour = kinds[found, best[found]]
        taller &= colour[m] == colour[n]
    # a top, less likely, that shows better than the taller one would hide it is a stack of its own
    shown = scores[found, best[found]]
    taller &= ~((m < n) & (shown[n] > baubylon._SIDE_SHOWS * shown[m]))
    n, m, k = n[taller], m[taller], k[taller]
    hidden = observer.hiding_pawn[found[n], k, tops[n], tops[m]]
    near[n[hidden], m[hidden]] = near[m[hidden], n[hidden]] = True
    out = scores.copy()
    out[found[~baubylon._first_in_place(near)]] = 0.0
    return out


@pytest.mark.parametrize("share", [0.0, 0.01, 0.1, 0.4])
def test_one_stack_per_top_compiled_is_the_numpy_choice(share):
    observer = _observer()
    count, tops = BAUBYLON.rows * BAUBYLON.cols, observer.top
    dropped = 0
    for trial in range(8):
        scores = np.where(RNG.random((count, tops)) < share, RNG.random((count, tops)), 0.0)
        stands = RNG.random((count, tops)) if trial % 2 else None
        kinds = RNG.integers(0, 3, (count, tops)) if trial % 4 < 2 else None
        got = observer._one_stack_per_top(scores, stands, kinds)
        np.testing.assert_array_equal(got, _numpy_one_stack_per_top(observer, scores, stands, kinds))
        dropped += np.count_nonzero(got != scores)
    assert share < 0.1 or dropped  # some tops meet


@pytest.mark.parametrize("count", [1, 2, 9, 16])
def test_median_rows_and_robust_rows_are_small_median_and_robust_features(count):
    values = _lab((300, count))
    values[::7, :, 0] = values[::7, :1, 0]  # ties
    np.testing.assert_array_equal(kernels.median_rows(values), small_median(values))
    np.testing.assert_array_equal(kernels.median_rows(values), np.median(values, axis=1))
    np.testing.assert_array_equal(kernels.robust_rows(values), robust_features(values))
    empty = kernels.median_rows(np.zeros((0, count, 3), np.float32))
    assert empty.shape == (0, 3)


def test_median_rows_sorts_nan_last_as_numpy():
    values = _lab((40, 9))
    values[RNG.random(values.shape) < 0.2] = np.nan
    np.testing.assert_array_equal(kernels.median_rows(values), small_median(values))
    np.testing.assert_array_equal(kernels.robust_rows(values), robust_features(values))


@pytest.mark.parametrize("points", [9, 16])
def test_part_median_is_nan_median_of_the_marked_points(points):
    from companion.vision.observers import baubylon

    seen = _lab((200, points))
    far = RNG.random((200, points)) < 0.5
    count = far.sum(axis=-1)
    rows = np.flatnonzero(count >= 1)
    want = baubylon._nan_median(np.where(far[rows, :, None], seen[rows], np.nan), count[rows])
    np.testing.assert_array_equal(kernels.part_median(seen, far, rows), want)
    np.testing.assert_array_equal(want, np.nanmedian(np.where(far[rows, :, None], seen[rows], np.nan), axis=1))
    assert kernels.part_median(seen, far, np.zeros(0, np.intp)).shape == (0, 3)
