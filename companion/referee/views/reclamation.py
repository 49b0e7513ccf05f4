"""The Reclamation seen from above: one 6×6 region, each square's top stone face and stack height.

The camera is calibrated from Flower's side (board.square_at_view): row 0 is Vine's edge. Stacks
never mix owners, so the top face is the owner's face; a stack of 3 is a gardener.
Illegal actions weighed: a gardener moved to any empty square (not next to it: a jump, or with a
reclaim that changes nothing), and the opponent's gardener moved; check() names the rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...games.api import GameState, Move
from ...games.reclamation import board as geo
from ...games.reclamation.reclaim import GARDENER_HEIGHT
from ...games.reclamation.state import ReclamationState, Turn
from ...vision import labels
from .base import ExpectedCell, ExpectedView, GameView, freeze

REGION = "reclamation"
FACES = (labels.FLOWER, labels.VINE)


class ReclamationView(GameView):
    def __init__(self) -> None:
        super().__init__("reclamation", (REGION,), max_chain=1)

    def region_shape(self, region: str) -> tuple[int, int]:
        return geo.SIZE, geo.SIZE

    def expected(self, state: GameState) -> ExpectedView:
        assert isinstance(state, ReclamationState)
        rows = []
        for r in range(geo.SIZE):
            row = []
            for c in range(geo.SIZE):
                stack = state.board[geo.square_at_view(r, c)]
                if stack is None:
                    row.append(ExpectedCell.of(labels.EMPTY, height=0))
                else:
                    row.append(ExpectedCell.of(FACES[stack.owner], height=stack.height,
                                               gardener=stack.height == GARDENER_HEIGHT))
            rows.append(row)
        return {REGION: freeze(rows)}

    def illegal_candidates(self, state: GameState) -> Iterator[Move]:
        assert isinstance(state, ReclamationState)
        if state.is_over:
            return
        empty = [s for s in range(geo.SQUARES) if state.board[s] is None]
        for player in (state.to_move, 1 - state.to_move):
            for gardener in state.gardeners(player):
                for to in empty:
                    for card in state.cards:
                        yield Turn(geo.name(gardener), geo.name(to), card.name)

    def physical_after(self, state: GameState, move: Move) -> ExpectedView | None:
        """An illegal turn done physically: the gardener moved and the card's reclaim applied."""
        assert isinstance(state, ReclamationState) and isinstance(move, Turn)
        gardener, to = geo.parse(move.gardener), geo.parse(move.to)
        if gardener is None or to is None or state.board[gardener] is None:
            return None
        owner = state.board[gardener].owner
        if owner != state.to_move:  # the wrong player's gardener: play it as its owner would
            state = _with_mover(state, owner)
        return super().physical_after(state, move)


def _with_mover(state: ReclamationState, player: int) -> ReclamationState:
    from dataclasses import replace

    return replace(state, to_move=player)
