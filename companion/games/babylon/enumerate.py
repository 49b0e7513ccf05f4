"""Every legal granular move of a Babylon state (the `GameState.legal_moves` generator).

Moves that depend on reading a face are listed with what is already known: a take from the quarry
is listed once per flower with its icons unread, and a tile whose icons are unknown yields no
placement (its icons must come from the camera or the touchscreen).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..api import Move
from .model import SIZE, footprint, rotations
from .moves import (
    EFFECTS,
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
    Reveal,
    Store,
    Take,
    Trim,
)
from .pieces import STORAGE_SINGLES
from .quarry import all_places

if TYPE_CHECKING:
    from .state import BabylonState

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def legal_moves(state: BabylonState) -> Iterator[Move]:
    stage = state.stage
    if stage == "trim":
        for place in all_places():
            if state.quarry.top_material(place) == "clay":
                yield Trim(place)
    elif stage == "quarry":
        for place in state.quarry.visible_places():
            for flower in state.flowers:
                yield Take(place, flower)
        yield from _exchanges(state)
    elif stage == "build":
        yield from _exchanges(state)
        yield from _pillars(state)
        yield from _tiles(state)
        yield from decoration_moves(state)
        if state.check(EndBuild()).accepted:
            yield EndBuild()
    elif stage == "store":
        yield from _stores(state)
        yield from _exchanges(state)  # allowed at any time, though the double then goes back
    elif stage == "reveal":
        for effect in EFFECTS:
            yield Reveal(effect)


def _exchanges(state: BabylonState) -> Iterator[Move]:
    if state.me.singles >= 2 and state.supply.double >= 1:
        yield Exchange("singles")


def _pillars(state: BabylonState) -> Iterator[Move]:
    view = state.me.board.top
    for r in range(SIZE):
        for c in range(SIZE):
            item = view.cells[r][c]
            if item.is_empty_surface:
                if state.me.singles:
                    yield PlacePillar((r, c), "single")
                if state.me.doubles:
                    yield PlacePillar((r, c), "double")
            elif item.kind == "pillar" and item.piece_id in state.turn.pillars:
                yield RemovePillar((r, c))


def _tiles(state: BabylonState) -> Iterator[Move]:
    board = state.me.board
    view = board.top
    for which in ("new", "slot"):
        tile = state.held_tile(which)
        if tile is None or tile.icons is None:
            continue
        layouts = rotations(tile.icons)
        for row in range(SIZE - 1):
            for col in range(SIZE - 1):
                levels = set()
                for cell in footprint(row, col):
                    item = view.at(cell)
                    if item.kind == "pillar":
                        levels.add(item.level + item.height)
                    elif item.kind == "statue":
                        levels.add(item.level + 1)
                for level in sorted(levels):
                    first = PlaceTile(which, row, col, level)
                    if not state.check(first).accepted:
                        continue
                    for k in range(len(layouts)):
                        yield PlaceTile(which, row, col, level, rotation=k)


def decoration_moves(state: BabylonState) -> Iterator[PlaceDecoration]:
    """Decorations touching a tile placed this turn, with round-token icons where allowed."""
    board = state.me.board
    view = board.top
    cells = set()
    for tile_id in state.turn.placed:
        tile = board.tile(tile_id)
        if tile is not None:
            cells.update(c for c in tile.cells if view.at(c).kind == "tile" and view.at(c).tile_id == tile_id)
    candidates: set[PlaceDecoration] = set()
    wild_ok = state.effect in ("icon_swap", "icon_blank") and not state.turn.wild_used
    for cell in sorted(cells):
        pairs = [((cell,), "statue")]
        for dr, dc in _STEPS:
            for distance, pieces in ((1, ("stairs", "fountain")), (2, ("bridge",))):
                other = (cell[0] + dr * distance, cell[1] + dc * distance)
                if 0 <= other[0] < SIZE and 0 <= other[1] < SIZE:
                    pair = tuple(sorted((cell, other)))
                    pairs.extend((pair, piece) for piece in pieces)
        for spaces, piece in pairs:
            candidates.add(PlaceDecoration(piece, spaces))
            if wild_ok:
                for space in spaces:
                    candidates.add(PlaceDecoration(piece, spaces, (space, piece)))
    for move in sorted(candidates, key=lambda m: (m.piece, m.cells, m.wild or ((0, 0), ""))):
        if state.check(move).accepted:
            yield move


def _stores(state: BabylonState) -> Iterator[Move]:
    me = state.me
    for singles in range(min(me.singles, STORAGE_SINGLES), -1, -1):
        for store_new in (False, True):
            for discard_slot in (False, True):
                move = Store(singles, store_new, discard_slot)
                if state.check(move).accepted:
                    yield move
