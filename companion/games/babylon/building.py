"""Build rules on one garden (`babylon.build.*`): pillars, tile support, levels, exact cover.

Pure functions of a Board (and the game's options); the state module calls them and applies the
results. Each violation cites its rule id from DIGEST.md §1.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...i18n import N_, NP_
from ..api import Violation
from .model import SIZE, Board, Cell, Pillar, cell_name, footprint, in_board
from .topview import PILLAR, RECESS, TILE


def _v(rule: str, text: str, fix: str | None = None, where: tuple[Cell, ...] = (), **params) -> Violation:
    return Violation.of(rule, text, fix=fix, where=tuple(cell_name(c) for c in where), **params)


_HOLDS = {
    "pillar": N_("{cell} already holds a pillar: pillars go on empty recesses or tile spaces."),
    "stairs": N_("{cell} already holds stairs: pillars go on empty recesses or tile spaces."),
    "fountain": N_("{cell} already holds a fountain: pillars go on empty recesses or tile spaces."),
    "bridge": N_("{cell} lies under a bridge: pillars go on empty recesses or tile spaces."),
    "statue": N_("{cell} already holds a statue: pillars go on empty recesses or tile spaces."),
    "belvedere": N_("{cell} already holds a belvedere: pillars go on empty recesses or tile spaces."),
}


def check_pillar(board: Board, cell: Cell, size: str, level: int | None, singles: int, doubles: int) -> list[Violation]:
    """babylon.build.pillars and babylon.build.covered_space for one new pillar."""
    out: list[Violation] = []
    if not in_board(cell):
        return [_v("babylon.build.pillars", N_("Pillars go on the 8×8 building area."))]
    if size == "single" and singles < 1:
        out.append(_v("babylon.build.pillars", N_("You have no single pillar left."), where=(cell,)))
    if size == "double" and doubles < 1:
        fix = N_("Exchange 2 single pillars for a double one first.") if singles >= 2 else None
        out.append(_v("babylon.build.pillars", N_("You have no double pillar."), fix, (cell,)))
    view = board.top
    top = view.at(cell)
    surface_level, _ = view.surface(cell)
    if level is not None and level < surface_level:
        out.append(
            _v(
                "babylon.build.covered_space",
                N_("The space on {cell} at level {level} is covered by a tile: it cannot take a pillar."),
                N_("Stand the pillar on what is on top of {cell}, at level {surface}."),
                where=(cell,),
                surface=surface_level,
                cell=cell_name(cell),
                level=level,
            )
        )
    elif not top.is_empty_surface:
        out.append(
            _v(
                "babylon.build.pillars",
                _HOLDS.get(top.kind, _HOLDS["pillar"]),
                where=(cell,),
                cell=cell_name(cell),
            )
        )
    elif level is not None and level != top.level:
        out.append(
            _v(
                "babylon.level",
                N_("The surface on {cell} is at level {seen}, not {level}."),
                N_("Count levels from the board (level 0): a tile on single pillars on the board is level 1."),
                where=(cell,),
                cell=cell_name(cell),
                seen=top.level,
                level=level,
            )
        )
    return out


@dataclass(frozen=True)
class Support:
    """What a tile at (row, col, level) would rest on."""

    pillars: tuple[tuple[Cell, str], ...]  # (cell, pillar id or statue decoration id)
    statues: tuple[str, ...]  # decoration ids of statues that become pillars
    open_cell: Cell | None  # the space with nothing beneath at the tile's level (3 supports)


# Decorations other than statues: how tall they stand is not in the rulebooks (the `decoration_height`
# reading). Statues are one level tall in every reading: they can carry a tile like a single pillar.
FLAT_DECORATIONS = ("stairs", "fountain", "bridge", "belvedere")


def standing_height(board: Board, cell: Cell, decoration_height: str = "flat") -> int:
    """The highest point of what stands in a cell, in levels: a tile above it must be at least
    this high. Reading "one_level": a fountain, bridge or belvedere on a level-n space reaches
    n + 1, so only a tile at n + 2 or higher may pass over it; stairs rise from the lower tile to
    the upper one, so both their cells reach the upper tile's level."""
    view = board.top
    height = view.height(cell)
    item = view.at(cell)
    if decoration_height == "one_level" and item.kind in FLAT_DECORATIONS:
        top = item.level + 1
        if item.kind == "stairs":
            top = max(next(d.levels for d in board.decorations if d.id == item.piece_id))
        height = max(height, top)
    return height


def analyse_support(
    board: Board, row: int, col: int, level: int, decoration_height: str = "flat"
) -> tuple[Support | None, list[Violation]]:
    """babylon.build.support and babylon.build.mixed_support for a tile footprint and level."""
    if not (0 <= row <= SIZE - 2 and 0 <= col <= SIZE - 2):
        return None, [_v("babylon.build.support", N_("A tile must lie wholly on the 8×8 building area."))]
    view = board.top
    cells = footprint(row, col)
    pillars: list[tuple[Cell, str]] = []
    statues: list[str] = []
    tops: dict[Cell, tuple[int, int]] = {}  # cell -> (top, base) of a pillar-like piece on top
    blocked: list[Cell] = []
    flat: list[Cell] = []
    tall: list[Cell] = []  # a decoration one level below reaching the tile (reading one_level)
    lower: list[Cell] = []
    for cell in cells:
        item = view.at(cell)
        height = standing_height(board, cell, decoration_height)
        if item.kind == PILLAR:
            tops[cell] = (item.level + item.height, item.level)
        elif item.kind == "statue":
            tops[cell] = (item.level + 1, item.level)
        if height > level:
            blocked.append(cell)
        elif height == level:
            if item.kind == PILLAR:
                pillars.append((cell, item.piece_id or ""))
            elif item.kind == "statue":
                pillars.append((cell, item.piece_id or ""))
                statues.append(item.piece_id or "")
            elif item.kind in FLAT_DECORATIONS and item.level < level:
                tall.append(cell)
            else:
                flat.append(cell)  # a tile (or a flat decoration) at the same level: no room
        else:
            lower.append(cell)
    if blocked:
        return None, [
            _v(
                "babylon.build.support",
                N_("Something on {cells} stands higher than level {level}: the tile cannot lie there."),
                N_("Place the tile higher, on pillars that rise above it, or somewhere else."),
                where=tuple(blocked),
                cells=", ".join(cell_name(c) for c in blocked),
                level=level,
            )
        ]
    if tall:
        return None, [
            _v(
                "babylon.build.support",
                N_("A decoration on {cells} stands one level tall: a tile at level {level} cannot pass over it (reading: one_level)."),
                N_("Raise the tile by one more level, or place it elsewhere."),
                where=tuple(tall),
                cells=", ".join(cell_name(c) for c in tall),
                level=level,
            )
        ]
    if flat:
        return None, [
            _v(
                "babylon.build.support",
                N_("A tile at level {level} would lie directly on {cells}: tiles rest on pillars."),
                N_("Stand pillars on those spaces and place the tile one level higher."),
                where=tuple(flat),
                cells=", ".join(cell_name(c) for c in flat),
                level=level,
            )
        ]
    if len(pillars) < 3:
        # Pillars whose tops miss the tile's level: say so, citing mixed support when the pillars
        # stand on different levels (the case where sizes must be mixed to meet).
        bases = {base for top, base in tops.values()}
        short = tuple(c for c in tops if tops[c][0] != level)
        rule = "babylon.build.mixed_support" if len(bases) > 1 and short else "babylon.build.support"
        if short:
            return None, [
                _v(
                    rule,
                    N_("The pillar tops under this tile are not all at level {level}: {cells} fall short."),
                    N_("Pillars standing on different levels need different sizes so that their tops meet."),
                    where=short,
                    level=level,
                    cells=", ".join(cell_name(c) for c in short),
                )
            ]
        return None, [
            _v(
                "babylon.build.support",
                NP_("A tile at level {level} rests on {count} pillar here; it needs 3 or 4 whose tops are at its level.",
                    "A tile at level {level} rests on {count} pillars here; it needs 3 or 4 whose tops are at its "
                    "level."),
                N_("Stand 3 or 4 pillars under the tile first, their tops at its level."),
                where=tuple(c for c, _ in pillars),
                level=level,
                count=len(pillars),
            )
        ]
    open_cell = lower[0] if len(lower) == 1 else None
    if open_cell is not None and view.at(open_cell).kind == PILLAR:
        # A pillar under the open corner would carry nothing: it is a bare pillar hidden below.
        # ja: 「すべての柱コマの上には、テラスタイルが置かれていなければなりません」
        return None, [
            _v(
                "babylon.build.no_bare_pillar",
                N_("The pillar on {cell} would not reach the tile: every pillar must carry a tile."),
                N_("Take the pillar on {cell} back first, or make it reach the tile."),
                where=(open_cell,),
                cell=cell_name(open_cell),
            )
        ]
    return Support(tuple(pillars), tuple(statues), open_cell), []


def check_level_order(board: Board, level: int) -> list[Violation]:
    """babylon.build.one_level_at_a_time."""
    if level <= 1 or any(t.level == level - 1 for t in board.tiles):
        return []
    return [
        _v(
            "babylon.build.one_level_at_a_time",
            N_("No tile at level {level} until you have a tile at level {below} somewhere."),
            N_("Place a tile at level {below} first; it may be anywhere in your garden."),
            level=level,
            below=level - 1,
        )
    ]


def check_exact_cover(board: Board, row: int, col: int, level: int, reading: str) -> list[Violation]:
    """babylon.build.no_exact_cover, in the configured reading.

    directly_beneath (ja rulebook): not exactly over the tile right below, i.e. a tile with the same
    footprint with no other tile overlapping the footprint between the two levels.
    any_tile (zh-TW rulebook): no two tiles ever share a footprint, whatever lies between.
    """
    cells = set(footprint(row, col))
    for tile in board.tiles:
        if (tile.row, tile.col) != (row, col) or tile.level >= level:
            continue
        if reading == "directly_beneath":
            between = [
                t for t in board.tiles if tile.level < t.level < level and cells & set(t.cells)
            ]
            if between:
                continue
        return [
            _v(
                "babylon.build.no_exact_cover",
                N_("This tile would exactly cover the tile at level {below} on {cell}."),
                N_("Shift the tile by at least one space."),
                where=tuple(sorted(cells)),
                below=tile.level,
                cell=cell_name((row, col)),
            )
        ]
    return []


def bare_pillars(board: Board) -> tuple[Pillar, ...]:
    """babylon.build.no_bare_pillar: pillars that carry no tile (a tile at their top's level)."""
    return tuple(
        p for p in board.pillars if not any(t.level == p.top and t.covers(p.cell) for t in board.tiles)
    )


def is_free_surface(board: Board, cell: Cell) -> bool:
    item = board.top.at(cell)
    return item.kind in (RECESS, TILE)
