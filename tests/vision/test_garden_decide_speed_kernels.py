"""The garden decisions' compiled loops (garden_kernels_decide) give the numbers of the numpy code
they stand in for: class supports, flower dots and icon statistics, on random rows, edge cases
(no rows, one row, NaN) and a rendered frame's own measurements."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.observers import garden_kernels_decide as kernels_module
from companion.vision.observers.babylon_garden import (
    CENTRE_CLASSES,
    FLOWER_CLASSES,
    GLYPH_CLASSES,
    TILE_BASE,
    _glyph_stats,
    _glyph_stats_numpy,
    _middle_keep,
)
from companion.vision.observers.garden_kernels_decide import ClassSupport
from companion.vision.observers.garden_tiles import dot_models, dot_support
from tests.sim.helpers import GAMES, camera_for

from .garden_decide_helpers import BAND_CLASSES, decisions_profile, measured_frame


def _dot_support_numpy(profile, features, flowers, base, outlier_d2=16.0):
    """garden_tiles.dot_support as it was written in numpy (the reference)."""
    lab = np.asarray(features, np.float64)[..., :3]
    logs = []
    for name in (*flowers, base):
        model = profile.classes[name]
        cov = model.cov[:3, :3]
        diff = lab - model.mean[:3]
        d2 = np.einsum("...i,ij,...j->...", diff, np.linalg.inv(cov), diff)
        logs.append(-0.5 * (d2 + np.linalg.slogdet(cov)[1]))
    typical = float(np.mean([np.linalg.slogdet(profile.classes[f].cov[:3, :3])[1] for f in flowers]))
    logs.append(np.full(lab.shape[:-1], -0.5 * (outlier_d2 + typical)))
    stacked = np.stack(logs, axis=-1)
    stacked = np.exp(stacked - stacked.max(axis=-1, keepdims=True))
    return (stacked / stacked.sum(axis=-1, keepdims=True))[..., : len(flowers)]


@pytest.fixture(scope="module")
def measured():
    return measured_frame()


@pytest.mark.parametrize("subset", [CENTRE_CLASSES, BAND_CLASSES, GLYPH_CLASSES])
def test_class_support_is_the_profiles_bit_for_bit(subset):
    profile = decisions_profile(1)
    rng = np.random.default_rng(2)
    # Rows near each class (typical and a little atypical) and far from all of them.
    means = np.stack([profile.classes[name].mean for name in subset])
    near = means[rng.integers(0, len(subset), 400)] + rng.normal(0, 4.0, (400, 6))
    far = rng.normal(50, 60, (200, 6))
    features = np.concatenate([near, far]).reshape(6, 100, 6)
    support = ClassSupport(profile)
    np.testing.assert_array_equal(support(features, subset), profile.support(features, subset))
    # float32 rows, as the measurements give some, are judged as float64 like the profile does.
    np.testing.assert_array_equal(support(features.astype(np.float32), subset),
                                  profile.support(features.astype(np.float32), subset))


def test_class_support_of_no_rows_one_row_and_nan():
    profile = decisions_profile(3)
    support = ClassSupport(profile)
    assert support(np.zeros((0, 6)), CENTRE_CLASSES).shape == (0, len(profile.names))
    one = np.array([[40.0, 10.0, -5.0, 2.0, 2.0, 2.0]])
    np.testing.assert_array_equal(support(one, CENTRE_CLASSES), profile.support(one, CENTRE_CLASSES))
    with np.errstate(invalid="ignore"):
        nan = np.array([[np.nan, 0, 0, 0, 0, 0], [40.0, 10.0, -5.0, 2.0, 2.0, 2.0]])
        np.testing.assert_array_equal(support(nan, CENTRE_CLASSES), profile.support(nan, CENTRE_CLASSES))


def test_class_support_on_a_frames_faces_is_the_profiles(measured):
    _, meas = measured
    profile = decisions_profile(4)
    faces = np.concatenate([f.reshape(-1, 6) for f in (meas["recess_f"], meas["pillar_f"], meas["deco_f"],
                                                        meas["centre"])])
    np.testing.assert_array_equal(ClassSupport(profile)(faces, CENTRE_CLASSES), profile.support(faces, CENTRE_CLASSES))


def test_dot_support_is_the_numpy_reference():
    profile = decisions_profile(5)
    rng = np.random.default_rng(6)
    means = np.stack([profile.classes[name].mean for name in (*FLOWER_CLASSES, TILE_BASE)])
    near = means[rng.integers(0, len(means), 300)] + rng.normal(0, 3.0, (300, 6))
    features = np.concatenate([near, rng.normal(50, 50, (84, 6))]).reshape(3, 8, 4, 4, 6).astype(np.float32)
    models = dot_models(profile, FLOWER_CLASSES, TILE_BASE)
    got = dot_support(profile, features, FLOWER_CLASSES, TILE_BASE, models=models)
    np.testing.assert_allclose(got, _dot_support_numpy(profile, features, FLOWER_CLASSES, TILE_BASE), rtol=1e-12,
                               atol=1e-15)
    assert got.shape == (3, 8, 4, 4, len(FLOWER_CLASSES))
    # No rows, one row, and a NaN row (NaN in, NaN out, as numpy's).
    assert dot_support(profile, np.zeros((0, 4, 6)), FLOWER_CLASSES, TILE_BASE).shape == (0, 4, len(FLOWER_CLASSES))
    one = features[:1, :1, :1, :1]
    np.testing.assert_allclose(dot_support(profile, one, FLOWER_CLASSES, TILE_BASE),
                               _dot_support_numpy(profile, one, FLOWER_CLASSES, TILE_BASE), rtol=1e-12)
    with np.errstate(invalid="ignore"):
        nan = np.full((1, 6), np.nan)
        assert np.isnan(dot_support(profile, nan, FLOWER_CLASSES, TILE_BASE)).all()
        assert np.isnan(_dot_support_numpy(profile, nan, FLOWER_CLASSES, TILE_BASE)).all()


def _middles(rng, n, h=5, w=5):
    """n tile middles: strips of a tile colour, middles of that colour with an icon blob in some."""
    tile = rng.uniform(30, 70, (n, 1, 3))
    strips = np.concatenate([tile + rng.normal(0, 1.0, (n, 4, 3)), rng.uniform(0.5, 3, (n, 4, 3))], axis=-1)
    patch = np.repeat(tile[:, None], h * w, axis=1).reshape(n, h, w, 3) + rng.normal(0, 1.5, (n, h, w, 3))
    icon = rng.random(n) < 0.6
    patch[icon, 1:4, 1:4] += rng.uniform(-40, 40, (icon.sum(), 1, 1, 3))
    return strips.astype(np.float32), patch.astype(np.float32)


@pytest.mark.parametrize("with_model", [True, False])
def test_glyph_stats_are_the_numpy_reference_bit_for_bit_in_either_layout(with_model):
    rng = np.random.default_rng(7)
    strips, patch = _middles(rng, 320)
    keep = np.broadcast_to(_middle_keep(rng.random((8, 8, 4)) < 0.5, 5, 5), (5, 8, 8, 5, 5)).reshape(320, 5, 5)
    keep = keep & (rng.random((320, 5, 5)) < 0.9)
    model = decisions_profile(8).classes[TILE_BASE] if with_model else None
    # The points innermost (as the sampler lays a frame's middles out), then the channels innermost.
    points_first = np.moveaxis(np.ascontiguousarray(np.moveaxis(patch, -1, 0)), 0, -1)
    for layout in (points_first, patch):
        share, features = _glyph_stats(strips, layout, keep, model)
        want_share, want_features = _glyph_stats_numpy(strips, layout, keep, model)
        np.testing.assert_array_equal(share, want_share)
        np.testing.assert_array_equal(features, want_features)
    assert (share > 0).any() and (share == 0).any()


def test_glyph_stats_of_no_middles_one_middle_and_broadcast_keep(measured):
    observer, meas = measured
    rng = np.random.default_rng(9)
    strips, patch = _middles(rng, 1)
    keep = np.ones((1, 5, 5), bool)
    for got, want in zip(_glyph_stats(strips, patch, keep), _glyph_stats_numpy(strips, patch, keep), strict=True):
        np.testing.assert_array_equal(got, want)
    share, features = _glyph_stats(strips[:0], patch[:0], keep[:0])
    assert share.shape == (0,) and features.shape == (0, 6)
    # A frame's middles as _observe passes them: one keep mask per cell for every level.
    patch, strips = meas["centre_px"][1:], meas["strips"][1:]
    keep = _middle_keep(observer.near, 5, 5)
    model = decisions_profile(10).classes[TILE_BASE]
    for got, want in zip(_glyph_stats(strips, patch, keep, model), _glyph_stats_numpy(strips, patch, keep, model),
                         strict=True):
        np.testing.assert_array_equal(got, want)


def test_after_warm_a_read_compiles_no_new_version_of_any_kernel(measured):
    observer, _ = measured
    kernels_module.warm()
    kernels = [getattr(kernels_module, name) for name in
               ("whitened_d2", "support_arguments", "support_finish", "dot_posterior", "glyph_stats")]
    before = [list(k.signatures) for k in kernels]
    assert all(before)
    camera = camera_for(GAMES["babylon.garden"])
    layout = garden.random_layout(np.random.default_rng(11))
    frame = render(TableScene((garden.region_scene(layout),)), camera, seed=12)
    observer.profile = decisions_profile(12)
    observer.observe(frame)
    assert [list(k.signatures) for k in kernels] == before
