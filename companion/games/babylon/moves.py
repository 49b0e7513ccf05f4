"""Babylon's moves: each is one thing a camera can see happen, or one thing a player confirms.

JSON cells are [row, col] (0..7 on the garden, 0..3 in the quarry); icons are lists of four
(TL, TR, BR, BL, clockwise from the top-left as the tile lies) of "stairs", "fountain", "bridge",
"statue" or null. See docs/formats/babylon.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...i18n import N_, NP_
from ..api import Json, Message, Move
from ..jsonread import JsonReader
from .model import DECORATIONS, ICONS, Cell, Icons, cell_name

EFFECTS = (
    "none",
    "single_pillar",
    "double_pillar",
    "icon_swap",
    "icon_blank",
    "flower_double",
    "fewer_pillars",
)

EFFECT_TEXT = {
    "none": N_("Round token: no effect this round."),
    "single_pillar": N_("Round token: take 1 single pillar at the start of your turn."),
    "double_pillar": N_("Round token: take 1 double pillar at the start of your turn (it cannot be stored)."),
    "icon_swap": N_("Round token: one icon space on a tile placed this turn counts as any other icon."),
    "icon_blank": N_("Round token: one space without an icon on a tile placed this turn counts as any icon."),
    "flower_double": N_("Round token: a tile of your own flower gives 2 pillars for the flower."),
    "fewer_pillars": N_("Round token: taking a tile gives 1 pillar fewer."),
}


@dataclass(frozen=True)
class Trim(Move):
    """Set-up for 2 or 3 players (babylon.setup.quarry_trim): remove one clay tile from the quarry."""

    kind: ClassVar[str] = "trim"
    place: tuple[int, int]

    def to_json(self) -> Json:
        return {"kind": self.kind, "place": list(self.place)}

    def describe(self) -> Message:
        return Message.of(N_("Remove the clay tile at quarry place {row},{col}"), row=self.place[0] + 1, col=self.place[1] + 1)


TAKE_WITH_FLOWER = {  # whole msgids per default flower (model.DEFAULT_FLOWERS): no untranslated words
    "white": N_("Take the white-flower tile at quarry place {row},{col}"),
    "pink": N_("Take the pink-flower tile at quarry place {row},{col}"),
    "yellow": N_("Take the yellow-flower tile at quarry place {row},{col}"),
    "blue": N_("Take the blue-flower tile at quarry place {row},{col}"),
}


@dataclass(frozen=True)
class Take(Move):
    """Take the top tile at a quarry place; `flower` and (if read) `icons` are read from its face."""

    kind: ClassVar[str] = "take"
    place: tuple[int, int]
    flower: str
    icons: Icons | None = None  # as printed, clockwise from the top-left; None = not read yet
    pillars: int | None = None  # single pillars the player took as the reward, if seen

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "place": list(self.place), "flower": self.flower}
        if self.icons is not None:
            data["icons"] = list(self.icons)
        if self.pillars is not None:
            data["pillars"] = self.pillars
        return data

    def describe(self) -> Message:
        # the flower named, so that candidates differing only by it read differently on the screen
        msgid = TAKE_WITH_FLOWER.get(self.flower)
        if msgid is None:
            return Message.of(N_("Take the tile at quarry place {row},{col} (flower: {flower})"),
                              row=self.place[0] + 1, col=self.place[1] + 1, flower=self.flower)
        return Message.of(msgid, row=self.place[0] + 1, col=self.place[1] + 1)


@dataclass(frozen=True)
class Exchange(Move):
    """babylon.build.exchange: give 2 single pillars for 1 double ("singles"), never the reverse."""

    kind: ClassVar[str] = "exchange"
    give: str = "singles"  # singles | double (the forbidden reverse, so it can be ruled on)

    def to_json(self) -> Json:
        return {"kind": self.kind, "give": self.give}

    def describe(self) -> Message:
        if self.give == "double":
            return Message.of(N_("Exchange 1 double pillar for 2 single pillars"))
        return Message.of(N_("Exchange 2 single pillars for 1 double pillar"))


@dataclass(frozen=True)
class PlacePillar(Move):
    """A pillar appears on a cell. `level`: the level it stands on, if seen (None = what is on top)."""

    kind: ClassVar[str] = "pillar"
    cell: Cell
    size: str = "single"  # single | double
    level: int | None = None

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "cell": list(self.cell), "size": self.size}
        if self.level is not None:
            data["level"] = self.level
        return data

    def describe(self) -> Message:
        if self.size == "double":
            return Message.of(N_("Place a double pillar on {cell}"), cell=cell_name(self.cell))
        return Message.of(N_("Place a single pillar on {cell}"), cell=cell_name(self.cell))


@dataclass(frozen=True)
class RemovePillar(Move):
    """Take back a pillar placed this turn that carries no tile yet."""

    kind: ClassVar[str] = "remove_pillar"
    cell: Cell

    def to_json(self) -> Json:
        return {"kind": self.kind, "cell": list(self.cell)}

    def describe(self) -> Message:
        return Message.of(N_("Take back the pillar on {cell}"), cell=cell_name(self.cell))


@dataclass(frozen=True)
class PlaceTile(Move):
    """A tile appears with its top-left cell at (row, col) at `level`.

    `tile` is "new" (taken this turn) or "slot" (from the storage slot). `icons` are as seen on the
    board (TL, TR, BR, BL); when None the tile's known icons turned `rotation` quarter turns clockwise.
    """

    kind: ClassVar[str] = "tile"
    tile: str
    row: int
    col: int
    level: int
    icons: Icons | None = None
    rotation: int = 0

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "tile": self.tile, "at": [self.row, self.col], "level": self.level}
        if self.icons is not None:
            data["icons"] = list(self.icons)
        if self.rotation:
            data["rotation"] = self.rotation
        return data

    def describe(self) -> Message:
        return Message.of(
            N_("Place a tile on {cell} at level {level}"), cell=cell_name((self.row, self.col)), level=self.level
        )


@dataclass(frozen=True)
class PlaceDecoration(Move):
    """A decoration appears. Cells: 1 for a statue, the 2 joined icon cells otherwise (for a bridge
    the gap between them is implied). `wild`: a space counted as another icon by a round token."""

    kind: ClassVar[str] = "decoration"
    piece: str  # stairs | fountain | bridge | statue
    cells: tuple[Cell, ...]
    wild: tuple[Cell, str] | None = None

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "piece": self.piece, "cells": [list(c) for c in self.cells]}
        if self.wild is not None:
            data["wild"] = {"cell": list(self.wild[0]), "icon": self.wild[1]}
        return data

    def describe(self) -> Message:
        where = "–".join(cell_name(c) for c in self.cells)
        return Message.of(_DECO_PLACE[self.piece], cells=where)


_DECO_PLACE = {
    "stairs": N_("Place stairs on {cells}"),
    "fountain": N_("Place a fountain on {cells}"),
    "bridge": N_("Place a bridge on {cells}"),
    "statue": N_("Place a statue on {cells}"),
}


@dataclass(frozen=True)
class EndBuild(Move):
    """The player confirms the build action is over (babylon.build.no_bare_pillar is checked here)."""

    kind: ClassVar[str] = "end_build"

    def to_json(self) -> Json:
        return {"kind": self.kind}

    def describe(self) -> Message:
        return Message.of(N_("End the build action"))


@dataclass(frozen=True)
class Store(Move):
    """C. Store/discard: put `singles` single pillars in storage (the rest go back); put the unplaced
    new tile in the slot (`store_new`) and/or remove the slot's tile from the game (`discard_slot`).
    An unplaced new tile that is not stored leaves the game."""

    kind: ClassVar[str] = "store"
    singles: int = 0
    store_new: bool = False
    discard_slot: bool = False

    def to_json(self) -> Json:
        return {"kind": self.kind, "singles": self.singles, "store_new": self.store_new, "discard_slot": self.discard_slot}

    def describe(self) -> Message:
        return Message.of(N_("Store {singles} single pillars and end the turn"), singles=self.singles)


@dataclass(frozen=True)
class Reveal(Move):
    """End of round: the top round token is turned up (its effect as the players read it)."""

    kind: ClassVar[str] = "reveal"
    effect: str

    def to_json(self) -> Json:
        return {"kind": self.kind, "effect": self.effect}

    def describe(self) -> Message:
        return Message.of(EFFECT_TEXT[self.effect])


MOVE_TYPES: dict[str, type[Move]] = {
    cls.kind: cls
    for cls in (Trim, Take, Exchange, PlacePillar, RemovePillar, PlaceTile, PlaceDecoration, EndBuild, Store, Reveal)
}


def read_cell(reader: JsonReader, limit: int = 8) -> tuple[int, int]:
    parts = reader.list(2)
    return (parts[0].int(0, limit - 1), parts[1].int(0, limit - 1))


def read_icons(reader: JsonReader) -> Icons:
    icons = []
    for item in reader.list(4):
        icons.append(None if item.value is None else item.str(ICONS))
    return tuple(icons)  # type: ignore[return-value]


def move_from_json(data: Any, source: str = "<move>") -> Move:
    reader = JsonReader(data, source)
    kind = reader.get("kind").str(tuple(MOVE_TYPES))
    if kind == "trim":
        return Trim(read_cell(reader.get("place"), 4))
    if kind == "take":
        icons = reader.get("icons", None).optional()
        pillars = reader.get("pillars", None).optional()
        return Take(
            read_cell(reader.get("place"), 4),
            reader.get("flower").str(),
            read_icons(icons) if icons else None,
            pillars.int(0) if pillars else None,
        )
    if kind == "exchange":
        return Exchange(reader.get("give", "singles").str(("singles", "double")))
    if kind == "pillar":
        level = reader.get("level", None).optional()
        return PlacePillar(
            read_cell(reader.get("cell")),
            reader.get("size", "single").str(("single", "double")),
            level.int(0) if level else None,
        )
    if kind == "remove_pillar":
        return RemovePillar(read_cell(reader.get("cell")))
    if kind == "tile":
        at = reader.get("at").list(2)
        icons = reader.get("icons", None).optional()
        return PlaceTile(
            reader.get("tile").str(("new", "slot")),
            at[0].int(0, 6),
            at[1].int(0, 6),
            reader.get("level").int(1),
            read_icons(icons) if icons else None,
            reader.get("rotation", 0).int(0, 3),
        )
    if kind == "decoration":
        piece = reader.get("piece").str(tuple(d for d in DECORATIONS if d != "belvedere"))
        cells = tuple(read_cell(c) for c in reader.get("cells").list())
        if len(cells) != (1 if piece == "statue" else 2):
            raise reader.get("cells").fail(NP_("expected {count} cell for the {icon}", "expected {count} cells for the {icon}"),
                                            count=1 if piece == "statue" else 2, icon=piece)
        wild_reader = reader.get("wild", None).optional()
        wild = None
        if wild_reader is not None:
            wild = (read_cell(wild_reader.get("cell")), wild_reader.get("icon").str(ICONS))
        return PlaceDecoration(piece, cells, wild)
    if kind == "end_build":
        return EndBuild()
    if kind == "store":
        return Store(
            reader.get("singles").int(0),
            reader.get("store_new", False).bool(),
            reader.get("discard_slot", False).bool(),
        )
    return Reveal(reader.get("effect").str(EFFECTS))
