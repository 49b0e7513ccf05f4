"""Whole-state invariants: what any position reached by legal play must satisfy.

Used by the property tests and by `companion check`-style tools on hand-edited saves: pieces are
conserved (supply + gardens + hands = the component list), supplies never go negative, every tile
rests on 3 or 4 pillars whose tops are at its level (a belvedere on the open corner), tiles never
share space, levels rise one at a time and, outside a build in progress, no pillar stands bare.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...i18n import N_, NP_
from ..api import Message
from .building import bare_pillars
from .model import footprint
from .pieces import STORAGE_SINGLES, Supply

if TYPE_CHECKING:
    from .state import BabylonState

PIECE_NAMES = {  # the supply's kinds, as "{pieces}" in a problem
    "single": N_("single pillars"), "double": N_("double pillars"), "belvedere": N_("belvederes"),
    "stairs": N_("stairs"), "fountain": N_("fountains"), "bridge": N_("bridges"), "statue": N_("statues"),
}


def _problem(msgid: str, rule: str | None = None, **params: Any) -> Message:
    return Message.of(msgid, **params, **({"rule": rule} if rule else {}))


def problems(state: BabylonState) -> list[Message]:
    """What no legal game can reach, each citing its rule where the digest has one."""
    out: list[Message] = []
    full = Supply()
    for kind in Supply.kinds():
        if state.supply.count(kind) < 0:
            out.append(_problem(N_("the supply of {pieces} is negative"), pieces=Message.of(PIECE_NAMES[kind])))
    on_boards = dict.fromkeys(Supply.kinds(), 0)
    held_singles = sum(p.singles for p in state.seats)
    held_doubles = sum(p.doubles for p in state.seats)
    for index, seat in enumerate(state.seats):
        board = seat.board
        if seat.singles < 0 or seat.doubles < 0:
            out.append(_problem(N_("{player} holds a negative number of pillars"), player=seat.name))
        between_turns = state.stage not in ("build", "quarry", "store") or index != state.turn_of
        if between_turns and (seat.singles > STORAGE_SINGLES or seat.doubles):
            out.append(_problem(N_("{player} keeps more pillars than storage allows between turns [{rule}]"),
                                "babylon.store.pillars", player=seat.name))
        for pillar in board.pillars:
            on_boards[pillar.kind] = on_boards.get(pillar.kind, 0) + 1
        for deco in board.decorations:
            on_boards[deco.kind] += 1
        out.extend(_problem(N_("{player}: {problem}"), player=seat.name, problem=p)
                   for p in _garden_problems(state, index))
    expected = {
        "single": state.supply.single + held_singles + on_boards["single"],
        "double": state.supply.double + held_doubles + on_boards["double"],
        "statue": state.supply.statue + on_boards["statue"],  # statues serving as pillars included
    }
    for kind in ("belvedere", "stairs", "fountain", "bridge"):
        expected[kind] = state.supply.count(kind) + on_boards[kind]
    for kind, total in expected.items():
        if total != full.count(kind):
            out.append(_problem(N_("{count} {pieces} accounted for but the game has {total}"), count=total,
                                pieces=Message.of(PIECE_NAMES[kind]), total=full.count(kind)))
    return out


def _garden_problems(state: BabylonState, index: int) -> list[Message]:
    board = state.seats[index].board
    out = []
    levels = {t.level for t in board.tiles}
    for level in levels:
        if level > 1 and level - 1 not in levels:
            out.append(_problem(N_("a tile at level {level} but none at level {below} [{rule}]"),
                                "babylon.build.one_level_at_a_time", level=level, below=level - 1))
    occupied: dict[tuple[int, int, int], str] = {}
    for tile in board.tiles:
        for cell in tile.cells:
            key = (cell[0], cell[1], tile.level)
            if key in occupied:
                out.append(_problem(N_("tiles {first} and {second} share a space at level {level} [{rule}]"),
                                    "babylon.build.covered_space", first=occupied[key], second=tile.id,
                                    level=tile.level))
            occupied[key] = tile.id
    for tile in board.tiles:
        tops = [p for p in board.pillars if p.top == tile.level and tile.covers(p.cell)]
        if len({p.cell for p in tops}) != len(tops) or len(tops) not in (3, 4):
            out.append(_problem(NP_("tile {tile} rests on {count} pillar [{rule}]", "tile {tile} rests on {count} pillars [{rule}]"), "babylon.build.support",
                                tile=tile.id, count=len(tops)))
        if len(tops) == 3:
            open_cell = next(c for c in footprint(tile.row, tile.col) if c not in {p.cell for p in tops})
            if not any(d.kind == "belvedere" and d.cells == (open_cell,) and d.levels == (tile.level,) for d in board.decorations):
                out.append(_problem(N_("tile {tile} on 3 pillars has no belvedere on its open corner [{rule}]"),
                                    "babylon.build.support", tile=tile.id))
    bare = bare_pillars(board)
    if not (state.stage == "build" and index == state.turn_of):
        if bare:
            out.append(_problem(NP_("{count} bare pillar outside a build [{rule}]",
                                    "{count} bare pillars outside a build [{rule}]"), "babylon.build.no_bare_pillar",
                                count=len(bare)))
    else:
        # During the build a bare pillar must still be on top of its cell, so it can be taken back.
        hidden = [p for p in bare if board.top.at(p.cell).piece_id != p.id]
        if hidden:
            out.append(_problem(NP_("{count} bare pillar hidden under other pieces [{rule}]",
                                    "{count} bare pillars hidden under other pieces [{rule}]"),
                                "babylon.build.covered_space", count=len(hidden)))
    return out
