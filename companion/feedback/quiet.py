"""Quiet hours: a daily window (possibly across midnight) when the buzzer stays silent."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time

from ..errors import ConfigError, got
from ..i18n import N_


def parse_hhmm(text: str, key: str) -> time:
    try:
        hours, minutes = text.split(":")
        return time(int(hours), int(minutes))
    except ValueError:
        raise ConfigError("config", f"[feedback] {key}", got(N_("expected HH:MM (e.g. 22:30)"), text)) from None


@dataclass(frozen=True)
class QuietHours:
    start: time | None = None
    end: time | None = None

    @classmethod
    def from_config(cls, start: str, end: str) -> QuietHours:
        if not start or not end:  # one end missing: no window at all
            return cls()
        return cls(parse_hhmm(start, "quiet_start"), parse_hhmm(end, "quiet_end"))

    def contains(self, now: time) -> bool:
        """True inside [start, end); a window like 22:00-07:00 wraps past midnight."""
        if self.start is None or self.end is None or self.start == self.end:
            return False
        if self.start < self.end:
            return self.start <= now < self.end
        return now >= self.start or now < self.end
