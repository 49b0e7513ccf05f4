"""The terminal face of the referee (headless runs): rulings as they happen and a progress line."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from ..i18n import N_, NP_, translate
from .events import (
    AskPlayer,
    Event,
    GameOver,
    GameResumed,
    MoveAccepted,
    OverrideRecorded,
    SourceStatus,
    TurnGuidance,
    ViolationCleared,
    ViolationFound,
)


class Console:
    """An event sink printing one line per ruling; `progress` rewrites one status line on a tty."""

    def __init__(self, lang: str | None = None, out: TextIO | None = None, verbose: bool = False):
        self.lang = lang
        self.out = out or sys.stdout
        self.tty = self.out.isatty()
        self.verbose = verbose
        self._status = ""

    def _line(self, text: str) -> None:
        if self.tty and self._status:
            self.out.write("\r\033[K")
        self.out.write(text + "\n")
        if self.tty and self._status:
            self.out.write(self._status)
        self.out.flush()

    def progress(self, text: str) -> None:
        if not self.tty:
            return
        self._status = text[:120]
        self.out.write("\r\033[K" + self._status)
        self.out.flush()

    def close(self) -> None:
        if self.tty and self._status:
            self.out.write("\n")
            self._status = ""

    def _say(self, prefix: str, msgid: str, **params: Any) -> None:
        """One line in the console's language: a symbol, then `msgid` filled with `params`."""
        shown = {k: v.render(self.lang) if hasattr(v, "render") else v for k, v in params.items()}
        self._line(prefix + translate(msgid, self.lang, shown))

    def __call__(self, event: Event) -> None:
        lang = self.lang
        n = event.move_number
        if isinstance(event, MoveAccepted):
            self._say("  ✓ ", N_("move {number}: {move}"), number=n, move=event.ruling.move.describe())
            for note in event.ruling.notes:
                self._line(f"      {note.render(lang)}")
        elif isinstance(event, ViolationFound):
            self._say("  ✗ ", N_("NOT ALLOWED: {move}"), move=event.ruling.move.describe())
            for v in event.ruling.violations:
                fix = f" — {v.fix.render(lang)}" if v.fix else ""
                self._line(f"      [{v.rule_id}] {v.message.render(lang)}{fix}")
        elif isinstance(event, ViolationCleared):
            self._say("  ↺ ", N_("the table is back as it was: play on"))
        elif isinstance(event, AskPlayer):
            options = "; ".join(f"{i + 1}) {text}" for i, text in enumerate(_distinct(event.candidates, lang)))
            self._line(f"  ? {event.question.render(lang)} {options}")
        elif isinstance(event, OverrideRecorded):
            self._say("  ⚑ ", NP_("{detail} ({count} move confirmed)", "{detail} ({count} moves confirmed)"),
                      detail=event.detail, count=n)
        elif isinstance(event, GameOver):
            self._say("  ★ ", NP_("game over after {count} move", "game over after {count} moves"), count=n)
        elif isinstance(event, GameResumed):
            if event.detail:
                self._say("  ↻ ", N_("resumed the game from the journal at move {number} ({detail})"), number=n,
                          detail=event.detail)
            else:
                self._say("  ↻ ", N_("resumed the game from the journal at move {number}"), number=n)
        elif isinstance(event, SourceStatus):
            if event.status in ("lost", "ok", "retrying") or (self.verbose and event.detail):
                text = event.detail.render(lang) if event.detail else event.status
                if event.status in ("lost", "ok", "retrying"):
                    self._say("  ● ", N_("camera: {status}"), status=text)
                else:
                    self._line(f"  · {text}")
        elif isinstance(event, TurnGuidance) and self.verbose:
            for message in event.guidance:
                self._line(f"    → {message.render(lang)}")


def _distinct(moves, lang) -> list[str]:
    """Descriptions of the candidates, with the fields that tell apart those that read the same."""
    texts = [m.describe().render(lang) for m in moves]
    for text in set(texts):
        same = [i for i, t in enumerate(texts) if t == text]
        if len(same) < 2:
            continue
        bodies = [moves[i].to_json() for i in same]
        keys = [k for k in bodies[0] if any(b.get(k) != bodies[0].get(k) for b in bodies)]
        for i, body in zip(same, bodies, strict=True):
            texts[i] += " (" + ", ".join(f"{k} {body.get(k)}" for k in keys) + ")"
    return texts
