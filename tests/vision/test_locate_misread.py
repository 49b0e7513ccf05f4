"""A misread mat marker must not bend the board: each of the four markers is read off its place in
turn, on twin frames from several cameras, and the locator leaves it out (or refuses), never
placing the board where the misread marker pulls it. Also: the pinhole check itself."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from companion.sim import garden, variation
from companion.sim.camera import CameraModel
from companion.sim.mat import mat_marks
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision import mat
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.calibration.intrinsics import Intrinsics
from companion.vision.locate import LocateError
from companion.vision.locate.markers import detect_markers, locate_from_markers
from companion.vision.locate.pinhole import camera_fit_px, pinhole_residual

CENTRES = np.array([BABYLON_GARDEN.cell_centre(r, c) for r in range(8) for c in range(8)])
PLACEMENTS = mat.marker_layout(BABYLON_GARDEN)


@cache
def far_frame(seed: int, distance: float):
    """An empty garden on its mat (as test_locate_distance.far_frame) and the markers read in it."""
    rng = np.random.default_rng((int(distance), seed))
    camera = variation.random_camera(rng, (100, 100), distance=(distance, distance))
    region = garden.region_scene(garden.GardenLayout())
    scene = TableScene((region,), mat_marks=mat_marks(region), lighting=variation.random_lighting(rng),
                       imaging=variation.random_imaging(rng))
    image = render(scene, camera, seed=seed)
    return image, camera, detect_markers(image)


def board_error_px(location, camera) -> float:
    truth = camera.project(np.column_stack([CENTRES, np.zeros(len(CENTRES))]))
    return float(np.linalg.norm(location.project(CENTRES) - truth, axis=1).max())


def marker_fit_px(location, marker_id: int, corners_px: np.ndarray) -> float:
    """How far the located board puts a marker from the given corners (RMS px)."""
    mm = mat.detected_corners_mm(BABYLON_GARDEN, PLACEMENTS[marker_id])
    projected = cv2.perspectiveTransform(mm.reshape(-1, 1, 2), location.homography).reshape(-1, 2)
    return float(np.sqrt(np.mean(np.sum((projected - corners_px) ** 2, axis=1))))


# Cameras 50-80 cm away whose four markers are all read (the twin's lens distortion is left in,
# uncalibrated: three markers then place the board within a few pixels, four within ~1.5).
FRAMES = [(1, 500.0), (5, 600.0), (3, 700.0), (6, 800.0)]


@pytest.mark.parametrize(("seed", "distance"), FRAMES)
@pytest.mark.parametrize("offset", [(40.0, -25.0), (-30.0, 35.0), (0.0, 45.0)])
def test_each_marker_misread_in_turn_is_left_out(seed, distance, offset):
    image, camera, detected = far_frame(seed, distance)
    assert {0, 1, 2, 3} <= set(detected)
    clean = locate_from_markers(BABYLON_GARDEN, image, detected=detected)
    for marker in range(4):
        misread = dict(detected)
        misread[marker] = detected[marker] + offset  # another pattern read as this marker
        location = locate_from_markers(BABYLON_GARDEN, image, detected=misread)
        assert location.error_px < 1.0
        # The misread marker is left out: the board puts it where it really is, not where it was read.
        assert marker_fit_px(location, marker, detected[marker]) < 5.0, marker
        assert marker_fit_px(location, marker, misread[marker]) > 25.0, marker
        assert board_error_px(location, camera) < max(4.0, 3.0 * board_error_px(clean, camera)), marker


def test_one_marker_hidden_the_other_three_place_the_board():
    """A piece or a hand often hides one marker: the three left must not be mistaken for a misread
    (three markers fit a camera less tightly than four, pinhole.py)."""
    for seed, distance in FRAMES:
        image, camera, detected = far_frame(seed, distance)
        for hidden in range(4):
            three = {i: c for i, c in detected.items() if i in range(4) and i != hidden}
            location = locate_from_markers(BABYLON_GARDEN, image, detected=three)
            assert board_error_px(location, camera) < 3.0, (seed, distance, hidden)


def test_three_markers_with_one_misread_mostly_leave_it_out():
    """With three markers, one misread by 47 px is left out (the board then rests on two markers)
    or refused in most cases; not in all: three small markers bent by one can still look like a
    camera's view (on these frames 1 of 48 does). Keep all four in view."""
    outcomes = {"left out": 0, "refused": 0, "bent": 0}
    for seed, distance in FRAMES:
        image, _, detected = far_frame(seed, distance)
        for hidden in range(4):
            three = {i: c for i, c in detected.items() if i in range(4) and i != hidden}
            for marker in three:
                misread = dict(three)
                misread[marker] = three[marker] + (40.0, -25.0)
                try:
                    location = locate_from_markers(BABYLON_GARDEN, image, detected=misread)
                except LocateError:
                    outcomes["refused"] += 1
                    continue
                outcomes["bent" if marker_fit_px(location, marker, misread[marker]) < 25.0 else "left out"] += 1
    assert sum(outcomes.values()) == 48
    assert outcomes["bent"] <= 2, outcomes


def test_a_wide_lens_is_still_a_plausible_camera():
    """The camera check searches the focal lengths of real lenses: a 95° lens passes too."""
    region = garden.region_scene(garden.GardenLayout())
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=420.0, tilt_deg=25.0, azimuth_deg=-75.0,
                         hfov_deg=95.0, distortion=(-0.1, 0.02, 0.0, 0.0, 0.0))
    image = render(TableScene((region,), mat_marks=mat_marks(region)), camera, seed=2)
    location = locate_from_markers(BABYLON_GARDEN, image)
    assert board_error_px(location, camera) < 4.0


def _camera_homography(camera: CameraModel) -> np.ndarray:
    corners = np.array([[0.0, 0.0], [200.0, 0.0], [200.0, 200.0], [0.0, 200.0]])
    px = camera.project(np.column_stack([corners, np.zeros(4)]))
    homography, _ = cv2.findHomography(corners, px)
    return homography


def test_pinhole_residual_tells_a_camera_from_a_bent_fit():
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=550.0, tilt_deg=28.0, azimuth_deg=-70.0,
                         roll_deg=4.0, distortion=(0.0, 0.0, 0.0, 0.0, 0.0))
    size = (camera.width, camera.height)
    true = _camera_homography(camera)
    assert pinhole_residual(true, size) < 1e-3
    # Measured intrinsics: only that camera is tried; a wrong focal length no longer passes.
    measured = Intrinsics(size, tuple(map(tuple, camera.matrix)), rms_px=0.3)
    assert pinhole_residual(true, size, measured) < 1e-3
    longer = measured.matrix.copy()
    longer[0, 0] *= 1.5
    longer[1, 1] *= 1.5
    assert pinhole_residual(true, size, Intrinsics(size, tuple(map(tuple, longer)), rms_px=0.3)) > 0.02
    # One board corner moved 20 px: still a homography, no longer a camera's.
    corners = np.array([[0.0, 0.0], [200.0, 0.0], [200.0, 200.0], [0.0, 200.0]])
    px = camera.project(np.column_stack([corners, np.zeros(4)]))
    px[2] += (20.0, -12.0)
    bent, _ = cv2.findHomography(corners, px)
    assert pinhole_residual(bent, size) > 0.02


def test_a_camera_fitted_to_three_markers_cannot_bend_to_a_misread_one():
    camera = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=500.0, tilt_deg=25.0, azimuth_deg=-80.0,
                         distortion=(0.0, 0.0, 0.0, 0.0, 0.0))
    size = (camera.width, camera.height)
    mm = np.concatenate([mat.detected_corners_mm(BABYLON_GARDEN, p) for p in PLACEMENTS[:3]])
    px = camera.project(np.column_stack([mm, np.zeros(len(mm))]))
    assert camera_fit_px(mm, px, size) < 0.2
    # Every homography fits three markers (and this one within 2 px); a camera does not.
    px[8:12] += (30.0, -20.0)
    homography, _ = cv2.findHomography(mm, px)
    assert camera_fit_px(mm, px, size) > 2.0
