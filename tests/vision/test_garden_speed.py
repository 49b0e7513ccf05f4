"""The garden's cheaper measurement (garden_points.py): every point is still read where it lies
when all of them share one remap, and the thinner probes (ring bands sampled sparsely along,
a face's inside share taken on its median's points) measure the same things as the dense ones."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.appearance import AppearanceProfile
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.observers.babylon_garden import MEDIAN_STEP, GardenObserver
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.fit import square_rects
from companion.vision.observers.garden_points import GardenSampler, grid_points
from companion.vision.observers.views import near_sides
from tests.sim.helpers import GAMES, camera_for

GAME = GAMES["babylon.garden"]
CELL = BABYLON_GARDEN.cell_mm


@pytest.fixture(scope="module")
def camera():
    return camera_for(GAME)


@pytest.fixture(scope="module")
def frame(camera):
    # Pillars, tiles and decorations at several levels: faces, rings and edges of every kind.
    layout = garden.random_layout(np.random.default_rng(11))
    return render(TableScene((garden.region_scene(layout),)), camera, seed=3)


def _sampler(camera) -> GardenSampler:
    geometry = region_geometry(camera)
    sampler = GardenSampler(geometry, BABYLON_GARDEN, CELL / 20, near_sides(BABYLON_GARDEN, geometry.nadir_xy()))
    sampler.set_downscale([0.0, GARDEN.tile_top(3)])
    return sampler


def test_every_point_is_read_where_it_lies(camera):
    # Smooth random colours: a point read at another place (a scrambled map) reads another colour.
    rng = np.random.default_rng(2)
    noise = rng.integers(0, 256, (90, 160, 3), dtype=np.uint8)
    image = cv2.resize(noise, (1280, 720), interpolation=cv2.INTER_CUBIC)
    sampler = _sampler(camera)
    heights = [0.0, GARDEN.tile_top(2)]
    rects = [(2.0, 2.0, 6.0, 6.0), (15.0, 9.0, 21.0, 13.0)]
    indices = [sampler.patch(heights, rect) for rect in rects]
    sampler.build()
    assert sampler.map_x.shape[0] <= 2, "all points in as few map rows as remap allows"
    lab = sampler.sample(image)
    d = sampler.downscale
    whole = cv2.resize(image, (1280 // d, 720 // d), interpolation=cv2.INTER_AREA) if d > 1 else image
    corner_y, corner_x = np.mgrid[0:8, 0:8].reshape(2, -1) * CELL
    geometry = region_geometry(camera)
    for rect, idx in zip(rects, indices, strict=True):
        points = grid_points(rect, sampler.pitch)
        for k, z in enumerate(heights):
            xy = (np.stack([corner_x, corner_y], axis=-1)[:, None, :] + points[None]).reshape(-1, 2)
            # Where the point lies, straight from the camera model, read on the whole frame.
            pixels = ((geometry.to_pixels(np.column_stack([xy, np.full(len(xy), z)])) + 0.5) / d - 0.5)
            pixels = pixels.astype(np.float32)
            bgr = cv2.remap(whole, pixels[None, :, 0].copy(), pixels[None, :, 1].copy(), cv2.INTER_LINEAR)
            expected = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
            expected[:, 0] *= np.float32(100.0 / 255.0)
            expected[:, 1:] -= np.float32(128.0)
            got = lab[:, idx[k].reshape(-1)].T
            # Both bilinear on the same downscaled frame; the per-frame maps hold positions to
            # 1/32 px, so colours agree closely (a misplaced point would be tens of units off).
            assert np.abs(got - expected).max() < 3.0
            assert np.abs(got - expected).mean() < 0.5
            np.testing.assert_allclose(sampler.sample_points(np.column_stack([xy, np.full(len(xy), z)])), expected,
                                       atol=1e-4)


def _pillar_probes(camera, **kwargs):
    sampler = _sampler(camera)
    heights = [GARDEN.pillar_top(level) for level in (1, 2, 3)]
    probe = sampler.face(heights, *square_rects(CELL, GARDEN.pillar_mm, 0.8, (0.8, 2.5)), MEDIAN_STEP, **kwargs)
    sampler.build()
    return sampler, probe


def test_a_face_measured_on_its_median_points_keeps_its_colour_and_share(camera, frame):
    dense_sampler, dense = _pillar_probes(camera)
    thin_sampler, thin = _pillar_probes(camera, median_only=True)
    # Half the inside points (those the median is taken from), the ring unchanged.
    np.testing.assert_array_equal(thin.inside_n, (dense.inside_n + MEDIAN_STEP - 1) // MEDIAN_STEP)
    np.testing.assert_array_equal(thin.ring_n, dense.ring_n)
    a = dense_sampler.fit(dense_sampler.sample(frame), dense)
    b = thin_sampler.fit(thin_sampler.sample(frame), thin)
    np.testing.assert_array_equal(a.colour, b.colour)  # the same majority colour
    np.testing.assert_array_equal(a.ring, b.ring)
    # The share like it, estimated from half the points, stays close to the dense estimate.
    assert np.abs(a.inside - b.inside).max() < 0.2
    assert np.abs(a.inside - b.inside).mean() < 0.03


def test_ring_bands_sampled_sparsely_along_measure_the_same_sides(camera, frame):
    dense_sampler, dense = _pillar_probes(camera)
    thin_sampler, thin = _pillar_probes(camera, ring_pitch=2.5)
    # Across a band still at the fine pitch, along it every 2.5 mm instead of every 1.25 mm.
    assert (thin.ring_n <= (dense.ring_n + 1) // 2 + 1).all() and (thin.ring_n > 0).sum() == (dense.ring_n > 0).sum()
    a = dense_sampler.fit(dense_sampler.sample(frame), dense)
    b = thin_sampler.fit(thin_sampler.sample(frame), thin)
    np.testing.assert_array_equal(a.inside, b.inside)
    assert np.abs(a.sides - b.sides).mean() < 0.05
    # The clear fits (a face at its height) are the same faces; only borderline scores may move.
    clear = np.abs(a.score - 0.5) > 0.15
    assert (a.score > 0.5)[clear].sum() > 0
    np.testing.assert_array_equal((a.score > 0.5)[clear], (b.score > 0.5)[clear])


@pytest.mark.parametrize("size", [(720, 1280), (719, 1279)])
def test_reading_only_the_boards_part_of_the_frame_gives_the_whole_frames_colours(camera, frame, size):
    sampler = _sampler(camera)
    sampler.patch([0.0, GARDEN.tile_top(4)], (1.0, 1.0, 24.0, 24.0))
    sampler.build()
    assert sampler.origin != (0, 0)  # the board does not reach the frame's top-left corner
    image = np.ascontiguousarray(frame[: size[0], : size[1]])
    lab = sampler.sample(image)
    # The same maps moved back to the whole frame's origin, on the whole frame downscaled.
    d = sampler.downscale
    whole = cv2.resize(image, (size[1] // d, size[0] // d), interpolation=cv2.INTER_AREA) if d > 1 else image
    map_x = sampler.map_x + np.array(sampler.origin, np.int16)
    bgr = cv2.remap(whole, map_x, sampler.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    expected = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).reshape(-1, 3)[: sampler.size].T.astype(np.float32)
    expected[0] *= np.float32(100.0 / 255.0)
    expected[1:] -= np.float32(128.0)
    np.testing.assert_array_equal(lab[:, : sampler.size], expected)


def test_appearance_support_per_subset_is_that_subsets_own_answer():
    # A profile keeps each asked subset's whitening: asking several subsets in turn (as a read
    # does every frame) must give each its own answer, the same as a fresh profile's.
    rng = np.random.default_rng(7)
    samples = {name: rng.normal(centre, 3.0, (12, 6)) for name, centre in
               (("a", [40, 5, 5, 2, 1, 1]), ("b", [60, -10, 20, 3, 2, 2]), ("c", [30, 15, -5, 1, 1, 1]))}
    features = rng.normal(45, 15, (5, 7, 6))
    profile = AppearanceProfile.learn("test", samples)
    fresh = lambda subset: AppearanceProfile.learn("test", samples).support(features, subset)  # noqa: E731
    for subset in (("a", "b"), ("b", "c"), None, ("a", "b"), ["c", "a"], ("b",), iter(("b", "c"))):
        kept = None if subset is None else tuple(subset)  # an iterator is read once: keep its names
        expected = fresh(kept)
        got = profile.support(features, iter(kept) if isinstance(subset, Iterator) else subset)
        np.testing.assert_array_equal(got, expected)
        assert got.shape == (5, 7, 3)
    # Classes left out of a subset have no support at all.
    assert (profile.support(features, ("a", "b"))[..., 2] == 0).all()


def test_stacked_tile_space_tests_score_each_position_as_its_own_fit(camera, frame):
    observer = GardenObserver(region_geometry(camera))
    sampler = observer.sampler
    lab = sampler.sample(frame)
    stacked = sampler.scores(lab, observer._tile_stack)  # (m, 8, 8, 4)
    assert len({probe.inside.shape[-1] for probe in observer._tiles}) > 1  # padded to a common width
    for position, probe in enumerate(observer._tiles):
        np.testing.assert_array_equal(stacked[..., position], sampler.fit(lab, probe, appearance=False).score)
    assert (stacked > 0.5).any()  # some tile spaces fit where they lie


def test_only_faces_measured_on_their_median_points_are_stacked(camera):
    sampler = _sampler(camera)
    dense = sampler.face([GARDEN.tile_top(1)], *square_rects(CELL, GARDEN.pillar_mm, 0.8, (0.8, 2.5)), MEDIAN_STEP)
    with pytest.raises(ValueError, match="median"):
        sampler.stack([dense])
