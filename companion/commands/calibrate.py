"""`companion calibrate`: calibration: printable targets, camera intrinsics, board location, appearance."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "calibrate", "calibration: printable targets, camera intrinsics, board location, appearance", "the vision pipeline")
