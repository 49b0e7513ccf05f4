"""A tiny placement game to test the tracker without any real engine.

3×3 grid; players 0 (dark, "B") and 1 (light, "W") alternate placing one stone of their colour on an
empty cell, never orthogonally next to a stone of their own colour (rule "toy.apart"); placing the
other player's colour breaks "toy.colour". When the player to move has no legal placement, the only
legal move is an invisible "pass" which ends the game. Score: 1 point per stone.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import FormatError
from companion.games.api import (
    GameSpec,
    GameState,
    Message,
    Move,
    Ruling,
    ScoreLine,
    ScoreSheet,
    Violation,
)
from companion.games.jsonread import JsonReader
from companion.referee.views.base import ExpectedCell, GameView, freeze
from companion.vision import labels

SIZE = 3
COLOURS = (labels.GRID_DARK, labels.GRID_LIGHT)


@dataclass(frozen=True)
class Place(Move):
    kind: ClassVar[str] = "place"
    row: int
    col: int
    colour: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "row": self.row, "col": self.col, "colour": self.colour}


@dataclass(frozen=True)
class Pass(Move):
    kind: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True)
class ToyState(GameState):
    game: ClassVar[str] = "toy"
    board: tuple[str, ...] = (labels.GRID_EMPTY,) * (SIZE * SIZE)
    turn: int = 0
    over: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return ("Dark", "Light")

    def at(self, r: int, c: int) -> str:
        return self.board[r * SIZE + c]

    def _placements(self) -> Iterator[Place]:
        for r in range(SIZE):
            for c in range(SIZE):
                move = Place(r, c, COLOURS[self.turn])
                if not self._violations(move):
                    yield move

    def legal_moves(self) -> Iterator[Move]:
        if self.over:
            return
        any_place = False
        for move in self._placements():
            any_place = True
            yield move
        if not any_place:
            yield Pass()

    def _violations(self, move: Move) -> tuple[Violation, ...]:
        if self.over:
            return (Violation("toy.over", Message.of("The game is over")),)
        if isinstance(move, Pass):
            if next(self._placements(), None) is not None:
                return (Violation("toy.pass", Message.of("You can still place a stone")),)
            return ()
        assert isinstance(move, Place)
        out = []
        if self.at(move.row, move.col) != labels.GRID_EMPTY:
            out.append(Violation("toy.empty", Message.of("That cell is taken")))
        if move.colour != COLOURS[self.turn]:
            out.append(Violation("toy.colour", Message.of("Place a stone of your own colour"),
                                 fix=Message.of("Take the stone back"), where=(f"r{move.row}c{move.col}",)))
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            r, c = move.row + dr, move.col + dc
            if 0 <= r < SIZE and 0 <= c < SIZE and self.at(r, c) == move.colour:
                out.append(Violation("toy.apart", Message.of("Not next to your own stone"),
                                     fix=Message.of("Take the stone back"), where=(f"r{move.row}c{move.col}",)))
                break
        return tuple(out)

    def check(self, move: Move) -> Ruling:
        return Ruling(move, self._violations(move))

    def _apply_legal(self, move: Move) -> ToyState:
        if isinstance(move, Pass):
            return ToyState(self.board, self.turn, True)
        assert isinstance(move, Place)
        board = list(self.board)
        board[move.row * SIZE + move.col] = move.colour
        return ToyState(tuple(board), 1 - self.turn, False)

    @property
    def current_player(self) -> int | None:
        return None if self.over else self.turn

    @property
    def phase(self) -> str:
        return "over" if self.over else "place"

    @property
    def is_over(self) -> bool:
        return self.over

    def score_sheet(self) -> ScoreSheet:
        lines = tuple(
            ScoreLine(p, "stones", Message.of("Stones"), "toy.score", self.board.count(COLOURS[p]))
            for p in range(2)
        )
        return ScoreSheet("toy", self.players, lines, final=self.over)

    def guidance(self) -> tuple[Message, ...]:
        return (Message.of("Place a stone"),)

    def to_json(self) -> dict[str, Any]:
        return {"board": "".join(self.board), "turn": self.turn, "over": self.over}

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> ToyState:
        reader = JsonReader(data, source)
        board = reader.get("board").value
        if not isinstance(board, str) or len(board) != SIZE * SIZE:
            raise reader.get("board").fail("expected 9 characters")
        return cls(tuple(board), reader.get("turn").int(0, 1), bool(reader.get("over").value))

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        reader = JsonReader(data, source)
        kind = reader.get("kind").value
        if kind == "pass":
            return Pass()
        if kind == "place":
            return Place(reader.get("row").int(0, 2), reader.get("col").int(0, 2), reader.get("colour").value)
        raise FormatError(source, "kind", f"expected place or pass, got {kind!r}")


SPEC = GameSpec("toy", "Toy", 2, 2, ToyState, lambda players=("Dark", "Light"), **_: ToyState())


def resolve(game_id: str) -> GameSpec:
    assert game_id == "toy"
    return SPEC


class ToyView(GameView):
    def __init__(self, max_chain: int = 2):
        super().__init__("toy", ("grid",), max_chain=max_chain)

    def expected(self, state: GameState):
        assert isinstance(state, ToyState)
        return {"grid": freeze([[ExpectedCell.of(state.at(r, c)) for c in range(SIZE)] for r in range(SIZE)])}

    def illegal_candidates(self, state: GameState):
        assert isinstance(state, ToyState)
        for r in range(SIZE):
            for c in range(SIZE):
                if state.at(r, c) == labels.GRID_EMPTY:
                    for colour in COLOURS:
                        yield Place(r, c, colour)

    def region_shape(self, region: str) -> tuple[int, int]:
        return SIZE, SIZE
