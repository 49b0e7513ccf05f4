"""Calibration files: round trips, clear errors for corrupt or mismatched files, never overwritten."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import CompanionError, FormatError
from companion.vision.boards import BABYLON_GARDEN, grid_board
from companion.vision.calibration import files
from companion.vision.calibration.intrinsics import Intrinsics
from companion.vision.locate.corners import locate_from_corners

K = Intrinsics((1280, 960), ((900.0, 0.0, 640.0), (0.0, 905.0, 480.0), (0.0, 0.0, 1.0)),
               (0.1, -0.05, 0.001, 0.0, 0.0), 0.31, 14)


def garden_location(intrinsics=None):
    corners = np.array([[300, 200], [900, 220], [950, 800], [260, 780]], dtype=float)
    return locate_from_corners(BABYLON_GARDEN, corners, (1280, 960), intrinsics)


def test_intrinsics_round_trip(tmp_path):
    path = files.camera_path(tmp_path)
    assert files.save_intrinsics(path, K) is None
    assert files.load_intrinsics(path) == K
    assert json.loads(path.read_text())["format"] == "companion.camera"


def test_location_round_trip_with_and_without_distortion(tmp_path):
    path = files.board_path(tmp_path, "babylon.garden")
    plain = garden_location()
    files.save_location(path, plain)
    loaded = files.load_location(path, "babylon.garden", (1280, 960))
    np.testing.assert_allclose(loaded.homography, plain.homography)
    assert loaded.spec == BABYLON_GARDEN and loaded.method == "corners"

    distorted = garden_location(K)
    files.save_location(path, distorted)
    with pytest.raises(FormatError, match="camera calibration"):
        files.load_location(path)
    again = files.load_location(path, intrinsics=K)
    np.testing.assert_allclose(again.project(np.array([[10.0, 20.0]]), 2), distorted.project(np.array([[10.0, 20.0]]), 2))


def test_saving_keeps_the_previous_valid_file(tmp_path):
    path = files.camera_path(tmp_path)
    files.save_intrinsics(path, K)
    before = path.read_text()
    previous = files.save_intrinsics(path, Intrinsics((640, 480), ((500.0, 0.0, 320.0), (0.0, 500.0, 240.0), (0.0, 0.0, 1.0))))
    assert previous is not None and previous.read_text() == before
    assert files.load_intrinsics(path).image_size == (640, 480)


@pytest.mark.parametrize(
    ("content", "where", "expected"),
    [
        ("{not json", "line 1, column 2", "not valid JSON"),
        ('{"format": "companion.board", "version": 1}', "format", "another kind of file"),
        ('{"format": "companion.camera", "version": 7}', "version", "newer companion"),
        ('{"format": "companion.camera", "version": 1, "image_size": [1280]}', "image_size", r"\[width, height\]"),
        ('{"format": "companion.camera", "version": 1, "image_size": [1280, 960], '
         '"camera_matrix": [[1, 0, 0], [0, 1, 0], [0, 0, "x"]]}', r"camera_matrix\[2\]\[2\]", "a number"),
        ('{"format": "companion.camera", "version": 1, "image_size": [1280, 960], '
         '"camera_matrix": [[-5, 0, 0], [0, 1, 0], [0, 0, 1]]}', "camera_matrix", "fx, fy > 0"),
        ('{"format": "companion.camera", "version": 1, "image_size": [1280, 960], '
         '"camera_matrix": [[5, 0, 0], [0, 5, 0], [0, 0, 1]], "dist_coeffs": [1, 2, 3]}', "dist_coeffs", "12 or 14"),
        ('{"format": "companion.camera", "version": 1, "image_size": [1280, 960]}', "camera_matrix", "missing"),
    ],
)
def test_corrupt_camera_files_name_file_and_key_and_are_not_overwritten(tmp_path, content, where, expected):
    path = files.camera_path(tmp_path)
    path.parent.mkdir(parents=True)
    path.write_text(content)
    with pytest.raises(FormatError, match=f"{path}: {where}: .*{expected}"):
        files.load_intrinsics(path)
    with pytest.raises(CompanionError, match="left untouched"):
        files.save_intrinsics(path, K)
    assert path.read_text() == content
    assert not any(p.name.startswith(".camera.json") for p in path.parent.iterdir())  # no temp left


def test_binary_garbage_is_a_clear_error(tmp_path):
    path = tmp_path / "camera.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(FormatError, match="not UTF-8"):
        files.load_intrinsics(path)


def test_missing_file_says_so(tmp_path):
    with pytest.raises(CompanionError, match="no such calibration file"):
        files.load_intrinsics(tmp_path / "camera.json")


def test_mismatched_board_files_are_refused(tmp_path):
    path = files.board_path(tmp_path, "babylon.garden")
    files.save_location(path, garden_location())
    with pytest.raises(FormatError, match="region: this file locates 'babylon.garden', expected 'reclamation'"):
        files.load_location(path, "reclamation")
    with pytest.raises(FormatError, match="calibrated for 1280×960 frames, this frame is 640×480"):
        files.load_location(path, "babylon.garden", (640, 480))
    data = json.loads(path.read_text())
    data["homography"] = [[0, 0, 0], [0, 0, 0], [0, 0, 1]]
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match="homography: expected an invertible"):
        files.load_location(path)
    data["homography"] = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    data["method"] = "magic"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match="method: expected one of markers, gridlines, corners"):
        files.load_location(path)


def test_grid_board_spec_survives_the_file(tmp_path):
    spec = grid_board(9, 9, True)
    corners = np.array([[100, 100], [500, 100], [500, 500], [100, 500]], dtype=float)
    path = tmp_path / "board-grid.json"
    files.save_location(path, locate_from_corners(spec, corners, (640, 640)))
    assert files.load_location(path, "grid").spec == spec
