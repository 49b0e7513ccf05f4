"""The garden's cheaper decisions give the same numbers: supports judged for fewer rows or in one
call, and colour models made once per profile, equal what the per-call work gave bitwise."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.observers.babylon_garden import (
    CENTRE_CLASSES,
    FLOWER_CLASSES,
    TILE_BASE,
    GardenObserver,
)
from companion.vision.observers.garden_tiles import dot_models, dot_support
from tests.sim.helpers import GAMES, camera_for

from .garden_decide_helpers import BAND_CLASSES, decisions_profile, measured_frame


@pytest.fixture(scope="module")
def measured():
    return measured_frame()


def test_dot_support_with_models_made_once_is_the_same_as_made_each_call():
    profile = decisions_profile(1)
    features = np.random.default_rng(2).normal(50, 20, (5, 8, 8, 4, 6))
    models = dot_models(profile, FLOWER_CLASSES, TILE_BASE)
    once = dot_support(profile, features, FLOWER_CLASSES, TILE_BASE, models=models)
    np.testing.assert_array_equal(once, dot_support(profile, features, FLOWER_CLASSES, TILE_BASE))
    assert once.shape == (5, 8, 8, 4, 4)
    # The models are the profile's: another profile's models judge differently.
    other = dot_support(profile, features, FLOWER_CLASSES, TILE_BASE,
                        models=dot_models(decisions_profile(3), FLOWER_CLASSES, TILE_BASE))
    assert not np.array_equal(once, other)


def test_faces_judged_in_one_call_get_each_their_own_support(measured):
    # The observer judges the recess, pillar, decoration and middle features in one support call:
    # each row's support is its own, whatever else is in the call.
    _, meas = measured
    profile = decisions_profile(4)
    faces = [meas["recess_f"], meas["pillar_f"], meas["deco_f"], meas["centre"]]
    joint = profile.support(np.concatenate([f.reshape(-1, f.shape[-1]) for f in faces]), CENTRE_CLASSES)
    ends = np.cumsum([f[..., 0].size for f in faces])[:-1]
    for part, face in zip(np.split(joint, ends), faces, strict=True):
        np.testing.assert_array_equal(part.reshape(*face.shape[:-1], -1), profile.support(face, CENTRE_CLASSES))


def test_a_tile_spaces_clean_band_is_judged_once_per_distinct_rect(measured):
    observer, meas = measured
    # The four positions' bands are two distinct rects (the top and the bottom edge strips).
    assert meas["band_rects"].shape[-2] == 2
    np.testing.assert_array_equal(meas["band_rects"][..., observer._band_of, :], meas["tile_band"])
    profile = decisions_profile(6)
    np.testing.assert_array_equal(profile.support(meas["band_rects"], BAND_CLASSES)[..., observer._band_of, :],
                                  profile.support(meas["tile_band"], BAND_CLASSES))


def test_a_read_gives_the_same_observation_with_a_new_profile_as_a_new_observer(measured):
    # Models made once per profile follow the profile: after the profile is replaced, a read is
    # the same as a fresh observer's with that profile.
    observer, _ = measured
    camera = camera_for(GAMES["babylon.garden"])
    layout = garden.random_layout(np.random.default_rng(8))
    frame = render(TableScene((garden.region_scene(layout),)), camera, seed=9)
    first, second = decisions_profile(7), decisions_profile(8)
    observer.profile = first
    observer.observe(frame)
    observer.profile = second
    fresh = GardenObserver(region_geometry(camera), second)
    assert observer.observe(frame) == fresh.observe(frame)
