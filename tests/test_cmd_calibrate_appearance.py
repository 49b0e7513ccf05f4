"""`companion calibrate appearance` end to end on the digital twin: the calibration layout is
rendered on its play mat, the command locates the board by the mat's markers, checks the photos and
writes the profile; `companion recognise` then reads a random layout with it."""

from __future__ import annotations

import dataclasses
import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import load_config
from companion.sim.camera import CameraModel, region_geometry
from companion.sim.mat import mat_marks
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision.appearance import AppearanceProfile
from companion.vision.calibration import files
from companion.vision.calibration.intrinsics import Intrinsics
from tests.sim.helpers import GAMES

GAME = GAMES["reclamation"]
CAMERA = CameraModel(target_mm=(*GAME.target, 0.0), distance_mm=GAME.distance, tilt_deg=15.0)


def photo(tmp_path, layout, name, seed):
    region, scene = GAME.scene(layout)
    image = render(dataclasses.replace(scene, mat_marks=mat_marks(region)), CAMERA, seed=seed)
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return path


@pytest.fixture
def camera_calibrated():
    state = load_config().state_dir()
    files.save_intrinsics(files.camera_path(state), Intrinsics(
        (CAMERA.width, CAMERA.height), tuple(map(tuple, CAMERA.matrix)), tuple(float(v) for v in CAMERA.dist_coeffs)))
    return state


@pytest.mark.slow
def test_capture_from_photos_then_recognise_reads_a_random_layout(tmp_path, capsys, camera_calibrated):
    shots = [photo(tmp_path, GAME.calibration(), f"cal-{k}.png", seed=k) for k in range(2)]
    assert main(["calibrate", "appearance", "--game", "reclamation", "--source", *map(str, shots)]) == 0
    out = capsys.readouterr().out
    assert "row 1, column 1: 1 stone, flower up" in out  # what to lay where
    assert out.count("Good frame") == 2
    assert "learned from 2 frames" in out and "1 more frame would make it steadier" in out
    profile_path = files.calibration_dir(camera_calibrated) / "appearance-reclamation.json"
    assert AppearanceProfile.load(profile_path).region == "reclamation"

    layout = GAME.random(np.random.default_rng(21))
    table = photo(tmp_path, layout, "table.png", seed=9)
    assert main(["recognise", "--game", "reclamation", str(table), "--json"]) == 0
    cells = json.loads(capsys.readouterr().out)[0]["cells"]
    # What the command and the locator add must not change the reading: the same profile through the
    # twin's true camera geometry reads the same. (The observer's own accuracy is bench vision's job;
    # here it only has to be plainly better than chance.)
    region, _ = GAME.scene(layout)
    observer = GAME.observer(region_geometry(CAMERA), AppearanceProfile.load(profile_path))
    truth_read = observer.observe(cv2.imread(str(table)))
    same = sum((cells[r][c]["label"], cells[r][c]["attrs"]) == (truth_read.cell(r, c).label, truth_read.cell(r, c).attrs)
               for r in range(6) for c in range(6))
    assert same >= 34, same
    seen = visible_share(region, CAMERA, layout.top_faces())
    expected = layout.expected()
    visible = [(r, c) for r in range(6) for c in range(6) if seen[r, c] >= 0.6]
    right = sum((cells[r][c]["label"], cells[r][c]["attrs"]) == tuple(expected[r][c]) for r, c in visible)
    assert right >= 0.75 * len(visible), (right, len(visible))

    assert main(["calibrate", "show"]) == 0
    assert "reclamation: appearance of 3 kinds of piece" in capsys.readouterr().out


def test_a_wrong_layout_saves_nothing_and_says_why(tmp_path, capsys, camera_calibrated):
    wrong = photo(tmp_path, GAME.random(np.random.default_rng(9)), "wrong.png", seed=1)
    assert main(["calibrate", "appearance", "--region", "reclamation", "--source", str(wrong)]) == 2
    captured = capsys.readouterr()
    assert "The pieces are not where the layout puts them" in captured.out
    assert "nothing saved for reclamation: no usable frame" in captured.err
    assert not (files.calibration_dir(camera_calibrated) / "appearance-reclamation.json").exists()


def test_a_corrupt_profile_is_moved_aside_not_overwritten(tmp_path, capsys, camera_calibrated):
    path = files.calibration_dir(camera_calibrated) / "appearance-reclamation.json"
    path.write_text("not json", encoding="utf-8")
    shot = photo(tmp_path, GAME.calibration(), "cal.png", seed=3)
    assert main(["calibrate", "appearance", "--region", "reclamation", "--frames", "1", "--source", str(shot)]) == 0
    out = capsys.readouterr().out
    assert "could not be used" in out and "moved aside to appearance-reclamation.unusable-" in out
    aside = [p for p in path.parent.iterdir() if ".unusable-" in p.name]
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "not json"


def test_layout_only_writes_the_diagram(tmp_path, capsys):
    assert main(["calibrate", "appearance", "--game", "babylon", "--layout-only", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert {p.name for p in tmp_path.iterdir()} == {"layout-babylon.garden.png", "layout-babylon.quarry.png"}
    assert "row 3, column 2: bridge on level 1" in out
    assert cv2.imread(str(tmp_path / "layout-babylon.garden.png")) is not None


@pytest.mark.parametrize(("argv", "message"), [
    (["--region", "reclamation", "--source", "nowhere.png"], "nowhere.png: no such image folder"),
    (["--region", "reclamation", "--frames", "0", "--layout-only"], "--frames: expected 1 to 10"),
    (["--game", "babel", "--calibration", "x.json", "--layout-only"], "use it with --region"),
])
def test_errors_are_one_line(argv, message, capsys):
    assert main(["calibrate", "appearance", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_camera_frames_from_the_configured_source_stop_when_enough(tmp_path, monkeypatch, capsys):
    """--camera reads the configured source (here an image folder): a frame with a hand-like
    problem (too dark) is refused and said why, then good frames are taken until enough."""
    folder = tmp_path / "frames"
    folder.mkdir()
    dark = cv2.imread(str(photo(tmp_path, GAME.calibration(), "x.png", seed=4)))
    cv2.imwrite(str(folder / "f000.png"), (dark * 0.1).astype(np.uint8))
    for k in range(1, 4):
        photo(folder, GAME.calibration(), f"f{k:03d}.png", seed=k)
    state = tmp_path / "state"
    config = tmp_path / "config.toml"
    config.write_text(f'[general]\nstate_dir = "{state}"\n[camera]\nsource = "files"\npath = "{folder}"\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    files.save_intrinsics(files.camera_path(state), Intrinsics(
        (CAMERA.width, CAMERA.height), tuple(map(tuple, CAMERA.matrix)), tuple(float(v) for v in CAMERA.dist_coeffs)))
    assert main(["calibrate", "appearance", "--region", "reclamation", "--camera", "--every", "1",
                 "--frames", "2"]) == 0
    out = capsys.readouterr().out
    assert "frame 1: reclamation: " in out and "Too dark" in out
    assert "frame 3: reclamation: Good frame" in out and "frame 4:" not in out  # stopped when enough
    assert (files.calibration_dir(state) / "appearance-reclamation.json").exists()
