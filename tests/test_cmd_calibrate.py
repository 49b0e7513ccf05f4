"""`companion calibrate`: targets, camera from photos of the sheet, board location, show."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import load_config
from companion.vision.boards import BABYLON_GARDEN, grid_board
from companion.vision.calibration import charuco, files
from companion.vision.locate import synthetic as sy
from tests.vision.test_calibration import POSES, sheet_views


def state_dir():
    return load_config().state_dir()


def test_target_writes_png_and_pdf_for_both_sheets(tmp_path, capsys):
    assert main(["calibrate", "target", "--out", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["charuco-a3.pdf", "charuco-a3.png", "charuco-a4.pdf", "charuco-a4.png"]
    assert (tmp_path / "charuco-a4.pdf").read_bytes().startswith(b"%PDF-1.4")
    assert "print at 100 %" in capsys.readouterr().out


def test_mat_for_a_game_and_stickers_for_a_go_board(tmp_path, capsys):
    assert main(["calibrate", "mat", "--game", "babylon", "--out", str(tmp_path)]) == 0
    assert main(["calibrate", "mat", "--grid", "19x19", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    names = {p.name for p in tmp_path.iterdir()}
    assert {"mat-babylon-garden-a3.png", "mat-babylon-quarry-a3.pdf", "stickers-grid.png"} <= names
    assert "does not fit on A3; writing marker stickers" in out
    assert main(["calibrate", "mat", "--region", "reclamation", "--paper", "a4", "--out", str(tmp_path)]) == 2
    assert "try --paper a3 or --stickers" in capsys.readouterr().err


@pytest.mark.slow
def test_camera_from_a_folder_of_sheet_photos(tmp_path, capsys):
    for i, image in enumerate(sheet_views(charuco.SHEETS["a4"], POSES)):
        cv2.imwrite(str(tmp_path / f"view{i:02d}.png"), image)
    (tmp_path / "notes.txt").write_text("not a photo")
    cv2.imwrite(str(tmp_path / "view99_blank.png"), np.full((720, 960, 3), 255, np.uint8))
    assert main(["calibrate", "camera", "--images", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "[ 11/11] view99_blank.png: 0 corners, skipped" in out
    assert "good enough" in out
    intrinsics = files.load_intrinsics(files.camera_path(state_dir()))
    assert intrinsics.matrix[0, 0] == pytest.approx(820.0, rel=0.02)


def test_camera_with_too_few_photos_saves_nothing_unless_asked(tmp_path, capsys):
    for i, image in enumerate(sheet_views(charuco.SHEETS["a4"], POSES[:4])):
        cv2.imwrite(str(tmp_path / f"view{i}.png"), image)
    assert main(["calibrate", "camera", "--images", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "4 views, want 8" in out and "nothing saved" in out
    assert not files.camera_path(state_dir()).exists()
    assert main(["calibrate", "camera", "--images", str(tmp_path), "--save-anyway"]) == 0
    assert files.camera_path(state_dir()).exists()


def test_camera_errors(tmp_path, capsys):
    assert main(["calibrate", "camera", "--images", str(tmp_path / "nope")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["calibrate", "camera", "--images", str(tmp_path)]) == 2
    assert "no PNG or JPEG photos" in capsys.readouterr().err


def test_board_from_corners_then_recognise_uses_it(tmp_path, capsys):
    spec = grid_board(9, 9, True)
    stones = {(0, 0): "B", (4, 4): "W", (8, 2): "B"}
    view = sy.go_board_photo(spec, stones, seed=11, tilt_deg=20, turn_deg=4)
    photo = tmp_path / "go.png"
    cv2.imwrite(str(photo), view.image)
    corners = view.project(np.array([[0, 0], [spec.width_mm, 0], [spec.width_mm, spec.height_mm], [0, spec.height_mm]]))
    text = ",".join(f"{v:.2f}" for v in corners.ravel())
    overlay = tmp_path / "board.png"
    assert main(["calibrate", "board", "--grid", "9x9", str(photo), "--corners", text, "--overlay", str(overlay)]) == 0
    assert "grid: located by corners" in capsys.readouterr().out
    saved = files.board_path(state_dir(), "grid")
    assert json.loads(saved.read_text())["method"] == "corners"
    assert cv2.imread(str(overlay)) is not None
    assert main(["recognise", "--grid", "9x9", str(photo), "--calibration", str(saved), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["extras"]["method"] == "corners"
    assert [(r, c) for r, row in enumerate(data["cells"]) for c, cell in enumerate(row) if cell["label"] != "."] == \
        sorted(stones)
    assert main(["recognise", "--grid", "19x19", str(photo), "--calibration", str(saved)]) == 2
    assert "locates a 9x9 grid, expected 19x19" in capsys.readouterr().err


def test_board_from_markers_by_default_and_show(tmp_path, capsys):
    view = sy.go_board_photo(BABYLON_GARDEN, {}, seed=12, tilt_deg=15, turn_deg=0, with_markers=True)
    photo = tmp_path / "garden.png"
    cv2.imwrite(str(photo), view.image)
    assert main(["calibrate", "board", "--region", "babylon.garden", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "babylon.garden: located by markers" in out and "companion calibrate camera" in out
    assert main(["calibrate", "show"]) == 0
    out = capsys.readouterr().out
    assert "camera: not calibrated" in out and "babylon.garden: by markers, 1280×960 frames" in out


def test_a_corrupt_board_file_is_reported_and_left_untouched(tmp_path, capsys):
    saved = files.board_path(state_dir(), "grid")
    saved.parent.mkdir(parents=True)
    saved.write_text('{"format": "companion.board", "version": 1, "region": 5}')
    square = "100,100,500,100,500,500,100,500"
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.full((640, 640, 3), 128, np.uint8))
    assert main(["calibrate", "board", "--grid", "9x9", str(photo), "--corners", square]) == 2
    err = capsys.readouterr().err
    assert "left untouched" in err and f"{saved}: region: expected a string" in err
    assert saved.read_text() == '{"format": "companion.board", "version": 1, "region": 5}'
    assert main(["calibrate", "show"]) == 0
    assert "board-grid.json: unusable" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--grid", "9x9", "IMG", "--corners", "1,2,3"], "expected 8 numbers"),
        (["--game", "babylon", "IMG", "--corners", "1,1,9,1,9,9,1,9"], "use --region"),
        (["--region", "nowhere", "IMG"], "unknown region 'nowhere'"),
        (["--grid", "9x9", "IMG", "--lines"], "no line grid found"),
    ],
)
def test_board_errors_are_one_line(argv, message, tmp_path, capsys):
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.full((480, 640, 3), 128, np.uint8))
    argv = [str(photo) if a == "IMG" else a for a in argv]
    assert main(["calibrate", "board", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.slow
def test_camera_live_from_the_configured_source(tmp_path, monkeypatch, capsys):
    """The configured source (here an image folder) is read frame by frame; repeated poses are
    passed over; it stops once good enough."""
    folder = tmp_path / "frames"
    folder.mkdir()
    views = sheet_views(charuco.SHEETS["a4"], POSES)
    for i, image in enumerate([views[0], views[0], *views[1:]]):  # a pose shown twice
        cv2.imwrite(str(folder / f"f{i:03d}.png"), image)
    config = tmp_path / "config.toml"
    config.write_text(f'[general]\nstate_dir = "{tmp_path / "state"}"\n[camera]\nsource = "files"\npath = "{folder}"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["calibrate", "camera", "--live", "--every", "1"]) == 0
    out = capsys.readouterr().out
    assert "too like view 1" in out and "good enough" in out
    assert files.camera_path(tmp_path / "state").exists()
