"""`companion recognise`: read a board from an image and print the observation."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "recognise", "read a board from an image and print the observation", "the vision pipeline")
