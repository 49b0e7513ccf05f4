"""Plays patterns in a background thread so the referee's loop never waits on a buzzer.

Ordinary patterns queue (at most MAX_PENDING wait; beyond that the oldest waiting one is dropped,
because stale feedback is worse than none). An urgent pattern (violation, game over, camera lost)
cuts the current one short and drops everything waiting. Between patterns the LED shows the resting
colour (off, or dim amber while the camera is lost).
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable

from .patterns import OFF, Colour, Pattern

log = logging.getLogger(__name__)

MAX_PENDING = 3


class PatternPlayer:
    def __init__(self, show: Callable[[Colour, float | None], None], *, describe: bool = False,
                 wait: Callable[[float], bool] | None = None):
        """`show(colour, tone)` drives the devices; `describe` logs each pattern at INFO (mock);
        `wait(seconds) -> interrupted` replaces the real clock in tests."""
        self._show = show
        self._describe = describe
        self._lock = threading.Condition()
        self._pending: collections.deque[Pattern] = collections.deque()
        self._interrupt = threading.Event()
        self._wait = wait or self._interrupt.wait
        self._resting: Colour = OFF
        self._playing: Pattern | None = None
        self._closed = False
        self.history: collections.deque[str] = collections.deque(maxlen=50)  # names, as started
        self._thread = threading.Thread(target=self._run, name="feedback-patterns", daemon=True)
        self._thread.start()

    # -- the caller's side (any thread; never blocks on the devices) --
    def play(self, pattern: Pattern) -> None:
        with self._lock:
            if self._closed:
                return
            if pattern.urgent:
                self._pending.clear()
                self._interrupt.set()
            elif len(self._pending) >= MAX_PENDING:
                dropped = self._pending.popleft()
                log.debug("feedback: dropped stale pattern %s", dropped.name)
            self._pending.append(pattern)
            self._lock.notify()

    def set_resting(self, colour: Colour) -> None:
        with self._lock:
            if colour == self._resting:
                return
            self._resting = colour
            if self._playing is None and not self._pending:
                self._show(colour, None)

    @property
    def busy(self) -> bool:
        with self._lock:
            return self._playing is not None or bool(self._pending)

    def wait_idle(self, timeout: float) -> bool:
        """Block until nothing plays or waits (tests, shutdown); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: self._playing is None and not self._pending, timeout)

    def close(self, timeout: float = 2.0) -> None:
        with self._lock:
            self._closed = True
            self._pending.clear()
            self._interrupt.set()
            self._lock.notify()
        self._thread.join(timeout)

    # -- the player thread --
    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._pending or self._closed)
                if self._closed:
                    return
                pattern = self._pending.popleft()
                self._playing = pattern
                self._interrupt.clear()
            try:
                self._perform(pattern)
            except Exception:  # a GPIO failure must not kill feedback for the rest of the game
                log.exception("feedback: pattern %s failed", pattern.name)
            with self._lock:
                self._playing = None
                if not self._pending:
                    self._safe_show(self._resting, None)
                self._lock.notify_all()

    def _perform(self, pattern: Pattern) -> None:
        self.history.append(pattern.name)
        if self._describe:
            log.info("feedback (mock GPIO): %s", pattern.describe())
        for step in pattern.steps:
            self._show(step.colour, step.tone)
            if self._wait(step.seconds) or self._interrupt.is_set():
                log.debug("feedback: %s cut short", pattern.name)
                break

    def _safe_show(self, colour: Colour, tone: float | None) -> None:
        try:
            self._show(colour, tone)
        except Exception:
            log.exception("feedback: could not set the resting state")
