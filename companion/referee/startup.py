"""The board readers are built before READY=1, with systemd and the players told so.

The hard observers (garden, Baubylon) compile their numba kernels when they are built: 0.25-1 s each
on a warm cache, 5.6-8.9 s of CPU each on a cold one on x86 and several times that on a Pi. The cache
is cold after an update without `make install`, or when it was wiped. The simulated table used to
build its readers *after* READY=1, in the refereeing thread, before its first kick: 32 s with no
WATCHDOG=1 on a cold cache here, against WatchdogSec=30.

So every path builds its readers first, as part of the start-up:
- systemd hears STATUS=preparing the board readers (<game>) with EXTEND_TIMEOUT_USEC for the step,
  so TimeoutStartSec= does not kill a slow Pi, while a build stuck for longer still fails the start;
- the players read a translated line on the console and on the screen (a SourceStatus "preparing",
  replaced by "ready" once the readers are built);
- READY=1 follows when the refereeing loop begins, and only that loop kicks the watchdog.
Kicking from a timer thread while compiling was the other choice; it would also keep a hung build
alive for ever, which is exactly what the watchdog is there to catch.

A camera chosen in Settings later on (controls.LiveControls.set_camera) has its readers built the
same way but after READY=1, in a thread of its own while the current source keeps refereeing (and
kicking): systemd hears only STATUS then (`running=True`), set back to "refereeing" when it is over.

The simulated table builds its twin's readers at the start of every game, in the refereeing thread:
after READY=1 (the screen's second game, or the table chosen again in Settings) nothing else kicks
meanwhile, and a cold build outlasts WatchdogSec=30. There (`keep_alive=True`) a KeepAlive thread
kicks for the build, for READER_SECONDS at most: a build stuck for longer is still caught.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..games.api import Message
from ..i18n import N_
from .events import Event, SourceStatus

log = logging.getLogger(__name__)

# One game's readers on a cold cache, with room for a slow Pi (~60 s expected there); longer is stuck.
READER_SECONDS = 300.0
PREPARING = N_("Preparing the board readers… (the first start after an update can take a minute or two)")
RUNNING_STATUS = "refereeing"  # systemd's STATUS= from READY=1 on
PREPARING_STATUS = "preparing"  # SourceStatus.status while the readers are built
READY_STATUS = "ready"  # ... and once they are (no line on the console or the screen)


def watchdog(skipped: list[Any] | None = None) -> Any:
    """The service manager's Watchdog, or None on a build without companion.watchdog."""
    try:
        from ..watchdog import Watchdog
    except ImportError:
        if skipped is not None:
            skipped.append(Message.of(N_("watchdog: {module} is not on this build"), module="companion.watchdog"))
        return None
    return Watchdog()


class KeepAlive:
    """Kicks `dog` from a thread of its own while a build runs in the refereeing thread after
    READY=1, for `seconds` at most (then it stops, and the watchdog catches a build stuck that long)."""

    def __init__(self, dog: Any, seconds: float = READER_SECONDS, clock: Callable[[], float] = time.monotonic):
        self.dog = dog
        self.seconds = seconds
        self.clock = clock
        self.kicks = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> KeepAlive:
        period = getattr(self.dog, "period", None)
        if period:  # no watchdog for this process: nothing to keep alive
            self._thread = threading.Thread(target=self._run, args=(period,), name="build keep-alive", daemon=True)
            self._thread.start()
        return self

    def _run(self, period: float) -> None:
        end = self.clock() + self.seconds
        while self.clock() < end:
            if self.dog.kick():
                self.kicks += 1
            if self._stop.wait(min(period, 1.0)):
                return
        log.warning("board readers still building after %.0f s: no more watchdog kicks", self.seconds)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)


class Preparation:
    """Says that the board readers of `game` are being built: to systemd (before READY=1), on the
    run's own line (`say`, a Message) and to the event sinks (the screen, the LEDs). `running`: after
    READY=1, when systemd's start timeout no longer applies: STATUS only. `keep_alive` (with
    running): the build runs in the refereeing thread, which cannot kick meanwhile (KeepAlive)."""

    def __init__(self, game: str, say: Callable[[Message], None] | None = None,
                 sinks: Iterable[Callable[[Event], None]] = (), dog: Any = None, move_number: int = 0,
                 running: bool = False, keep_alive: bool = False):
        self.game = game
        self.say = say
        self.sinks = list(sinks)
        self.dog = dog
        self.move_number = move_number
        self.running = running
        self.keep_alive = keep_alive and running
        self._alive: KeepAlive | None = None

    def begin(self, seconds: float = READER_SECONDS) -> None:
        if self.dog is not None:
            status = f"preparing the board readers ({self.game})"
            if self.running:
                self.dog.status(status)
            else:
                self.dog.preparing(status, seconds)
            if self.keep_alive:
                self._alive = KeepAlive(self.dog, seconds).start()
        message = Message.of(PREPARING)
        if self.say is not None:
            self.say(message)
        self._tell(SourceStatus(self.game, self.move_number, PREPARING_STATUS, message))

    def done(self) -> None:
        if self._alive is not None:
            self._alive.stop()
            self._alive = None
        if self.running and self.dog is not None:
            self.dog.status(RUNNING_STATUS)
        self._tell(SourceStatus(self.game, self.move_number, READY_STATUS))

    def _tell(self, event: Event) -> None:
        for sink in self.sinks:
            try:
                sink(event)
            except Exception:  # a broken screen or LED must not stop the start
                log.exception("event sink %r failed on %s", sink, type(event).__name__)
