"""Board geometry for the top-down pictures (plain Python): grid sizes and cell names → positions.

Engines name cells in `Violation.where` and `ScoreLine.pieces`; the accepted spellings are
"r3c4" / "r3c4:anything" (row 3, column 4, from 0), "3,4", and Babel's "A1".."C3" (column letter,
row number from 1). Names that are not cells (a player's hand, a card) are listed as text instead.
"""

from __future__ import annotations

import re

GRID = {"babylon": (8, 8), "reclamation": (6, 6), "babel": (3, 3), "baubylon": (8, 8)}
_RC = re.compile(r"(?:^|[^a-z])r(\d+)c(\d+)(?![0-9])", re.IGNORECASE)
_PAIR = re.compile(r"^\s*\(?\s*(\d+)\s*,\s*(\d+)\s*\)?\s*$")
_BABEL = re.compile(r"^([A-Ca-c])([1-3])$")


def grid_for(game: str | None) -> tuple[int, int]:
    return GRID.get(game or "", (8, 8))


def cell_of(name: str) -> tuple[int, int] | None:
    """(row, col) of a cell name, or None when the name is not a cell."""
    match = _RC.search(name)
    if match:
        return int(match.group(1)), int(match.group(2))
    match = _PAIR.match(name)
    if match:
        return int(match.group(1)), int(match.group(2))
    match = _BABEL.match(name)
    if match:
        return int(match.group(2)) - 1, "abc".index(match.group(1).lower())
    return None


def cells_and_others(names: tuple[str, ...] | list[str], game: str | None) -> tuple[set[tuple[int, int]], list[str]]:
    """Split names into cells inside the game's grid and the rest (shown as words)."""
    rows, cols = grid_for(game)
    cells: set[tuple[int, int]] = set()
    others: list[str] = []
    for name in names:
        cell = cell_of(name)
        if cell is not None and 0 <= cell[0] < rows and 0 <= cell[1] < cols:
            cells.add(cell)
        else:
            others.append(name)
    return cells, others
