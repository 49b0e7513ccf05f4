"""The medians' lane-wise sorting network (baubylon_kernels._sort_lanes): every column of a (G, lanes)
grid sorted at once, each compare-exchange a pass along the lanes. On lanes with neither a NaN nor a
−0.0 it leaves np.sort's bits; median_rows sends the other lanes to the insertion sort."""

import numpy as np
import pytest

from companion.vision.observers import baubylon_kernels as kernels


@pytest.mark.parametrize("count", [1, 2, 3, 4, 7, 9, 16, 17, 33])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sort_lanes_sorts_every_lane_as_np_sort(count, dtype):
    rng = np.random.default_rng(count)
    for trial in range(8):
        lanes = int(rng.integers(1, 70))
        grid = (rng.normal(40.0, 20.0, (count, lanes))).astype(dtype)
        if trial % 2:
            grid = np.round(grid / 5.0) * 5.0 + 0.0  # ties (+ 0.0: no −0.0, which is not the network's)
        if trial % 3 == 2:
            grid[rng.integers(count), rng.integers(lanes)] = np.inf
            grid[rng.integers(count), rng.integers(lanes)] = -np.inf
        expected = np.sort(grid, axis=0)
        kernels._sort_lanes(grid, kernels.sorting_pairs(count), np.empty(lanes, dtype))
        assert grid.tobytes() == expected.tobytes()


def test_a_lane_with_nan_or_negative_zero_still_gets_np_sorts_median():
    """Such a lane is not the network's (its bits would differ): median_rows sorts it apart."""
    values = np.array([[[3.0, -0.0], [np.nan, 0.0], [1.0, -0.0], [2.0, 0.0]],
                       [[5.0, 1.0], [4.0, 2.0], [6.0, 3.0], [7.0, 4.0]]], np.float32)  # (R 2, G 4, C 2)
    middle = kernels.median_rows(values)
    ordered = np.sort(values, axis=1, kind="stable")
    expected = (ordered[:, 1] + ordered[:, 2]) * np.float32(0.5)
    assert middle.tobytes() == expected.tobytes()
    assert middle[0, 0] == 2.5  # the middle two of 1, 2, 3, NaN
