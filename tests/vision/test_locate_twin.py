"""The marker locator on the digital twin's frames (sim/: its own renderer, camera and mat drawing).

The twin draws in the one board frame of vision/boards.py (right-handed, z up: row 0 at the bottom
seen from above), as the printed mats now are; the locator must place the board there and lift it
to higher levels.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.camera import CameraModel
from companion.sim.mat import mat_marks
from companion.sim.render import render
from companion.sim.scene import Imaging, TableScene
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.calibration.intrinsics import Intrinsics
from companion.vision.locate.markers import locate_from_markers


@pytest.mark.parametrize(("tilt", "azimuth"), [(10.0, -90.0), (30.0, -60.0)])
def test_markers_on_the_twin_place_the_garden_at_every_height(tilt, azimuth):
    region = garden.region_scene(garden.GardenLayout())
    scene = TableScene((region,), mat_marks=mat_marks(region), imaging=Imaging(noise_sigma=1.0, blur_sigma=0.5))
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=540.0, tilt_deg=tilt, azimuth_deg=azimuth)
    image = render(scene, camera, seed=1)
    intrinsics = Intrinsics((camera.width, camera.height), tuple(map(tuple, camera.matrix)),
                            tuple(float(v) for v in camera.dist_coeffs))
    location = locate_from_markers(BABYLON_GARDEN, image, intrinsics=intrinsics)
    assert location.error_px < 1.0
    xy = np.array([[x, y] for x in (0.0, 100.0, 200.0) for y in (0.0, 100.0, 200.0)])
    for height in (0.0, 22.0, 66.0):
        xyz = np.column_stack([xy, np.full(len(xy), height)])
        err = np.linalg.norm(location.to_pixels(xyz) - camera.project(xyz), axis=1)
        assert err.max() < 1.5, (height, err.max())
    nadir = location.nadir_xy()
    assert np.hypot(nadir[0] - camera.position[0], nadir[1] - camera.position[1]) < 15.0
