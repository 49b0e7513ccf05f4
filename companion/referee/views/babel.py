"""Babel Builders seen from above: the 3×3 base card, each cell's tower height in cubes.

Only the towers are on camera; cards and roles are declared by the players. Among moves that build
the same towers, the one naming no card is weighed (the card is not visible). Illegal actions
weighed: a wrong number of cubes on a cell (more than an instruction allows) and Lightning taking
cubes from a tower that is not the tallest.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...games.api import GameState, Move
from ...games.babel.moves import Instruction, Lightning
from ...games.babel.state import BabelState
from ...games.babel.towers import CELLS
from ...vision import labels
from .base import ExpectedCell, ExpectedView, GameView, freeze

REGION = "babel"


class BabelView(GameView):
    def __init__(self) -> None:
        super().__init__("babel", (REGION,), max_chain=1)

    def region_shape(self, region: str) -> tuple[int, int]:
        return 3, 3

    def expected(self, state: GameState) -> ExpectedView:
        assert isinstance(state, BabelState)
        rows = [[ExpectedCell.of(labels.CUBES, count=state.towers[r * 3 + c]) for c in range(3)] for r in range(3)]
        return {REGION: freeze(rows)}

    def legal_candidates(self, state: GameState) -> Iterator[Move]:
        for move in state.legal_moves():
            if isinstance(move, Instruction) and move.card is not None:
                continue  # which card it was is not on camera: the card-less reading stands for it
            yield move

    def illegal_candidates(self, state: GameState) -> Iterator[Move]:
        assert isinstance(state, BabelState)
        if state.stage != "build":
            return
        for cell in CELLS:
            for cubes in (4, 5):
                yield Instruction(cell, cubes)
            yield Lightning(cell)
