"""The reclaim of one turn on the readable board: which targets get a stone, which lose one.

Kept apart from the state so that `check`, `legal_moves` and `apply` all share one reading of
reclamation.garden.reclaim.order (Garden) and reclamation.throne.reclaim (Throne).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from . import board as geo
from .cards import Card

GARDENER_HEIGHT = 3


@dataclass(frozen=True)
class Stack:
    """Stones of one owner on one square (stacks never mix owners)."""

    owner: int
    height: int

    @property
    def is_gardener(self) -> bool:
        return self.height == GARDENER_HEIGHT


Board = tuple[Stack | None, ...]


@dataclass(frozen=True)
class ReclaimPlan:
    """What a card does from a square, before the short-of-stones choice is made."""

    targets: tuple[int, ...]  # the card's targets that lie on the board
    off_board: int  # how many targets were ignored for lying off the board
    add: tuple[int, ...]  # step 1: your stacks that take one more stone
    empty: tuple[int, ...]  # step 2: empty targets
    take: tuple[int, ...]  # step 3: opponent stacks that lose their top stone
    full: tuple[int, ...]  # your targets that take nothing (2 stones in Garden, gardeners)
    guarded: tuple[int, ...]  # opponent gardeners, untouchable in Garden
    hand: int  # placeable stones in hand

    @property
    def placeable(self) -> int:
        return min(self.hand, len(self.add) + len(self.empty))

    @property
    def has_effect(self) -> bool:
        return self.placeable > 0 or bool(self.take)

    @property
    def is_short(self) -> bool:
        return self.hand < len(self.add) + len(self.empty)

    def placement_options(self) -> Iterator[tuple[int, ...]]:
        """Every allowed set of squares receiving a stone (sorted tuples), step 1 before step 2."""
        if self.hand >= len(self.add) + len(self.empty):
            yield tuple(sorted(self.add + self.empty))
        elif self.hand >= len(self.add):
            for chosen in combinations(self.empty, self.hand - len(self.add)):
                yield tuple(sorted(self.add + chosen))
        else:
            for chosen in combinations(self.add, self.hand):
                yield tuple(sorted(chosen))

    def forced_placements(self) -> tuple[int, ...] | None:
        """The only allowed placement, or None when the player has a choice to make."""
        options = list(self.placement_options())
        return options[0] if len(options) == 1 else None


def card_targets(card: Card, player: int, origin: int) -> tuple[tuple[int, ...], int]:
    """The on-board target squares of `card` from `origin` for `player`, and the off-board count."""
    on_board = []
    off = 0
    for offset in card.targets:
        square = geo.target_square(player, origin, offset.forward, offset.right)
        if square is None:
            off += 1
        else:
            on_board.append(square)
    return tuple(on_board), off


def plan_reclaim(board: Board, player: int, throne: bool, origin: int, card: Card, hand: int) -> ReclaimPlan:
    """The reclaim of `card` by `player`'s gardener standing on `origin` (after its move)."""
    targets, off = card_targets(card, player, origin)
    add, empty, take, full, guarded = [], [], [], [], []
    for square in targets:
        stack = board[square]
        if stack is None:
            empty.append(square)
        elif stack.owner == player:
            # Garden: only a single stone takes another (2 is the most but for gardeners);
            # Throne: 1 or 2 take another, and a third makes a new gardener.
            limit = GARDENER_HEIGHT if throne else 2
            (add if stack.height < limit else full).append(square)
        elif stack.is_gardener and not throne:
            guarded.append(square)
        else:
            take.append(square)
    return ReclaimPlan(targets, off, tuple(add), tuple(empty), tuple(take), tuple(full), tuple(guarded), hand)


@dataclass(frozen=True)
class TurnResult:
    board: Board
    placed: int
    gained: int  # stones taken from ordinary stacks: turned to your face, placeable next turn
    captured: int  # Throne: stones taken from gardeners, kept with the opponent's face


def play(board: Board, player: int, gardener: int, to: int, plan: ReclaimPlan, placements: tuple[int, ...]) -> TurnResult:
    """Move the gardener, then place on `placements` and take the top of every `plan.take` square."""
    squares = list(board)
    squares[to], squares[gardener] = squares[gardener], None
    for square in placements:
        stack = squares[square]
        squares[square] = Stack(player, 1 if stack is None else stack.height + 1)
    gained = captured = 0
    for square in plan.take:
        stack = squares[square]
        assert stack is not None and stack.owner != player
        if stack.is_gardener:
            captured += 1
        else:
            gained += 1
        squares[square] = Stack(stack.owner, stack.height - 1) if stack.height > 1 else None
    return TurnResult(tuple(squares), len(placements), gained, captured)


def board_after_move(board: Board, gardener: int, to: int) -> Board:
    squares = list(board)
    squares[to], squares[gardener] = squares[gardener], None
    return tuple(squares)


def squares_of(board: Board, player: int) -> tuple[int, ...]:
    return tuple(s for s, stack in enumerate(board) if stack is not None and stack.owner == player)


def gardeners_of(board: Board, player: int) -> tuple[int, ...]:
    return tuple(
        s for s, stack in enumerate(board) if stack is not None and stack.owner == player and stack.is_gardener
    )
