"""Decoration rules (`babylon.deco.*`) on one garden, seen from above.

A decoration goes on tile spaces showing its icon with nothing on top (`deco.icon`), never
diagonally, and at least partly on a tile placed this turn (`deco.when`). The bridge's gap is read
per the `bridge_gap` option: "bridge_level" (default) wants nothing in the gap at or above the
bridge's level; "empty_to_board" wants the gap open down to an empty recess.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_
from ..api import Violation
from .building import standing_height
from .model import Board, Cell, cell_name, in_board
from .topview import PILLAR, RECESS, TILE


@dataclass(frozen=True)
class DecoPlan:
    """Where an accepted decoration lies: its cells (with a bridge's gap) and their levels."""

    cells: tuple[Cell, ...]
    levels: tuple[int, ...]


_NO_ICON = {
    "stairs": N_("The space on {cell} shows no stairs icon."),
    "fountain": N_("The space on {cell} shows no fountain icon."),
    "bridge": N_("The space on {cell} shows no bridge icon."),
    "statue": N_("The space on {cell} shows no statue icon."),
}


def _v(rule: str, text: str, where: tuple[Cell, ...] = (), fix: str | None = None, **params) -> Violation:
    return Violation.of(rule, text, fix=fix, where=tuple(cell_name(c) for c in where), **params)


def _names(cells) -> str:
    return "–".join(cell_name(c) for c in cells)


def check_decoration(
    board: Board,
    piece: str,
    cells: tuple[Cell, ...],
    placed_this_turn: frozenset[str],
    wild: tuple[Cell, str] | None,
    bridge_gap: str,
    statue_line: str = "row_or_column",
    decoration_height: str = "flat",
) -> tuple[DecoPlan | None, list[Violation]]:
    view = board.top
    if not all(in_board(c) for c in cells) or len(set(cells)) != len(cells):
        return None, [_v("babylon.deco.icon", N_("A decoration goes on distinct spaces of the building area."))]
    # deco.icon: every icon cell is a tile space with the matching icon and nothing on it.
    levels = []
    tiles = []
    for cell in cells:
        item = view.at(cell)
        if item.kind != TILE:
            if item.kind == RECESS:
                text = N_("{cell} is an empty recess: decorations go on tile spaces.")
            else:
                text = N_("{cell} already has something on it: decorations go on free spaces.")
            return None, [_v("babylon.deco.icon", text, (cell,), cell=cell_name(cell))]
        icon = wild[1] if wild is not None and wild[0] == cell else item.icon
        if icon != piece and _covered_icon(board, cell, item.level, piece):
            return None, [
                _v(
                    "babylon.build.covered_space",
                    N_("The icon on {cell} is covered by a tile: it can no longer take a decoration."),
                    (cell,),
                    cell=cell_name(cell),
                )
            ]
        if icon != piece:
            return None, [
                _v(
                    "babylon.deco.icon",
                    _NO_ICON[piece],
                    (cell,),
                    cell=cell_name(cell),
                )
            ]
        levels.append(item.level)
        tiles.append(item.tile_id)
    plan_cells = cells
    plan_levels = tuple(levels)
    if piece in ("stairs", "fountain", "bridge"):
        (r1, c1), (r2, c2) = cells
        straight = r1 == r2 or c1 == c2
        distance = abs(r1 - r2) + abs(c1 - c2)
        if not straight:
            return None, [_v("babylon.deco.icon", N_("Decorations never join spaces diagonally."), cells)]
        if piece in ("stairs", "fountain") and distance != 1:
            rule = "babylon.deco.stairs" if piece == "stairs" else "babylon.deco.fountain"
            return None, [_v(rule, N_("The two icons on {cells} are not next to each other."), cells, cells=_names(cells))]
        if tiles[0] == tiles[1]:
            rule = f"babylon.deco.{piece}"
            return None, [_v(rule, N_("The two icons on {cells} are on the same tile: it must join two tiles."), cells, cells=_names(cells))]
        if piece == "stairs" and abs(levels[0] - levels[1]) != 1:
            return None, [
                _v(
                    "babylon.deco.stairs",
                    N_("Stairs join two tiles whose levels differ by exactly 1; these are at {a} and {b}."),
                    cells,
                    a=levels[0],
                    b=levels[1],
                )
            ]
        if piece in ("fountain", "bridge") and levels[0] != levels[1]:
            rule = f"babylon.deco.{piece}"
            return None, [
                _v(rule, N_("This joins two tiles at the same level; these are at {a} and {b}."), cells, a=levels[0], b=levels[1])
            ]
        if piece == "bridge":
            plan = _check_bridge(board, cells, tiles, levels[0], bridge_gap, decoration_height)
            if isinstance(plan, Violation):
                return None, [plan]
            plan_cells, plan_levels = plan
    if piece == "statue":
        standing = [d for d in board.decorations if d.kind == "statue"]
        cell = cells[0]
        if standing and not any(in_statue_line(d.cells[0], cell, statue_line) for d in standing):
            former = [p for p in board.pillars if p.kind == "statue" and in_statue_line(p.cell, cell, statue_line)]
            if former:
                return None, [
                    _v(
                        "babylon.build.statue_pillar",
                        N_("The statue in line on {other} now serves as a pillar: it no longer counts as a statue."),
                        (cell, former[0].cell),
                        other=cell_name(former[0].cell),
                    )
                ]
            if statue_line == "with_diagonals":
                text = N_("A statue on {cell} is not in a straight line (row, column or diagonal) with any statue already placed.")
                fix = N_("Choose a statue icon in the row, column or diagonal of a statue already placed.")
            else:
                text = N_("A statue on {cell} is not in a straight line (row or column) with any statue already placed.")
                fix = N_("Choose a statue icon in the row or column of a statue already placed.")
            return None, [_v("babylon.deco.statue", text, (cell,), fix, cell=cell_name(cell))]
    # deco.when: at least partly on a tile placed this turn.
    if not any(t in placed_this_turn for t in tiles):
        return None, [
            _v(
                "babylon.deco.when",
                N_("A decoration must lie at least partly on a tile placed this round; {cells} is not."),
                cells,
                N_("Choose icons of which at least one is on a tile you placed this turn."),
                cells=_names(cells),
            )
        ]
    return DecoPlan(plan_cells, plan_levels), []


def in_statue_line(a: Cell, b: Cell, reading: str = "row_or_column") -> bool:
    """babylon.deco.statue: seen from above, b lies in a straight line with a — the same row or
    column, or (reading "with_diagonals") the same diagonal of the board."""
    if a[0] == b[0] or a[1] == b[1]:
        return True
    return reading == "with_diagonals" and abs(a[0] - b[0]) == abs(a[1] - b[1])


def _covered_icon(board: Board, cell: Cell, top_level: int, piece: str) -> bool:
    """A lower tile under this cell shows the icon the player wanted (now hidden)."""
    return any(t.level < top_level and t.covers(cell) and t.icon_at(cell) == piece for t in board.tiles)


def _check_bridge(board: Board, cells, tiles, level: int, bridge_gap: str, decoration_height: str = "flat"):
    (r1, c1), (r2, c2) = cells
    if abs(r1 - r2) + abs(c1 - c2) != 2:
        return _v("babylon.deco.bridge", N_("A bridge joins two icons with exactly one space between them."), cells)
    gap = ((r1 + r2) // 2, (c1 + c2) // 2)
    first, second = board.tile(tiles[0]), board.tile(tiles[1])
    if first is None or second is None or first.covers(gap) or second.covers(gap):
        return _v(
            "babylon.deco.bridge",
            N_("The bridge's icons must be the two facing spaces of two tiles one space apart."),
            cells,
        )
    view = board.top
    if bridge_gap == "empty_to_board":
        open_gap = view.at(gap).kind == RECESS
        text = N_("The gap {cell} under the bridge must be empty down to the board (reading: empty_to_board).")
    else:
        open_gap = standing_height(board, gap, decoration_height) < level
        text = N_("The gap {cell} must be open at the bridge's level {level} (reading: bridge_level).")
    if not open_gap:
        return _v("babylon.deco.bridge", text, (gap,), cell=cell_name(gap), level=level)
    if view.at(gap).kind == PILLAR:
        # A pillar seen in the gap carries nothing; under the bridge it could never be taken back.
        return _v(
            "babylon.build.no_bare_pillar",
            N_("The pillar on {cell} carries no tile: under the bridge it would stay bare."),
            (gap,),
            N_("Take the pillar on {cell} back first."),
            cell=cell_name(gap),
        )
    return (cells[0], gap, cells[1]), (level, level, level)
