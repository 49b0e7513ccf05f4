"""Baubylon seen from above: the field's spaces, each with its block height and the pawns on it.

Region "baubylon" (the observer's 12×12 grid; a smaller field uses its top-left corner). Each space
reads as labels.FIELD with `height` (the block top, in pawn heights; 0 = the table) and `pawns`
(bottom to top; only the top piece's colour can be seen, the ones beneath read as None, a blocker
is "red"). The die roll, a pass and the end of a turn are not on camera: the players declare the
roll (`RefereeSession.play`), the referee sees the step. Illegal actions weighed: a piece moved
along a path that costs another number than the die shows (baubylon.move), the usual slip.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from ...games.api import GameState, Move
from ...games.baubylon import moves as mv
from ...games.baubylon.field import space_name
from ...games.baubylon.paths import reaches
from ...games.baubylon.state import BaubylonState
from ...vision import labels
from ...vision.observers.dimensions import BAUBYLON as BAUBYLON_DIMS
from ...vision.types import CellReading, Observation
from .base import ExpectedCell, ExpectedView, GameView, freeze

REGION = "baubylon"


class BaubylonView(GameView):
    def __init__(self, **options: Any) -> None:
        super().__init__("baubylon", (REGION,), max_chain=2, options=options)

    def region_shape(self, region: str) -> tuple[int, int]:
        return 12, 12

    def observer_keywords(self, state: GameState) -> dict[str, dict[str, Any]]:
        """The field is built before play and stays (baubylon.field): the observer weighs block tops
        only up to its highest point, not every height 48 blocks could reach. A lower field is read
        faster and surer that way, with no top to mistake for one the field does not have
        (BaubylonDimensions.for_field: never below the range low fields are benched at)."""
        assert isinstance(state, BaubylonState)
        tallest = max(state.field.heights.values(), default=0)
        return {REGION: {"dims": BAUBYLON_DIMS.for_field(tallest)}}

    def expected(self, state: GameState) -> ExpectedView:
        assert isinstance(state, BaubylonState)
        stacks = state.stack_map()
        rows = []
        for r in range(state.field.rows):
            row = []
            for c in range(state.field.cols):
                space = space_name(r, c)
                row.append(expected_space(state.field.height(space), stacks.get(space, ())))
            rows.append(row)
        return {REGION: freeze(rows)}

    def adapt(self, state: GameState, observations: Mapping[str, Any]) -> Mapping[str, Any]:
        """The observer lists pawns; the referee compares hashable tuples."""
        found = observations.get(REGION)
        if found is None:
            return observations
        out = dict(observations)
        out[REGION] = tuple_pawns(found)
        return out

    def illegal_candidates(self, state: GameState) -> Iterator[Move]:
        """Steps along paths that cost another number than the die shows."""
        assert isinstance(state, BaubylonState)
        if state.roll is None or state.is_over:
            return
        for origin, piece, level in state._origins():
            stacks = state.stacks_without_mover(origin)
            for other in range(1, 7):
                if other == state.roll:
                    continue
                for reach in reaches(state.field, stacks, origin, level, other, state.path_rule):
                    yield mv.Step(origin, reach.path, reach.knocks, piece)

    def illegal_examples(self, state: GameState, rng: Any) -> Iterator[Move]:
        moves = list(self.illegal_candidates(state))
        rng.shuffle(moves)
        return iter(moves[:40])


def expected_space(height: int, pieces: tuple[str, ...]) -> ExpectedCell:
    """What the camera reads of one space: its height and the colour of the top piece only."""
    pawns = (None,) * (len(pieces) - 1) + (pieces[-1],) if pieces else ()
    return ExpectedCell.of(labels.FIELD, height=height, pawns=pawns)


def tuple_pawns(observation: Observation) -> Observation:
    def cell(reading: CellReading) -> CellReading:
        alternatives = tuple((label, _tupled(attrs), conf) for label, attrs, conf in reading.alternatives)
        return replace(reading, attrs=_tupled(reading.attrs), alternatives=alternatives)

    return replace(observation, cells=tuple(tuple(cell(c) for c in row) for row in observation.cells))


def _tupled(attrs: Mapping[str, Any]) -> dict[str, Any]:
    pawns = attrs.get("pawns")
    if isinstance(pawns, list):
        return {**attrs, "pawns": tuple(pawns)}
    return dict(attrs)
