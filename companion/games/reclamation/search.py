"""Hints: an alpha–beta search over the compact representation (fast.py), with a reason in words.

Iterative deepening negamax with alpha–beta pruning; children are ordered by the static score the
generator computes anyway. Depth counts whole turns (plies). A time budget stops the deepening; the
answer is the best move of the last finished depth.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ...i18n import N_, NP_
from ..api import Message
from . import rules as R
from .fast import FastRules, Position, Successor
from .state import ReclamationState, Turn

WIN = 1_000_000


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class Hint:
    move: Turn
    reason: Message
    rule_id: str  # the rule the reason rests on
    details: tuple[Message, ...]  # more to show under the reason (e.g. why the game ends)
    value: int  # search value for the player to move (±WIN… = a forced win / loss)
    depth: int  # whole turns looked ahead
    positions: int  # positions generated
    seconds: float


class Searcher:
    """Negamax alpha–beta over FastRules positions, counting generated positions."""

    def __init__(self, rules: FastRules):
        self.rules = rules
        self.positions = 0
        self.deadline: float | None = None

    def value(self, pos: Position, depth: int, alpha: int, beta: int, ply: int = 1) -> int:
        """Value of `pos` for its player to move, searching `depth` turns."""
        children = self.rules.successors(pos)
        self.positions += len(children)
        if not children:
            return -WIN + ply  # reclamation.garden.lose.stuck: cannot complete the turn
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfTime
        best = -WIN - 1
        for successor in children:
            if successor[1]:
                return WIN - ply
            if successor[0] > best:
                best = successor[0]
        if depth <= 1:
            return best
        children.sort(key=_by_score, reverse=True)
        best = -WIN - 1
        for successor in children:
            val = -self.value(successor[2], depth - 1, -beta, -alpha, ply + 1)
            if val > best:
                best = val
                if val > alpha:
                    alpha = val
                    if alpha >= beta:
                        break
        return best

    def root(self, pos: Position, depth: int) -> list[tuple[int, Successor]]:
        """(value, successor) for every root move, best first; exact for the best, bounds for others."""
        children = self.rules.successors(pos)
        self.positions += len(children)
        children.sort(key=_by_score, reverse=True)
        scored = []
        alpha = -WIN - 1
        for successor in children:
            score, win, child = successor[0], successor[1], successor[2]
            if win:
                val = WIN - 1
            elif depth <= 1:
                val = score
            else:
                val = -self.value(child, depth - 1, -WIN - 1, -alpha, 2)
            scored.append((val, successor))
            alpha = max(alpha, val)
        scored.sort(key=lambda item: item[0], reverse=True)
        return scored


def _by_score(item) -> int:
    return item[0]


def suggest(state: ReclamationState, max_depth: int = 8, seconds: float = 1.5) -> Hint | None:
    """The best turn found for the player to move, or None when the game is over."""
    if state.is_over:
        return None
    rules = FastRules(state.cards, state.throne)
    pos = rules.encode(state)
    searcher = Searcher(rules)
    start = time.perf_counter()
    searcher.deadline = start + seconds
    best: list[tuple[int, Successor]] = []
    reached = 0
    for depth in range(1, max_depth + 1):
        try:
            ranked = searcher.root(pos, depth)
        except _OutOfTime:
            break
        best, reached = ranked, depth
        if abs(ranked[0][0]) >= WIN - depth - 1:
            break  # a forced result is known; looking deeper changes nothing
        if depth == 1:
            searcher.deadline = start + seconds  # depth 1 always finishes
    if not best:  # even depth 1 ran out of time: fall back on it without a deadline
        searcher.deadline = None
        best, reached = searcher.root(pos, 1), 1
    value, move = best[0]
    turn = rules.turn_of(move)
    reason, rule_id = _reason(state, turn, value, reached)
    after = state.apply(turn)
    details = (after.outcome.reason,) if after.outcome is not None else ()
    return Hint(turn, reason, rule_id, details, value, reached, searcher.positions, time.perf_counter() - start)


def _ending_rule(state: ReclamationState, depth: int) -> str | None:
    """The rule that ends a forced line: follow the best replies until the game is over."""
    rules = FastRules(state.cards, state.throne)
    for remaining in range(depth, 0, -1):
        if state.outcome is not None:
            return state.outcome.rule_id
        ranked = Searcher(rules).root(rules.encode(state), remaining)
        state = state.apply(rules.turn_of(ranked[0][1]))
    return state.outcome.rule_id if state.outcome is not None else None


def _reason(state: ReclamationState, turn: Turn, value: int, depth: int) -> tuple[Message, str]:
    after = state.apply(turn)
    me, them = state.to_move, 1 - state.to_move
    win_rule = R.THRONE_WIN if state.throne else R.WIN_SQUARES
    if after.outcome is not None and after.outcome.winner == me:
        return Message.of(N_("This wins now.")), after.outcome.rule_id
    if value >= WIN - depth - 1:
        turns = (WIN - value + 1) // 2
        rule = _ending_rule(after, depth) or win_rule
        return Message.of(NP_("This wins on your next turn, whatever your opponent does.",
                                  "This wins within {count} of your turns, whatever your opponent does."),
                              count=turns), rule
    if value <= -WIN + depth + 1:
        rule = _ending_rule(after, depth) or win_rule
        return Message.of(N_("Every move loses against best play; this one holds out longest.")), rule
    place = ", ".join(turn.place or ()) or "-"
    if state.throne:
        return Message.of(
            N_("Move to {to} and use card {card} (stones on {place}): you keep {mine} gardeners to {theirs} and hold {captives} gardener stones; best found looking {depth} turns ahead."),
            to=turn.to, card=turn.card, place=place, mine=len(after.gardeners(me)), theirs=len(after.gardeners(them)),
            captives=after.captives[me], depth=depth,
        ), R.THRONE_RECLAIM
    return Message.of(
        N_("Move to {to} and use card {card} (stones on {place}): you will stand on {mine} squares to your opponent's {theirs}; best found looking {depth} turns ahead."),
        to=turn.to, card=turn.card, place=place, mine=len(after.squares(me)), theirs=len(after.squares(them)), depth=depth,
    ), R.WIN_SQUARES


__all__ = ["Hint", "Searcher", "suggest"]
