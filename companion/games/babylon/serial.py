"""The JSON body of a saved Babylon state (docs/formats/babylon.md); errors name the key path."""

from __future__ import annotations

from typing import Any

from ...errors import ErrorText, FormatError, listed
from ...i18n import N_
from ..api import Message
from ..jsonread import JsonReader
from .consistency import problems
from .model import DECORATIONS, MATERIALS, Board, Decoration, Pillar, PlacedTile, Tile, in_board
from .moves import EFFECTS, read_cell, read_icons
from .pieces import (
    BRIDGE_GAP_READINGS,
    DECORATION_HEIGHT_READINGS,
    EXACT_COVER_READINGS,
    READINGS,
    STATUE_LINE_READINGS,
    Options,
    PlayerState,
    Supply,
    Turn,
)
from .quarry import QUARRY_SIZE, Quarry

PHASES = ("trim", "quarry", "build", "store", "reveal", "over")


def tile_to_json(tile: Tile) -> dict[str, Any]:
    return {
        "id": tile.id,
        "material": tile.material,
        "flower": tile.flower,
        "icons": None if tile.icons is None else list(tile.icons),
    }


def board_to_json(board: Board) -> dict[str, Any]:
    return {
        "tiles": [
            {**tile_to_json(t.tile), "at": [t.row, t.col], "level": t.level, "placed_icons": list(t.icons), "round": t.round}
            for t in board.tiles
        ],
        "pillars": [{"id": p.id, "cell": list(p.cell), "base": p.base, "kind": p.kind} for p in board.pillars],
        "decorations": [
            {"id": d.id, "kind": d.kind, "cells": [list(c) for c in d.cells], "levels": list(d.levels), "round": d.round}
            for d in board.decorations
        ],
    }


def state_to_json(state) -> dict[str, Any]:
    return {
        "players": [
            {
                "name": p.name,
                "flower": p.flower,
                "singles": p.singles,
                "doubles": p.doubles,
                "slot": None if p.slot is None else tile_to_json(p.slot),
                "board": board_to_json(p.board),
            }
            for p in state.seats
        ],
        "flowers": list(state.flowers),
        "options": {key: getattr(state.options, key) for key in READINGS},
        "quarry": list(state.quarry.heights),
        "supply": {kind: state.supply.count(kind) for kind in Supply.kinds()},
        "round": state.round,
        "rounds": state.rounds_total,
        "turn_of": state.turn_of,
        "phase": state.stage,
        "effect": state.effect,
        "trims_done": state.trims_done,
        "serial": state.serial,
        "turn": {
            "new_tile": None if state.turn.new_tile is None else tile_to_json(state.turn.new_tile),
            "placed": list(state.turn.placed),
            "pillars": list(state.turn.pillars),
            "wild_used": state.turn.wild_used,
        },
    }


def _tile(reader: JsonReader) -> Tile:
    icons = reader.get("icons", None).optional()
    return Tile(
        reader.get("id").str(),
        reader.get("material").str(MATERIALS),
        reader.get("flower").str(),
        read_icons(icons) if icons else None,
    )


def _board(reader: JsonReader) -> Board:
    tiles = []
    for item in reader.get("tiles").list():
        at = item.get("at").list(2)
        tiles.append(
            PlacedTile(
                _tile(item),
                at[0].int(0, 6),
                at[1].int(0, 6),
                item.get("level").int(1),
                read_icons(item.get("placed_icons")),
                item.get("round").int(1),
            )
        )
    pillars = [
        Pillar(
            item.get("id").str(),
            read_cell(item.get("cell")),
            item.get("base").int(0),
            item.get("kind").str(("single", "double", "statue")),
        )
        for item in reader.get("pillars").list()
    ]
    decorations = []
    for item in reader.get("decorations").list():
        cells = tuple(read_cell(c) for c in item.get("cells").list())
        levels_reader = item.get("levels")
        levels = tuple(level.int(0) for level in levels_reader.list(len(cells)))
        if not cells or not all(in_board(c) for c in cells):
            raise item.get("cells").fail(N_("expected {low} to {high} cells on the board"), low=1, high=3)
        decorations.append(
            Decoration(item.get("id").str(), item.get("kind").str(DECORATIONS), cells, levels, item.get("round").int(1))
        )
    ids = [t.id for t in tiles] + [p.id for p in pillars] + [d.id for d in decorations]
    if len(ids) != len(set(ids)):
        raise reader.fail(N_("expected every piece id to be unique"))
    return Board(tuple(tiles), tuple(pillars), tuple(decorations))


def state_from_json(data: Any, source: str = "<state>"):
    from .state import BabylonState

    reader = JsonReader(data, source)
    seats = []
    for item in reader.get("players").list():
        slot = item.get("slot", None).optional()
        seats.append(
            PlayerState(
                item.get("name").str(),
                item.get("flower").str(),
                _board(item.get("board")),
                item.get("singles").int(0),
                item.get("doubles").int(0),
                _tile(slot) if slot else None,
            )
        )
    if not 2 <= len(seats) <= 4:
        raise reader.get("players").fail(N_("expected {low} to {high} players"), low=2, high=4)
    flowers = tuple(f.str() for f in reader.get("flowers").list(4))
    options_reader = reader.get("options")
    # Readings added later default to the engine's default, so older saves still load.
    options = Options(
        options_reader.get("bridge_gap").str(BRIDGE_GAP_READINGS),
        options_reader.get("exact_cover").str(EXACT_COVER_READINGS),
        options_reader.get("statue_line", STATUE_LINE_READINGS[0]).str(STATUE_LINE_READINGS),
        options_reader.get("decoration_height", DECORATION_HEIGHT_READINGS[0]).str(DECORATION_HEIGHT_READINGS),
    )
    quarry = Quarry(tuple(h.int(0, 3) for h in reader.get("quarry").list(QUARRY_SIZE * QUARRY_SIZE)))
    supply_reader = reader.get("supply")
    supply = Supply(**{kind: supply_reader.get(kind).int(0) for kind in Supply.kinds()})
    turn_reader = reader.get("turn")
    new_tile = turn_reader.get("new_tile", None).optional()
    turn = Turn(
        _tile(new_tile) if new_tile else None,
        tuple(t.str() for t in turn_reader.get("placed").list()),
        tuple(p.str() for p in turn_reader.get("pillars").list()),
        turn_reader.get("wild_used").bool(),
    )
    rounds_total = reader.get("rounds").int(1)
    state = BabylonState(
        seats=tuple(seats),
        options=options,
        flowers=flowers,
        quarry=quarry,
        supply=supply,
        round=reader.get("round").int(1, rounds_total),
        rounds_total=rounds_total,
        turn_of=reader.get("turn_of").int(0, len(seats) - 1),
        stage=reader.get("phase").str(PHASES),
        effect=reader.get("effect").str(EFFECTS),
        turn=turn,
        trims_done=reader.get("trims_done").int(0),
        serial=reader.get("serial").int(0),
    )
    found = problems(state)
    if found:
        # Each key was well formed but the position is impossible (hand-edited or corrupt).
        shown = found[:3] + ([Message.of(N_("and {count} more"), count=len(found) - 3)] if len(found) > 3 else [])
        raise FormatError(source, "", ErrorText.of(N_("expected a position legal play can reach ({detail})"),
                                                     detail=listed(shown)))
    return state
