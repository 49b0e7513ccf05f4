"""The referee's events turned into LED and buzzer patterns; the buttons turned into callbacks.

    feedback = Feedback.from_config(config, on_confirm=tracker.confirm, on_undo=tracker.undo)
    feedback.handle(event)   # returns at once; the pattern plays in the background
    feedback.close()
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import time
from typing import Any

from ..referee.events import (
    AskPlayer,
    Event,
    GameOver,
    MoveAccepted,
    SaveFailed,
    SourceStatus,
    TurnGuidance,
    ViolationCleared,
    ViolationFound,
)
from .devices import FeedbackDevices, FeedbackSettings
from .patterns import DIM_AMBER, DIM_RED, OFF, PATTERNS, Colour, Pattern
from .pins import PinFactoryChoice, choose_pin_factory, mock_factory
from .player import PatternPlayer
from .quiet import QuietHours

log = logging.getLogger(__name__)

_BY_EVENT: tuple[tuple[type[Event], str], ...] = (
    (MoveAccepted, "accepted"),
    (ViolationFound, "violation"),
    (AskPlayer, "ask"),
    (TurnGuidance, "your_turn"),
    (GameOver, "game_over"),
    (ViolationCleared, "cleared"),
    (SaveFailed, "save_failed"),
)


def pattern_for(event: Event, camera_lost: bool = False, last_player: int | None = None) -> Pattern | None:
    """The pattern an event calls for, or None (score changes and overrides show on screen only).

    `camera_lost`: a "lost" was already signalled; `last_player`: whose turn was last announced, so
    "your turn" sounds when the turn passes, not after every step of a multi-step turn."""
    if isinstance(event, SourceStatus):
        if event.status == "lost":
            return None if camera_lost else PATTERNS["source_lost"]  # say it once, then rest amber
        if event.status == "ok" and camera_lost:
            return PATTERNS["source_back"]
        return None
    if isinstance(event, TurnGuidance) and (event.player is None or event.player == last_player):
        return None
    for event_type, name in _BY_EVENT:
        if isinstance(event, event_type):
            return PATTERNS[name]
    return None


class Feedback:
    def __init__(self, devices: FeedbackDevices, *, mock: bool = False,
                 wait: Callable[[float], bool] | None = None):
        self.devices = devices
        self.mock = mock
        self.player = PatternPlayer(devices.show, describe=mock, wait=wait)
        self.camera_lost = False
        self.violation_standing = False  # red rests on the LED until the table is put right
        self.last_player: int | None = None

    @classmethod
    def from_config(cls, config: Any, *, on_confirm: Callable[[], None] | None = None,
                    on_undo: Callable[[], None] | None = None,
                    pins: PinFactoryChoice | None = None,
                    now: Callable[[], time] | None = None,
                    wait: Callable[[float], bool] | None = None) -> Feedback:
        pins = pins or choose_pin_factory()
        settings = FeedbackSettings.from_config(config)  # a bad pin map is a ConfigError, raised
        try:
            devices = FeedbackDevices(settings, pins.factory, on_confirm=on_confirm, on_undo=on_undo, now=now)
        except Exception as exc:
            if pins.mock:
                raise
            # A pin held by another program or a GPIO driver error must not stop the referee: the
            # screen still shows every ruling. Say so loudly; `companion doctor` names the pin.
            log.error("feedback: cannot use the GPIO pins (%s); LED and buzzer are off, only logged. "
                      "Run `companion doctor`.", exc)
            pins = PinFactoryChoice(mock_factory(), True, f"GPIO failed: {exc}")
            devices = FeedbackDevices(settings, pins.factory, on_confirm=on_confirm, on_undo=on_undo, now=now)
        if pins.mock:
            log.info("feedback: mock GPIO (%s); pins %s", pins.reason, settings.used_pins())
        return cls(devices, mock=pins.mock, wait=wait)

    def handle(self, event: Event) -> Pattern | None:
        """Start the event's pattern in the background and return it (None: nothing to show)."""
        pattern = pattern_for(event, self.camera_lost, self.last_player)
        if isinstance(event, SourceStatus) and event.status in ("lost", "ok"):
            self.camera_lost = event.status == "lost"
        elif isinstance(event, ViolationFound):
            self.violation_standing = True
        elif isinstance(event, MoveAccepted | ViolationCleared | GameOver):
            self.violation_standing = False
        elif isinstance(event, TurnGuidance) and event.player is not None:
            self.last_player = event.player
        self.player.set_resting(self.resting_colour())
        if pattern is not None:
            self.player.play(pattern)
        return pattern

    def resting_colour(self) -> Colour:
        """What the LED shows between patterns: a lost camera outranks a standing violation."""
        if self.camera_lost:
            return DIM_AMBER
        return DIM_RED if self.violation_standing else OFF

    def set_volume(self, volume: float) -> None:
        """From the settings screen: 0.0 (silent) to 1.0; takes effect at the next note."""
        if not 0.0 <= volume <= 1.0:
            raise ValueError(f"volume must be from 0.0 to 1.0, got {volume}")
        self.devices.sounder.volume = volume

    def set_quiet_hours(self, start: str, end: str) -> None:
        """From the settings screen: "HH:MM" each, or empty strings for no quiet hours."""
        self.devices.sounder.quiet = QuietHours.from_config(start, end)

    def play(self, name: str) -> None:
        """Play a pattern by name (setup wizard, `companion doctor`-style self tests)."""
        self.player.play(PATTERNS[name])

    def close(self) -> None:
        self.player.close()
        self.devices.close()

    def __enter__(self) -> Feedback:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
