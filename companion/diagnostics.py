"""Device checks for `companion doctor` (filled in by the on-the-Pi work)."""

from __future__ import annotations

from .errors import NotYetAvailable


def run_checks(config, as_json: bool = False) -> int:
    raise NotYetAvailable("device checks are not available yet; `companion doctor --config` works")
