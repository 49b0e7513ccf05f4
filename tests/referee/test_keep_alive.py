"""The simulated table builds its twin's readers at the start of every game, in the refereeing
thread: after READY=1 nothing else kicks meanwhile, so a KeepAlive kicks for the build (bounded, so
a build stuck for longer is still caught by the watchdog)."""

from __future__ import annotations

import io
import threading
import time

from companion.config import load_config
from companion.referee.controls import LiveControls
from companion.referee.interface import GameSetup
from companion.referee.live import RunOptions
from companion.referee.startup import KeepAlive, Preparation

from .helpers import wait_until
from .test_startup import BUILDING, building, systemd  # noqa: F401  (systemd: a fixture)


class Dog:
    """A watchdog whose every kick counts (period: as systemd's half interval)."""

    def __init__(self, period=0.01):
        self.period = period
        self.kicks = 0
        self.statuses: list[str] = []

    def kick(self):
        self.kicks += 1
        return True

    def status(self, text):
        self.statuses.append(text)

    def preparing(self, text, seconds):
        raise AssertionError("after READY=1 the start timeout is not extended")


def _wait(condition, seconds: float = 10.0) -> bool:
    return wait_until(condition, seconds)


def test_the_keep_alive_kicks_until_stopped():
    dog = Dog()
    alive = KeepAlive(dog, seconds=60).start()
    assert _wait(lambda: dog.kicks >= 3)
    alive.stop()
    kicks = dog.kicks
    time.sleep(0.05)
    assert dog.kicks == kicks


def test_the_keep_alive_gives_up_after_its_time_so_a_stuck_build_is_still_caught(caplog):
    dog = Dog()
    now = [0.0]
    alive = KeepAlive(dog, seconds=300, clock=lambda: now[0]).start()
    assert _wait(lambda: dog.kicks >= 2)
    now[0] = 301.0
    assert _wait(lambda: not alive._thread.is_alive())
    kicks = dog.kicks
    time.sleep(0.05)
    assert dog.kicks == kicks and "no more watchdog kicks" in caplog.text
    alive.stop()


def test_without_a_watchdog_there_is_no_thread():
    assert KeepAlive(Dog(period=None)).start()._thread is None


def test_a_preparation_in_the_refereeing_thread_after_ready_keeps_the_watchdog_fed():
    dog, seen = Dog(), []
    preparing = Preparation("babylon", sinks=[seen.append], dog=dog, running=True, keep_alive=True)
    preparing.begin()
    assert _wait(lambda: dog.kicks >= 2)
    preparing.done()
    kicks = dog.kicks
    time.sleep(0.05)
    assert dog.kicks == kicks
    assert dog.statuses == ["preparing the board readers (babylon)", "refereeing"]
    assert not Preparation("babylon", dog=Dog(), keep_alive=True).keep_alive  # before READY: never


def test_the_screens_second_game_builds_its_twin_readers_with_the_watchdog_fed(systemd, tmp_path, monkeypatch):  # noqa: F811
    """The whole loop: the first game's readers before READY=1 (no kicks there), the second game's,
    asked for from the home screen, after it: kicked while they build, the start timeout untouched."""
    from companion.commands.run import referee_loop
    from companion.demo import twin

    gate, calls = threading.Event(), []

    def twin_reader(game, seed):
        calls.append(game)
        building()
        if len(calls) > 1:
            assert gate.wait(20), "the test never let the second build finish"
        raise NotImplementedError("a stand-in: the table is then read at the observation level")

    monkeypatch.setattr(twin, "TwinReader", twin_reader)
    controls = LiveControls(tmp_path)
    stop = threading.Event()
    options = RunOptions(game="reclamation", fresh=True, speed=0.01, state_dir=tmp_path)
    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [], stop),
                              kwargs={"out": io.StringIO()}, daemon=True)
    said: list[str] = []

    def heard():
        said.extend(systemd())
        return said

    worker.start()
    try:
        assert _wait(lambda: "READY=1\nSTATUS=refereeing" in heard(), 30)
        first = said.index(BUILDING)
        assert said[first - 1].startswith("EXTEND_TIMEOUT_USEC=") and "WATCHDOG=1" not in said[:first]
        assert controls.start_game(GameSetup("reclamation", ("Aiko", "Ben"))).done
        assert _wait(lambda: heard().count(BUILDING) == 2, 30)
        second = len(said) - 1 - said[::-1].index(BUILDING)
        told = [m for m in said[first + 1:second] if not m.startswith("WATCHDOG")]  # the keep-alive may be first
        assert told[-1] == "STATUS=preparing the board readers (reclamation)" and "EXTEND_TIMEOUT" not in "".join(told)
        assert _wait(lambda: heard()[second + 1:].count("WATCHDOG=1") >= 5)  # the keep-alive, during the build
        gate.set()
        assert _wait(lambda: "STATUS=refereeing" in heard()[second + 1:])
    finally:
        gate.set()
        controls.shutdown()
        stop.set()
        worker.join(30)


# --- a new game of another game on the camera -----------------------------------------------------------------

class EndlessSource:
    """A camera that keeps giving the same picture (the run ends when the screen asks)."""

    name = "endless"

    def __init__(self):
        self.index = 0

    def read(self):
        import numpy as np

        from companion.vision.types import Frame

        time.sleep(0.005)
        self.index += 1
        return Frame(np.full((120, 160, 3), 100, np.uint8), float(self.index), "endless", self.index)

    def open(self):
        return self

    def close(self):
        pass


class EmptyRegion:
    def __init__(self, region):
        from companion.vision.boards import REGIONS

        self.region, board = region, REGIONS[region]
        self.rows, self.cols = board.rows, board.cols

    def observe(self, image, frame_index=0, timestamp=0.0, **_history):
        from companion.vision.types import CellReading, Observation

        row = (CellReading("empty", 0.9),) * self.cols
        return Observation(self.region, self.rows, self.cols, (row,) * self.rows, frame_index, timestamp)


def test_a_new_game_of_another_game_on_the_camera_reads_that_games_boards(systemd, tmp_path, monkeypatch):  # noqa: F811
    """The camera's readers were the old game's boards'; the new game's are built in the refereeing
    thread with the screen and systemd told and the watchdog fed, and the camera goes on."""
    from companion.commands.run import referee_loop
    from companion.referee import camera_run
    from companion.referee.frames import regions_of_game

    gate, built = threading.Event(), []

    class Reader(camera_run.BoardReader):
        def read(self, frame):
            if not self.observers:
                building()
                built.append(self.game)
                if len(built) > 1:
                    assert gate.wait(20), "the test never let the second build finish"
                self.observers.update({r: EmptyRegion(r) for r in regions_of_game(self.game)})
            return super().read(frame)

    monkeypatch.setattr(camera_run, "BoardReader", Reader)
    controls, screen = LiveControls(tmp_path), []
    stop = threading.Event()
    options = RunOptions(game="reclamation", fresh=True, state_dir=tmp_path)
    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [screen.append], stop),
                              kwargs={"camera": (EndlessSource(), None), "out": io.StringIO()}, daemon=True)
    said: list[str] = []

    def heard():
        said.extend(systemd())
        return said

    worker.start()
    try:
        assert _wait(lambda: "READY=1\nSTATUS=refereeing" in heard(), 30)
        assert controls.camera == "endless" and built == ["reclamation"]
        assert controls.start_game(GameSetup("babylon", ("Aiko", "Ben"))).done
        first = said.index(BUILDING)
        assert _wait(lambda: heard().count(BUILDING) == 2, 30)
        second = len(said) - 1 - said[::-1].index(BUILDING)
        told = [m for m in said[first + 1:second] if not m.startswith("WATCHDOG")]  # the keep-alive may be first
        assert told[-1] == "STATUS=preparing the board readers (babylon)" and "EXTEND_TIMEOUT" not in "".join(told)
        assert _wait(lambda: heard()[second + 1:].count("WATCHDOG=1") >= 5)  # fed while the readers build
        gate.set()
        # heard() drains the notify socket while waiting: with WATCHDOG_USEC=2 the keep-alive floods it,
        # and a full socket blocks the referee thread's next notification until the test reads it
        assert _wait(lambda: bool(heard()) and controls.game == "babylon", 30)
        assert built == ["reclamation", "babylon"] and controls.camera == "endless"
        assert set(controls.observers) == set(regions_of_game("babylon"))
    finally:
        gate.set()
        controls.shutdown()
        stop.set()
        worker.join(30)
