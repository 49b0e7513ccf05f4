"""The Baubylon light fit compiled (baubylon_light_kernels.ring_places, light_pin, best_tilt) gives
the numpy formulation's plane bit for bit (baubylon_light.margin_light_numpy and
lit_table_plane_numpy): on bench frames' rings, on rings with shadows and block faces made up, and
where the fit gives up (too few places of the light's hue, too few unhidden)."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from companion.vision.observers import baubylon_light
from companion.vision.observers import baubylon_light_kernels as kernels
from companion.vision.observers.baubylon_light import (
    lit_table_plane,
    lit_table_plane_numpy,
    margin_light,
    margin_light_numpy,
)
from companion.vision.observers.stack_sampling import (
    distance_to,
    lab_to_bgr,
    not_in_front,
    plane_design,
    to_lab,
    unit_lab,
)

from .bench_frames import bench_frame


def _same(got, want) -> None:
    assert (got is None) == (want is None)
    if want is not None:
        np.testing.assert_array_equal(got, want)


@pytest.fixture(scope="module")
def frames():
    return [bench_frame("baubylon", seed, n)[1:] for seed, n in ((0, 11), (1, 140))]


def _ring(observer, image):
    cached = observer._table_bgr_for
    seen = unit_lab(observer.margin.raw(image))
    return seen, cached[1], cached[2], cached[3], observer._margin_design, observer.margin_unhidden


def test_bench_rings_give_the_numpy_plane(frames):
    for image, observer in frames:
        observer.observe(image)  # (the profile's table and block colours, made once)
        ring = _ring(observer, image)
        plane = margin_light(*ring)
        assert plane is not None
        np.testing.assert_array_equal(plane, margin_light_numpy(*ring))
        # The same ring darkened in part (shadows), in another light, and with places dropped.
        rng = np.random.default_rng(7)
        seen, *rest = ring
        bgr = lab_to_bgr(seen)
        for trial in range(12):
            shade = np.where(rng.random(len(bgr)) < 0.3, rng.uniform(0.6, 0.9, len(bgr)), 1.0)
            light = rng.uniform(0.8, 1.2, 3) * (1.0 + 0.2 * (trial % 3 - 1))
            other = to_lab(np.clip(bgr * shade[:, None] * light, 0.0, 1.0)).astype(np.float32)
            _same(margin_light(other, *rest), margin_light_numpy(other, *rest))


def _made_up(rng, count, lit_share=0.6):
    """A ring of `count` places: a tilted lit table, shadows, brighter block faces of another hue."""
    pixels = np.column_stack([rng.uniform(0, 1280, count), rng.uniform(0, 720, count)])
    design = plane_design(pixels)
    level = rng.uniform(0.7, 1.3)
    plane = np.array([level, rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2)])
    brightness = design @ plane
    kind = rng.random(count)
    brightness = np.where(kind > lit_share, brightness * rng.uniform(0.6, 0.85, count), brightness)
    hue = np.tile(rng.uniform(0.95, 1.05, 3), (count, 1))
    faces = kind < 0.1
    hue[faces] *= np.array([1.08, 1.0, 0.92])
    ratio = (brightness[:, None] * hue * rng.normal(1.0, 0.01, (count, 3))).astype(np.float32)
    unhidden = rng.random(count) < 0.5
    like = rng.random(count) < 0.9
    return ratio, design, like, unhidden


@pytest.mark.parametrize("count", [4, 12, 40, 150, 192])
def test_made_up_rings_give_the_numpy_plane(count):
    rng = np.random.default_rng(count)
    fitted = 0
    for trial in range(40):
        ratio, design, like, unhidden = _made_up(rng, count, lit_share=0.3 + 0.6 * rng.random())
        if trial % 5 == 0:
            ratio[:, 1] = np.round(ratio[:, 1], 2)  # ties
        want = lit_table_plane_numpy(ratio, design, like, unhidden)
        _same(lit_table_plane(ratio, design, like, unhidden), want)
        fitted += want is not None
    if count >= 40:
        assert fitted > 10  # (planes fitted, not only the giving up)


def test_too_few_places_give_up_as_numpy_does():
    rng = np.random.default_rng(3)
    ratio, design, like, unhidden = _made_up(rng, 60)
    for mask in (np.zeros(60, bool), np.arange(60) < 4, np.arange(60) < 11):
        _same(lit_table_plane(ratio, design, like & mask, unhidden), lit_table_plane_numpy(ratio, design, like & mask,
                                                                                           unhidden))
        _same(lit_table_plane(ratio, design, like, unhidden & mask),
              lit_table_plane_numpy(ratio, design, like, unhidden & mask))
    assert lit_table_plane(ratio, design, np.zeros(60, bool), unhidden) is None


def test_ring_places_are_not_in_front_and_near():
    rng = np.random.default_rng(5)
    known = np.array([70.0, 5.0, 20.0], np.float32)
    known_bgr = lab_to_bgr(known).reshape(3)
    front_bgr = lab_to_bgr(np.array([60.0, 12.0, 35.0], np.float32)).reshape(3)
    for trial in range(30):
        count = int(rng.integers(1, 200))
        seen = (known + rng.normal(0, 4 + 10 * (trial % 3), (count, 3))).astype(np.float32)
        seen_bgr = lab_to_bgr(seen)
        unhidden = rng.random(count) < (0.02 if trial % 4 == 0 else 0.5)  # some with too few reference places
        ratio = np.empty((count, 3))
        like = kernels.ring_places(seen, seen_bgr, known, known_bgr, front_bgr, unhidden, 25.0, 5, ratio)
        want = not_in_front(seen, seen_bgr, known, known_bgr, front_bgr, unhidden, 25.0) & (
            distance_to(seen, known) < 25.0)
        np.testing.assert_array_equal(like, want)
        np.testing.assert_array_equal(ratio, (seen_bgr / np.maximum(known_bgr, 1e-3)).astype(np.float64))


def test_best_tilt_is_the_first_best_of_the_numpy_search():
    rng = np.random.default_rng(9)
    for _trial in range(30):
        count = int(rng.integers(1, 80))
        design = plane_design(np.column_stack([rng.uniform(0, 1280, count), rng.uniform(0, 720, count)]))
        pin = rng.uniform(-0.5, 0.5, 2)
        brightness = rng.uniform(0.8, 1.2, count)
        unhidden = rng.random(count) < 0.5
        level = float(rng.uniform(0.8, 1.2))
        reach = 0.3 * level
        steps = np.arange(-reach, reach + 1e-9, 0.06 * level)
        want = baubylon_light._best_tilt(brightness, design[:, 1:] - pin, unhidden, level, steps)
        got = kernels.best_tilt(brightness, np.ascontiguousarray(design), pin, unhidden, level, steps, 0.0, 0.0, reach,
                                False, 0.04, 0.06, 3.0)
        np.testing.assert_array_equal(got, want)
        fine = np.arange(-0.06, 0.06 + 1e-9, 0.01) * level
        want = baubylon_light._best_tilt(brightness, design[:, 1:] - pin, unhidden, level, fine, centre=want,
                                         reach=reach)
        got = kernels.best_tilt(brightness, np.ascontiguousarray(design), pin, unhidden, level, fine, got[0], got[1],
                                reach, True, 0.04, 0.06, 3.0)
        np.testing.assert_array_equal(got, want)


def test_the_kernels_are_ready_once_the_observer_is_built(frames):
    image, observer = frames[0]
    compiled = {name: len(value.signatures) for name, value in vars(kernels).items()
                if isinstance(value, CPUDispatcher) and not name.startswith("_")}
    assert all(compiled.values())
    observer.observe(image)
    assert {name: len(getattr(kernels, name).signatures) for name in compiled} == compiled


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_merge_sort_gives_np_sorts_values(dtype):
    rng = np.random.default_rng(11)
    for count in (0, 1, 2, 3, 7, 8, 31, 64, 100, 192):
        for trial in range(4):
            values = rng.normal(size=count + 5).astype(dtype)
            if trial == 1:
                values = np.round(values, 1)  # ties
            if trial >= 2 and count:
                values[rng.integers(0, count, 1 + trial)] = np.nan
            got = kernels._sorted(values, count)
            np.testing.assert_array_equal(got, np.sort(values[:count]))
            assert got.dtype == dtype
