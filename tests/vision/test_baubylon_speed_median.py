"""The medians' sorting network (baubylon_kernels.sorting_pairs, median_rows, robust_rows) puts the
very bits a stable sort puts in place: NaN last, −0.0 and 0.0 in the order they came."""

import itertools

import numpy as np
import pytest

from companion.vision.observers import baubylon_kernels as kernels


def _stable_median(values: np.ndarray) -> np.ndarray:
    """(R, G, C) → (R, C): the middle of a stable sort along G (NaN last; equal values, −0.0 and
    0.0 among them, in their order), or the middle two's mean in the values' type."""
    ordered = np.sort(values, axis=1, kind="stable")
    count = values.shape[1]
    middle = count // 2
    if count % 2:
        return ordered[:, middle]
    return (ordered[:, middle - 1] + ordered[:, middle]) * values.dtype.type(0.5)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("count", range(1, 17))
def test_the_network_sorts_every_row_of_zeros_and_ones(count):
    """The zero-one principle: a comparator network that sorts every 0/1 row sorts every row."""
    pairs = kernels.sorting_pairs(count)
    rows = np.array(list(itertools.product((0.0, 1.0), repeat=count)))
    for a, b in pairs:
        low, high = np.minimum(rows[:, a], rows[:, b]), np.maximum(rows[:, a], rows[:, b])
        rows[:, a], rows[:, b] = low, high
    assert (np.diff(rows, axis=1) >= 0).all()
    assert (pairs[:, 0] < pairs[:, 1]).all() and (pairs < count).all()


@pytest.mark.parametrize("count", [0, 1, 2, 3, 5, 8, 9, 16, 17, 31, 64, 100])
def test_median_rows_has_a_stable_sorts_bits(count):
    rng = np.random.default_rng(count)
    for trial in range(24):
        dtype = np.float32 if trial % 2 else np.float64
        values = (rng.random((9, count, 3)) * 10.0 - 3.0).astype(dtype)
        if trial % 3 == 0:
            values = np.round(values)  # ties, and −0.0 beside 0.0
        if trial % 4 == 1 and count:
            values[rng.integers(9), rng.integers(count), rng.integers(3)] = np.nan
        if trial % 5 == 2 and count:
            values[0, rng.integers(count), 0] = -np.inf
        if count == 0:
            assert np.isnan(kernels.median_rows(values)).all()
            continue
        assert _same_bits(kernels.median_rows(values), _stable_median(values))


def test_signed_zeros_keep_their_order():
    values = np.array([[[0.0], [-0.0], [-0.0]], [[-0.0], [0.0], [0.0]]], np.float32)
    middle = kernels.median_rows(values)
    assert np.signbit(middle[0, 0]) and not np.signbit(middle[1, 0])


@pytest.mark.parametrize("count", [4, 9, 16])
def test_robust_rows_has_a_stable_sorts_bits(count):
    rng = np.random.default_rng(100 + count)
    for trial in range(12):
        values = (rng.normal(50.0, 8.0, (30, count, 3))).astype(np.float32)
        if trial % 2:
            values = np.round(values)
        centre = _stable_median(values)
        spread = _stable_median(np.abs(values - centre[:, None, :]))
        expected = np.concatenate([centre, np.float32(1.4826) * spread], axis=1)
        assert _same_bits(kernels.robust_rows(values), expected)
