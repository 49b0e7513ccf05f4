"""`companion bench`: benchmarks: rules, vision, referee."""

from __future__ import annotations

from ._pending import register_pending


def register(subparsers):
    register_pending(subparsers, "bench", "benchmarks: rules, vision, referee", "the benchmarks")
