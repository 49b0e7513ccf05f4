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


def _face_args(rng, k: int, cells: int, width: int, sides: tuple[int, ...], q: int, narrow: bool, nan: bool):
    from tests.vision.test_garden_measure_speed import _lab as lab_with_sentinels
    from tests.vision.test_garden_measure_speed import _numpy_median, _probe
    lab = lab_with_sentinels(rng, 300, nan)
    probe = _probe(rng, 300, k, cells, width, sides, q, narrow)
    return lab, _numpy_median(lab, probe.median), probe


@pytest.mark.parametrize("k, cells, width, sides, q, narrow, nan", [
    (3, 16, 37, (0, 1, 2, 3), 6, True, False), (5, 64, 65, (0, 1, 2, 3), 8, False, False),
    (5, 256, 27, (0, 3), 16, True, False), (1, 64, 97, (0, 1, 2, 3), 8, True, False),
    (2, 40, 1, (2,), 1, True, False), (3, 30, 3, (1, 2), 2, False, True), (4, 70, 9, (0, 1, 2, 3), 5, True, True),
    (1, 3, 129, (0, 1), 3, True, False)])
@pytest.mark.parametrize("appearance", [True, False])
def test_side_by_side_face_tests_are_the_row_kernels_bit_for_bit(k, cells, width, sides, q, narrow, nan, appearance):
    rng = np.random.default_rng(width * 7 + q + cells)
    lab, colour, probe = _face_args(rng, k, cells, width, sides, q, narrow, nan)
    args = (probe.ring_n, probe.side_of, probe.inside_n, 5.0, 12.0, appearance)
    blocks = lanes.blocked(probe.both.reshape(-1, probe.both.shape[-1]))
    got = lanes.face_scores_blocked(lab, colour, probe.both, blocks, width, *args)
    expected = kernels.face_scores(lab, colour, probe.both, width, *args)
    for a, b in zip(got, expected, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))
    if narrow and not nan and appearance:
        assert (expected[1] > 0).any() and (expected[3] != 0).any()  # like points, not only misses


def test_a_frames_measurements_through_the_sampler_are_numpys():
    """The observer's measurement on a rendered frame: its faces, stacked tile faces and patches
    from the side-by-side kernels equal the row kernels' numbers (which tests compare with numpy)."""
    from companion.sim import garden
    from companion.sim.camera import region_geometry
    from companion.sim.render import render
    from companion.sim.scene import TableScene
    from companion.vision.observers.babylon_garden import GardenObserver
    from tests.sim.helpers import GAMES, camera_for

    camera = camera_for(GAMES["babylon.garden"])
    observer = GardenObserver(region_geometry(camera))
    frame = render(TableScene((garden.region_scene(garden.random_layout(np.random.default_rng(4))),)), camera, seed=2)
    sampler = observer.sampler
    lab = sampler.sample(frame)
    from tests.vision.test_garden_measure_speed import _numpy_median
    for probe in (observer._recess, observer._pillar, observer._deco):
        colour = sampler._median(lab, probe.median)
        assert np.array_equal(colour, _numpy_median(lab, probe.median))
        expected = kernels.face_scores(lab, colour, probe.both, probe.inside.shape[-1], probe.ring_n, probe.side_of,
                                       probe.inside_n, 5.0, 12.0, True)
        fit = sampler.fit(lab, probe)
        shape = fit.score.shape
        for got, want in zip((fit.score, fit.inside, fit.ring, fit.features, fit.sides), expected, strict=True):
            assert np.array_equal(got, want.reshape(*shape, *want.shape[2:]))
    stack = observer._tile_stack
    want = kernels.face_scores(lab, sampler._median(lab, stack.median), stack.both, stack.width, stack.ring_n,
                               stack.side_of, stack.inside_n, 5.0, 12.0, False)[0]
    assert np.array_equal(np.moveaxis(sampler.scores(lab, stack), -1, 1).ravel(), want.ravel())
    for idx in (observer._centre, observer._bands_strips, observer._flowers):
        rows = idx.reshape(-1, idx.shape[-1])
        assert np.array_equal(sampler.features(lab, idx).reshape(-1, 6), kernels.patch_stats(lab, rows, 0))


@pytest.mark.parametrize("m", [0, 1, 3, 9, 27, 37, 65])
@pytest.mark.parametrize("k, r", [(1, 1), (1, 64), (5, 64), (5, 256), (3, 23)])
def test_side_by_side_medians_are_the_row_kernels(m, k, r):
    rng = np.random.default_rng(100 * m + k + r)
    codes = rng.integers(0, 258, (3, 500)).astype(np.int16)
    codes[:, :40] = rng.integers(100, 104, (3, 40))  # rows of few values: ties at the median
    idx = rng.integers(0, 500, (k, r, m))
    idx[:, : r // 3] = rng.integers(0, 40, (k, r // 3, m))
    got = lanes.code_medians_lanes(codes, kernels.LAB_VALUES, lanes.blocked(idx.reshape(k * r, m)), k, r)
    _bits_equal(got, kernels.code_medians(codes, kernels.LAB_VALUES, idx))


def test_a_samples_code_is_found_from_its_value():
    """face_scores_lanes' _code: every value lab_samples can give (the 256 levels of each channel and
    the ±inf sentinels) back to its code, its place among LAB_VALUES."""
    for c in range(3):
        for code, value in enumerate(kernels.LAB_VALUES[c]):
            assert lanes._code(c, value) == code


@pytest.mark.parametrize("k, cells, width, sides, q, narrow", [
    (3, 16, 37, (0, 1, 2, 3), 6, True), (5, 64, 65, (0, 1, 2, 3), 8, False), (5, 256, 27, (0, 3), 16, True),
    (1, 64, 97, (0, 1, 2, 3), 8, True), (2, 40, 1, (2,), 1, True), (3, 30, 3, (1, 2), 2, False),
    (4, 70, 9, (0, 1, 2, 3), 5, True), (1, 3, 128, (0, 1), 3, True)])
@pytest.mark.parametrize("appearance", [True, False])
def test_colours_found_in_the_face_pass_are_the_medians_and_the_scores_bit_for_bit(k, cells, width, sides, q, narrow,
                                                                                   appearance):
    """face_scores_coloured: each row's majority colour found in the face test's pass is
    code_medians' of the row's first `width` points (rows of sentinels only too), and the five
    arrays are face_scores' with that colour, on samples as lab_samples makes them."""
    from tests.vision.test_garden_measure_speed import _probe
    rng = np.random.default_rng(width * 11 + q + cells)
    lab, codes = kernels.lab_samples(rng.integers(0, 256, (300, 3)).astype(np.uint8), 300)
    probe = _probe(rng, 300, k, cells, width, sides, q, narrow)
    both, inside_n = probe.both.copy(), probe.inside_n.copy()
    both[:, 0, :width], both[:, 0, 1:width:2], inside_n[0] = -2, -1, 0  # a row of sentinels only, as padded
    colour = kernels.code_medians(codes, kernels.LAB_VALUES, np.ascontiguousarray(both[..., :width]))
    args = (probe.ring_n, probe.side_of, inside_n, 5.0, 12.0, appearance)
    expected = (colour, *kernels.face_scores(lab, colour, both, width, *args))
    got = lanes.face_scores_coloured(lab, kernels.LAB_VALUES, both, lanes.blocked(both.reshape(-1, both.shape[-1])),
                                     width, *args)
    for a, b in zip(got, expected, strict=True):
        assert a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))
    assert np.isinf(colour[:, :, 0]).all()  # that row's colour: the +inf sentinel


def test_no_colours_found_where_the_rows_are_not_side_by_side():
    lab, _ = kernels.lab_samples(np.zeros((10, 3), np.uint8), 10)
    both = np.zeros((1, 4, 129), np.int64)
    assert lanes.face_scores_coloured(lab, kernels.LAB_VALUES, both, lanes.blocked(both.reshape(4, 129)), 129,
                                      np.ones((4, 0), np.int64), np.zeros((4, 0), np.int64), np.ones(4, np.int64),
                                      5.0, 12.0, False) is None
