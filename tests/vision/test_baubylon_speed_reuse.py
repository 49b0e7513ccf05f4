"""The Baubylon read's second speed pass of the fourth sitting: the pawn candidates' interiors are
taken from the first look instead of sampled again, and the 144 readings are made without the
frozen dataclass's __init__. Each must give the very same numbers / objects as before."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from companion.sim.camera import region_geometry
from companion.vision.appearance import AppearanceProfile
from companion.vision.observers import baubylon
from companion.vision.observers.stack_sampling import SquareProbes
from companion.vision.types import CellReading
from tests.sim.helpers import GAMES, camera_for

GAME = GAMES["baubylon"]
RNG = np.random.default_rng(31)


def _frame() -> np.ndarray:
    """A 1280×720 frame with detail at every scale, smoothed like a photograph, with pixel noise."""
    base = RNG.integers(0, 256, (90, 160, 3), dtype=np.uint8)
    image = cv2.resize(base, (1280, 720), interpolation=cv2.INTER_CUBIC)
    return np.clip(image.astype(int) + RNG.integers(-8, 9, image.shape), 0, 255).astype(np.uint8)


def test_pairs_given_their_first_look_interiors_sample_the_same_numbers():
    camera = camera_for(GAME, tilt=24.0, azimuth=-90.0)
    probes: SquareProbes = GAME.observer(region_geometry(camera)).pawns
    image = _frame()
    squares = np.array([0, 5, 17, 17, 80, 143])
    levels = np.array([0, 3, 1, 12, 6, 2])
    interiors = probes.sample_interior(image, grid_first=True).transpose(1, 2, 0, 3)
    given = probes.sample_pairs(image, squares, levels, interiors[squares, levels])
    fresh = probes.sample_pairs(image, squares, levels)
    assert given.interior.shape == fresh.interior.shape
    np.testing.assert_array_equal(given.interior, fresh.interior)
    np.testing.assert_array_equal(given.across, fresh.across)
    assert given.offsets == fresh.offsets


def test_readings_are_the_objects_cellreading_makes():
    assert not hasattr(CellReading, "__post_init__")  # nothing that _readings would skip
    attrs = [{"height": 2, "pawns": []}, {"height": 0, "pawns": [None, "red"]}]
    made = baubylon._readings("field", [0.25, 0.9], attrs)
    expected = [CellReading("field", 0.25, attrs[0]), CellReading("field", 0.9, attrs[1])]
    assert made == expected
    assert [repr(cell) for cell in made] == [repr(cell) for cell in expected]
    assert [dataclasses.asdict(cell) for cell in made] == [dataclasses.asdict(cell) for cell in expected]
    try:
        made[0].confidence = 1.0  # still frozen
    except dataclasses.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a reading could be changed")


def _profile(pawns) -> AppearanceProfile:
    samples = {}
    for name in (baubylon.TABLE, baubylon.BLOCK, *pawns):
        centre = RNG.uniform((20.0, -40.0, -40.0), (90.0, 40.0, 40.0))
        samples[name] = [np.concatenate([centre + RNG.normal(0, 3, 3), RNG.uniform(1, 3, 3)]) for _ in range(12)]
    return AppearanceProfile.learn(baubylon.BAUBYLON.region, samples)


def test_pawn_support_is_colour_supports_pawn_columns_with_zeros_for_missing_colours():
    lab = RNG.uniform((0.0, -60.0, -60.0), (100.0, 60.0, 60.0), (200, 3)).astype(np.float32)
    for pawns in (baubylon.PAWN_CLASSES, baubylon.PAWN_CLASSES[:3] + baubylon.PAWN_CLASSES[5:]):
        profile = _profile(pawns)
        by_name = baubylon.colour_support(profile, lab, (baubylon.TABLE, baubylon.BLOCK, *baubylon.PAWN_CLASSES))
        table = baubylon._pawn_support(profile, lab)
        assert table.shape == (len(lab), len(baubylon.PAWN_CLASSES))
        for k, name in enumerate(baubylon.PAWN_CLASSES):
            np.testing.assert_array_equal(table[:, k], by_name.get(name, np.zeros(len(lab))))
