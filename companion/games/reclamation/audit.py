"""The position checker: could the rules have produced this state? Each problem cites its rule.

A loaded state is audited before use (a hand-edited or corrupt save is refused, not played), and
the property tests assert that random legal play never leaves a state this checker rejects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...i18n import N_
from ..api import Message, Violation
from . import board as geo
from . import rules as R

if TYPE_CHECKING:
    from .state import ReclamationState


def audit(state: ReclamationState) -> list[Violation]:
    problems: list[Violation] = []
    setup_rule = R.THRONE_SETUP if state.throne else R.SETUP
    from .state import STONES_EACH

    total = 2 * STONES_EACH[state.variant]
    on_board = sum(s.height for s in state.board if s is not None)
    counted = on_board + sum(state.hands) + sum(state.captives)
    if counted != total:
        problems.append(Violation(setup_rule, Message.of(
            N_("The stones add up to {count} (board {board}, hands, captives), but the game has {total}."),
            count=counted, board=on_board, total=total,
        )))
    for square, stack in enumerate(state.board):
        if stack is not None and not 1 <= stack.height <= 3:
            problems.append(Violation(R.ORDER, Message.of(N_("{square} holds {height} stones; a stack holds 1 to 3."), square=geo.name(square), height=stack.height), where=(geo.name(square),)))
    last = 1 - state.to_move
    if not state.throne:
        if any(state.captives):
            problems.append(Violation(R.THRONE_CAPTIVE, Message.of(N_("Only the Throne variant keeps stones taken from gardeners."))))
        for player in (0, 1):
            count = len(state.gardeners(player))
            if count != 1:
                problems.append(Violation(R.SETUP, Message.of(
                    N_("{player} has {count} stacks of 3; in the Garden rules each player has exactly one gardener and no other stack of 3."),
                    player=state.names[player], count=count,
                )))
        if len(state.squares(state.to_move)) >= R.WIN_SQUARE_COUNT:
            problems.append(Violation(R.WIN_SQUARES, Message.of(
                N_("{player} is to move but already stands on 12 or more squares: the game would have ended."),
                player=state.names[state.to_move],
            )))
    else:
        if state.turn > 0 and not state.gardeners(last):
            problems.append(Violation(R.THRONE_WIN, Message.of(
                N_("{player} moved last but has no gardener: the game would have ended before."), player=state.names[last],
            )))
        if state.captives[state.to_move] >= 3:
            problems.append(Violation(R.THRONE_WIN, Message.of(
                N_("{player} is to move but already holds 3 gardener stones: the game would have ended."),
                player=state.names[state.to_move],
            )))
    for player in (0, 1):
        if len(state.used[player]) >= len(state.cards):
            problems.append(Violation(R.CYCLE, Message.of(
                N_("All of {player}'s cards are marked used; the last one played makes the others usable again."),
                player=state.names[player],
            )))
    if state.to_move != state.turn % 2:
        problems.append(Violation(R.SETUP, Message.of(N_("Flower moves first and the players alternate, so turn {turn} is not {player}'s."), turn=state.turn, player=state.names[state.to_move])))
    elif state.turn == 0 and any(state.used):
        problems.append(Violation(setup_rule, Message.of(N_("Before the first turn Flower is to move and no card is used."))))
    return problems
