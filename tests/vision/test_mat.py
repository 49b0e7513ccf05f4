"""The play-mat layout: unique ids, markers outside the board, readable marker images."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import mat
from companion.vision.boards import REGIONS


def all_specs():
    return [*REGIONS.values(), mat.spec_for("grid", 19, 19, True)]


def test_ids_are_unique_across_regions_and_map_back():
    ids = [p.marker_id for spec in all_specs() for p in mat.marker_layout(spec)]
    assert len(ids) == len(set(ids)) == 4 * len(all_specs())
    assert max(ids) < 50  # DICT_4X4_50 holds ids 0..49
    for spec in all_specs():
        for placement in mat.marker_layout(spec):
            assert mat.region_of_marker(placement.marker_id) == (spec.region, placement.corner)
    assert mat.region_of_marker(49) is None


@pytest.mark.parametrize("spec", all_specs(), ids=lambda s: s.region)
def test_markers_lie_outside_the_board_and_inside_the_mat(spec):
    x0, y0, x1, y1 = mat.mat_extent_mm(spec)
    for placement in mat.marker_layout(spec):
        corners = placement.corners_mm()
        inside_board = (
            (corners[:, 0] > 0) & (corners[:, 0] < spec.width_mm)
            & (corners[:, 1] > 0) & (corners[:, 1] < spec.height_mm)
        )
        assert not inside_board.any()
        assert (corners[:, 0] >= x0 + mat.QUIET_MM - 1e-9).all()
        assert (corners[:, 1] <= y1 - mat.QUIET_MM + 1e-9).all()
        side = np.linalg.norm(corners[1] - corners[0])
        assert side == pytest.approx(mat.MARKER_MM)


def test_marker_image_is_detected_with_its_id():
    canvas = np.full((200, 200), 255, np.uint8)
    canvas[50:150, 50:150] = mat.marker_image(13, 100)
    detector = cv2.aruco.ArucoDetector(mat.dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(canvas)
    assert ids is not None and ids.ravel().tolist() == [13]
    # ArUco reports corners TL, TR, BR, BL: the same order as MarkerPlacement.corners_mm
    np.testing.assert_allclose(corners[0][0], [[50, 50], [149, 50], [149, 149], [50, 149]], atol=1.5)
