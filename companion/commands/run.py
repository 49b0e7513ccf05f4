"""`companion run`: play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "run", "play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)", "the live referee")
