"""The calibration wizard in `companion run`: LiveControls feeds the live frames to the appearance
capture and reports progress, refusals in plain words, and a verdict once the profile is saved."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.api import Message
from companion.referee.controls import CalibrationRun, LiveControls
from companion.vision.types import Frame

sim = pytest.importorskip("companion.sim.camera")


def english(message: Message | None) -> str:
    return "" if message is None else message.render("en")


class _Session:
    """Just what the wizard reads of the running session: the game and the newest frame."""

    class tracker:  # noqa: N801
        game = "reclamation"

    last_frame: Frame | None = None


@pytest.fixture(scope="module")
def calibration_frames():
    from companion.sim.render import render
    from tests.sim.helpers import GAMES

    game = GAMES["reclamation"]
    camera = sim.CameraModel(target_mm=(*game.target, 0.0), distance_mm=game.distance, tilt_deg=18.0)
    _, scene = game.scene(game.calibration())
    return sim.region_geometry(camera), [render(scene, camera, seed=s) for s in range(3)]


def _controls(tmp_path, geometry, monkeypatch):
    controls = LiveControls(tmp_path)
    controls.camera = "opencv"
    session = _Session()
    controls.attach(session)
    monkeypatch.setattr(CalibrationRun, "_locate", lambda self, region, image: geometry)
    controls.start_calibration()
    return controls, session


@pytest.mark.slow
def test_live_frames_fill_the_capture_and_the_profile_is_saved(tmp_path, calibration_frames, monkeypatch):
    from companion.vision.calibration import files

    geometry, images = calibration_frames
    controls, session = _controls(tmp_path, geometry, monkeypatch)
    assert not controls.device_status().calibrated
    assert "Waiting for the camera" in english(controls.calibration_progress().step)
    seen = []
    for index, image in enumerate(images, start=1):
        session.last_frame = Frame(image, float(index), "opencv:0", index)
        seen.append(controls.calibration_progress())
        assert controls.calibration_progress().fraction == seen[-1].fraction  # the same frame is fed once
    assert [round(p.fraction, 2) for p in seen] == [0.33, 0.67, 1.0]
    assert [p.ok for p in seen] == [None, None, True]
    assert "Good frame" in english(seen[0].verdict)
    assert "Calibrated: Reclamation field" in english(seen[-1].verdict)
    assert "reclamation" not in seen[-1].verdict.render("ja").lower()  # the region by its name
    assert (files.calibration_dir(tmp_path) / "appearance-reclamation.json").exists()
    status = controls.device_status()
    assert status.calibrated and "Reclamation field" in english(status.calibration_detail)
    assert seen[-1].view is not None and seen[-1].view.image.shape == images[0].shape


def test_a_dark_frame_is_refused_in_plain_words(tmp_path, calibration_frames, monkeypatch):
    geometry, images = calibration_frames
    controls, session = _controls(tmp_path, geometry, monkeypatch)
    session.last_frame = Frame((images[0] * 0.12).astype(np.uint8), 1.0, "opencv:0", 1)
    progress = controls.calibration_progress()
    assert progress.ok is None and progress.fraction == 0.0
    assert "dark" in english(progress.verdict)


def test_the_simulated_table_and_an_unlocated_board_are_said_plainly(tmp_path):
    controls = LiveControls(tmp_path)
    controls.start_calibration()
    done = controls.calibration_progress()
    assert done.ok is False and "simulated table" in english(done.verdict)
    controls.camera = "opencv"
    session = _Session()
    session.last_frame = Frame(np.zeros((120, 160, 3), np.uint8), 1.0, "opencv:0", 1)
    controls.attach(session)
    controls.start_calibration()
    progress = controls.calibration_progress()
    assert progress.ok is None and "markers" in english(progress.step) and "Reclamation field" in english(progress.step)
