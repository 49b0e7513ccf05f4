"""From the rules engines' states to the twin's physical layouts (what to draw for a game state).

The engines say what lies where (companion.games.<game>); the twin turns that into boxes. Tile
icons are listed clockwise by the Babylon engine (TL, TR, BR, BL) and row-major by the twin
(TL, TR, BL, BR); flowers are names in the engine and palette indices in the twin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..games.babylon.model import DEFAULT_FLOWERS, Board, PlacedTile, rotate
from ..games.babylon.quarry import QUARRY_SIZE, Quarry
from ..vision.boards import BAUBYLON
from . import garden
from .boards import BaubylonLayout, QuarryLayout


def garden_from_board(board: Board, flowers: Sequence[str] = DEFAULT_FLOWERS) -> garden.GardenLayout:
    """The twin's layout of one player's Babylon garden (a statue used as a pillar is drawn as a
    single pillar: it is hidden under its tile anyway)."""
    index = {name: i for i, name in enumerate(flowers)}
    tiles = []
    for placed in board.tiles:
        tl, tr, br, bl = (icon or "none" for icon in placed.icons)
        flower = index.get(placed.flower, 0)
        tiles.append(garden.Tile(placed.row, placed.col, placed.level, flower, (tl, tr, bl, br),
                                 turn=_turn(placed)))
    pillars = [garden.Pillar(p.cell[0], p.cell[1], p.base, p.height) for p in board.pillars]
    decorations = []
    for d in board.decorations:
        levels = tuple(d.levels)
        if d.kind == "bridge" and len(levels) == len(d.cells):
            levels = (max(levels),) * len(levels)  # the whole span at the bridge's level
        decorations.append(garden.Decoration(d.kind, tuple(d.cells), levels))
    return garden.GardenLayout(tuple(pillars), tuple(tiles), tuple(decorations))


def _turn(placed: PlacedTile) -> int:
    """How the tile was turned when laid (its printed face turned onto the board's icons), so the
    twin draws its flower corner where the player put it; 0 when the face was never read."""
    printed = placed.tile.icons
    if printed is None:
        return 0
    return next((k for k in range(4) if rotate(printed, k) == placed.icons), 0)


def quarry_from_state(quarry: Quarry) -> QuarryLayout:
    heights = quarry.heights
    return QuarryLayout(tuple(tuple(heights[r * QUARRY_SIZE + c] for c in range(QUARRY_SIZE)) for r in range(QUARRY_SIZE)))


def babylon_layouts(state: Any, move: Any = None) -> dict[str, Any]:
    """The twin's layouts of a whole Babylon table: "babylon.quarry" and "babylon.garden.<seat>".

    `move`: an action physically done by the player to move on top of `state`, legal or not (a tile
    put where the rules forbid it, a decoration on the wrong spaces), for the simulated table to
    show what the referee must call. Other moves are drawn from the state after them.
    """
    from ..games.babylon.model import rotate
    from ..games.babylon.moves import PlaceDecoration, PlaceTile

    out: dict[str, Any] = {"babylon.quarry": quarry_from_state(state.quarry)}
    for seat, player in enumerate(state.seats):
        out[f"babylon.garden.{seat}"] = garden_from_board(player.board, state.flowers)
    if move is None:
        return out
    region = f"babylon.garden.{state.turn_of}"
    layout = out[region]
    top = state.me.board.top
    index = {name: i for i, name in enumerate(state.flowers)}
    if isinstance(move, PlaceTile):
        tile = state.held_tile(move.tile)
        if tile is None:
            return out
        icons = move.icons if move.icons is not None else rotate(tile.icons, move.rotation)
        tl, tr, br, bl = (icon or "none" for icon in icons)
        placed = garden.Tile(move.row, move.col, move.level, index.get(tile.flower, 0), (tl, tr, bl, br))
        out[region] = replace(layout, tiles=(*layout.tiles, placed))
    elif isinstance(move, PlaceDecoration):
        cells = list(move.cells)
        if move.piece == "bridge" and len(cells) == 2:
            (r0, c0), (r1, c1) = cells
            cells.insert(1, ((r0 + r1) // 2, (c0 + c1) // 2))
        levels = tuple(top.at(cell).level if top.at(cell).kind == "tile" else 0 for cell in cells)
        if move.piece == "bridge":
            levels = (max(levels),) * len(levels)
        deco = garden.Decoration(move.piece, tuple(cells), levels)
        out[region] = replace(layout, decorations=(*layout.decorations, deco))
    else:
        return babylon_layouts(state._apply_legal(move))
    return out


def baubylon_layout(state: Any, move: Any = None) -> BaubylonLayout:
    """The twin's Baubylon board (12×12 spaces; a smaller field in its top-left corner): block
    heights from the field, every piece of every stack. `move` is done physically on top, legal
    or not (a step along a path the die does not allow)."""
    from ..games.baubylon.field import space_name

    if move is not None:
        state = state._apply_legal(move)
    stacks = state.stack_map()
    size = BAUBYLON.rows
    cells = []
    for r in range(size):
        row = []
        for c in range(size):
            if r < state.field.rows and c < state.field.cols:
                space = space_name(r, c)
                row.append((state.field.height(space), tuple(stacks.get(space, ()))))
            else:
                row.append((0, ()))
        cells.append(tuple(row))
    return BaubylonLayout(tuple(cells))
