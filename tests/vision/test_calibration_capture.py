"""AppearanceCapture on twin-rendered frames: good frames are taken, poor ones refused in plain
words (too dark, board outside the picture, pieces not where the layout puts them), and the saved
profile never silently replaces a file it cannot read."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.errors import CompanionError
from companion.i18n import translate
from companion.sim.camera import CameraModel, region_geometry
from companion.sim.render import render
from companion.vision.appearance import AppearanceProfile
from companion.vision.calibration import files
from companion.vision.calibration.capture import AppearanceCapture, save_profile
from tests.sim.helpers import GAMES

GAME = GAMES["reclamation"]
CAMERA = CameraModel(target_mm=(*GAME.target, 0.0), distance_mm=GAME.distance, tilt_deg=18.0)


def frame(layout=None, seed=0):
    _, scene = GAME.scene(layout or GAME.calibration())
    return render(scene, CAMERA, seed=seed)


@pytest.fixture(scope="module")
def good_frames():
    return [frame(seed=s) for s in range(3)]


def text(pair) -> str:
    return translate(pair[0], "en", pair[1])


def test_three_good_frames_fill_the_capture_and_the_profile_reads_a_new_layout(good_frames):
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA))
    assert capture.progress.ok is None and capture.progress.fraction == 0.0
    assert "Lay out the calibration pieces" in text(capture.progress.step)
    progress = [capture.feed(image) for image in good_frames]
    assert [p.ok for p in progress] == [None, None, True]
    assert [round(p.fraction, 2) for p in progress] == [0.33, 0.67, 1.0]
    assert "Good frame" in text(progress[0].verdict)
    assert "save" in text(progress[-1].step)

    observer = GAME.observer(region_geometry(CAMERA), capture.profile())
    layout = GAME.random(np.random.default_rng(11))
    reading = observer.observe(frame(layout, seed=7))
    expected = layout.expected()
    right = sum((reading.cell(r, c).label, reading.cell(r, c).attrs) == tuple(expected[r][c])
                for r in range(6) for c in range(6))
    assert right >= 33, right


def test_a_dark_frame_is_refused_and_says_so(good_frames):
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA))
    progress = capture.feed((good_frames[0] * 0.12).astype(np.uint8))
    assert progress.ok is False and capture.frames_used == 0
    assert text(progress.verdict).startswith("Too dark: the board is at ")
    assert "Put it right" in text(progress.step)


def test_a_board_outside_the_picture_is_refused(good_frames):
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA))
    progress = capture.feed(good_frames[0][: good_frames[0].shape[0] // 3])  # the board cut off
    assert progress.ok is False
    assert "not wholly in the picture" in text(progress.verdict)


def test_pieces_not_where_the_layout_puts_them_are_named(good_frames):
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA))
    progress = capture.feed(frame(GAME.random(np.random.default_rng(9))))
    assert progress.ok is False and not capture.ready
    message = text(progress.verdict)
    assert message.startswith("The pieces are not where the layout puts them:"), message
    assert progress.misreads and "row " in message and "expected " in message
    with pytest.raises(CompanionError, match="no good calibration frame"):
        capture.profile()
    assert capture.feed(good_frames[0]).verdict[0].startswith("Good frame")  # put right: taken


def test_not_a_picture_is_refused():
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA))
    progress = capture.feed(np.zeros((10, 10), np.float32))
    assert progress.ok is False and "not a colour camera picture" in text(progress.verdict)


def test_save_keeps_a_valid_profile_and_moves_an_unusable_one_aside(good_frames, tmp_path):
    capture = AppearanceCapture("reclamation", region_geometry(CAMERA), frames_wanted=1)
    assert capture.feed(good_frames[0]).ok is True
    first = capture.save(tmp_path)
    assert first.path == files.calibration_dir(tmp_path) / "appearance-reclamation.json"
    assert first.previous is None and first.set_aside is None
    assert AppearanceProfile.load(first.path).region == "reclamation"

    second = capture.save(tmp_path)
    assert second.previous is not None and second.previous.name == "appearance-reclamation.prev.json"

    first.path.write_text("{broken", encoding="utf-8")
    third = capture.save(tmp_path)
    assert third.set_aside is not None and third.set_aside.read_text(encoding="utf-8") == "{broken"
    assert "line 1, column 2: not valid JSON" in third.set_aside_reason
    assert AppearanceProfile.load(third.path).region == "reclamation"


def test_a_profile_of_another_region_is_not_replaced_silently(tmp_path):
    other = AppearanceProfile.learn("babel", {"cube": np.random.default_rng(0).normal(50, 5, (8, 6))})
    path = tmp_path / "appearance-reclamation.json"
    other.save(path)
    mine = AppearanceProfile.learn("reclamation", {"flower": np.random.default_rng(1).normal(50, 5, (8, 6))})
    saved = save_profile(mine, path)
    assert saved.set_aside is not None and "'babel'" in saved.set_aside_reason
    assert json.loads(saved.set_aside.read_text())["region"] == "babel"
    assert AppearanceProfile.load(path).region == "reclamation"


@pytest.mark.slow
@pytest.mark.parametrize("region", ["babylon.garden", "babylon.quarry", "babel", "baubylon"])
def test_every_region_takes_its_layout_and_refuses_another(region):
    game = GAMES[region]
    camera = CameraModel(target_mm=(*game.target, 0.0), distance_mm=game.distance, tilt_deg=18.0)
    capture = AppearanceCapture(region, region_geometry(camera), frames_wanted=1)
    _, wrong = game.scene(game.random(np.random.default_rng(9)))
    refused = capture.feed(render(wrong, camera, seed=1))
    assert refused.ok is False and not capture.ready, text(refused.verdict)
    _, scene = game.scene(game.calibration())
    taken = capture.feed(render(scene, camera, seed=2))
    assert taken.ok is True, text(taken.verdict)
    assert taken.verdict[0].startswith("Good frame")
