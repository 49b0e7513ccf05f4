"""The garden's compiled measurement kernels (garden_kernels_measure.py) give numpy's numbers, bit
for bit: on random rows with sentinels, NaN and edge cases, and on a rendered frame's probes."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.observers import garden_kernels_measure as kernels
from companion.vision.observers.babylon_garden import GardenObserver
from companion.vision.observers.garden_points import NEG_INF, POS_INF, FaceProbe, FaceStack
from tests.sim.helpers import GAMES, camera_for
from tests.vision import garden_measure_reference as reference
from tests.vision.fresh_process import printed_in_fresh_process


def _same(got: np.ndarray, expected: np.ndarray) -> None:
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)  # equal values, NaN where numpy has NaN


def _lab(rng, n: int, nan: bool = False) -> np.ndarray:
    """(3, n + 2) samples as sample() gives them (L in steps of 100/255, a and b whole), then the
    +inf and −inf sentinels."""
    codes = rng.integers(0, 256, (3, n + 2))
    lab = np.empty((3, n + 2), np.float32)
    lab[0] = codes[0].astype(np.uint8) * np.float32(100.0 / 255.0)
    lab[1:] = codes[1:] - np.float32(128.0)
    if nan:
        lab[:, rng.integers(0, n, 3)] = np.nan
    lab[:, POS_INF], lab[:, NEG_INF] = np.inf, -np.inf
    return lab


def _probe(rng, n: int, k: int, cells: int, width: int, sides: tuple[int, ...], q: int, narrow: bool) -> FaceProbe:
    """A random face probe: indices into n samples (narrow: a few colours, so many rows are one
    colour and fit), padded with sentinels as garden_points pads them."""
    pool = rng.integers(0, n, 6) if narrow else np.arange(n)
    inside_n = rng.integers(0, width + 1, cells)
    inside = rng.choice(pool, (k, cells, width))
    for i, m in enumerate(inside_n):
        inside[:, i, m:] = POS_INF
        inside[:, i, m + 1 :: 2] = NEG_INF
    ring_n = rng.integers(0, q + 1, (cells, len(sides)))
    ring = rng.choice(pool, (k, cells, len(sides), q))
    for i in range(cells):
        for s in range(len(sides)):
            ring[:, i, s, ring_n[i, s] :] = POS_INF
    both = np.concatenate([inside, ring.reshape(k, cells, -1)], axis=-1)
    side_of = np.tile(np.array(sides, np.int64), (cells, 1))
    return FaceProbe(inside, inside_n, width, ring, ring_n, sides, both, side_of, inside.copy())


def _numpy_median(lab: np.ndarray, idx: np.ndarray) -> np.ndarray:
    middle = idx.shape[-1] // 2
    return np.ascontiguousarray(np.partition(np.take(lab, idx, axis=1), middle, axis=-1)[..., middle])


def _fit(lab, probe, cells, appearance=True):
    colour = _numpy_median(lab, probe.median)
    return colour, kernels.face_scores(lab, colour, probe.both, probe.inside.shape[-1], probe.ring_n, probe.side_of,
                                       probe.inside_n, 5.0, 12.0, appearance)


@pytest.mark.parametrize("width, sides, q, narrow, nan", [
    (37, (0, 1, 2, 3), 6, True, False), (65, (0, 1, 2, 3), 8, False, False), (27, (0, 3), 16, True, False),
    (1, (2,), 1, True, False), (3, (1, 2), 2, False, True), (9, (0, 1, 2, 3), 5, True, True)])
def test_a_face_test_in_one_pass_gives_numpys_fit_bit_for_bit(width, sides, q, narrow, nan):
    rng = np.random.default_rng(width * 7 + q)
    lab = _lab(rng, 300, nan)
    probe = _probe(rng, 300, 3, 16, width, sides, q, narrow)
    expected = reference.fit(lab, probe, 4, 4)
    colour, (score, inside, ring, features, side_shares) = _fit(lab, probe, 16)
    _same(score.reshape(3, 4, 4), expected.score)
    _same(inside.reshape(3, 4, 4), expected.inside)
    _same(ring.reshape(3, 4, 4), expected.ring)
    _same(np.moveaxis(colour, 0, -1).reshape(3, 4, 4, 3), expected.colour)
    _same(features.reshape(3, 4, 4, 6), expected.features)
    _same(side_shares.reshape(3, 4, 4, 4), expected.sides)
    if narrow and not nan:
        assert (expected.score > 0.5).any() and (expected.features != 0).any()  # rows that fit, not only misses


def test_a_face_test_without_appearance_leaves_the_features_zero_and_scores_alike():
    rng = np.random.default_rng(5)
    lab = _lab(rng, 200)
    probe = _probe(rng, 200, 2, 8, 15, (0, 1, 2, 3), 4, True)
    _, with_features = _fit(lab, probe, 8)
    _, without = _fit(lab, probe, 8, appearance=False)
    assert not without[3].any() and with_features[3].any()
    for a, b in zip(with_features[:3], without[:3], strict=True):
        _same(a, b)


def test_no_rows_give_empty_results():
    lab = _lab(np.random.default_rng(1), 10)
    empty = np.zeros((2, 0, 5), np.int64)
    score, inside, ring, features, sides = kernels.face_scores(
        lab, np.zeros((3, 2, 0), np.float32), empty, 3, np.zeros((0, 1), np.int64), np.zeros((0, 1), np.int64),
        np.zeros(0, np.int64), 5.0, 12.0, True)
    assert score.shape == inside.shape == ring.shape == (2, 0) and features.shape == (2, 0, 6)
    assert kernels.patch_stats(lab, np.zeros((0, 9), np.int64), 0).shape == (0, 6)


@pytest.mark.parametrize("m, rows", [(1, 3), (3, 300), (27, 1280), (37, 257), (65, 64), (9, 0)])
def test_medians_found_on_the_samples_codes_are_numpys(m, rows):
    rng = np.random.default_rng(m)
    lab8 = rng.integers(0, 256, (500, 3)).astype(np.uint8)
    lab8[:100] = lab8[:1]  # many rows mostly one colour
    lab, codes = kernels.lab_samples(lab8, 500)
    idx = rng.integers(-2, 500, (1, rows, m))
    idx[0, : rows // 2] = rng.integers(0, 100, (rows // 2, m))
    _same(kernels.code_medians(codes, kernels.LAB_VALUES, idx), _numpy_median(lab, idx))
    # any samples (not 8-bit codes): ranked by value_codes, NaN and ±inf among them
    floats = rng.normal(0.0, 30.0, (3, 502)).astype(np.float32)
    floats[:, :50] = floats[:, :1]
    floats[:, 60:63] = np.nan
    floats[:, -2], floats[:, -1] = np.inf, -np.inf
    _same(kernels.code_medians(*kernels.value_codes(floats), idx), _numpy_median(floats, idx))


@pytest.mark.parametrize("n", [*range(0, 20), 31, 32, 33, 64, 127, 128, 129, 130, 255, 256, 257, 1000, 4097])
def test_a_row_is_summed_in_numpys_pairwise_order(n):
    values = np.random.default_rng(n).normal(0.0, 60.0, n).astype(np.float32)
    if n:
        values[0] = -0.0
    got = np.float32(kernels._pairwise(values, 0, n))
    expected = values.sum() if n else np.float32(0.0)
    assert got.view(np.int32) == expected.view(np.int32)


@pytest.mark.parametrize("n", [1, 2, 6, 9, 16, 25, 129])
def test_patch_features_are_numpys_mean_and_spread_of_each_patch(n):
    rng = np.random.default_rng(n)
    lab = _lab(rng, 500)[:, :500].copy()
    lab[:, :50] = lab[:, :1]  # patches of one colour: spread exactly 0
    idx = rng.integers(0, 500, (40, n))
    idx[:5] = rng.integers(0, 50, (5, n))
    _same(kernels.patch_stats(lab, idx, 0), reference.features(lab, idx))
    with_lead = kernels.patch_stats(lab, idx, 3)  # a level of zeros first
    assert not with_lead[:3].any()
    _same(with_lead[3:], reference.features(lab, idx))


def test_a_decoration_open_along_a_row_or_column_scores_as_numpy_chose_it():
    rng = np.random.default_rng(8)
    inside = rng.random(400)
    sides = rng.random((400, 4)).astype(np.float32)
    closed = (inside - sides.max(axis=-1)).astype(np.float32)
    closed[:20] = inside[:20] - np.maximum(sides[:20, 0], sides[:20, 2]) - 0.05  # at the margin
    sides[20:25] = np.nan
    got, expected = kernels.best_span(inside, sides, closed), reference.best_span(inside, sides, closed)
    _same(got, expected)
    assert (got > closed).any() and (got == closed).any()  # some open, some closed


@pytest.mark.parametrize("size", [0, 1, 7, 1000])
def test_samples_to_float_lab_as_numpy_converted_them(size):
    lab8 = np.random.default_rng(size).integers(0, 256, (size + 5, 3)).astype(np.uint8)
    lab8[:1] = (0, 128, 255)
    lab, codes = kernels.lab_samples(lab8, size)
    _same(lab, reference.lab_samples(lab8, size))
    np.testing.assert_array_equal(kernels.LAB_VALUES[np.arange(3)[:, None], codes], lab)  # a code's value is the sample's


# --- on a rendered frame: every probe of a real observer ------------------------------------------
@pytest.fixture(scope="module")
def observer_and_frame():
    camera = camera_for(GAMES["babylon.garden"])
    layout = garden.random_layout(np.random.default_rng(31))
    return GardenObserver(region_geometry(camera)), render(TableScene((garden.region_scene(layout),)), camera, seed=2)


def test_the_observers_probes_measure_what_numpy_measures_on_a_rendered_frame(observer_and_frame):
    observer, frame = observer_and_frame
    sampler = observer.sampler
    lab = sampler.sample(frame)
    for probe in (observer._recess, observer._pillar, observer._deco, *observer._tiles):
        got, expected = sampler.fit(lab, probe), reference.fit(lab, probe, 8, 8)
        for name in ("score", "inside", "ring", "colour", "features", "sides"):
            _same(np.ascontiguousarray(getattr(got, name)), getattr(expected, name))
    assert isinstance(observer._tile_stack, FaceStack)
    _same(sampler.scores(lab, observer._tile_stack), reference.scores(lab, observer._tile_stack, 8, 8))
    for idx in (observer._centre, observer._bands_strips, observer._flowers):
        expected = reference.features(lab, idx)
        _same(sampler.features(lab, idx), expected.reshape(idx.shape[0], 8, 8, *expected.shape[2:]))


_FRESH_PROCESS = """
import numpy as np
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.sim import garden
from companion.vision.observers import garden_kernels_lanes as lanes
from companion.vision.observers import garden_kernels_measure as kernels
from companion.vision.observers.babylon_garden import GardenObserver
from tests.sim.helpers import GAMES, camera_for
camera = camera_for(GAMES["babylon.garden"])
observer = GardenObserver(region_geometry(camera))
ready = [list(k.signatures) for k in (lanes.face_scores_lanes, lanes.patch_stats_lanes)]
frame = render(TableScene((garden.region_scene(garden.random_layout(np.random.default_rng(3))),)), camera, seed=1)
observer._measure(frame)
after = [list(k.signatures) for k in (lanes.face_scores_lanes, lanes.patch_stats_lanes)]
from companion.vision.observers import garden_kernels_decide as decide
decided = [decide.whitened_d2, decide.support_arguments, decide.support_finish, decide.dot_posterior,
           decide.glyph_stats]
print(all(ready), ready == after, all(list(k.signatures) for k in decided))
"""


@pytest.mark.slow
def test_a_made_observer_has_its_kernels_ready_for_its_first_read():
    # In a fresh process: kernels compiled by other tests here would hide a missing warm-up.
    printed = printed_in_fresh_process(_FRESH_PROCESS)
    # compiled when made; the read compiled nothing new; the decisions' kernels are ready too (a read
    # after their warm-up compiles nothing: test_garden_decide_speed_kernels)
    assert printed == ["True", "True", "True"]
