"""Building positions for the tests.

The rulebook shows only one card pattern (Garden side: 2 forward and 1 left / 1 right). Its reclaim
examples are drawn on pictures we do not have, described in words as "upper right", "lower left" of
the gardener; the cards below are TEST patterns that put targets where the words say. They are not
claims about the real cards, and they never ship with the program.
"""

from __future__ import annotations

from companion.games.reclamation import board as geo
from companion.games.reclamation.cards import Card, Offset
from companion.games.reclamation.reclaim import Stack
from companion.games.reclamation.state import STONES_EACH, ReclamationState

EXAMPLE = Card("example", (Offset(2, -1), Offset(2, 1)))
DIAGONALS = Card("diagonals", (Offset(1, -1), Offset(1, 1), Offset(-1, -1), Offset(-1, 1)))
AHEAD = Card("ahead", (Offset(1, -1), Offset(1, 1)))
ROW_AHEAD = Card("row-ahead", (Offset(2, -1), Offset(2, 0), Offset(2, 1)))
SIDES = Card("sides", (Offset(0, -1), Offset(0, 1), Offset(-1, 0)))
TEST_CARDS = (EXAMPLE, DIAGONALS, ROW_AHEAD, SIDES)


def board_of(stacks: dict[str, str]) -> tuple[Stack | None, ...]:
    squares: list[Stack | None] = [None] * geo.SQUARES
    for name, text in stacks.items():
        square = geo.parse(name)
        assert square is not None, name
        squares[square] = Stack("FV".index(text[0]), len(text))
    return tuple(squares)


def position(
    stacks: dict[str, str],
    *,
    to_move: int = 0,
    hand: int | None = None,
    other_hand: int | None = None,
    cards: tuple[Card, ...] = TEST_CARDS,
    variant: str = "garden",
    used: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
    captives: tuple[int, int] = (0, 0),
    turn: int | None = None,
) -> ReclamationState:
    """A position with `stacks` on the board. The mover holds `hand` stones; unless given, the
    other player holds the rest so that the stones add up as the set-up says."""
    board = board_of(stacks)
    on_board = sum(s.height for s in board if s is not None)
    total = 2 * STONES_EACH[variant] - on_board - sum(captives)
    if hand is None:
        hand = min(total, 6)
    if other_hand is None:
        other_hand = total - hand
    hands = [0, 0]
    hands[to_move], hands[1 - to_move] = hand, other_hand
    if turn is None:
        turn = 10 + to_move
    return ReclamationState(variant, ("Aki", "Bo"), cards, board, (hands[0], hands[1]), captives, used, to_move, turn)


def stacks_of(state: ReclamationState) -> dict[str, str]:
    return {geo.name(s): "FV"[st.owner] * st.height for s, st in enumerate(state.board) if st is not None}
