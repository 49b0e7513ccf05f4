"""Vision's own texts reach the person setting the kiosk up in their language: the ChArUco views
refused and what a calibration still lacks (`companion calibrate camera`), why a board is not
located (markers, grid lines, corners), and why a camera source cannot be used. No English is
left but names, paths and values."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import load_config
from companion.errors import CompanionError
from companion.vision.boards import BABYLON_GARDEN, grid_board
from companion.vision.calibration import charuco
from companion.vision.calibration.layout_diagram import write_layout
from companion.vision.calibration.layouts import layout_for
from companion.vision.locate import LocateError
from companion.vision.locate.corners import locate_from_corners, parse_corners
from companion.vision.locate.gridlines import locate_from_grid_lines
from companion.vision.locate.location import fit_homography
from companion.vision.locate.markers import locate_from_markers
from companion.vision.sources import FileSource, OpenCVSource, SourceError, open_source
from companion.vision.sources.simulated import SimulatedSource
from tests.test_error_texts import english_left
from tests.vision.test_calibration import POSES, sheet_views

TRANSLATED = ("ja", "zh_TW")


def assert_translated(text_of, *written: str) -> None:
    """`text_of(lang)` in ja and zh_TW: different from the English, no English word left but
    `written` (names, paths, values as written)."""
    english = text_of("en")
    for lang in TRANSLATED:
        text = text_of(lang)
        assert text != english, text
        assert english_left(text, *written) == [], (lang, text)


# --- calibrate camera: views refused, what is still missing -----------------------------------------

def test_a_blank_view_a_view_of_another_size_and_a_repeated_view_say_why_in_the_language():
    calibrator = charuco.CameraCalibrator(charuco.SHEETS["a4"])
    blank = calibrator.add_view(np.full((720, 960, 3), 200, np.uint8))
    assert not blank.accepted and str(blank.reason) == "only 0 sheet corners found (need 8)"
    assert_translated(blank.reason.render)
    view = sheet_views(charuco.SHEETS["a4"], POSES[:1])[0]
    assert calibrator.add_view(view, distinct=True).accepted
    again = calibrator.add_view(view, distinct=True)
    assert not again.accepted and str(again.reason) == "too like view 1: move or tilt the sheet"
    assert_translated(again.reason.render)
    other = calibrator.add_view(np.zeros((480, 640, 3), np.uint8))
    assert str(other.reason) == "image is 640×480, the other views are 960×720"
    assert_translated(other.reason.render)
    assert "640×480" in other.reason.render("ja") and "960×720" in other.reason.render("zh_TW")


def test_what_a_calibration_still_lacks_is_said_in_the_language():
    calibrator = charuco.CameraCalibrator(charuco.SHEETS["a4"], max_rms_px=0.01)
    for view in sheet_views(charuco.SHEETS["a4"], POSES[:3]):
        calibrator.add_view(view)
    missing = calibrator.shortcomings(calibrator.calibrate())
    assert [str(m).split(" ")[0:2] for m in missing] == [["3", "views,"], ["corners", "cover"], ["reprojection", "error"]]
    for text in missing:
        assert_translated(text.render, "px")
    assert "3" in missing[0].render("ja") and "8" in missing[0].render("zh_TW")


def test_one_view_is_singular_in_english():
    calibrator = charuco.CameraCalibrator(charuco.SHEETS["a4"])
    calibrator.add_view(sheet_views(charuco.SHEETS["a4"], POSES[:1])[0])
    assert str(calibrator.shortcomings(None)[0]).startswith("1 view, want 8")


# --- why a board is not located -----------------------------------------------------------------------

def test_no_markers_in_view_names_the_board_the_corners_and_what_was_seen():
    with pytest.raises(LocateError) as caught:
        locate_from_markers(BABYLON_GARDEN, np.full((720, 960, 3), 90, np.uint8))
    error = caught.value
    assert str(error).startswith("Babylon gardens: found 0 of its markers, need at least 2; its markers are 0 (top left)")
    assert str(error).endswith("markers seen: none")
    assert_translated(error.render)
    assert "左上" in error.render("ja") and "右下" in error.render("zh_TW")
    # the reason alone (for a line that names the board already) leaves the board's name out
    assert str(error.reason).startswith("found 0 of its markers") and "バビロン" not in error.reason.render("ja")


def test_no_line_grid_is_said_in_the_language():
    with pytest.raises(LocateError) as caught:
        locate_from_grid_lines(grid_board(9, 9, True), np.full((600, 600, 3), 200, np.uint8))
    assert str(caught.value).startswith("no line grid found")
    assert_translated(caught.value.render)


@pytest.mark.parametrize(("call", "english", "written"), [
    (lambda: parse_corners("1,2,3"), "--corners: expected 8 numbers x1,y1,...,x4,y4 (4 corners), got 3",
     ("corners",)),
    (lambda: parse_corners("a,b"), "--corners: expected 8 numbers x1,y1,...,x4,y4, got 'a,b'", ("corners",)),
    (lambda: locate_from_corners(BABYLON_GARDEN, np.array([[10, 10], [900, 10], [900, 700], [10, 990]]), (960, 720)),
     "corner 4 (10, 990) lies outside the 960×720 image", ()),
    (lambda: locate_from_corners(BABYLON_GARDEN, np.array([[10, 10], [900, 700], [900, 10], [10, 700]]), (960, 720)),
     "the 4 corners must go round the board", ()),
    (lambda: locate_from_corners(BABYLON_GARDEN, np.array([[10, 10], [10, 700], [900, 700], [900, 10]]), (960, 720)),
     "the 4 corners go round anticlockwise", ()),
    (lambda: fit_homography(np.zeros((3, 2)), np.zeros((3, 2))),
     "need at least 4 reference points to place the board, found 3", ()),
])
def test_corner_and_reference_point_refusals_are_said_in_the_language(call, english, written):
    with pytest.raises(LocateError) as caught:
        call()
    assert str(caught.value).startswith(english)
    assert_translated(caught.value.render, *written)


# --- camera sources ---------------------------------------------------------------------------------

def _config(tmp_path, text: str):
    path = tmp_path / "companion.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path)


@pytest.mark.parametrize(("open_it", "english", "written"), [
    (lambda tmp: FileSource(tmp / "nowhere").open(), "nowhere: no such image folder or video file", ("nowhere",)),
    (lambda tmp: FileSource(tmp).open(), "no images (.png, .jpg", ("png", "jpg", "jpeg", "bmp", "tif", "tiff", "webp")),
    (lambda tmp: OpenCVSource(97).open(), "no camera at OpenCV device 97", ("/dev/video97", "[camera] device")),
    (lambda tmp: open_source(_config(tmp, '[camera]\nsource = "sim"\n')),
     "the simulated table is only available", ("companion", "sim")),
    (lambda tmp: open_source(_config(tmp, '[camera]\nsource = "files"\n')), '[camera] source = "files" needs [camera] path',
     ("camera", "source", "files", "path")),
])
def test_a_source_that_cannot_open_says_why_in_the_language(tmp_path, open_it, english, written):
    with pytest.raises(SourceError) as caught:
        open_it(tmp_path)
    assert english in str(caught.value)
    assert_translated(caught.value.render, str(tmp_path), *written)


def test_a_failing_simulated_table_says_so_with_the_failure_as_a_detail():
    def broken(n):
        raise RuntimeError("script ran out")

    with pytest.raises(SourceError) as caught:
        SimulatedSource(broken).read()
    assert str(caught.value) == "the simulated table failed at frame 0 (RuntimeError: script ran out)"
    assert_translated(caught.value.render, "RuntimeError: script ran out")


def test_which_camera_was_taken_and_why_others_were_passed_over(tmp_path):
    config = _config(tmp_path, '[camera]\nsource = "auto"\ndevice = 97\n')
    opened = open_source(config, simulated=lambda: SimulatedSource(lambda n: np.zeros((4, 4, 3), np.uint8), name="sim:demo"))
    described = opened.describe()
    assert str(described).startswith("camera: sim:demo (passed over: picamera2: picamera2 is not available")
    ja = described.render("ja")
    assert "sim:demo" in ja and "OpenCV" in ja and "カメラ" in ja
    opened.source.close()
    with pytest.raises(SourceError) as caught:
        open_source(_config(tmp_path, '[camera]\nsource = "auto"\ndevice = 97\n'))
    assert "no camera source could be opened" in str(caught.value)
    assert "開" in caught.value.render("zh_TW") and "；" in caught.value.render("zh_TW")  # its list parted by "；"


def test_a_layout_diagram_that_cannot_be_written_names_the_file(tmp_path):
    (tmp_path / "layout-babylon.garden.png").mkdir()  # a folder where the picture would go
    with pytest.raises(CompanionError) as caught:
        write_layout(layout_for("babylon.garden"), tmp_path)
    assert str(caught.value).endswith("layout-babylon.garden.png: could not write the layout diagram")
    assert_translated(caught.value.render, str(tmp_path / "layout-babylon.garden.png"))


def test_a_camera_measured_at_another_aspect_ratio_says_how_to_measure_it_again():
    from companion.vision.calibration.intrinsics import Intrinsics, OtherAspectRatio

    camera = Intrinsics((1280, 960), ((1000.0, 0.0, 640.0), (0.0, 1000.0, 480.0), (0.0, 0.0, 1.0)))
    with pytest.raises(OtherAspectRatio) as caught:
        camera.for_size(1280, 720)
    assert isinstance(caught.value, ValueError) and "another aspect ratio" in str(caught.value)
    assert_translated(caught.value.render, "companion calibrate camera")
    assert "1280×960" in caught.value.render("ja") and "1280×720" in caught.value.render("zh_TW")


def test_a_profile_set_aside_says_why_in_the_language(tmp_path):
    from companion.vision.appearance import AppearanceProfile
    from companion.vision.calibration.capture import save_profile

    path = tmp_path / "appearance-reclamation.json"
    path.write_text("{broken", encoding="utf-8")
    mine = AppearanceProfile.learn("reclamation", {"flower": np.random.default_rng(1).normal(50, 5, (8, 6))})
    saved = save_profile(mine, path)
    assert saved.set_aside is not None and "line 1, column 2: not valid JSON" in saved.set_aside_reason
    assert saved.set_aside_error.render("en") == saved.set_aside_reason
    assert_translated(saved.set_aside_error.render, str(path), "JSON")
