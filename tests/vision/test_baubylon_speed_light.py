"""The light fit's small-array shortcuts (baubylon_light) give numpy's own numbers."""

import warnings

import numpy as np
import pytest

from companion.vision.observers import baubylon_light
from companion.vision.observers.baubylon_light import _median


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 8, 15, 16, 33, 150])
def test_median_is_numpys_on_rows_and_columns(count):
    rng = np.random.default_rng(count)
    for trial in range(12):
        values = rng.random((count, 3)) * (1.0 + trial)
        if trial % 3 == 0:
            values[:, 1] = np.round(values[:, 1], 1)  # ties
        if trial % 4 == 1:
            values[rng.integers(count), rng.integers(3)] = np.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected_rows = np.median(values, axis=0)
            expected_flat = np.median(values[:, 0])
        assert np.array_equal(_median(values), expected_rows, equal_nan=True)
        assert np.array_equal(_median(values[:, 0]), expected_flat, equal_nan=True)


def test_median_of_nothing_is_numpys():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.array_equal(_median(np.zeros((0, 3))), np.median(np.zeros((0, 3)), axis=0), equal_nan=True)


def test_tilt_grid_is_the_meshgrid(monkeypatch):
    """_best_tilt scores every (x, y) pair in meshgrid(xs, ys, indexing="ij")'s raveled order (the
    first best is kept: the order decides ties)."""
    seen = {}

    def record(brightness, dx, dy, unhidden, level, tx, ty, *rest):
        seen["grid"] = (tx.copy(), ty.copy())
        return np.zeros(len(tx))

    monkeypatch.setattr(baubylon_light, "tilt_scores", record)
    steps = np.arange(-0.3, 0.3 + 1e-9, 0.06)
    centre = np.array([0.05, -0.1])
    baubylon_light._best_tilt(np.ones(4), np.zeros((4, 2)), np.ones(4, bool), 1.0, steps, centre=centre, reach=0.3)
    xs, ys = centre[0] + steps, centre[1] + steps
    xs, ys = xs[np.abs(xs) <= 0.3 + 1e-9], ys[np.abs(ys) <= 0.3 + 1e-9]
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    assert np.array_equal(seen["grid"][0], gx.ravel())
    assert np.array_equal(seen["grid"][1], gy.ravel())
    assert len(xs) != len(ys)  # (a grid that is not square: the order of the axes matters)
