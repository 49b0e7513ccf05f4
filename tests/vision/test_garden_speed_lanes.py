"""The garden's side-by-side kernels (garden_kernels_lanes.py) give the row-by-row kernels' numbers,
which are numpy's, bit for bit: on random rows of every length class (under 8, a multiple of 8,
between, past numpy's 128-term block), row counts that fill or leave part of a block, edge values
(NaN, ±inf, −0.0), and through the sampler on a rendered frame."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.observers import garden_kernels_lanes as lanes
from companion.vision.observers import garden_kernels_measure as kernels
from tests.vision import garden_measure_reference as reference


def _bits_equal(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert np.array_equal(got.view(np.int32), expected.view(np.int32))  # NaN and −0.0 as numpy's


def _lab(rng, n: int) -> np.ndarray:
    lab = np.empty((3, n), np.float32)
    lab[0] = rng.integers(0, 256, n).astype(np.uint8) * np.float32(100.0 / 255.0)
    lab[1:] = rng.integers(0, 256, (2, n)) - np.float32(128.0)
    return lab


@pytest.mark.parametrize("n", [1, 2, 6, 7, 8, 9, 15, 16, 17, 25, 64, 100, 128, 129])
@pytest.mark.parametrize("rows", [1, lanes.LANES - 1, lanes.LANES, 3 * lanes.LANES + 5])
def test_side_by_side_patch_stats_are_the_row_kernels_bit_for_bit(n, rows):
    rng = np.random.default_rng(1000 * n + rows)
    lab = _lab(rng, 400)
    lab[:, :30] = lab[:, :1]  # patches of one colour: spread exactly 0
    idx = rng.integers(0, 400, (rows, n))
    idx[: rows // 4] = rng.integers(0, 30, (rows // 4, n))
    for lead in (0, 2):
        got = lanes.patch_stats_blocked(lab, idx, lanes.blocked(idx), lead)
        _bits_equal(got, kernels.patch_stats(lab, idx, lead))
    if n <= 25:  # and numpy's own numbers
        _bits_equal(lanes.patch_stats_blocked(lab, idx, lanes.blocked(idx), 0), reference.features(lab, idx))


def test_edge_values_keep_the_row_kernels_nan_inf_and_signed_zeros():
    rng = np.random.default_rng(5)
    lab = _lab(rng, 300)
    lab[:, 0] = np.nan
    lab[:, 1], lab[:, 2] = np.inf, -np.inf
    lab[:, 3:40] = -0.0
    idx = rng.integers(0, 300, (150, 9))
    idx[:20, 0] = 0  # NaN rows
    idx[20:40, 1] = 1  # +inf
    idx[40:60, 2] = 2  # −inf
    idx[60:80] = rng.integers(3, 40, (20, 9))  # all −0.0
    _bits_equal(lanes.patch_stats_blocked(lab, idx, lanes.blocked(idx), 1), kernels.patch_stats(lab, idx, 1))


def test_blocks_lay_each_rows_points_side_by_side():
    idx = np.arange(3 * 70).reshape(70, 3)
    blocks = lanes.blocked(idx)
    assert blocks.shape == (2, 3, lanes.LANES) and blocks.flags.c_contiguous
    assert np.array_equal(blocks[1, :, 70 - lanes.LANES - 1], idx[69])
    assert not blocks[1, :, 70 - lanes.LANES :].any()  # padding lanes read sample 0


def test_no_rows_and_no_points():
    lab = np.zeros((3, 5), np.float32)
    assert lanes.patch_stats_blocked(lab, np.zeros((0, 9), np.int64), lanes.blocked(np.zeros((0, 9), np.int64)), 2).shape == (2, 6)
    empty = np.zeros((4, 0), np.int64)
    _bits_equal(lanes.patch_stats_blocked(lab, empty, lanes.blocked(empty), 0), kernels.patch_stats(lab, empty, 0))
