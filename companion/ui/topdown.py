"""Top-down pictures of a game position for the ruling and score screens (plain Python).

`picture_for(state, player)` turns an engine's state into a grid of looks (a fill colour key and a
short label per cell) and a map from piece ids to the cells they cover, so a violation's `where`
or a score line's `pieces` can be lit. Cell names follow the engines: a column letter and a row
number ("c4"; Babylon a1–h8 with row 1 at the top, The Reclamation a1–f6 with rank 1 at Flower's
edge, drawn at the bottom; Babel A1–C3; Baubylon A1…). Games without an adapter get an empty grid.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .board import grid_for

Cell = tuple[int, int]
_LETTER_NUMBER = re.compile(r"^([A-Za-z])(\d{1,2})$")
_RC = re.compile(r"(?:^|[^a-z])r(\d+)c(\d+)(?![0-9])", re.IGNORECASE)


@dataclass(frozen=True)
class Look:
    fill: str  # a palette key: recess, tile1, tile2, tile3, pillar, stairs, ..., flower, vine, cubes, field0..
    label: str = ""


@dataclass(frozen=True)
class Picture:
    rows: int
    cols: int
    looks: dict[Cell, Look] = field(default_factory=dict)
    pieces: dict[str, frozenset[Cell]] = field(default_factory=dict)
    name_to_cell: Callable[[str], Cell | None] | None = None

    def locate(self, names: Iterable[str]) -> tuple[set[Cell], list[str]]:
        """Cells for names that are piece ids or cell names; the rest are returned as words."""
        cells: set[Cell] = set()
        others: list[str] = []
        for name in names:
            if name in self.pieces:
                cells |= self.pieces[name]
                continue
            cell = (self.name_to_cell or letter_number)(name)
            if cell is not None and 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols:
                cells.add(cell)
            else:
                others.append(name)
        return cells, others


def letter_number(name: str) -> Cell | None:
    """'c4' → (3, 2): column letter, row number from 1; also 'r3c2' → (3, 2)."""
    match = _LETTER_NUMBER.match(name.strip())
    if match:
        return int(match.group(2)) - 1, ord(match.group(1).lower()) - ord("a")
    match = _RC.search(name)
    if match:
        return int(match.group(1)), int(match.group(2))
    return None


def picture_for(state: Any, player: int | None = None, game: str | None = None) -> Picture:
    """The picture of `player`'s board (Babylon: each player has one) or of the shared board."""
    game = getattr(state, "game", None) or game
    adapter = _ADAPTERS.get(game or "")
    if state is not None and adapter is not None:
        try:
            return adapter(state, player)
        except (AttributeError, IndexError, KeyError, TypeError, ValueError):
            pass  # a state shaped differently from what this adapter knows: fall back to a plain grid
    rows, cols = grid_for(game)
    return Picture(rows, cols)


def _babylon(state: Any, player: int | None) -> Picture:
    seat = state.current_player if player is None else player
    board = state.seats[seat if seat is not None else 0].board
    top = board.top
    looks: dict[Cell, Look] = {}
    pieces: dict[str, set[Cell]] = {}
    for r, row in enumerate(top.cells):
        for c, item in enumerate(row):
            if item.kind == "recess":
                looks[(r, c)] = Look("recess")
            elif item.kind == "tile":
                looks[(r, c)] = Look(f"tile{min(item.level, 3)}", str(item.level))
            elif item.kind == "pillar":
                looks[(r, c)] = Look("pillar", str(item.level + item.height))
            else:
                looks[(r, c)] = Look(item.kind, str(item.level))
            for piece in (item.piece_id, item.tile_id):
                if piece:
                    pieces.setdefault(piece, set()).add((r, c))
    return Picture(len(top.cells), len(top.cells[0]), looks, {k: frozenset(v) for k, v in pieces.items()})


def _reclamation(state: Any, player: int | None) -> Picture:
    size = 6
    looks: dict[Cell, Look] = {}
    for square, stack in enumerate(state.board):
        rank, file = divmod(square, size)
        cell = (size - 1 - rank, file)  # rank 1 (Flower's edge) at the bottom
        if stack is None:
            looks[cell] = Look("empty")
        else:
            owner = "flower" if stack.owner == 0 else "vine"
            looks[cell] = Look(owner + ("_gardener" if stack.height >= 3 else ""), str(stack.height))

    def name_to_cell(name: str) -> Cell | None:
        cell = letter_number(name)
        return None if cell is None else (size - 1 - cell[0], cell[1])

    return Picture(size, size, looks, {}, name_to_cell)


def _babel(state: Any, player: int | None) -> Picture:
    looks: dict[Cell, Look] = {}
    for index, count in enumerate(state.towers):
        cell = divmod(index, 3)  # CELLS order: A1 B1 C1, A2 ...: row-major from row 1
        looks[cell] = Look("cubes" if count else "empty", str(count))
    return Picture(3, 3, looks)


def _baubylon(state: Any, player: int | None) -> Picture:
    fld = state.field
    stacks = dict(state.stacks)
    looks: dict[Cell, Look] = {}
    for r in range(fld.rows):
        for c in range(fld.cols):
            name = f"{'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[c]}{r + 1}"
            height = fld.height(name)
            pawns = stacks.get(name, ())
            label = str(height) + (f"+{len(pawns)}" if pawns else "")
            looks[(r, c)] = Look(f"field{min(height // 2, 4)}", label)
    return Picture(fld.rows, fld.cols, looks)


_ADAPTERS: dict[str, Callable[[Any, int | None], Picture]] = {
    "babylon": _babylon,
    "reclamation": _reclamation,
    "babel": _babel,
    "baubylon": _baubylon,
}
