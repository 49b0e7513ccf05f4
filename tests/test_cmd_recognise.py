"""`companion recognise`: the plain grid reader's text and JSON, the game path, clear errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.vision.boards import BABYLON_GARDEN, grid_board
from companion.vision.locate import synthetic as sy


@pytest.fixture(scope="module")
def go_photo(tmp_path_factory):
    spec = grid_board(9, 9, True)
    stones = sy.random_position(spec, np.random.default_rng(21), fill=0.4)
    view = sy.go_board_photo(spec, stones, seed=21, tilt_deg=25, turn_deg=8)
    path = tmp_path_factory.mktemp("photos") / "go9.png"
    cv2.imwrite(str(path), view.image)
    text = "\n".join(" ".join(stones.get((r, c), ".") for c in range(9)) for r in range(9))
    return path, text


def test_grid_text_is_rows_of_tokens(go_photo, capsys, tmp_path):
    path, expected = go_photo
    overlay = tmp_path / "overlay.png"
    assert main(["recognise", "--grid", "9x9", "--on", "points", str(path), "--overlay", str(overlay)]) == 0
    out = capsys.readouterr().out
    assert out == expected + "\n"
    picture = cv2.imread(str(overlay))
    assert picture is not None and picture.shape == (960, 1280, 3)


def test_grid_json_has_every_cell_with_a_confidence(go_photo, capsys):
    path, expected = go_photo
    assert main(["recognise", "--grid", "9x9", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["region"] == "grid" and data["rows"] == 9 and data["cols"] == 9
    labels = "\n".join(" ".join(cell["label"] for cell in row) for row in data["cells"])
    assert labels == expected
    assert all(0.0 <= cell["confidence"] <= 1.0 for row in data["cells"] for cell in row)
    assert data["extras"]["method"] == "gridlines"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--grid", "19"], "--grid: expected ROWSxCOLS"),
        (["--grid", "9x9", "MISSING.png"], "MISSING.png: no such image file"),
        (["--game", "chess", "IMG"], "unknown game 'chess'"),
        (["--grid", "9x9", "IMG", "--overlay", "/nonexistent/dir/o.png"], "folder /nonexistent/dir does not exist"),
        (["--grid", "9x9", "IMG", "--overlay", "out.txt"], "expected a .png"),
    ],
)
def test_bad_arguments_are_one_line_errors(argv, message, go_photo, capsys):
    argv = [str(go_photo[0]) if a == "IMG" else a for a in argv]
    if argv[-1] == "19":
        argv.append(str(go_photo[0]))
    assert main(["recognise", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_a_file_that_is_not_an_image_is_named(tmp_path, capsys):
    bad = tmp_path / "photo.png"
    bad.write_bytes(b"not a png at all")
    assert main(["recognise", "--grid", "9x9", str(bad)]) == 2
    assert f"{bad}: is not an image OpenCV can read" in capsys.readouterr().err


def test_a_blank_photo_says_no_grid_was_found(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 120, np.uint8))
    assert main(["recognise", "--grid", "19x19", str(blank)]) == 2
    assert "no line grid found" in capsys.readouterr().err


def test_game_path_locates_by_markers_and_needs_the_observer_and_its_profile(tmp_path, capsys):
    view = sy.go_board_photo(BABYLON_GARDEN, {}, seed=5, tilt_deg=20, turn_deg=0, with_markers=True)
    photo = tmp_path / "garden.png"
    cv2.imwrite(str(photo), view.image)
    code = main(["recognise", "--game", "babylon", str(photo)])
    err = capsys.readouterr().err
    assert code != 0
    # Either the garden observer asks for its appearance profile, or a region has no observer yet:
    # both are said plainly, never a traceback.
    assert "colours are not learned yet: calibrate them with companion calibrate appearance" in err \
        or "no observer for" in err
    assert "Traceback" not in err


def test_game_path_without_markers_or_calibration_says_how_to_place_the_board(tmp_path, capsys):
    photo = tmp_path / "plain.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 90, np.uint8))
    assert main(["recognise", "--game", "babylon", str(photo)]) == 2
    err = capsys.readouterr().err
    assert "found 0 of its markers" in err and "companion calibrate board" in err


def test_a_clean_reading_prints_no_warning(go_photo, capsys):
    assert main(["recognise", "--grid", "9x9", str(go_photo[0])]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_misplaced_grid_is_flagged(go_photo, tmp_path, capsys):
    """A board file that puts the grid half a pitch off: every place reads unsure, and it says so."""
    from companion.vision.calibration import files
    from companion.vision.locate.gridlines import locate_from_grid_lines

    image = cv2.imread(str(go_photo[0]))
    spec = grid_board(9, 9, True)
    good = locate_from_grid_lines(spec, image)
    shifted = good.homography @ np.array([[1, 0, spec.cell_mm / 2], [0, 1, spec.cell_mm / 2], [0, 0, 1]])
    path = tmp_path / "board-grid.json"
    files.save_location(path, type(good)(spec, shifted / shifted[2, 2], good.image_size, "corners", 0.0))
    assert main(["recognise", "--grid", "9x9", str(go_photo[0]), "--calibration", str(path)]) == 0
    assert "read with low confidence" in capsys.readouterr().err
