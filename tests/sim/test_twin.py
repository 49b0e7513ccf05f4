"""The digital twin: deterministic, geometrically true, occlusion right."""

from __future__ import annotations

import numpy as np

from companion.sim import garden
from companion.sim.camera import CameraModel, region_geometry
from companion.sim.render import render
from companion.sim.scene import Box, Hand, Imaging, RegionScene, TableScene
from companion.sim.visibility import visible_share
from companion.vision.boards import BABEL, BABYLON_GARDEN

CAMERA = CameraModel(target_mm=(100.0, 100.0, 0.0))


def test_same_seed_same_pixels_and_noise_differs_by_seed():
    scene = TableScene((garden.region_scene(garden.calibration_layout()),))
    a = render(scene, CAMERA, seed=3)
    b = render(scene, CAMERA, seed=3)
    c = render(scene, CAMERA, seed=4)
    assert a.shape == (720, 1280, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


def test_projection_matches_opencv_with_distortion():
    pts = np.array([[0.0, 0.0, 0.0], [200.0, 200.0, 44.0], [50.0, 120.0, 10.0]])
    geometry = region_geometry(CAMERA)
    assert np.allclose(geometry.to_pixels(pts), CAMERA.project(pts), atol=1e-6)
    # Distortion moves points off the ideal pinhole projection, more towards the image corners.
    assert not np.allclose(CAMERA.project(pts), CAMERA.project_ideal(pts), atol=0.5)


def test_a_box_top_is_drawn_where_the_camera_projects_it():
    spec = BABEL
    box = Box(10.0, 10.0, 30.0, 30.0, 0.0, 40.0, top=(0, 0, 255), side=(255, 0, 0))
    scene = TableScene((RegionScene(spec, surface=(200, 200, 200), boxes=(box,)),),
                       imaging=Imaging(noise_sigma=0.0, blur_sigma=0.0))
    camera = CameraModel(target_mm=(60.0, 60.0, 0.0), tilt_deg=20.0)
    image = render(scene, camera)
    u, v = np.round(camera.project(np.array([[20.0, 20.0, 40.0]]))[0]).astype(int)
    b, g, r = image[v, u].astype(int)
    assert r > 180 and b < 60 and g < 60  # the top's red, not the side's blue or the board


def test_tile_hides_the_pillars_that_carry_it():
    tile = garden.Tile(2, 2, 1, 0)
    layout = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
    region = garden.region_scene(layout)
    image = render(TableScene((region,), imaging=Imaging(noise_sigma=0.0, blur_sigma=0.0)), CAMERA)
    # The middle of each space shows the tile's garden colour, never a pillar's top.
    for r, c in tile.cells():
        x, y = BABYLON_GARDEN.cell_centre(r, c)
        u, v = np.round(CAMERA.project(np.array([[x + 4.0, y + 4.0, 22.0]]))[0]).astype(int)
        pixel = image[v, u].astype(int)
        assert abs(pixel[1] - 170) < 25 and abs(pixel[2] - 120) < 25, pixel


def test_cells_behind_a_tall_stack_are_reported_hidden():
    stack = garden.Pillar(3, 3, 0, 2)
    on_top = garden.Tile(3, 3, 2, 1)
    layout = garden.GardenLayout((stack, *garden.supported(on_top, (0, 0, 0, 0))), (on_top,))
    share = visible_share(garden.region_scene(layout), CAMERA, layout.top_faces())
    assert share[3, 3] == 1.0  # the tile itself
    assert share[5, 3] < 0.6  # right behind it, seen from a camera on the row-0 side
    assert share[0, 0] == 1.0


def test_hand_is_drawn_over_the_board():
    region = garden.region_scene(garden.GardenLayout())
    calm = render(TableScene((region,)), CAMERA, seed=1)
    hand = Hand(tip=(100.0, 100.0, 120.0), entry=(100.0, -300.0, 200.0))
    busy = render(TableScene((region,), hand=hand), CAMERA, seed=1)
    u, v = np.round(CAMERA.project(np.array([[100.0, 100.0, 120.0]]))[0]).astype(int)
    assert np.abs(busy[v, u].astype(int) - calm[v, u].astype(int)).sum() > 60


def test_random_layouts_are_buildable():
    for seed in range(20):
        layout = garden.random_layout(np.random.default_rng(seed))
        for tile in layout.tiles:
            carried = [p for p in layout.pillars if (p.row, p.col) in tile.cells() and p.base_level + p.height == tile.level]
            assert len(carried) >= 3
        for pillar in layout.pillars:
            assert pillar.height in (1, 2)


def test_the_play_mat_markers_are_found_by_aruco_where_the_camera_projects_them():
    import cv2

    from companion.sim.mat import mat_marks
    from companion.vision.mat import dictionary, marker_layout

    region = garden.region_scene(garden.GardenLayout())
    scene = TableScene((region,), mat_marks=mat_marks(region), imaging=Imaging(noise_sigma=1.0, blur_sigma=0.5))
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=400.0, tilt_deg=10.0)
    image = render(scene, camera, seed=1)
    detector = cv2.aruco.ArucoDetector(dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    assert ids is not None
    found = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}
    assert len(found) >= 3
    for placement in marker_layout(BABYLON_GARDEN):
        if placement.marker_id not in found:
            continue
        # Corners as printed seen from above: mat.py's corners mirrored in y (see sim/mat.py).
        corners = placement.corners_mm()[[3, 2, 1, 0]]
        expected = camera.project(np.column_stack([corners, np.zeros(4)]))
        assert np.abs(found[placement.marker_id] - expected).max() < 3.0  # corners unrefined: whole pixels
