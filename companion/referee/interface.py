"""The two seams between the referee and the screen (they live here, with the referee, because the
screen depends on the referee and never the other way round: ui → referee).

- `EventFeed`: a thread-safe queue the referee pushes its events into; the app drains it on the Kivy
  clock (never from the referee's thread, because Kivy widgets must only be touched on the UI thread).
- `RefereeControls`: what the screen may ask of the referee (start a game, answer a ruling, undo,
  calibrate, change sound or camera). The referee implements it; `companion.ui.fake` has a fake.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..games.api import Message, Move
from .events import Event


class EventFeed:
    """Events from the referee, in order, handed to the UI thread in small batches."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Event] = queue.SimpleQueue()

    def push(self, event: Event) -> None:
        """Called from any thread (the referee's)."""
        self._queue.put(event)

    def drain(self, limit: int = 50) -> list[Event]:
        """Up to `limit` waiting events, oldest first; never blocks (a frame must not stall)."""
        events: list[Event] = []
        while len(events) < limit:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return events


@dataclass(frozen=True)
class GameSetup:
    """What the home screen collected: the game, the players in seat order and the options."""

    game: str
    players: tuple[str, ...]
    variant: str = "standard"
    options: tuple[tuple[str, Any], ...] = ()
    flowers: tuple[str, ...] = ()  # Babylon: each seat's flower, in seat order


@dataclass(frozen=True)
class Answer:
    """What a request to the referee did at once: whether it goes ahead, and what to tell the
    players (e.g. why a game cannot start here, or that a recording has other seats)."""

    done: bool
    message: Message | None = None


@dataclass(frozen=True)
class Mark:
    """One thing drawn over a camera image, in image pixel coordinates (origin top-left)."""

    x: float
    y: float
    label: str = ""
    kind: str = "ok"  # "ok" (green), "warn" (amber), "bad" (red), "info" (blue)
    radius: float = 14.0


@dataclass(frozen=True)
class CameraView:
    """The newest camera image (BGR uint8 array, HxWx3) and what to draw over it."""

    image: Any  # numpy.ndarray; typed loosely so this module stays importable without numpy
    marks: tuple[Mark, ...] = ()
    # Where a cell (row, col) of the game's board falls in the image, when the picture shows the one
    # region of a one-region game (so the ruling screen can mark the offending cells); else None.
    where: Callable[[int, int], tuple[float, float] | None] | None = None


def crop_to_marks(view: CameraView, kind: str = "bad", margin: float = 40.0) -> CameraView | None:
    """The part of a camera image around its marks of one kind (the offending spot of a ruling),
    with those marks moved into the crop; None when the image has no such mark."""
    marks = [m for m in view.marks if m.kind == kind]
    if not marks:
        return None
    height, width = view.image.shape[:2]
    left = max(0, int(min(m.x - m.radius for m in marks) - margin))
    top = max(0, int(min(m.y - m.radius for m in marks) - margin))
    right = min(width, int(max(m.x + m.radius for m in marks) + margin) + 1)
    bottom = min(height, int(max(m.y + m.radius for m in marks) + margin) + 1)
    moved = tuple(Mark(m.x - left, m.y - top, m.label, m.kind, m.radius) for m in marks)
    return CameraView(view.image[top:bottom, left:right].copy(), moved)


def mark_cells(view: CameraView, cells, label: str = "!") -> CameraView:
    """The view with a "bad" mark on each board cell (row, col) it can place (see CameraView.where)."""
    if view.where is None:
        return view
    points = [p for cell in cells if (p := view.where(*cell)) is not None]
    extra = tuple(Mark(x, y, label, "bad", 26.0) for x, y in points)
    return CameraView(view.image, view.marks + extra, view.where)


@dataclass(frozen=True)
class CalibrationProgress:
    """Where the calibration capture stands: how far, what it sees, and a plain verdict at the end."""

    fraction: float  # 0.0 .. 1.0
    view: CameraView | None = None
    step: Message | None = None  # what to do now ("Tilt the sheet a little to the left")
    verdict: Message | None = None  # what was made of the last frame; at the end, the outcome
    ok: bool | None = None  # None while running; True/False once the capture is over


@dataclass(frozen=True)
class CameraSwitch:
    """A camera chosen in Settings: it is opened and its board readers built in the background (a
    cold build compiles for half a minute or more) while the current source keeps running."""

    source: str
    done: bool | None = None  # None while under way; True once the new source runs; False: it failed
    message: Message | None = None  # what to tell the players now (why it failed, the old source kept)


@dataclass(frozen=True)
class DeviceStatus:
    """For the settings screen's diagnostics: what the device sees and uses."""

    camera: str = "none"
    cameras: tuple[str, ...] = ("auto", "picamera2", "opencv", "files", "sim")
    calibrated: bool = False
    calibration_detail: Message | None = None
    lens_measured: bool = False  # the camera's intrinsics are stored (`companion calibrate camera`)
    pins: tuple[tuple[str, int], ...] = ()  # (role, BCM pin)
    volume: float = 1.0
    sound: bool = True
    version: str = ""
    extra: tuple[tuple[str, str], ...] = field(default_factory=tuple)  # (name, value) diagnostics
    switch: CameraSwitch | None = None  # the last camera switch asked for (under way, or how it ended)


@runtime_checkable
class RefereeControls(Protocol):
    """What the touchscreen asks of the referee. Answers arrive later as events on the feed."""

    def start_game(self, setup: GameSetup) -> Answer:
        """Begin a new game (the referee emits TurnGuidance/ScoreChanged for the opening state).
        A game under way ends (it stays in the journal); when the new one cannot start, the
        running game goes on and the answer says why."""

    def accept_correction(self) -> None:
        """After a ViolationFound: the players agree and will put the pieces back."""

    def override(self) -> None:
        """After a ViolationFound: the players overrule the referee; the move stands."""

    def correct(self, move: Move) -> None:
        """The camera misread the table: this move is what really happened."""

    def choose(self, index: int) -> None:
        """After an AskPlayer: the candidate the players picked (index into its candidates)."""

    def undo(self) -> None:
        """Take back the last confirmed move."""

    def end_game(self) -> None:
        """The players stop now: score the game as it stands."""

    def play(self, move: Move) -> None:
        """A move the players declare on the screen (one the camera cannot see, or a hint's
        suggested move they made): the referee checks it like any other and answers with events."""

    def camera_view(self) -> CameraView | None:
        """The newest image with overlays for the live view, or None when there is no camera."""

    def start_calibration(self) -> None:
        """The wizard begins: the referee pauses (the calibration layout is not the game)."""

    def calibration_progress(self) -> CalibrationProgress:
        """How far the capture is; once `ok` is set it is over and the referee goes on."""

    def stop_calibration(self) -> None:
        """The wizard was left before its end: the referee goes on."""

    def device_status(self) -> DeviceStatus: ...

    def set_sound(self, enabled: bool, volume: float) -> None: ...

    def set_camera(self, source: str) -> Answer:
        """Switch sources at run time. Answers at once: refused (the answer says why), or under way
        (DeviceStatus.switch then says how it goes: the new source is opened and its readers built
        while the old one keeps running; on failure the old source stays and says why)."""

    def save_editor_data(self, kind: str, data: dict[str, Any]) -> Message:
        """Store an edited card pattern, blueprint or tile ("reclamation.card", "babel.blueprint",
        "babylon.tile"); returns what to tell the player: a msgid starting "Saved" when stored,
        else what is wrong (the player's file is then left as it was)."""
