"""From the rules engines' states to the twin's physical layouts (what to draw for a game state).

The engines say what lies where (companion.games.<game>); the twin turns that into boxes. Tile
icons are listed clockwise by the Babylon engine (TL, TR, BR, BL) and row-major by the twin
(TL, TR, BL, BR); flowers are names in the engine and palette indices in the twin.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..games.babylon.model import DEFAULT_FLOWERS, Board
from ..games.babylon.quarry import QUARRY_SIZE, Quarry
from . import garden
from .boards import QuarryLayout


def garden_from_board(board: Board, flowers: Sequence[str] = DEFAULT_FLOWERS) -> garden.GardenLayout:
    """The twin's layout of one player's Babylon garden (a statue used as a pillar is drawn as a
    single pillar: it is hidden under its tile anyway)."""
    index = {name: i for i, name in enumerate(flowers)}
    tiles = []
    for placed in board.tiles:
        tl, tr, br, bl = (icon or "none" for icon in placed.icons)
        flower = index.get(placed.flower, 0)
        tiles.append(garden.Tile(placed.row, placed.col, placed.level, flower, (tl, tr, bl, br)))
    pillars = [garden.Pillar(p.cell[0], p.cell[1], p.base, p.height) for p in board.pillars]
    decorations = []
    for d in board.decorations:
        levels = tuple(d.levels)
        if d.kind == "bridge" and len(levels) == len(d.cells):
            levels = (max(levels),) * len(levels)  # the whole span at the bridge's level
        decorations.append(garden.Decoration(d.kind, tuple(d.cells), levels))
    return garden.GardenLayout(tuple(pillars), tuple(tiles), tuple(decorations))


def quarry_from_state(quarry: Quarry) -> QuarryLayout:
    heights = quarry.heights
    return QuarryLayout(tuple(tuple(heights[r * QUARRY_SIZE + c] for c in range(QUARRY_SIZE)) for r in range(QUARRY_SIZE)))
