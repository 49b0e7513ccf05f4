"""The screen's live controls in `companion run` (companion.referee.controls + the run loop):
new games from the home screen, playing a declared move, switching cameras, the camera view."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from companion.config import load_config
from companion.errors import CompanionError
from companion.referee.controls import (
    SIM,
    LiveControls,
    RunRequest,
    cell_pixel,
    demo_for_setup,
    marks_for,
)
from companion.referee.events import (
    GameOver,
    MoveAccepted,
    ScoreChanged,
    TurnGuidance,
    ViolationFound,
)
from companion.referee.interface import GameSetup, RefereeControls
from companion.referee.live import RunOptions
from companion.vision.types import CellReading, Frame, Observation

from .helpers import wait_until

pytest.importorskip("companion.games.reclamation")


def test_live_controls_implement_the_protocol_including_play():
    assert isinstance(LiveControls(), RefereeControls)
    assert hasattr(RefereeControls, "play")


def test_play_queues_the_declared_move_for_the_referee_thread():
    controls = LiveControls()

    class Session:
        def __init__(self):
            import queue

            self.commands = queue.SimpleQueue()

    session = Session()
    controls.attach(session)
    controls.play("a move")
    assert session.commands.get_nowait() == ("play", "a move")


def test_the_recorded_demo_takes_the_players_names():
    demo = demo_for_setup(GameSetup("reclamation", ("Aiko", "陳美玲")))
    assert demo.initial.players == ("Aiko", "陳美玲")
    assert len(demo.moves) > 10
    state = demo.initial
    for move in demo.moves[:5]:  # the recorded moves still fit the renamed game
        state = state.apply(move)


def test_start_game_asks_the_run_loop_for_a_new_game_and_says_when_the_recording_has_other_seats():
    controls = LiveControls()
    answer = controls.start_game(GameSetup("reclamation", ("Aiko", "Ben", "Cy")))
    note = answer.message
    assert answer.done and controls.run_stop.is_set()
    request = controls.requests.get_nowait()
    assert request.kind == "new_game" and request.setup.players == ("Aiko", "Ben", "Cy")
    assert note is not None and "for {count} players" in note.msgid and dict(note.params)["count"] == 2
    assert dict(note.params)["names"] == "Aiko, Ben"
    assert controls.start_game(GameSetup("reclamation", ("Aiko", "Ben"))).message is None
    throne = controls.start_game(GameSetup("reclamation", ("Aiko", "Ben"), options=(("variant", "throne"),))).message
    assert throne is not None and "variant = garden" in throne.render("en")
    both = controls.start_game(GameSetup("reclamation", ("A", "B", "C"), options=(("variant", "throne"),))).message
    assert "for 2 players" in both.render("en") and "variant = garden" in both.render("en")


def test_a_game_the_simulated_table_cannot_play_is_refused_and_the_running_game_goes_on():
    controls = LiveControls()
    answer = controls.start_game(GameSetup("no-such-game", ("A", "B")))
    note = answer.message
    assert not answer.done and note is not None and "cannot start" in note.msgid
    assert "no recorded game of no-such-game" in note.render("en")
    assert "no-such-game" in note.render("ja") and "recorded" not in note.render("ja")  # the reason translated
    assert not controls.run_stop.is_set() and controls.requests.empty()


def test_switching_to_a_camera_that_fails_keeps_the_old_source_and_says_why():
    controls = LiveControls()

    def fails(name):
        raise CompanionError("no /dev/video0")

    controls.open_camera = fails
    assert controls.set_camera("opencv").done  # answered at once; opened in the background
    assert _wait(lambda: controls.device_status().switch.done is not None, 10)
    answer = controls.device_status().switch.message
    assert answer is not None and "could not be used" in answer.msgid
    assert "no /dev/video0" in answer.render("en") and dict(answer.params)["current"] == SIM
    assert controls.camera == SIM and controls.requests.empty() and not controls.run_stop.is_set()


def test_switching_to_a_camera_that_opens_hands_it_to_the_run_loop():
    controls = LiveControls()
    controls.open_camera = lambda name: ("source", "reader")
    controls.set_camera("opencv")
    assert _wait(lambda: controls.camera == "opencv", 10) and controls.run_stop.is_set()
    assert controls.requests.get_nowait() == RunRequest("camera", source="source", reader="reader")
    controls.set_camera(SIM)
    assert controls.requests.get_nowait() == RunRequest("camera")


class _Flat:
    """A camera looking straight down: 2 px per mm, heights ignored."""

    def to_pixels(self, xyz):
        return np.asarray(xyz, float)[:, :2] * 2.0

    def nadir_xy(self):
        return (90.0, 90.0)


def test_marks_land_on_the_cells_the_observer_read():
    from companion.vision.boards import RECLAMATION
    from companion.vision.observers.views import ViewStack

    stack = ViewStack(_Flat(), RECLAMATION, [0.0, 6.0], 30)
    x, y = cell_pixel(stack, 2, 3)
    centre = RECLAMATION.cell_centre(2, 3)
    assert abs(x - centre[0] * 2) <= 2 and abs(y - centre[1] * 2) <= 2

    class Observer:
        pass

    observer = Observer()
    observer.stack = stack
    empty = CellReading("empty", 0.99)
    cells = [[empty] * 6 for _ in range(6)]
    cells[2][3] = CellReading("stone", 0.95, {"height": 1})
    cells[4][0] = CellReading("stone", 0.5, {"height": 1})
    observation = Observation("reclamation", 6, 6, tuple(tuple(r) for r in cells))
    marks = marks_for({"reclamation": observation}, {"reclamation": observer})
    assert [(m.kind, m.label) for m in marks] == [("ok", "1"), ("warn", "1")]
    assert abs(marks[0].x - centre[0] * 2) <= 2


def test_camera_view_is_the_newest_frame_or_none():
    controls = LiveControls()
    assert controls.camera_view() is None

    class Session:
        last_frame = Frame(np.zeros((48, 64, 3), np.uint8), 1.0, "sim:reclamation", 3)
        last_observations = {}

    controls.attach(Session())
    view = controls.camera_view()
    assert view is not None and view.image.shape == (48, 64, 3) and view.marks == ()


@pytest.mark.slow
def test_the_twin_rendered_run_shows_its_newest_picture_with_marks_on_the_pieces(tmp_path):
    """A real run of the simulated table rendered by the twin and read by the observer."""
    controls = LiveControls(tmp_path)
    events: list = []
    stop, worker = _loop(tmp_path, controls, events, frames=True, max_scenes=40)
    try:
        assert _wait(lambda: any(isinstance(e, MoveAccepted) for e in events), 120)
        assert _wait(lambda: (v := controls.camera_view()) is not None and len(v.marks) >= 2, 60)
        view = controls.camera_view()
        height, width = view.image.shape[:2]
        assert all(0 <= m.x < width and 0 <= m.y < height for m in view.marks)
        assert {m.kind for m in view.marks} <= {"ok", "warn"}
    finally:
        controls.shutdown()
        stop.set()
        worker.join(60)


def _loop(tmp_path, controls, events, game="reclamation", max_scenes=None, frames=False):
    from companion.commands.run import referee_loop

    options = RunOptions(game=game, headless=True, fresh=True, speed=0.0, state_dir=tmp_path, frames=frames,
                         max_scenes=max_scenes)
    stop = threading.Event()
    import io

    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [events.append], stop),
                              kwargs={"out": io.StringIO()}, daemon=True)
    worker.start()
    return stop, worker


def _wait(condition, seconds: float = 60.0) -> bool:
    return wait_until(condition, seconds)


@pytest.mark.slow
def test_home_start_begins_a_new_game_with_the_players_names_and_the_old_one_stays_in_the_journal(tmp_path):
    from companion.referee.journal import Journal

    controls = LiveControls(tmp_path)
    events: list = []
    stop, worker = _loop(tmp_path, controls, events, max_scenes=30)
    assert _wait(lambda: any(isinstance(e, MoveAccepted) for e in events))
    controls.start_game(GameSetup("reclamation", ("Aiko", "陳美玲")))
    assert _wait(lambda: any(isinstance(e, (MoveAccepted, ViolationFound, ScoreChanged, TurnGuidance))
                             and _players(e) == ("Aiko", "陳美玲") for e in events))
    controls.shutdown()
    stop.set()
    worker.join(30)
    assert not worker.is_alive()
    journal = Journal(tmp_path / "demo-journal.sqlite")
    try:
        first, second = journal.load_game(1), journal.load_game(2)
        assert first.initial.players == ("Flower", "Vine") and len(first.moves) >= 1  # abandoned, kept
        assert second.initial.players == ("Aiko", "陳美玲")
        assert journal.export(1, tmp_path / "exports")[0].exists()  # and exportable
    finally:
        journal.close()
    assert not any(isinstance(e, GameOver) and e.sheet.players == ("Flower", "Vine") for e in events)


def _players(event):
    state = getattr(event, "state", None)
    if state is not None:
        return state.players
    sheet = getattr(event, "sheet", None)
    return sheet.players if sheet is not None else None


def test_run_add_names_puts_names_the_kiosk_cannot_type_on_the_list_to_tap(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    from companion.ui.names import NameBook

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), GPIOZERO_PIN_FACTORY="mock", PYTHONPATH=str(root))
    env.pop("DISPLAY", None)
    env.pop("COMPANION_CONFIG", None)
    done = subprocess.run([sys.executable, "-m", "companion", "run", "--headless", "--speed", "0", "--no-render",
                           "--game", "reclamation", "--max-scenes", "1", "--state-dir", str(tmp_path / "state"),
                           "--add-names", "陳美玲, 王小明"], capture_output=True, text=True, timeout=120, env=env, cwd=root)
    assert done.returncode == 0, done.stderr
    assert "names to tap on the touchscreen: 陳美玲, 王小明" in done.stdout
    assert NameBook(tmp_path / "state").names == ["陳美玲", "王小明"]


class _EndlessSource:
    """A camera that shows the same still table until closed."""

    name = "fake-usb"

    def __init__(self):
        self.index = 0
        self.closed = False

    def read(self):
        time.sleep(0.01)
        self.index += 1
        return Frame(np.full((60, 80, 3), 90, np.uint8), float(self.index), "opencv:0", self.index)

    def open(self):
        return self

    def close(self):
        self.closed = True


class _StillObserver:
    def observe(self, image, frame_index=0, timestamp=0.0, previous=None):
        empty = CellReading("empty", 0.9)
        return Observation("reclamation", 6, 6, tuple((empty,) * 6 for _ in range(6)), frame_index, timestamp)


@pytest.mark.slow
def test_the_run_loop_switches_to_a_camera_and_back_to_the_simulated_table(tmp_path):
    from companion.referee.frames import BoardReader

    source = _EndlessSource()
    reader = BoardReader("reclamation", tmp_path)
    reader.observers["reclamation"] = _StillObserver()
    controls = LiveControls(tmp_path)
    controls.open_camera = lambda name: (source, reader)
    events: list = []
    stop, worker = _loop(tmp_path, controls, events)
    try:
        assert _wait(lambda: any(isinstance(e, MoveAccepted) for e in events))
        assert controls.set_camera("opencv").done
        assert _wait(lambda: (v := controls.camera_view()) is not None and v.image.shape == (60, 80, 3))
        assert controls.game == "reclamation" and controls.device_status().camera == "opencv"
        first = controls.session.last_frame.index  # a still table: the motion gate passes no scenes,
        assert _wait(lambda: controls.session.last_frame.index > first + 3)  # yet the picture stays live
        assert controls.start_game(GameSetup("reclamation", ("Aiko", "陳美玲"))).done  # a new game on the camera
        assert _wait(lambda: controls.session is not None
                     and controls.session.tracker.state.players == ("Aiko", "陳美玲"))
        assert not source.closed or controls.camera == "opencv"
        assert controls.set_camera(SIM).done
        assert _wait(lambda: source.closed)  # the camera run ended and let go of the camera
        assert _wait(lambda: controls.session is not None and controls.camera_view() is None)  # demo again
    finally:
        controls.shutdown()
        stop.set()
        worker.join(30)


def test_camera_view_places_board_cells_for_a_one_region_game():
    from companion.vision.boards import RECLAMATION
    from companion.vision.observers.views import ViewStack

    stack = ViewStack(_Flat(), RECLAMATION, [0.0, 6.0], 30)

    class Observer:
        pass

    observer = Observer()
    observer.stack = stack
    empty = CellReading("empty", 0.99)
    observation = Observation("reclamation", 6, 6, tuple((empty,) * 6 for _ in range(6)))

    class Session:
        class tracker:  # noqa: N801
            game = "reclamation"

        last_frame = Frame(np.zeros((400, 400, 3), np.uint8), 1.0, "opencv:0", 1)
        last_observations = {"reclamation": observation}

    controls = LiveControls()
    controls.attach(Session())
    controls.observers = {"reclamation": observer}
    view = controls.camera_view()
    x, y = view.where(4, 1)
    centre = RECLAMATION.cell_centre(4, 1)
    assert abs(x - 2 * centre[0]) <= 2 and abs(y - 2 * centre[1]) <= 2
    assert view.where(9, 9) is None
    Session.tracker.game = "babylon"  # two regions: a board cell is not one place in one picture
    assert controls.camera_view().where is None
