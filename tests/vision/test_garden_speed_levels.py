"""The garden measurement's fifth-sitting speed work keeps what it measures: what is read on tile
tops only (a space's middle, clean bands, edge strips, flower corners) is reported for the board
itself (level 0) as zeros with the same shapes, and read where a tile top at each level shows it;
a face measured on its median's points only gathers no column of sentinels and still scores what
counting its points cell by cell says."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.observers.babylon_garden import MEDIAN_STEP, RING_PITCH, GardenObserver
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.fit import square_rects
from companion.vision.observers.garden_points import GardenSampler, grid_points
from companion.vision.observers.views import near_sides
from tests.sim.helpers import GAMES, camera_for

CELL = BABYLON_GARDEN.cell_mm
TILE_ONLY = ("centre", "centre_px", "tile_band", "band_rects", "strips", "flower")


@pytest.fixture(scope="module")
def camera():
    return camera_for(GAMES["babylon.garden"])


@pytest.fixture(scope="module")
def frame(camera):
    layout = garden.random_layout(np.random.default_rng(23))
    return render(TableScene((garden.region_scene(layout),)), camera, seed=4)


@pytest.fixture(scope="module")
def observer(camera):
    return GardenObserver(region_geometry(camera))


def test_what_is_read_on_tile_tops_only_is_zero_on_the_board_with_the_same_shapes(observer, frame):
    meas = observer._measure(frame)
    levels = observer.m + 1
    h, w = observer._centre_shape
    expected_shapes = {"centre": (levels, 8, 8, 6), "centre_px": (levels, 8, 8, h, w, 3),
                       "tile_band": (levels, 8, 8, 4, 6), "strips": (levels, 8, 8, 4, 6), "flower": (levels, 8, 8, 4, 6)}
    for key, shape in expected_shapes.items():
        assert meas[key].shape == shape, key
    assert meas["band_rects"].shape[:3] == (levels, 8, 8)
    for key in TILE_ONLY:
        assert not meas[key][0].any(), f"{key}: level 0 is not measured"
        assert np.isfinite(meas[key][1:]).all() and (meas[key][1:] != 0).mean() > 0.5, key
    # Faces measured at every height keep their level 0 too (the recess is only there).
    assert meas["recess"].shape == (8, 8) and (meas["recess"] != 0).any()


@pytest.mark.parametrize("level", [1, 4])
def test_a_spaces_middle_is_read_where_a_tile_top_at_its_level_shows_it(observer, frame, level):
    meas = observer._measure(frame)
    h, w = observer._centre_shape
    centre = (CELL / 2 - 3, CELL / 2 - 3, CELL / 2 + 3, CELL / 2 + 3)
    points = grid_points(centre, observer.sampler.pitch)
    for r, c in ((1, 6), (5, 2), (7, 7)):
        xyz = np.column_stack([points + [c * CELL, r * CELL], np.full(len(points), GARDEN.tile_top(level))])
        expected = observer.sampler.sample_points(xyz).reshape(h, w, 3)
        got = meas["centre_px"][level, r, c]
        # The frame's maps hold positions to 1/32 px, sample_points' exactly: colours agree closely
        # (a point read at another level, or in another cell, would be tens of units off).
        assert np.abs(got - expected).max() < 3.0
        assert np.abs(got - expected).mean() < 0.5


def test_a_face_on_its_median_points_scores_what_counting_its_points_cell_by_cell_says(camera, frame):
    geometry = region_geometry(camera)
    sampler = GardenSampler(geometry, BABYLON_GARDEN, CELL / 20, near_sides(BABYLON_GARDEN, geometry.nadir_xy()))
    heights = [GARDEN.pillar_top(level) for level in (1, 2, 3)]
    sampler.set_downscale(heights)
    probe = sampler.face(heights, *square_rects(CELL, GARDEN.pillar_mm, 0.8, (0.8, 2.5)), MEDIAN_STEP,
                         ring_pitch=RING_PITCH, median_only=True)
    sampler.build()
    assert probe.inside.shape[-1] == probe.median_width  # nothing gathered after the median's points
    lab = sampler.sample(frame)
    fit = sampler.fit(lab, probe)
    fits = 0
    for k in range(len(heights)):
        for cell in range(64):
            inside = lab[:, probe.inside[k, cell, : probe.inside_n[cell]]]  # (3, n) the real points
            # The padded median is the real points' middle one (the upper middle of an even count).
            colour = np.sort(inside, axis=1)[:, inside.shape[1] // 2]
            tau = np.float32(min(max(0.12 * colour[0] + 3.0, 5.0), 12.0))

            def like(points, colour=colour, tau=tau):
                d = points - colour[:, None]
                return (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) < tau * tau

            share = like(inside).mean()
            sides = np.zeros(4)
            for j, side in enumerate(probe.sides):
                n = probe.ring_n[cell, j]
                if n:
                    sides[side] = like(lab[:, probe.ring[k, cell, j, :n]]).mean()
            r, c = divmod(cell, 8)
            assert fit.inside[k, r, c] == pytest.approx(share, abs=1e-6)
            np.testing.assert_allclose(fit.sides[k, r, c], sides, atol=1e-6)
            assert fit.score[k, r, c] == pytest.approx(share - sides.max(), abs=1e-6)
            fits += fit.score[k, r, c] > 0.5
    assert fits > 0  # some pillar tops fit where they stand


def test_patch_features_are_the_mean_and_spread_of_each_patchs_points(observer, frame):
    sampler = observer.sampler
    lab = sampler.sample(frame)
    for idx in (observer._flowers, observer._bands_strips):
        got = sampler.features(lab, idx)  # (K, 8, 8, patches, 6)
        points = np.take(lab, idx, axis=1)  # (3, K, 64, patches, n)
        expected = np.concatenate([points.mean(axis=-1), points.std(axis=-1)])
        expected = np.moveaxis(expected, 0, -1).reshape(got.shape)
        np.testing.assert_array_equal(got, expected)
