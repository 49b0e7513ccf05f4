"""Whole-state invariants: what any position reached by legal play must satisfy.

Used by the property tests and by `companion check`-style tools on hand-edited saves: pieces are
conserved (supply + gardens + hands = the component list), supplies never go negative, every tile
rests on 3 or 4 pillars whose tops are at its level (a belvedere on the open corner), tiles never
share space, levels rise one at a time and, outside a build in progress, no pillar stands bare.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .building import bare_pillars
from .model import footprint
from .pieces import STORAGE_SINGLES, Supply

if TYPE_CHECKING:
    from .state import BabylonState


def problems(state: BabylonState) -> list[str]:
    out: list[str] = []
    full = Supply()
    for kind in Supply.kinds():
        if state.supply.count(kind) < 0:
            out.append(f"supply of {kind} is negative")
    on_boards = dict.fromkeys(Supply.kinds(), 0)
    held_singles = sum(p.singles for p in state.seats)
    held_doubles = sum(p.doubles for p in state.seats)
    for index, seat in enumerate(state.seats):
        board = seat.board
        if seat.singles < 0 or seat.doubles < 0:
            out.append(f"player {index} holds a negative number of pillars")
        between_turns = state.stage not in ("build", "quarry", "store") or index != state.turn_of
        if between_turns and (seat.singles > STORAGE_SINGLES or seat.doubles):
                out.append(f"player {index} keeps more than storage allows between turns")
        for pillar in board.pillars:
            on_boards[pillar.kind] = on_boards.get(pillar.kind, 0) + 1
        for deco in board.decorations:
            on_boards[deco.kind] += 1
        out.extend(f"player {index}: {p}" for p in _garden_problems(state, index))
    expected = {
        "single": state.supply.single + held_singles + on_boards["single"],
        "double": state.supply.double + held_doubles + on_boards["double"],
        "statue": state.supply.statue + on_boards["statue"],  # statues serving as pillars included
    }
    for kind in ("belvedere", "stairs", "fountain", "bridge"):
        expected[kind] = state.supply.count(kind) + on_boards[kind]
    for kind, total in expected.items():
        if total != full.count(kind):
            out.append(f"{kind}: {total} accounted for, the game has {full.count(kind)}")
    return out


def _garden_problems(state: BabylonState, index: int) -> list[str]:
    board = state.seats[index].board
    out = []
    levels = {t.level for t in board.tiles}
    for level in levels:
        if level > 1 and level - 1 not in levels:
            out.append(f"a tile at level {level} but none at level {level - 1}")
    occupied: dict[tuple[int, int, int], str] = {}
    for tile in board.tiles:
        for cell in tile.cells:
            key = (cell[0], cell[1], tile.level)
            if key in occupied:
                out.append(f"tiles {occupied[key]} and {tile.id} share a space at level {tile.level}")
            occupied[key] = tile.id
    for tile in board.tiles:
        tops = [p for p in board.pillars if p.top == tile.level and tile.covers(p.cell)]
        if len({p.cell for p in tops}) != len(tops) or len(tops) not in (3, 4):
            out.append(f"tile {tile.id} rests on {len(tops)} pillars")
        if len(tops) == 3:
            open_cell = next(c for c in footprint(tile.row, tile.col) if c not in {p.cell for p in tops})
            if not any(d.kind == "belvedere" and d.cells == (open_cell,) and d.levels == (tile.level,) for d in board.decorations):
                out.append(f"tile {tile.id} on 3 pillars has no belvedere on its open corner")
    bare = bare_pillars(board)
    if not (state.stage == "build" and index == state.turn_of):
        if bare:
            out.append(f"{len(bare)} bare pillars outside a build")
    else:
        # During the build a bare pillar must still be on top of its cell, so it can be taken back.
        hidden = [p for p in bare if board.top.at(p.cell).piece_id != p.id]
        if hidden:
            out.append(f"{len(hidden)} bare pillars hidden under other pieces")
    return out
