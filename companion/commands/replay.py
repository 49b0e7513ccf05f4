"""`companion replay`: run recorded frames through the referee."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "replay", "run recorded frames through the referee", "the live referee")
