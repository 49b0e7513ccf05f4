"""Baubylon moves: the die roll, a piece's path, passing, and the earthquake."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...i18n import N_
from ..api import Json, Message, Move
from ..jsonread import JsonReader

PIECES = ("pawn", "blocker")


@dataclass(frozen=True)
class Roll(Move):
    """The current player's die roll (1 to 6)."""

    value: int
    kind: ClassVar[str] = "roll"

    def to_json(self) -> Json:
        return {"kind": self.kind, "value": self.value}

    def describe(self) -> Message:
        return Message.of(N_("roll a {value}"), value=self.value)


@dataclass(frozen=True)
class Step(Move):
    """Move the top piece of `origin` along `path` (the spaces entered, in order).

    From a start point the piece enters the field: `piece` says whether it is one of the player's
    pawns or a blocker they captured. `knocks` are the spaces of the path where the top pawn of a
    stack is knocked off instead of climbed."""

    origin: str
    path: tuple[str, ...]
    knocks: tuple[str, ...] = ()
    piece: str = "pawn"
    kind: ClassVar[str] = "move"

    @property
    def end(self) -> str:
        return self.path[-1] if self.path else self.origin

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "origin": self.origin, "path": list(self.path)}
        if self.knocks:
            data["knocks"] = list(self.knocks)
        if self.piece != "pawn":
            data["piece"] = self.piece
        return data

    def describe(self) -> Message:
        return Message.of(N_("move from {origin} to {end}"), origin=self.origin, end=self.end)


@dataclass(frozen=True)
class Pass(Move):
    """No piece can use the whole roll: the turn ends."""

    kind: ClassVar[str] = "pass"

    def to_json(self) -> Json:
        return {"kind": self.kind}

    def describe(self) -> Message:
        return Message.of(N_("no move possible: pass"))


@dataclass(frozen=True)
class Quake(Move):
    """baubylon.quake: on a 1, shake every piece off the player's pinned pawn at `space`, stack
    position `level` (0 = the bottom pawn)."""

    space: str
    level: int
    kind: ClassVar[str] = "quake"

    def to_json(self) -> Json:
        return {"kind": self.kind, "space": self.space, "level": self.level}

    def describe(self) -> Message:
        return Message.of(N_("earthquake at {space}"), space=self.space)


MOVE_TYPES: dict[str, type[Move]] = {cls.kind: cls for cls in (Roll, Step, Pass, Quake)}


def _spaces(reader: JsonReader) -> tuple[str, ...]:
    return tuple(item.str() for item in reader.list())


def parse_move(data: Any, source: str = "<move>") -> Move:
    reader = JsonReader(data, source)
    kind = reader.get("kind").str(tuple(MOVE_TYPES))
    if kind == "roll":
        return Roll(reader.get("value").int())
    if kind == "move":
        return Step(
            reader.get("origin").str(),
            _spaces(reader.get("path")),
            _spaces(reader.get("knocks", [])),
            reader.get("piece", "pawn").str(PIECES),
        )
    if kind == "quake":
        return Quake(reader.get("space").str(), reader.get("level").int(minimum=0))
    return Pass()
