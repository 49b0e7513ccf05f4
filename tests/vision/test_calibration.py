"""Camera calibration from synthetic ChArUco views, printable targets, intrinsics scaling."""

from __future__ import annotations

import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from companion.vision.calibration import charuco, targets
from companion.vision.calibration.intrinsics import Intrinsics, default_intrinsics
from companion.vision.calibration.pdf import PT_PER_MM, pdf_bytes
from companion.vision.locate import synthetic as sy

SIZE = (960, 720)
TRUE_K = np.array([[820.0, 0, 470.0], [0, 815.0, 372.0], [0, 0, 1]])


def sheet_views(sheet, poses, k=TRUE_K, size=SIZE):
    """The sheet seen by a known camera from several poses (a flat print, no lens distortion)."""
    px_per_mm = 4.0
    w_mm, h_mm = sheet.board_mm
    picture = sheet.board().generateImage((int(w_mm * px_per_mm), int(h_mm * px_per_mm)), marginSize=0)
    canvas = cv2.copyMakeBorder(picture, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    canvas = cv2.cvtColor(canvas, cv2.COLOR_GRAY2BGR)
    views = []
    for distance, tilt, turn, dx, dy in poses:
        rotation, translation = sy.look_at_pose((w_mm / 2 + dx, h_mm / 2 + dy), distance, tilt, turn)
        view = sy.render_view(canvas, (-10.0, -10.0), px_per_mm, rotation, translation, k, size, (90, 90, 90))
        views.append(view.image)
    return views


POSES = [
    (420, 0, 0, 0, 0), (450, 30, 10, 40, 20), (450, -30, -10, -40, -20), (420, 25, 80, 0, 60),
    (480, 35, -70, 30, -50), (380, 20, 170, -60, 10), (500, 40, 30, 60, 80), (400, -25, 120, -70, -70),
    (460, 30, -150, 20, 90), (430, 15, 45, -90, 40),
]


@pytest.mark.slow
def test_intrinsics_are_recovered_from_synthetic_views():
    calibrator = charuco.CameraCalibrator(charuco.SHEETS["a4"])
    results = [calibrator.add_view(image) for image in sheet_views(charuco.SHEETS["a4"], POSES)]
    assert all(r.accepted for r in results), results
    intrinsics = calibrator.calibrate()
    k = intrinsics.matrix
    assert k[0, 0] == pytest.approx(820.0, rel=0.02)
    assert k[1, 1] == pytest.approx(815.0, rel=0.02)
    assert k[0, 2] == pytest.approx(470.0, abs=12)
    assert k[1, 2] == pytest.approx(372.0, abs=12)
    assert intrinsics.rms_px < 1.0
    assert calibrator.coverage >= 0.6
    assert calibrator.shortcomings(intrinsics) == []


def test_too_few_views_are_reported_and_blank_views_refused():
    calibrator = charuco.CameraCalibrator(charuco.SHEETS["a4"])
    result = calibrator.add_view(np.full((720, 960, 3), 200, np.uint8))
    assert not result.accepted and "only 0 sheet corners" in str(result.reason)
    calibrator.add_view(sheet_views(charuco.SHEETS["a4"], POSES[:1])[0])
    assert any("1 view, want 8" in str(s) for s in calibrator.shortcomings(None))
    other = calibrator.add_view(np.zeros((480, 640, 3), np.uint8))
    assert not other.accepted and "640×480" in str(other.reason)
    with pytest.raises(ValueError, match="at least 3"):
        calibrator.calibrate()


@pytest.mark.parametrize("name", ["a4", "a3"])
def test_charuco_sheet_fits_its_paper_and_every_corner_is_detected(name):
    sheet = charuco.SHEETS[name]
    target = targets.charuco_target(sheet, dpi=100)
    assert target.image.shape == (targets.px(sheet.paper_mm[1], 100), targets.px(sheet.paper_mm[0], 100))
    board_w, board_h = sheet.board_mm
    assert board_w <= sheet.paper_mm[0] - 2 * targets.PRINT_MARGIN_MM
    detector = cv2.aruco.CharucoDetector(sheet.board())
    _, ids, _, _ = detector.detectBoard(target.image)
    assert ids is not None and len(ids) == (sheet.squares[0] - 1) * (sheet.squares[1] - 1)


def test_mat_target_markers_are_where_the_layout_says():
    from companion.vision import mat
    from companion.vision.locate.markers import detect_markers

    spec = mat.spec_for("babel")
    assert targets.smallest_paper(spec) == "a4"
    assert targets.smallest_paper(mat.spec_for("reclamation")) == "a3"
    with pytest.raises(ValueError, match="does not fit on A4"):
        targets.mat_target(mat.spec_for("reclamation"), "a4")
    target = targets.mat_target(spec, "a4", dpi=150)
    found = detect_markers(target.image)
    placements = mat.marker_layout(spec)
    assert sorted(found) == [p.marker_id for p in placements]
    # Distances between marker corners on the page are the layout's distances in mm.
    a, b = found[placements[0].marker_id][0], found[placements[1].marker_id][0]
    expected_mm = placements[1].corners_mm()[0][0] - placements[0].corners_mm()[0][0]
    assert np.linalg.norm(b - a) / 150 * 25.4 == pytest.approx(expected_mm, abs=0.5)


def test_a_go_board_is_too_big_for_a_mat_and_gets_stickers():
    from companion.vision import mat

    extent = mat.mat_extent_mm(mat.spec_for("grid"))
    assert not targets.fits((extent[2] - extent[0], extent[3] - extent[1]), "a3")
    assert targets.smallest_paper(mat.spec_for("grid")) is None
    sticker = targets.sticker_target(mat.spec_for("grid"), dpi=100)
    from companion.vision.locate.markers import detect_markers

    assert sorted(detect_markers(sticker.image)) == [20, 21, 22, 23]


def test_pdf_places_the_image_at_true_size():
    image = np.tile(np.arange(256, dtype=np.uint8), (10, 1))
    data = pdf_bytes(image, (210.0, 297.0), (10.0, 20.0, 100.0, 50.0))
    text = data.decode("latin-1")
    assert text.startswith("%PDF-1.4") and text.rstrip().endswith("%%EOF")
    assert f"/MediaBox [0 0 {210 * PT_PER_MM:.4f} {297 * PT_PER_MM:.4f}]" in text
    # 100 mm × 50 mm at 10 mm from the left and 20 mm from the top (PDF measures from the bottom).
    bottom = (297 - 20 - 50) * PT_PER_MM
    assert f"{100 * PT_PER_MM:.4f} 0 0 {50 * PT_PER_MM:.4f} {10 * PT_PER_MM:.4f} {bottom:.4f} cm" in text
    startxref = int(re.search(r"startxref\n(\d+)", text).group(1))
    assert text[startxref:].startswith("xref")
    for number, offset in enumerate(re.findall(r"(\d{10}) 00000 n", text), start=1):
        assert text[int(offset):].startswith(f"{number} 0 obj")
    stream = data.split(b"stream\n", 1)[1].split(b"\nendstream", 1)[0]
    assert zlib.decompress(stream) == image.tobytes()


def test_png_records_its_resolution():
    data = targets.png_with_dpi(np.zeros((4, 4), np.uint8), dpi=300)
    at = data.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", data[at + 4 : at + 13])
    assert (x, y, unit) == (11811, 11811, 1)  # 300 dpi in pixels per metre
    assert zlib.crc32(data[at : at + 13]) & 0xFFFFFFFF == struct.unpack(">I", data[at + 13 : at + 17])[0]
    decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    assert decoded.shape == (4, 4)


def test_intrinsics_scale_with_resolution_and_refuse_another_aspect():
    k = Intrinsics((1280, 960), ((1000.0, 0.0, 640.0), (0.0, 1000.0, 480.0), (0.0, 0.0, 1.0)))
    half = k.for_size(640, 480).matrix
    np.testing.assert_allclose(half, [[500, 0, 320], [0, 500, 240], [0, 0, 1]])
    with pytest.raises(ValueError, match="another aspect ratio"):
        k.for_size(1280, 720)
    guess = default_intrinsics(1280, 720)
    assert not guess.measured and guess.matrix[0, 0] == pytest.approx(1024.0)
