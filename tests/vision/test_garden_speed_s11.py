"""Garden speed, eleventh sitting: the first look's whole-frame numpy steps done without numpy's
per-row reductions and full sorts give the same numbers bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.observers import babylon_garden as bg
from companion.vision.observers.garden_kernels_first import best_columns
from companion.vision.observers.garden_tiles import POSITIONS, tile_support


def awkward(rng, shape, steps=8):
    """Values with ties (coarse steps), ±inf, NaN and both zeros."""
    a = np.round(rng.uniform(-1.0, 1.0, shape) * steps) / steps
    pick = rng.random(shape)
    a[pick < 0.08] = -np.inf
    a[(pick >= 0.08) & (pick < 0.12)] = np.inf
    a[(pick >= 0.12) & (pick < 0.16)] = np.nan
    a[(pick >= 0.16) & (pick < 0.22)] = -0.0
    a[(pick >= 0.22) & (pick < 0.28)] = 0.0
    return a


@pytest.mark.parametrize("seed", range(40))
def test_best_columns_are_the_stable_sorts_first(seed):
    rng = np.random.default_rng(seed)
    cells, columns = int(rng.integers(1, 70)), int(rng.integers(1, 50))
    width = int(rng.integers(1, columns + 1))
    scores = awkward(rng, (cells, columns), int(rng.choice([2, 8, 1000])))
    got = np.empty((cells, width), np.int64)
    best_columns(scores, got)
    assert np.array_equal(got, np.argsort(-scores, axis=1, kind="stable")[:, :width])


def test_best_columns_of_the_observers_width():
    rng = np.random.default_rng(1)
    columns = bg._CandidateColumns.of([1, 2, 3, 4, 5, 6])
    scores = awkward(rng, (64, len(columns.label)))
    got = np.empty((64, bg.TOP_CANDIDATES), np.int64)
    best_columns(scores, got)
    assert np.array_equal(got, np.argsort(-scores, axis=1, kind="stable")[:, : bg.TOP_CANDIDATES])


@pytest.mark.parametrize("flowers", [1, 2, 4, 5, 7, 8, 11])
def test_corner_best_is_the_sum_then_max(flowers):
    rng = np.random.default_rng(flowers)
    dots = rng.random((7, 8, 8, 4, flowers)) * rng.choice([1e-6, 1.0, 1e6], (7, 8, 8, 4, flowers))
    dots[0, 0, 0, 1, 0] = np.nan
    dots[1, 2, 3] = 0.0
    want = dots.sum(axis=-1).max(axis=-1)
    got = bg._corner_best(dots)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.isnan(got), np.isnan(want))


def tile_support_reference(space):
    """tile_support as it was: the best position by numpy's max over the last axis."""
    agree = np.where(space >= space.max(axis=-1, keepdims=True), np.maximum(space, 0.0), 0.0)
    total = np.zeros((space.shape[0], 7, 7))
    for i, (dr, dc) in enumerate(POSITIONS):
        total += agree[:, dr : dr + 7, dc : dc + 7, i]
    return total


@pytest.mark.parametrize("seed", range(10))
def test_tile_support_takes_each_spaces_best_position_as_before(seed):
    rng = np.random.default_rng(seed)
    space = awkward(rng, (7, 8, 8, 4), 1000)
    assert np.array_equal(tile_support(space), tile_support_reference(space), equal_nan=True)
