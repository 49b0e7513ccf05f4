"""The board readers are built before READY=1 on every path, with systemd told (STATUS and
EXTEND_TIMEOUT_USEC) and the players shown a line; the refereeing loop kicks from READY on, and the
screen's idle loop between games keeps kicking. systemd is a unix datagram socket in tmp here; the
build is a stand-in that drops its own datagram, so the order on the socket is the order of events."""

from __future__ import annotations

import io
import socket
import threading
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.config import load_config
from companion.games.api import Message
from companion.i18n import translate
from companion.referee import camera_run
from companion.referee.console import Console
from companion.referee.events import SourceStatus
from companion.referee.live import RunOptions, run_demo
from companion.referee.startup import (
    PREPARING,
    PREPARING_STATUS,
    READER_SECONDS,
    READY_STATUS,
    Preparation,
)
from companion.watchdog import Watchdog, notify

from .test_camera_run import FixedObserver, FlakySource

REPO = Path(__file__).resolve().parents[2]
BUILDING = "TEST=the readers are being built"


@pytest.fixture
def systemd(tmp_path, monkeypatch):
    """A notify socket as systemd's, named in the environment, with a 2 µs watchdog (every loop
    pass kicks) for this process; returns a function giving the datagrams received so far."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    monkeypatch.setenv("WATCHDOG_USEC", "2")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    sock.setblocking(False)

    def received() -> list[str]:
        out = []
        while True:
            try:
                out.append(sock.recv(4096).decode())
            except BlockingIOError:
                return out

    yield received
    sock.close()


def building() -> None:
    """What a reader's build does here: tells the socket that it runs (between the announcements)."""
    notify(BUILDING)


def test_preparing_extends_the_start_timeout_and_says_what_runs(tmp_path):
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    try:
        assert Watchdog({"NOTIFY_SOCKET": str(path)}).preparing("preparing\nthe readers", 90.5)
        assert sock.recv(4096) == b"EXTEND_TIMEOUT_USEC=90500000\nSTATUS=preparing the readers"
    finally:
        sock.close()
    assert not Watchdog({}).preparing("outside systemd", 10)  # a quiet no-op


def test_simulated_table_builds_its_readers_before_ready_then_the_loop_kicks(systemd, tmp_path, monkeypatch):
    from companion.demo import twin

    def twin_reader(game, seed):
        building()
        raise NotImplementedError("a stand-in: the table is then read at the observation level")

    monkeypatch.setattr(twin, "TwinReader", twin_reader)
    events: list = []
    out = io.StringIO()
    options = RunOptions(game="reclamation", fresh=True, speed=0.0, state_dir=tmp_path, max_scenes=4)
    run_demo(options, load_config(), out, extra_sinks=[events.append])
    said = systemd()
    assert said[:3] == [f"EXTEND_TIMEOUT_USEC={int(READER_SECONDS * 1_000_000)}\n"
                        "STATUS=preparing the board readers (reclamation)",
                        BUILDING, "READY=1\nSTATUS=refereeing"]
    assert said[3:] and set(said[3:]) == {"WATCHDOG=1"}  # from the refereeing loop, after READY only
    statuses = [(e.status, e.detail) for e in events if isinstance(e, SourceStatus)]
    assert statuses[:2] == [(PREPARING_STATUS, Message.of(PREPARING)), (READY_STATUS, None)]
    assert isinstance(events[0], SourceStatus) and isinstance(events[1], SourceStatus)  # before the game's
    lines = out.getvalue().splitlines()
    prepared = lines.index("companion run: " + translate(PREPARING, None))
    assert prepared < next(i for i, line in enumerate(lines) if "observation level" in line)


def test_without_a_twin_for_the_game_nothing_is_announced(systemd, tmp_path):
    options = RunOptions(game="reclamation", fresh=True, speed=0.0, state_dir=tmp_path, max_scenes=2, frames=False)
    events: list = []
    run_demo(options, load_config(), io.StringIO(), extra_sinks=[events.append])
    said = systemd()
    assert said[0] == "READY=1\nSTATUS=refereeing"
    assert not any(isinstance(e, SourceStatus) and e.status == PREPARING_STATUS for e in events)


class BuildingReader(camera_run.BoardReader):
    """A board reader whose first read builds its observer (the real one compiles kernels then)."""

    def read(self, frame):
        if not self.observers:
            building()
            self.observers["reclamation"] = FixedObserver()
        return super().read(frame)


def test_camera_run_builds_the_readers_before_ready(systemd, tmp_path, monkeypatch, capsys):
    """`companion run --headless` with a camera: the whole command, a stand-in camera and reader."""
    from companion.referee import live

    monkeypatch.setattr(live, "find_camera", lambda config: (FlakySource([100] * 4), ""))
    monkeypatch.setattr(camera_run, "BoardReader", BuildingReader)
    args = build_parser().parse_args(["run", "--headless", "--game", "reclamation", "--new",
                                      "--state-dir", str(tmp_path)])
    config = load_config()
    config.values["general"]["language"] = "ja"
    assert args.handler(args, config) == 0
    said = systemd()
    assert said[:3] == [f"EXTEND_TIMEOUT_USEC={int(READER_SECONDS * 1_000_000)}\n"
                        "STATUS=preparing the board readers (reclamation)",
                        BUILDING, "READY=1\nSTATUS=refereeing"]
    assert set(said[3:]) <= {"WATCHDOG=1"}
    out = capsys.readouterr().out
    assert "companion run: " + translate(PREPARING, "ja") in out.splitlines()


class FailingReader(camera_run.BoardReader):
    def read(self, frame):
        raise ValueError("a bug in an observer's constructor")


def test_a_failed_build_still_ends_the_announcement(systemd, tmp_path, monkeypatch):
    monkeypatch.setattr(camera_run, "BoardReader", FailingReader)
    events: list = []
    preparing = Preparation("babylon", sinks=[events.append], dog=Watchdog())
    with pytest.raises(ValueError):
        camera_run.readable_regions(FlakySource([100]), "babylon", tmp_path, preparing)
    assert [e.status for e in events] == [PREPARING_STATUS, READY_STATUS]
    assert systemd()[0].startswith("EXTEND_TIMEOUT_USEC=")


def test_a_broken_sink_does_not_stop_the_start():
    def broken(event):
        raise RuntimeError("the screen is gone")

    seen: list = []
    preparing = Preparation("babylon", sinks=[broken, seen.append])
    preparing.begin()
    preparing.done()
    assert [e.status for e in seen] == [PREPARING_STATUS, READY_STATUS]


def test_the_console_and_the_lights_stay_quiet_about_preparing():
    from companion.feedback.controller import pattern_for

    out = io.StringIO()
    console = Console("ja", out=out, verbose=False)
    for status, detail in ((PREPARING_STATUS, Message.of(PREPARING)), (READY_STATUS, None)):
        event = SourceStatus("babylon", 0, status, detail)
        console(event)
        assert pattern_for(event) is None
    assert out.getvalue() == ""  # the run's own line says it once (no "camera: ready")


class IdleControls:
    """The screen's side between two games: no request for `quiet` polls, then a new game."""

    closing = False

    def __init__(self, quiet: int):
        self.quiet = quiet

    def pending(self):
        if self.quiet:
            self.quiet -= 1
            return []
        return ["new game"]


def test_the_screens_idle_loop_between_games_kicks_the_watchdog():
    from companion.commands.run import _requests_when_idle

    kicks = []
    assert _requests_when_idle(IdleControls(3), threading.Event(), lambda: kicks.append(1), poll=0) == ["new game"]
    assert len(kicks) == 4  # once per poll: a finished game waiting on the screen is not a hang
    stop = threading.Event()
    stop.set()
    assert _requests_when_idle(IdleControls(3), stop, lambda: kicks.append(1), poll=0) == [None]


def test_the_kiosk_units_kms_screen_counts_as_a_display():
    """Under systemd neither $DISPLAY nor $WAYLAND_DISPLAY is set: the unit draws with SDL on KMS."""
    from companion.commands.run import has_display

    unit = (REPO / "systemd" / "companion.service").read_text()
    assert "Environment=SDL_VIDEODRIVER=kmsdrm" in unit
    assert has_display({"SDL_VIDEODRIVER": "kmsdrm"})
    assert has_display({"DISPLAY": ":0"}) and has_display({"WAYLAND_DISPLAY": "wayland-0"})
    assert not has_display({}) and not has_display({"SDL_VIDEODRIVER": "dummy"})


def test_with_a_screen_the_camera_readers_are_built_under_the_screens_preparing_line(systemd, tmp_path, monkeypatch):
    """The kiosk's own path: the screen is up while the referee thread builds the camera's readers."""
    from companion.commands.run import referee_loop
    from companion.referee.controls import LiveControls

    monkeypatch.setattr(camera_run, "BoardReader", BuildingReader)
    controls = LiveControls(tmp_path)
    screen: list = []
    stop = threading.Event()
    options = RunOptions(game="reclamation", fresh=True, speed=0.0, state_dir=tmp_path, lang="zh_TW")
    worker = threading.Thread(target=referee_loop, args=(options, load_config(), controls, [screen.append], stop),
                              kwargs={"camera": (FlakySource([100] * 4), None), "out": io.StringIO()}, daemon=True)
    worker.start()
    try:
        said: list[str] = []
        for _ in range(400):
            said += systemd()
            if "READY=1\nSTATUS=refereeing" in said:
                break
            stop.wait(0.05)
    finally:
        controls.shutdown()
        stop.set()
        worker.join(30)
    assert said[:3] == [f"EXTEND_TIMEOUT_USEC={int(READER_SECONDS * 1_000_000)}\n"
                        "STATUS=preparing the board readers (reclamation)",
                        BUILDING, "READY=1\nSTATUS=refereeing"]
    first = screen[0]
    assert isinstance(first, SourceStatus) and first.status == PREPARING_STATUS
    assert first.detail.render("zh_TW") == translate(PREPARING, "zh_TW")
    assert screen[1].status == READY_STATUS
