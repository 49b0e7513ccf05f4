"""Building Babylon positions for tests by playing real moves through the engine."""

from __future__ import annotations

from dataclasses import replace

from companion.games.babylon.model import Tile, footprint
from companion.games.babylon.moves import PlaceDecoration, PlacePillar, PlaceTile
from companion.games.babylon.pieces import Turn
from companion.games.babylon.state import BabylonState, new_game

BLANK = (None, None, None, None)


def building(singles: int = 40, doubles: int = 20, effect: str = "none", **options) -> BabylonState:
    """Player 1 of a 2-player game in the build phase with plenty of pillars and an empty garden."""
    state = new_game(("Linda", "John"), **options)
    state = replace(state, stage="build", effect=effect)
    return state.with_me(singles=singles, doubles=doubles)


def hold(state: BabylonState, icons=BLANK, flower: str = "white", material: str = "basalt") -> BabylonState:
    """Give the current player a freshly taken tile."""
    tile = Tile(f"t{state.serial + 1}", material, flower, icons)
    return replace(state, serial=state.serial + 1, turn=replace(state.turn, new_tile=tile))


def new_turn(state: BabylonState) -> BabylonState:
    """Forget what was placed this turn (the tiles so far count as placed in an earlier round)."""
    return replace(state, turn=Turn(), round=state.round + 1)


def pillars_for(state: BabylonState, row: int, col: int, level: int, skip=None) -> BabylonState:
    """Stand pillars on the footprint so their tops reach `level` (skip one cell for 3 pillars)."""
    view = state.me.board.top
    for cell in footprint(row, col):
        if cell == skip:
            continue
        item = view.at(cell)
        if item.kind == "statue" and item.level + 1 == level:
            continue
        size = {1: "single", 2: "double"}[level - item.level]
        state = state.apply(PlacePillar(cell, size))
    return state


def put(state: BabylonState, row: int, col: int, level: int, icons=BLANK, flower: str = "white", skip=None) -> BabylonState:
    """Place a tile with the given icons (board orientation) on pillars reaching its level."""
    state = hold(state, icons, flower)
    state = pillars_for(state, row, col, level, skip)
    return state.apply(PlaceTile("new", row, col, level))


def deco(state: BabylonState, piece: str, *cells, wild=None) -> BabylonState:
    return state.apply(PlaceDecoration(piece, tuple(cells), wild))


def points(state: BabylonState, category: str, player: int = 0) -> int:
    return next(line.points for line in state.score_sheet().lines_for(player) if line.category == category)
