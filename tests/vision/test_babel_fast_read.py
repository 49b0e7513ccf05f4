"""Babel's read takes cheaper paths than the shared stack_sampling steps (white balance channel by
channel, one pass from probe colours to outline evidence, medians of an odd grid by partition):
they must give the very same numbers, so the readings are those the shared steps would give."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import boards
from companion.sim.render import render
from companion.vision.observers import stack_sampling
from companion.vision.observers.babel import _outline_evidence, _robust_features
from tests.sim.helpers import GAMES, calibrated, camera_for
from tests.vision.test_observers import NOISY, WARM_DIM

GAME = GAMES["babel"]


@pytest.fixture(scope="module")
def observed():
    camera = camera_for(GAME, tilt=22.0, azimuth=-95.0)
    observer = calibrated(GAME, camera)
    layout = boards.random_babel(np.random.default_rng(4))
    _, scene = GAME.scene(layout, lighting=WARM_DIM, imaging=NOISY)
    return observer, render(scene, camera, seed=4)


def test_probe_colours_match_the_shared_sampler(observed):
    observer, image = observed
    gains = observer._gains(image, observer.profile)
    assert gains is not None and not np.allclose(gains, 1.0)  # the light differs from the calibration's
    fast = observer.probes.sample(image, gains)
    shared = stack_sampling.SquareProbes.sample(observer.probes, image, gains)
    np.testing.assert_array_equal(fast.interior, shared.interior)
    np.testing.assert_array_equal(fast.across, shared.across)


def test_features_and_outline_evidence_match_the_shared_steps(observed):
    observer, image = observed
    profile = observer.profile
    samples = observer.probes.sample(image, observer._gains(image, profile))
    np.testing.assert_array_equal(_robust_features(samples.interior), stack_sampling.robust_features(samples.interior))
    reference = observer._reference(samples, profile)
    levels = observer.levels
    expected = np.broadcast_to(observer.offsets_for(profile)[:, :, :, None, :], (3, 3, 4, levels, 4))
    expected = expected.reshape(-1, levels, 4)
    shared = stack_sampling.outline(samples, reference).evidence(expected)
    fast = _outline_evidence(samples, reference, expected)
    np.testing.assert_allclose(fast, shared, rtol=0, atol=1e-6)
    assert shared.max() > 0.5  # real outlines were seen: the comparison is not between zeros
