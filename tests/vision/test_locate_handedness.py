"""One board frame (vision/boards.py): right-handed with z up, so a game board's row 0 is at the
bottom seen from above. The printed mat, the twin, and the marker, grid-line and corner locators
agree on it by construction, and a mirrored board is refused, never read with its rows reversed."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.errors import FormatError
from companion.sim import boards as sim_boards
from companion.sim import mat as sim_mat
from companion.sim.camera import CameraModel
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision import mat
from companion.vision.boards import RECLAMATION, board_to_page, frame_is_mirrored, grid_board
from companion.vision.calibration import files, targets
from companion.vision.calibration.intrinsics import Intrinsics
from companion.vision.locate import LocateError
from companion.vision.locate import synthetic as sy
from companion.vision.locate.corners import board_corners_mm, locate_from_corners
from companion.vision.locate.gridlines import locate_from_grid_lines
from companion.vision.locate.markers import locate_from_markers

CAMERA = CameraModel(target_mm=(90.0, 90.0, 0.0), distance_mm=520.0, tilt_deg=15.0)
K = Intrinsics((CAMERA.width, CAMERA.height), tuple(map(tuple, CAMERA.matrix)),
               tuple(float(v) for v in CAMERA.dist_coeffs))
PROBES = np.array([[15.0, 15.0], [165.0, 15.0], [15.0, 165.0], [90.0, 90.0]])


def twin_photo(mat_marks_of=sim_mat.mat_marks):
    region = sim_boards.calibration_reclamation().region_scene()
    return render(TableScene((region,), mat_marks=mat_marks_of(region)), CAMERA, seed=2)


def test_the_twin_and_the_marker_locator_agree():
    location = locate_from_markers(RECLAMATION, twin_photo(), intrinsics=K)
    assert not frame_is_mirrored(RECLAMATION, location.homography)
    assert np.abs(location.project(PROBES) - CAMERA.project(np.column_stack([PROBES, np.zeros(4)]))).max() < 1.0


def test_a_mirrored_camera_picture_is_refused():
    flipped = cv2.flip(twin_photo(), 1)
    with pytest.raises(LocateError):
        locate_from_markers(RECLAMATION, flipped)
    # Corners read off the mirrored picture in the usual order go round anticlockwise: refused too.
    seen = CAMERA.project(np.column_stack([board_corners_mm(RECLAMATION), np.zeros(4)]))
    seen[:, 0] = CAMERA.width - 1 - seen[:, 0]
    with pytest.raises(LocateError, match="mirror image"):
        locate_from_corners(RECLAMATION, seen, (CAMERA.width, CAMERA.height))


def test_a_mat_printed_the_old_way_round_is_refused(monkeypatch):
    """Row 0 along the page's top edge (the page convention of the first sitting): every marker is
    where a mirrored board frame would put it. The centres alone would fit; the markers' own corners
    do not, and the locator says what is wrong instead of reading the rows reversed."""
    height = RECLAMATION.height_mm

    def old_layout(spec):
        return tuple(dataclasses.replace(p, centre_mm=(p.centre_mm[0], height - p.centre_mm[1]))
                     for p in mat.marker_layout(spec))

    monkeypatch.setattr(sim_mat, "marker_layout", old_layout)
    with pytest.raises(LocateError, match="mirror image of itself: the mat was printed the other way round"):
        locate_from_markers(RECLAMATION, twin_photo(), intrinsics=K)


def test_the_printed_mat_seen_from_above_places_row_1_along_its_bottom_edge():
    dpi = 100
    target = targets.mat_target(RECLAMATION, "a3", dpi=dpi)
    page = cv2.cvtColor(target.image, cv2.COLOR_GRAY2BGR)
    location = locate_from_markers(RECLAMATION, page)
    assert not frame_is_mirrored(RECLAMATION, location.homography)
    corners = location.project(board_corners_mm(RECLAMATION))  # top-left … bottom-left as seen
    row0_col0 = location.project(np.array([[0.0, 0.0]]))[0]
    np.testing.assert_allclose(row0_col0, corners[3], atol=1.0)  # bottom-left of the page's board
    assert corners[3][1] > corners[0][1] + 100  # …which is lower on the page than the top-left


def test_grid_lines_and_corners_give_the_same_frame_as_the_markers():
    spec = dataclasses.replace(grid_board(6, 6, False, 30.0), region="reclamation")
    view = sy.go_board_photo(spec, {(0, 0): "B", (5, 1): "W"}, seed=3, tilt_deg=25, turn_deg=10, with_markers=True)
    by_markers = locate_from_markers(RECLAMATION, view.image)
    by_lines = locate_from_grid_lines(RECLAMATION, view.image)
    by_corners = locate_from_corners(RECLAMATION, view.project(board_corners_mm(RECLAMATION)), (1280, 960))
    truth = view.project(PROBES)
    for location in (by_markers, by_lines, by_corners):
        assert not frame_is_mirrored(RECLAMATION, location.homography)
        assert np.abs(location.project(PROBES) - truth).max() < 1.5, location.method


def test_the_plain_grid_keeps_the_pictures_own_rows():
    go = grid_board(9, 9, True)
    assert np.array_equal(board_to_page(go), np.eye(3))
    view = sy.go_board_photo(go, {}, seed=5, tilt_deg=0, turn_deg=0)
    location = locate_from_grid_lines(go, view.image)
    assert location.project(np.array([[0.0, 0.0]]))[0][1] < location.project(np.array([[0.0, 176.0]]))[0][1]


def test_a_saved_mirrored_location_is_refused_and_may_be_replaced(tmp_path):
    location = locate_from_markers(RECLAMATION, twin_photo(), intrinsics=K)
    path = files.board_path(tmp_path, "reclamation")
    files.save_location(path, location)
    data = json.loads(path.read_text())
    mirror = np.array([[1.0, 0, 0], [0, -1.0, RECLAMATION.height_mm], [0, 0, 1]])
    data["homography"] = (np.array(data["homography"]) @ mirror).tolist()
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match="homography: places the board as its mirror image"):
        files.load_location(path, intrinsics=K)
    previous = files.save_location(path, location)  # a fresh calibration replaces it, keeping it aside
    assert previous is not None and files.load_location(path, intrinsics=K).method == "markers"
