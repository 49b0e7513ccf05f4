"""A camera chosen in Settings is opened and its board readers built off the UI thread: the screen
is answered at once, the old source keeps refereeing (and kicking the watchdog) until the new one is
ready, and a failure leaves the old source running and says why (LiveControls.set_camera)."""

from __future__ import annotations

import io
import threading

import pytest

from companion.config import load_config
from companion.errors import CompanionError
from companion.games.api import Message
from companion.referee import camera_run
from companion.referee.controls import SIM, SWITCH_SECONDS, LiveControls, RunRequest
from companion.referee.events import SourceStatus
from companion.referee.live import RunOptions
from companion.referee.startup import PREPARING, PREPARING_STATUS, READY_STATUS

from .helpers import wait_until
from .test_camera_run import FlakySource
from .test_startup import BUILDING, building, systemd  # noqa: F401  (systemd: a fixture)


class Opened:
    """What a slow open_camera hands back: a source that knows whether it was closed."""

    def __init__(self):
        self.closed = False

    def close(self):
        self.closed = True


class SlowCamera:
    """LiveControls.open_camera whose build waits for `gate` (the numba compile), then gives a
    source and reader, or raises `error`."""

    def __init__(self, error: BaseException | None = None):
        self.gate = threading.Event()
        self.started = threading.Event()
        self.error = error
        self.opened: list[Opened] = []
        self.threads: list[str] = []

    def __call__(self, name: str):
        self.threads.append(threading.current_thread().name)
        self.started.set()
        assert self.gate.wait(10), "the test never let the build finish"
        if self.error is not None:
            raise self.error
        opened = Opened()
        self.opened.append(opened)
        return opened, f"reader of {name}"


def _wait(condition, seconds: float = 10.0) -> bool:
    return wait_until(condition, seconds)


def _settled(controls: LiveControls) -> bool:
    switch = controls.device_status().switch
    return switch is not None and switch.done is not None


def test_the_switch_answers_at_once_and_the_old_source_runs_until_the_new_one_is_ready():
    controls = LiveControls()
    camera = controls.open_camera = SlowCamera()
    answer = controls.set_camera("opencv")  # returns while the build is still blocked
    assert answer.done and answer.message == Message.of("Switching to camera {source}…", source="opencv")
    assert camera.started.wait(5) and camera.threads != [threading.current_thread().name]
    switch = controls.device_status().switch
    assert switch is not None and (switch.source, switch.done) == ("opencv", None)
    assert controls.camera == SIM and controls.requests.empty() and not controls.run_stop.is_set()
    camera.gate.set()
    assert _wait(lambda: _settled(controls))
    switch = controls.device_status().switch
    assert switch.done is True and switch.message.render("en") == "Now using camera opencv."
    assert controls.camera == "opencv" and controls.run_stop.is_set()
    assert controls.requests.get_nowait() == RunRequest("camera", source=camera.opened[0], reader="reader of opencv")
    assert not camera.opened[0].closed


def test_a_camera_that_fails_is_said_on_the_screen_and_the_old_source_goes_on():
    controls = LiveControls()
    camera = controls.open_camera = SlowCamera(CompanionError("no /dev/video0", message=Message.of(
        "it gives no picture (check its cable, and that no other program is using it)")))
    assert controls.set_camera("opencv").done
    camera.gate.set()
    assert _wait(lambda: _settled(controls))
    switch = controls.device_status().switch
    assert switch.done is False
    assert switch.message.render("en") == ("Camera opencv could not be used: it gives no picture (check its cable, "
                                           "and that no other program is using it). Still using sim.")
    assert "Camera" not in switch.message.render("ja") and "opencv" in switch.message.render("ja")
    assert controls.camera == SIM and controls.requests.empty() and not controls.run_stop.is_set()
    camera.error, camera.gate = None, threading.Event()  # the players may try again
    assert controls.set_camera("opencv").done
    camera.gate.set()
    assert _wait(lambda: _settled(controls)) and controls.camera == "opencv"


def test_a_bug_in_the_build_is_a_failed_switch_not_a_switch_for_ever(caplog):
    controls = LiveControls()
    camera = controls.open_camera = SlowCamera(ValueError("a bug in an observer's constructor"))
    controls.set_camera("opencv")
    camera.gate.set()
    assert _wait(lambda: _settled(controls))
    switch = controls.device_status().switch
    assert switch.done is False and "something went wrong (ValueError" in switch.message.render("en")
    assert controls.camera == SIM and controls.requests.empty()
    assert "could not be prepared" in caplog.text  # the traceback is logged for whoever looks after it


def test_another_camera_while_one_is_being_prepared_is_refused():
    controls = LiveControls()
    camera = controls.open_camera = SlowCamera()
    controls.set_camera("opencv")
    refused = controls.set_camera("picamera2")
    assert not refused.done
    assert refused.message.render("en") == "Still switching to camera opencv: wait until it is ready."
    assert not controls.set_camera(SIM).done  # the simulated table too: one switch at a time
    camera.gate.set()
    assert _wait(lambda: _settled(controls))
    assert len(camera.threads) == 1 and controls.camera == "opencv"


def test_a_build_stuck_past_its_time_is_given_up_and_its_camera_closed_when_it_returns():
    controls = LiveControls()
    now = [100.0]
    controls.clock = lambda: now[0]
    camera = controls.open_camera = SlowCamera()
    controls.set_camera("opencv")
    assert camera.started.wait(5)
    now[0] += SWITCH_SECONDS - 1
    assert controls.device_status().switch.done is None
    now[0] += 2
    switch = controls.device_status().switch
    assert switch.done is False
    assert switch.message.render("en") == "Camera opencv took too long to get ready. Still using sim."
    camera.gate.set()  # the build comes back after all: too late, its camera is closed
    assert _wait(lambda: camera.opened and camera.opened[0].closed)
    assert controls.camera == SIM and controls.requests.empty() and controls.device_status().switch == switch


def test_closing_the_kiosk_during_a_build_closes_the_new_camera():
    controls = LiveControls()
    camera = controls.open_camera = SlowCamera()
    controls.set_camera("opencv")
    controls.shutdown()
    camera.gate.set()
    assert _wait(lambda: camera.opened and camera.opened[0].closed)
    assert controls.requests.empty()


class EmptyBoard:
    """The Reclamation board read empty (6 × 6): a stand-in observer the tracker can compare."""

    def observe(self, image, frame_index=0, timestamp=0.0, **_later):  # previous= (the history)
        from companion.vision.types import CellReading, Observation

        row = (CellReading("empty", 0.9),) * 6
        return Observation("reclamation", 6, 6, (row,) * 6, frame_index, timestamp)


class GatedReader(camera_run.BoardReader):
    """A board reader whose first read builds its observer, held at `GATE` (the compile)."""

    GATE = threading.Event()

    def read(self, frame):
        if not self.observers:
            building()
            assert self.GATE.wait(20), "the test never let the build finish"
            self.observers["reclamation"] = EmptyBoard()
        return super().read(frame)


class _Opened:
    def __init__(self, source):
        self.source = source


@pytest.mark.slow
def test_the_kiosk_referees_and_kicks_the_watchdog_while_the_new_cameras_readers_build(
        systemd, tmp_path, monkeypatch):  # noqa: F811
    """The whole path: the referee thread plays the simulated table; Settings asks for a camera
    whose readers take as long as the test holds them; systemd and the screen hear about it."""
    from companion.commands.run import referee_loop, switching_camera

    GatedReader.GATE = threading.Event()
    monkeypatch.setattr(camera_run, "BoardReader", GatedReader)
    monkeypatch.setattr("companion.vision.sources.open_source", lambda choice: _Opened(FlakySource([100] * 6)))
    controls = LiveControls(tmp_path)
    screen: list = []
    stop = threading.Event()
    options = RunOptions(game="reclamation", fresh=True, speed=0.01, state_dir=tmp_path, frames=False, lang="ja")
    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [screen.append], stop),
                              kwargs={"out": io.StringIO()}, daemon=True)
    worker.start()
    said: list[str] = []

    def heard(text):
        said.extend(systemd())
        return text in said

    try:
        assert _wait(lambda: heard("READY=1\nSTATUS=refereeing"), 30)
        controls.open_camera = switching_camera(load_config(), options, controls, [screen.append])
        assert controls.set_camera("opencv").done
        assert _wait(lambda: heard(BUILDING))
        building_at = said.index(BUILDING)
        assert said[building_at - 1] == "STATUS=preparing the board readers (reclamation)"  # no start timeout now
        assert _wait(lambda: heard("") or said[building_at + 1:].count("WATCHDOG=1") >= 5)  # the old source kicks
        assert controls.camera == SIM and controls.device_status().switch.done is None
        preparing = [e for e in screen if isinstance(e, SourceStatus) and e.status == PREPARING_STATUS]
        assert [e.detail for e in preparing] == [Message.of(PREPARING)]
        GatedReader.GATE.set()
        assert _wait(lambda: heard("STATUS=refereeing"))
        assert _wait(lambda: getattr(getattr(controls.session, "last_frame", None), "source", "") == "flaky", 30)
        assert controls.camera == "opencv" and controls.device_status().switch.done is True
        assert [e.status for e in screen if isinstance(e, SourceStatus) and e.status in (
            PREPARING_STATUS, READY_STATUS)] == [PREPARING_STATUS, READY_STATUS]
    finally:
        GatedReader.GATE.set()
        controls.shutdown()
        stop.set()
        worker.join(30)


# --- back to the simulated table: its twin's readers are built the same way ---------------------------------

class SlowTable:
    """LiveControls.open_simulated whose twin build waits for `gate`."""

    def __init__(self, error: BaseException | None = None):
        self.gate = threading.Event()
        self.error = error
        self.reader = object()

    def __call__(self):
        assert self.gate.wait(10), "the test never let the build finish"
        if self.error is not None:
            raise self.error
        return self.reader


def test_back_to_the_simulated_table_its_readers_are_built_while_the_camera_runs():
    controls = LiveControls()
    controls.camera = "opencv"
    table = controls.open_simulated = SlowTable()
    answer = controls.set_camera(SIM)
    assert answer.done and answer.message.render("en") == "Switching to the simulated table."
    assert controls.camera == "opencv" and controls.requests.empty() and not controls.run_stop.is_set()
    table.gate.set()
    assert _wait(lambda: _settled(controls))
    assert controls.device_status().switch.message.render("en") == "Now using the simulated table."
    assert controls.camera == SIM and controls.requests.get_nowait() == RunRequest("camera", reader=table.reader)


def test_a_twin_that_cannot_be_built_leaves_the_camera_running():
    controls = LiveControls()
    controls.camera = "opencv"
    table = controls.open_simulated = SlowTable(ValueError("a bug in the twin"))
    controls.set_camera(SIM)
    table.gate.set()
    assert _wait(lambda: _settled(controls))
    assert controls.device_status().switch.done is False and controls.camera == "opencv"
    assert controls.requests.empty()


def test_the_switch_builds_the_twin_for_the_game_told_as_at_start_up(systemd, tmp_path, monkeypatch):  # noqa: F811
    from companion.commands.run import switching_to_simulated
    from companion.demo import twin

    built = []

    def twin_reader(game, seed):
        building()
        built.append((game, seed))
        return f"twin reader of {game}"

    monkeypatch.setattr(twin, "TwinReader", twin_reader)
    controls, screen = LiveControls(tmp_path), []
    options = RunOptions(game="reclamation", seed=7, state_dir=tmp_path)
    assert switching_to_simulated(options, controls, [screen.append])() == "twin reader of reclamation"
    assert built == [("reclamation", 7)]
    assert systemd() == ["STATUS=preparing the board readers (reclamation)", BUILDING, "STATUS=refereeing"]
    assert [e.status for e in screen] == [PREPARING_STATUS, READY_STATUS]
    from dataclasses import replace

    assert switching_to_simulated(replace(options, frames=False), controls, [])() is None  # nothing to build
    assert switching_to_simulated(replace(options, game="babel"), controls, [])() is None  # no twin: said later


def test_the_run_uses_the_twin_reader_built_for_its_game(monkeypatch):
    from companion.demo import twin
    from companion.referee import live

    calls = []
    monkeypatch.setattr(twin, "TwinReader", lambda game, seed: calls.append(game) or _Twin(game))
    monkeypatch.setattr(twin, "rendered", lambda scenes, reader, script, hands: ("rendered by", reader))
    said: list = []
    prebuilt = _Twin("reclamation")
    assert live._twin_frames("reclamation", [], None, 1, said.append, [], built=prebuilt) == ("rendered by", prebuilt)
    assert calls == []
    _, reader = live._twin_frames("babylon", [], None, 1, said.append, [], built=prebuilt)  # another game's
    assert calls == ["babylon"] and reader.game == "babylon"


class _Twin:
    def __init__(self, game):
        self.game = game
