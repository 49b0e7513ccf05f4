"""Where a tile can lie, from what is read around it (babylon.build.support, babylon.build.covered_space).

A tile at level L covers its 2×2 footprint at the height of L: every cell of the footprint shows
that tile, or something standing on it or higher. So a cell surely read as something lower (a
recess, a pillar or a decoration standing on a lower surface, another tile lower down) cannot be
under it, and two tiles cannot lie at the same level over one cell. What stands on level L beside
a space (a pillar or a decoration on a tile space of that level, or the tile's own other spaces)
is what a tile there carries: each counts as support.

Pure functions over the readings (rows of CellReading); the observer decides what to do with them.
"""

from __future__ import annotations

from .. import labels
from ..types import CellReading

POSITIONS = ((0, 0), (0, 1), (1, 0), (1, 1))  # a space's (row, col) within its tile: TL, TR, BL, BR
DECO_LABELS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)
_TILE = labels.TILE


def stands_on(cell: CellReading) -> tuple[int, ...]:
    """The levels of the surfaces what a cell shows lies or stands on (a tile: its own level; a
    recess: none; stairs span two levels)."""
    if cell.label == labels.RECESS:
        return ()
    level = cell.attrs.get("level", 0)
    if cell.label == labels.PILLAR1:
        return (int(level) - 1,)
    if cell.label == labels.PILLAR2:
        return (int(level) - 2,)
    if isinstance(level, list | tuple):
        return tuple(int(v) for v in level)
    return (int(level),)


def footprint(top_row: int, top_col: int) -> list[tuple[int, int]]:
    return [(top_row + dr, top_col + dc) for dr, dc in POSITIONS]


def tile_fits(rows: list[list[CellReading]], r: int, c: int, level: int, position: int,
              sure: float, mate_sure: float = 0.0) -> tuple[bool, int]:
    """Whether the space at (r, c) can be the `position` space of a tile at `level` (its footprint
    on the board, and no surely read cell of it showing anything lower, nor another tile at that
    level), and how many of its other cells show something standing exactly on that level (or the
    same tile's spaces, read at least `mate_sure`)."""
    dr, dc = POSITIONS[position]
    top_row, top_col = r - dr, c - dc
    if not (0 <= top_row <= 6 and 0 <= top_col <= 6):
        return False, 0
    tile = None  # its id, made when a cell of the footprint reads a tile at its level
    support = 0
    # (footprint()'s cells in its order, without making the list: some 40 calls a read)
    for er, ec in POSITIONS:
        rr, cc = top_row + er, top_col + ec
        if rr == r and cc == c:
            continue
        cell = rows[rr][cc]
        if cell.label == _TILE and cell.attrs.get("level") == level:
            if tile is None:
                tile = f"r{top_row}c{top_col}"
            if cell.attrs.get("tile") == tile:
                support += cell.confidence >= mate_sure
                continue
            if cell.confidence >= sure:
                return False, 0  # two tiles at one level over one cell
            continue
        if cell.confidence < sure:
            continue
        levels = stands_on(cell)
        if not levels or max(levels) < level:
            return False, 0  # it would lie over something seen lower than itself
        support += level in levels and cell.label != _TILE
    return True, support
