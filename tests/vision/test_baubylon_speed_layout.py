"""The Baubylon read's speed work of the fourth sitting lays samples out differently (the block
tops' across points in two remap rows, the pawns' first look grid point first), fills neighbour
tables in place and keeps what depends on the profile alone between reads. Each must give the
very same numbers as the layout or computation it replaced, so readings do not change with it."""

from __future__ import annotations

import cv2
import numpy as np

from companion.sim import boards
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.vision.appearance import AppearanceProfile
from companion.vision.observers import baubylon
from companion.vision.observers.stack_sampling import _ROW as ROW
from companion.vision.observers.stack_sampling import PointSampler, SquareProbes
from tests.sim.helpers import GAMES, calibrated, camera_for

GAME = GAMES["baubylon"]
RNG = np.random.default_rng(23)


def _frame() -> np.ndarray:
    """A 1280×720 frame with detail at every scale (so bilinear sampling has something to mix):
    smoothed like a photograph, then given pixel noise."""
    base = RNG.integers(0, 256, (90, 160, 3), dtype=np.uint8)
    image = cv2.resize(base, (1280, 720), interpolation=cv2.INTER_CUBIC)
    return np.clip(image.astype(int) + RNG.integers(-8, 9, image.shape), 0, 255).astype(np.uint8)


def test_few_rows_sample_the_same_colours_as_rows_of_1024():
    image = _frame()
    pixels = RNG.uniform((-3.0, -3.0), (1283.0, 723.0), (46_080, 2)).astype(np.float32)
    folded = PointSampler.from_pixels(pixels)
    few = PointSampler.from_pixels(pixels, few_rows=True)
    assert folded.map_x.shape[0] == -(-len(pixels) // ROW)
    assert few.map_x.shape[0] == 2  # as few as remap's 32767-px limit allows
    np.testing.assert_array_equal(few.raw(image), folded.raw(image))
    assert len(few.raw(image)) == len(pixels)


def test_a_short_list_of_points_takes_one_row():
    pixels = RNG.uniform(0.0, 700.0, (500, 2)).astype(np.float32)
    few = PointSampler.from_pixels(pixels, few_rows=True)
    assert few.map_x.shape[:2] == (1, 500)
    image = _frame()
    np.testing.assert_array_equal(few.raw(image), PointSampler.from_pixels(pixels).raw(image))


def test_interior_grid_first_is_the_same_colours_reordered():
    camera = camera_for(GAME, tilt=24.0, azimuth=-90.0)
    observer = GAME.observer(region_geometry(camera))
    probes: SquareProbes = observer.pawns
    image = _frame()
    plain = probes.sample_interior(image)  # (S, T, G, 3)
    planes = probes.sample_interior(image, grid_first=True)  # (G, S, T, 3)
    assert planes.shape == (plain.shape[2], plain.shape[0], plain.shape[1], 3)
    np.testing.assert_array_equal(np.moveaxis(planes, 0, 2), plain)
    # The grid's mean summed plane by plane in place is np.mean's sum in order.
    total = planes[0].copy()
    for k in range(1, len(planes)):
        total += planes[k]
    summed = plain[:, :, 0]
    for k in range(1, plain.shape[2]):
        summed = summed + plain[:, :, k]
    np.testing.assert_array_equal(total, summed)


def test_beside_is_the_padded_neighbours():
    for dtype in (np.int64, np.float64):
        heights = RNG.integers(0, 13, (12, 12)).astype(dtype)
        padded = np.pad(heights, 1)
        plain = np.stack([padded[:-2, 1:-1], padded[1:-1, 2:], padded[2:, 1:-1], padded[1:-1, :-2]], axis=-1)
        fast = baubylon._beside(heights)
        np.testing.assert_array_equal(fast, plain)
        assert fast.dtype == plain.dtype


def test_learned_offsets_follow_the_profile_the_observer_holds():
    """Kept between reads, made again when the observer is given another profile: a read with
    the second profile is the same as a fresh observer's with it."""
    camera = camera_for(GAME, tilt=24.0, azimuth=-90.0)
    observer = calibrated(GAME, camera)
    first = observer.profile
    # Another calibration whose outlines cross elsewhere: every learned offset moved by 1 px.
    classes = {name: (c.mean.copy(), c.cov) for name, c in first.classes.items()}
    shifted = {}
    for name, (mean, _) in classes.items():
        if name.startswith("outline:"):
            mean[0] += 1.0
        shifted[name] = [mean + RNG.normal(0.0, 1e-3, mean.shape) for _ in range(8)]
    second = AppearanceProfile.learn(GAME.region, shifted)
    layout = boards.BaubylonLayout(tuple(tuple(((4, ("red",)) if (r, c) == (5, 5) else (0, ()))
                                               for c in range(12)) for r in range(12)))
    _, scene = GAME.scene(layout)
    image = render(scene, camera, seed=3)
    before = observer._learned_offsets(first)
    assert observer._learned_offsets(first)[0] is before[0]  # kept
    observer.observe(image)
    observer.profile = second
    moved = observer._learned_offsets(second)
    assert not np.array_equal(moved[0], before[0])
    fresh = GAME.observer(region_geometry(camera))
    fresh.profile = second
    assert observer.observe(image).cells == fresh.observe(image).cells
