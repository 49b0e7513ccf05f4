"""Blueprints and instruction cards as data (babel.blueprint, babel.instruction).

The rulebook shows one blueprint (C1 3, B2 8, A3 3) and one instruction card of each size; the
printed sets are not published, and 3 blank blueprints are drawn by the players. So the companion
ships those examples and reads the rest from a small card library file the players fill in
(`babel-cards.json` under the state directory, see docs/formats/babel.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import ErrorText, FormatError
from ...i18n import N_, NP_
from ..jsonread import JsonReader
from .towers import CELLS, TOTAL_CUBES, Towers, cell_index

LIBRARY_FORMAT = "table-companion/babel-cards"
LIBRARY_VERSION = 1
LIBRARY_FILE = "babel-cards.json"


@dataclass(frozen=True)
class Blueprint:
    """A design card: the least number of cubes each cell must hold for the tower to be complete."""

    name: str
    minimum: Towers  # in CELLS order; 0 = no requirement

    def is_met(self, towers: Towers) -> bool:
        return all(have >= need for have, need in zip(towers, self.minimum, strict=True))

    def missing(self, towers: Towers) -> dict[str, int]:
        """Cubes still needed per cell (only cells that still need some)."""
        return {
            cell: need - have
            for cell, have, need in zip(CELLS, towers, self.minimum, strict=True)
            if need > have
        }

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "cells": {c: n for c, n in zip(CELLS, self.minimum, strict=True) if n}}

    @classmethod
    def from_reader(cls, reader: JsonReader) -> Blueprint:
        name = reader.get("name").str()
        if not name:
            raise reader.get("name").fail(N_("expected a non-empty name"))
        values = [0] * len(CELLS)
        cells = reader.get("cells")
        for cell, count in cells.items():
            if cell not in CELLS:
                raise count.fail(N_("expected a cell name {cells}"), cells=", ".join(CELLS))
            values[cell_index(cell)] = count.int(minimum=0, maximum=TOTAL_CUBES)
        if not any(values):
            raise cells.fail(N_("expected at least one cell with a cube count above 0"))
        if sum(values) > TOTAL_CUBES:
            raise cells.fail(NP_("expected at most {count} cube in all (the box holds {count})",
                                 "expected at most {count} cubes in all (the box holds {count})"), count=TOTAL_CUBES)
        return cls(name, tuple(values))


@dataclass(frozen=True)
class InstructionCard:
    """Build `cubes` cubes on one of `cells` (the master's choice when there are several)."""

    id: str
    cubes: int  # 1, 2 or 3
    cells: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "cubes": self.cubes, "cells": list(self.cells)}

    @classmethod
    def from_reader(cls, reader: JsonReader) -> InstructionCard:
        card_id = reader.get("id").str()
        if not card_id:
            raise reader.get("id").fail(N_("expected a non-empty id"))
        cubes = reader.get("cubes").int(minimum=1, maximum=3)
        cells: list[str] = []
        for item in reader.get("cells").list():
            cell = item.str(CELLS)
            if cell in cells:
                raise item.fail(N_("expected each cell once"))
            cells.append(cell)
        if not cells:
            raise reader.get("cells").fail(N_("expected at least one cell"))
        return cls(card_id, cubes, tuple(cells))


EXAMPLE_BLUEPRINT = Blueprint("example", (0, 0, 3, 0, 8, 0, 3, 0, 0))  # C1 3, B2 8, A3 3
EXAMPLE_INSTRUCTIONS = (
    InstructionCard("1-A", 1, ("A1", "A2", "A3")),
    InstructionCard("2-A", 2, ("A1", "A2")),
    InstructionCard("3-A", 3, ("A1",)),
)


@dataclass(frozen=True)
class CardLibrary:
    """The blueprints and instruction cards known to this companion: shipped examples + the players'."""

    blueprints: tuple[Blueprint, ...] = (EXAMPLE_BLUEPRINT,)
    instructions: tuple[InstructionCard, ...] = EXAMPLE_INSTRUCTIONS

    def blueprint(self, name: str) -> Blueprint:
        for blueprint in self.blueprints:
            if blueprint.name == name:
                return blueprint
        names = ", ".join(b.name for b in self.blueprints)
        raise FormatError("babel blueprint", repr(name), ErrorText.of(N_("unknown blueprint; known: {names}"), names=names))


def parse_library(data: Any, source: str) -> CardLibrary:
    """The players' card library, added to the shipped examples. Names and ids must be unique."""
    reader = JsonReader(data, source)
    reader.get("format").str((LIBRARY_FORMAT,))
    version = reader.get("version").int(minimum=1)
    if version > LIBRARY_VERSION:
        raise reader.get("version").fail(N_("expected version ≤ {limit} (a newer companion wrote it)"), limit=LIBRARY_VERSION)
    blueprints = list(CardLibrary().blueprints)
    for item in reader.get("blueprints", []).list():
        blueprint = Blueprint.from_reader(item)
        if any(b.name == blueprint.name for b in blueprints):
            raise item.get("name").fail(N_("expected a blueprint name not used before"))
        blueprints.append(blueprint)
    instructions = list(CardLibrary().instructions)
    for item in reader.get("instructions", []).list():
        card = InstructionCard.from_reader(item)
        if any(c.id == card.id for c in instructions):
            raise item.get("id").fail(N_("expected a card id not used before"))
        instructions.append(card)
    return CardLibrary(tuple(blueprints), tuple(instructions))


def load_library(path: str | Path | None) -> CardLibrary:
    """The library file at `path`; only the shipped examples when there is none (path None or absent)."""
    if path is None:
        return CardLibrary()
    path = Path(path)
    if not path.exists():
        return CardLibrary()
    from ..saves import read_json_file  # late: saves imports the registry, which imports this game

    return parse_library(read_json_file(path), str(path))


def library_path(state_dir: str | Path) -> Path:
    return Path(state_dir) / LIBRARY_FILE
