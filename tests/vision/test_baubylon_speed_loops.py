"""The Baubylon read's remaining numpy steps compiled (baubylon_kernels.raised_tops,
stand_on_allowed, columns_drop) and its pawn grids balanced in one conversion (_balanced_grids)
give the numpy code's results: on random rows with ties and NaN, on random boards of a bench
camera's tables, and on a bench frame's own grids."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.observers import baubylon
from companion.vision.observers import baubylon_kernels as kernels
from companion.vision.observers.baubylon_columns import seen_on_columns
from companion.vision.observers.stack_sampling import rebalance_each

from .bench_frames import bench_frame


@pytest.fixture(scope="module")
def frame():
    return bench_frame("baubylon", 1, 27)


def _rows(rng, count, levels):
    values = rng.random((count, levels))
    values[rng.random((count, levels)) < 0.2] = 0.0  # ties at zero
    values[rng.random(count) < 0.1, levels - 1] = values[0, 0]  # ties between levels
    return values


def test_raised_tops_are_argmax_and_flatnonzero():
    rng = np.random.default_rng(1)
    for trial in range(40):
        count, levels = int(rng.integers(1, 150)), int(rng.integers(1, 6))
        seen, support = _rows(rng, count, levels), rng.random((count, levels))
        if trial % 5 == 0:
            seen[rng.integers(count), rng.integers(levels)] = np.nan
        best, raised, score = np.empty(count, np.intp), np.empty(count, np.intp), np.empty(count)
        n = kernels.raised_tops(seen, support, best, raised, score)
        want_best = seen.argmax(axis=-1)
        want_raised = np.flatnonzero(want_best > 0)
        np.testing.assert_array_equal(best, want_best)
        np.testing.assert_array_equal(raised[:n], want_raised)
        np.testing.assert_array_equal(score[:n], support[want_raised, want_best[want_raised]]
                                      + 0.01 * seen[want_raised, want_best[want_raised]])


def test_stand_on_allowed_is_the_numpy_choice():
    rng = np.random.default_rng(2)
    for trial in range(40):
        count, levels = int(rng.integers(1, 150)), int(rng.integers(1, 6))
        seen, fewer = _rows(rng, count, levels), rng.choice([0.0, 0.075, 0.15], (count, levels))
        allowed = rng.random((count, levels)) < 0.5
        allowed[rng.random(count) < 0.2] = False  # rows with no level allowed stay as chosen
        if trial % 4 == 0:
            seen[rng.integers(count), rng.integers(levels)] = np.nan
        chosen = rng.integers(0, levels, count).astype(np.intp)
        want = chosen.copy()
        baubylon._stand_on_allowed(want, seen, fewer, allowed)
        kernels.stand_on_allowed(chosen, seen, fewer, allowed)
        np.testing.assert_array_equal(chosen, want)


def test_columns_drop_is_seen_on_columns(frame):
    _, _, observer = frame
    rng = np.random.default_rng(3)
    count, tops = len(observer.hiding_other), observer.top
    dropped = 0
    for trial in range(60):
        found = rng.random(count) < (0.05 + 0.5 * rng.random())
        best = rng.integers(0, tops, count).astype(np.intp)
        kinds = rng.integers(0, 2 if trial % 2 else 7, (count, tops)).astype(np.intp)
        want = seen_on_columns(best, found, kinds, observer.hiding_other, observer._beside_index.reshape(4, -1).T,
                               observer.nadir_distance, observer.levels[observer._stand_terms[2]],
                               observer.hiding_pawn)
        got = np.zeros(count, bool)
        kernels.columns_drop(best, found, kinds, observer.hiding_other, observer._beside_rows,
                             observer.nadir_distance, observer._under_levels, observer.hiding_pawn, got)
        np.testing.assert_array_equal(got, want)
        dropped += int(want.sum())
    assert dropped > 0  # (some boards with tops to drop, not only none)
    none = np.zeros(count, bool)
    none[0] = True  # one stack: nothing to compare
    got = np.zeros(count, bool)
    kernels.columns_drop(best, none, kinds, observer.hiding_other, observer._beside_rows, observer.nadir_distance,
                         observer._under_levels, observer.hiding_pawn, got)
    assert not got.any()


def test_balanced_grids_are_two_rebalances(frame):
    _, image, observer = frame
    profile = observer.profile
    gains = observer._light_gains(image, profile)
    interiors = observer.pawns.sample_interior(image)  # (S, T, G, 3)
    rng = np.random.default_rng(4)
    squares, levels = rng.integers(0, len(interiors), 90), rng.integers(0, observer.top, 90)
    grids = interiors[squares, levels]
    colour, seen, far = baubylon._balanced_grids(grids, gains[squares], profile)
    middle = kernels.median_rows(np.ascontiguousarray(grids))
    np.testing.assert_array_equal(colour, rebalance_each(middle, gains[squares]))
    want_seen, want_far = baubylon._unlike_part(grids, gains[squares], profile)
    np.testing.assert_array_equal(seen, want_seen)
    np.testing.assert_array_equal(far, want_far)
    assert seen.flags.c_contiguous and far.any() and not far.all()


def test_stack_allowed_is_observes_numpy_formula(frame):
    _, _, observer = frame
    rng = np.random.default_rng(6)
    rows, cols = 12, 12
    count = rows * cols
    for trial in range(40):
        unlike = rng.uniform(0.0, 40.0, (count, observer.top))
        unlike[rng.random(unlike.shape) < 0.05] = np.nan if trial % 2 else np.inf
        top = rng.integers(1, observer.top + 1, count)
        stacked = (rng.random(count) < 0.4).reshape(rows, cols)
        t = top.reshape(rows, cols)
        want = ~stacked[..., None] | ((observer.levels[None, None, :] < t[..., None])
                                      & (t[..., None] - observer.levels[None, None, :] <= observer.dims.max_pawns)
                                      & observer._stacks_column_shows(unlike, top, stacked.ravel()))
        got = observer._stack_allowed(unlike, top, stacked)
        np.testing.assert_array_equal(got, want)
        assert want[stacked].any() and not want[stacked].all()


def test_stand_fit_and_ring_are_the_side_sums(frame):
    _, _, observer = frame
    rng = np.random.default_rng(7)
    shape = (12, 12, len(observer.levels), 4)
    open_, sides, under = observer._stand_terms
    for trial in range(20):
        values = rng.random(shape).astype(np.float32)
        values[rng.random(shape) < 0.05] = np.nan if trial % 2 else 0.0
        fit = baubylon._sum_sides(values * open_) / sides
        fit = fit.reshape(-1, len(observer.levels))
        fit[:, 0] = baubylon._NO_OUTLINE
        np.testing.assert_array_equal(observer._stand_fit(values), fit[:, under])
        ring = baubylon._sum_sides(np.where(observer._ring_open, values, 0.0)) / observer._ring_sides
        got = observer._ring(values)
        assert got.dtype == ring.dtype
        np.testing.assert_array_equal(got, ring)


def test_stand_bears_looks_under_each_top(frame):
    _, _, observer = frame
    rng = np.random.default_rng(8)
    unlike = rng.uniform(0.0, 30.0, (144, observer.top))
    stands = rng.random((144, observer.top))
    under = observer.levels[np.searchsorted(observer.levels, np.arange(1, observer.top + 1), side="left") - 1]
    foot = np.where(under[None, :] > 0, unlike[:, np.maximum(under - 1, 0)], 0.0)
    want = (foot > baubylon._COLUMN_UNLIKE) & (stands > baubylon._NO_OUTLINE)
    np.testing.assert_array_equal(observer._stand_bears(unlike, stands), want)
    assert want.any()
