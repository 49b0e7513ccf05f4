"""The referee's main loop: scenes in, events out, player commands in between.

A `Scene` is what the vision side hands over each time the table settles or stirs: a still scene
with one Observation per region, "busy" (a hand, motion), "lost" (no frames) or "ok" (frames again).
The session owns the tracker and runs on one thread; the touchscreen and the buttons call the
`RefereeControls` methods from any thread, which only queue commands for the loop. Every event goes
to every sink (feedback, UI feed, terminal) in order, after the journal has it.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.api import Message, Move
from ..i18n import N_
from ..vision.types import Frame, Observation
from .events import Event, GameOver, SaveFailed, SourceStatus
from .journal import JournalWriteError
from .tracker import Tracker

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Scene:
    kind: str  # "still", "busy", "lost", "ok", or "player" (a scripted player command, demo only)
    observations: Mapping[str, Observation] = field(default_factory=dict)
    frame: Frame | None = None
    time: float = 0.0  # when the scene became what it is (monotonic seconds)
    command: tuple[str, Any] | None = None  # for "player": ("undo", None), ("choose", 0), ...
    note: str | Message = ""  # what the demo script is doing, for the progress line (in its language)


@dataclass
class SessionStats:
    scenes: int = 0
    still: int = 0
    busy: int = 0
    lost: int = 0
    latencies: list[float] = field(default_factory=list)  # still scene -> its first ruling event
    events: dict[str, int] = field(default_factory=dict)


class RefereeSession:
    """Runs a tracker over a stream of scenes; thread-safe controls for the UI and buttons."""

    def __init__(self, tracker: Tracker, sinks: Iterable[Callable[[Event], None]] = (),
                 kick: Callable[[], Any] | None = None, clock: Callable[[], float] = time.monotonic):
        self.tracker = tracker
        self.sinks = list(sinks)
        self.kick = kick or (lambda: None)
        self.clock = clock
        self.commands: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self.stats = SessionStats()
        self.source_state = "ok"
        self.ended = False
        self.last_frame: Frame | None = None  # the newest picture, for the screen's camera view
        self.last_observations: Mapping[str, Observation] = {}  # what was read in the newest still
        tracker.sinks.append(self._fan_out)

    def _fan_out(self, event: Event) -> None:
        name = type(event).__name__
        self.stats.events[name] = self.stats.events.get(name, 0) + 1
        for sink in self.sinks:
            try:
                sink(event)
            except Exception:  # a broken LED or screen must never stop the referee
                log.exception("event sink %r failed on %s", sink, name)

    def emit(self, event: Event) -> None:
        self._fan_out(event)

    # --- the loop -------------------------------------------------------------------------------

    def handle(self, scene: Scene) -> list[Event]:
        self.kick()
        self.stats.scenes += 1
        events: list[Event] = self._run_commands()
        tracker = self.tracker
        if scene.frame is not None:
            self.last_frame = scene.frame
            if scene.kind == "still":
                self.last_observations = scene.observations
        if scene.kind == "player" and scene.command is not None:
            self.commands.put(scene.command)
            return events + self._run_commands()
        if scene.kind in ("lost", "ok", "busy", "retrying"):
            if scene.kind == "busy":
                self.stats.busy += 1
            if scene.kind == "lost":
                self.stats.lost += 1
            if scene.kind != self.source_state:
                self.source_state = scene.kind
                detail = _SOURCE_TEXT.get(scene.kind)
                event = SourceStatus(tracker.game, len(tracker.moves), scene.kind, detail)
                self._fan_out(event)
                events.append(event)
            return events
        if self.source_state != "still":
            self.source_state = "still"
        self.stats.still += 1
        started = self.clock()
        try:
            new = tracker.observe(scene.observations)
        except JournalWriteError as exc:
            return events + self._save_failed(exc)
        if new:
            self.stats.latencies.append(self.clock() - started + max(0.0, started - scene.time if scene.time else 0.0))
        return events + new

    def run(self, scenes: Iterable[Scene], should_stop: Callable[[], bool] = lambda: False) -> SessionStats:
        for scene in scenes:
            self.handle(scene)
            if should_stop() or self.ended or self.tracker.state.is_over:
                break
        self._run_commands()
        return self.stats

    def run_pending(self) -> list[Event]:
        """Carry out the queued player commands now (the loop does so before each scene)."""
        return self._run_commands()

    def _run_commands(self) -> list[Event]:
        events: list[Event] = []
        while True:
            try:
                name, arg = self.commands.get_nowait()
            except queue.Empty:
                return events
            try:
                events += self._command(name, arg)
            except JournalWriteError as exc:  # the command was not carried out: the player may retry
                events += self._save_failed(exc)

    def _save_failed(self, exc: JournalWriteError) -> list[Event]:
        log.error("%s", exc)
        event = SaveFailed(self.tracker.game, len(self.tracker.moves), exc.message)
        self._fan_out(event)
        return [event]

    def _command(self, name: str, arg: Any) -> list[Event]:
        tracker = self.tracker
        if name == "undo":
            return tracker.undo()
        if name == "play":  # arg: a Move, or (moves confirmed so far, Move)
            if isinstance(arg, tuple):
                return tracker.play(arg[1], expected_moves=arg[0])
            return tracker.play(arg)
        if name == "choose":
            return tracker.confirm(int(arg))
        if name == "correct":
            return tracker.correct(arg)
        if name == "accept_correction":
            return tracker.accept_correction()
        if name == "override":
            return tracker.overrule()
        if name == "end_game":
            self.ended = True
            return tracker.end_game()
        if name == "pause":
            return tracker.pause_rulings()
        if name == "resume":
            return tracker.resume_rulings()
        log.warning("unknown referee command %r", name)
        return []

    # --- RefereeControls (any thread): queue a command for the loop ---------------------------

    def undo(self) -> None:
        self.commands.put(("undo", None))

    def choose(self, index: int) -> None:
        self.commands.put(("choose", index))

    def correct(self, move: Move) -> None:
        self.commands.put(("correct", move))

    def accept_correction(self) -> None:
        self.commands.put(("accept_correction", None))

    def override(self) -> None:
        self.commands.put(("override", None))

    def end_game(self) -> None:
        self.commands.put(("end_game", None))

    def play(self, move: Move) -> None:
        """A move the camera cannot see, declared by a player (an "end turn" button)."""
        self.commands.put(("play", move))

    def pause(self) -> None:
        """Stop refereeing while the table shows something else (the calibration wizard's layout);
        the game stays as confirmed. Idempotent."""
        self.commands.put(("pause", None))

    def resume(self) -> None:
        """Referee again after `pause`, from the first look that shows the game as it was."""
        self.commands.put(("resume", None))

    @property
    def finished(self) -> bool:
        return self.ended or self.tracker.state.is_over

    def last_game_over(self) -> GameOver | None:
        return None


_SOURCE_TEXT = {
    "lost": Message.of(N_("The camera stopped sending pictures; retrying")),
    "ok": Message.of(N_("The camera is back")),
    "busy": Message.of(N_("Hands on the table: waiting for the scene to settle")),
    "retrying": Message.of(N_("Looking for the camera again")),
}
