"""Board locators on synthetic camera views with a known pose: homography error in pixels."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.boards import BABYLON_GARDEN, board_to_page, grid_board
from companion.vision.calibration.intrinsics import Intrinsics
from companion.vision.locate import LocateError
from companion.vision.locate import synthetic as sy
from companion.vision.locate.corners import board_corners_mm, locate_from_corners, parse_corners
from companion.vision.locate.gridlines import locate_from_grid_lines
from companion.vision.locate.markers import locate_from_markers

GO = grid_board(19, 19, on_points=True)


def board_points(spec):
    return np.array([spec.cell_centre(r, c) for r in range(spec.rows) for c in range(spec.cols)])


def errors_px(location, view, spec, height_mm=0.0):
    pts = board_points(spec)
    found = location.project(pts, height_mm / spec.level_mm if spec.level_mm else 0.0)
    return np.linalg.norm(found - view.project(pts, height_mm), axis=1)


@pytest.mark.parametrize(("tilt", "turn"), [(0, 0), (25, 10), (40, -25)])
def test_markers_place_the_board_within_a_pixel(tilt, turn):
    view = sy.go_board_photo(GO, {(3, 3): "B", (15, 15): "W"}, seed=tilt, tilt_deg=tilt, turn_deg=turn,
                             with_markers=True)
    location = locate_from_markers(GO, view.image)
    err = errors_px(location, view, GO)
    assert location.method == "markers"
    assert err.mean() < 1.0 and err.max() < 2.5, (err.mean(), err.max())


def test_markers_missing_says_which_are_wanted():
    view = sy.go_board_photo(GO, {}, seed=1, tilt_deg=10, turn_deg=0, with_markers=False)
    with pytest.raises(LocateError, match=r"found 0 of its markers.*20 \(top left\)"):
        locate_from_markers(GO, view.image)


def test_corners_give_the_exact_homography_and_lift_to_higher_levels():
    spec = BABYLON_GARDEN  # 22 mm per level: parallax matters
    view = sy.go_board_photo(spec, {}, seed=2, tilt_deg=30, turn_deg=8)
    corners = view.project(board_corners_mm(spec))  # top-left … bottom-left as seen from above
    location = locate_from_corners(spec, corners, (1280, 960))
    assert errors_px(location, view, spec).max() < 0.01
    k = Intrinsics((1280, 960), tuple(map(tuple, view.camera_matrix)))
    lifted = location.with_intrinsics(k)
    for level in (1, 2, 4):
        parallax = np.linalg.norm(view.project(board_points(spec), level * 22.0)
                                  - view.project(board_points(spec), 0.0), axis=1)
        assert parallax.max() > 5  # the test would not notice a missing lift otherwise
        assert errors_px(lifted, view, spec, level * 22.0).max() < 0.05


def test_default_focal_length_lifts_levels_approximately():
    spec = BABYLON_GARDEN
    view = sy.go_board_photo(spec, {}, seed=3, tilt_deg=20, turn_deg=0)
    corners = view.project(board_corners_mm(spec))  # top-left … bottom-left as seen from above
    location = locate_from_corners(spec, corners, (1280, 960))  # no intrinsics: the 0.8·width guess
    assert errors_px(location, view, spec, 44.0).max() < 1.0  # the synthetic camera also has 0.8


@pytest.mark.parametrize(
    ("text", "message"),
    [("1,2,3", "expected 8 numbers"), ("a,b,c,d,e,f,g,h", "expected 8 numbers"), ("", "got 0")],
)
def test_corner_text_errors(text, message):
    with pytest.raises(LocateError, match=message):
        parse_corners(text)


def test_corners_out_of_order_or_outside_are_refused():
    square = np.array([[100, 100], [500, 100], [500, 500], [100, 500]], dtype=float)
    with pytest.raises(LocateError, match="clockwise"):
        locate_from_corners(GO, square[[0, 2, 1, 3]], (640, 640))  # crossing
    with pytest.raises(LocateError, match="anticlockwise on the image, which would place the board's mirror"):
        locate_from_corners(GO, square[[3, 2, 1, 0]], (640, 640))
    # A game board's row 1 runs along the bottom edge as seen: row 0 / column 0 is the bottom-left corner.
    garden = locate_from_corners(BABYLON_GARDEN, square, (640, 640))
    np.testing.assert_allclose(garden.project(np.array([[0.0, 0.0]])), [[100, 500]], atol=1e-6)
    np.testing.assert_allclose(locate_from_corners(GO, square, (640, 640)).project(np.array([[0.0, 0.0]])),
                               [[100, 100]], atol=1e-6)  # the plain grid: as the picture shows it
    with pytest.raises(LocateError, match="outside the 400×400 image"):
        locate_from_corners(GO, square, (400, 400))


@pytest.mark.slow
@pytest.mark.parametrize(("tilt", "turn", "fill"), [(0, 0, 0.3), (30, -12, 0.5), (45, 25, 0.2)])
def test_grid_lines_place_a_go_board_within_a_pixel(tilt, turn, fill):
    stones = sy.random_position(GO, np.random.default_rng(tilt), fill=fill)
    view = sy.go_board_photo(GO, stones, seed=tilt + 1, tilt_deg=tilt, turn_deg=turn)
    location = locate_from_grid_lines(GO, view.image)
    err = errors_px(location, view, GO)
    assert err.mean() < 1.0 and err.max() < 2.0, (err.mean(), err.max())


def test_grid_lines_on_a_blank_picture_fail_clearly():
    blank = np.full((480, 640, 3), 128, np.uint8)
    with pytest.raises(LocateError, match="no line grid"):
        locate_from_grid_lines(GO, blank)


def test_location_is_a_region_geometry_for_the_observers():
    """to_pixels(x, y, z-up) and nadir_xy agree with the true camera."""
    spec = BABYLON_GARDEN
    view = sy.go_board_photo(spec, {}, seed=4, tilt_deg=25, turn_deg=-5)
    corners = view.project(board_corners_mm(spec))  # top-left … bottom-left as seen from above
    k = Intrinsics((1280, 960), tuple(map(tuple, view.camera_matrix)))
    location = locate_from_corners(spec, corners, (1280, 960), k)
    xyz = np.array([[10.0, 20.0, 0.0], [150.0, 90.0, 44.0], [190.0, 190.0, 66.0]])
    expected = np.vstack([view.project(p[None, :2], p[2]) for p in xyz])
    np.testing.assert_allclose(location.to_pixels(xyz), expected, atol=0.05)
    np.testing.assert_allclose(location.nadir_xy(), view.camera_xy(), atol=0.5)


def test_lens_distortion_is_removed_before_fitting_and_put_back_when_projecting():
    spec = BABYLON_GARDEN
    k = np.array([[900.0, 0, 640], [0, 900.0, 480], [0, 0, 1]])
    dist = np.array([-0.25, 0.08, 0.0, 0.0, 0.0])
    rotation, translation = sy.look_at_pose((100, 100), 420, 20, 5)
    rvec = cv2.Rodrigues(rotation)[0]  # a pose of the page seen from above (synthetic.look_at_pose)

    def raw(points_mm):
        page = points_mm @ board_to_page(spec)[:2, :2].T + board_to_page(spec)[:2, 2]
        pts = np.column_stack([page, np.zeros(len(page))]).reshape(-1, 1, 3)
        return cv2.projectPoints(pts, rvec, translation, k, dist)[0].reshape(-1, 2)

    outline = board_corners_mm(spec)
    intrinsics = Intrinsics((1280, 960), tuple(map(tuple, k)), tuple(dist))
    location = locate_from_corners(spec, raw(outline), (1280, 960), intrinsics)
    inner = board_points(spec)
    assert np.abs(location.project(inner) - raw(inner)).max() < 0.05
    ignorant = locate_from_corners(spec, raw(outline), (1280, 960))
    assert np.abs(ignorant.project(inner) - raw(inner)).max() > 1.0  # the test can tell


def test_implausible_lattices_are_refused_not_read():
    from companion.vision.locate.gridlines import _check_plausible

    evidence = np.zeros((600, 800), np.uint8)
    for k in range(9):  # a 9×9 grid of 40 px drawn into the evidence image
        evidence[100 + 40 * k, 100:421] = 255
        evidence[100:421, 100 + 40 * k] = 255
    good = np.array([[40.0, 0, 100], [0, 40.0, 100], [0, 0, 1]])
    _check_plausible(good, 9, 9, evidence.shape, evidence)  # no error
    with pytest.raises(LocateError, match="too fine"):
        _check_plausible(np.array([[3.0, 0, 100], [0, 3.0, 100], [0, 0, 1]]), 9, 9, evidence.shape, evidence)
    with pytest.raises(LocateError, match="far from square"):
        _check_plausible(np.array([[40.0, 0, 100], [0, 6.0, 100], [0, 0, 1]]), 9, 9, evidence.shape, evidence)
    with pytest.raises(LocateError, match="does not lie on the board's lines"):
        _check_plausible(np.array([[40.0, 0, 120], [0, 40.0, 120], [0, 0, 1]]), 9, 9, evidence.shape, evidence)


def test_a_board_standing_on_its_mat_is_placed_at_its_own_surface():
    """Markers on the table, the playing surface 18 mm higher: level 0 is the surface."""
    view = sy.go_board_photo(GO, {}, seed=9, tilt_deg=30, turn_deg=5, with_markers=True)
    k = Intrinsics((1280, 960), tuple(map(tuple, view.camera_matrix)))
    on_table = locate_from_markers(GO, view.image, intrinsics=k)
    raised = locate_from_markers(GO, view.image, intrinsics=k, surface_mm=18.0)
    pts = board_points(GO)
    assert np.linalg.norm(on_table.project(pts) - view.project(pts, 18.0), axis=1).max() > 5
    assert np.linalg.norm(raised.project(pts) - view.project(pts, 18.0), axis=1).max() < 1.5
