"""Move suggestions for the hints screen, from each engine's own hint function where it has one.

- Babylon: `games.babylon.hints.suggest` ranks whole tile placements by the points they add.
- The Reclamation: `games.reclamation.search.suggest`, an alpha-beta search with a time budget.
- Otherwise: the first few legal moves, each with the engine's note on it.
Each suggestion carries the rule id it rests on when the engine gives one.
"""

from __future__ import annotations

import itertools
import logging
from dataclasses import dataclass
from typing import Any

from ..games.api import Message

log = logging.getLogger(__name__)
SEARCH_SECONDS = 0.4  # the hints screen waits this long at most for The Reclamation's search


@dataclass(frozen=True)
class Suggestion:
    text: Message
    details: tuple[Message, ...] = ()
    rule_id: str | None = None
    moves: tuple[Any, ...] = ()  # the engine moves that make it, in order (to declare it played)


def suggestions(state: Any, limit: int = 4) -> list[Suggestion]:
    if state is None or state.is_over:
        return []
    game = getattr(state, "game", "")
    if not type(state).__module__.startswith(f"companion.games.{game}"):
        game = ""  # a stand-in state (the fake's) is not the engine's: its hint functions would not fit
    try:
        if game == "babylon":
            found = _babylon(state, limit)
            if found:
                return found
        elif game == "reclamation":
            found = _reclamation(state)
            if found:
                return found
        return _legal_moves(state, limit)
    except Exception:  # an engine bug must not blank the hints screen
        log.exception("suggestions failed for %s", game)
        return []


def _babylon(state: Any, limit: int) -> list[Suggestion]:
    try:
        from ..games.babylon.hints import suggest
    except ImportError:
        return []
    if state.phase != "build":
        return []  # placements are hints for the build action; other phases list their moves
    return [Suggestion(reason, (), "babylon.build.support", placement.moves) for placement, reason in suggest(state, limit)]


def _reclamation(state: Any) -> list[Suggestion]:
    try:
        from ..games.reclamation.search import suggest
    except ImportError:
        return []
    hint = suggest(state, seconds=SEARCH_SECONDS)
    if hint is None:
        return []
    return [Suggestion(hint.reason, tuple(hint.details), hint.rule_id, (hint.move,))]


def _legal_moves(state: Any, limit: int) -> list[Suggestion]:
    out = []
    for move in itertools.islice(state.legal_moves(), limit):
        ruling = state.check(move)
        out.append(Suggestion(move.describe(), tuple(ruling.notes[:1]), moves=(move,)))
    return out
