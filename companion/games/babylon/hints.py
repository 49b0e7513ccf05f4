"""Whole tile placements for hints: `legal_placements(state)` and `suggest(state, n)`.

A placement is one complete way to put a held tile (new or stored, with known icons) into the
garden: the exchanges and pillars it needs (from hand and storage, statues serving as pillars where
they stand), the tile with its turn and level, the decorations it then enables and the points it
would add. It is computed from the current view from above without replaying the moves, so it is
fast enough to list every option; the tests replay placements through the checker to keep the two
in step.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...i18n import NP_
from ..api import Message, Move
from .building import check_exact_cover, standing_height
from .decorating import in_statue_line
from .model import SIZE, Board, Cell, Icons, cell_name, footprint, rotations
from .moves import Exchange, PlaceDecoration, PlacePillar, PlaceTile
from .topview import PILLAR, TopView

if TYPE_CHECKING:
    from .state import BabylonState

_STEPS = ((0, 1), (1, 0), (0, -1), (-1, 0))
_DECO_KINDS = ("stairs", "fountain", "bridge", "statue")


@dataclass(frozen=True)
class Placement:
    """One legal way to place a tile, as the granular moves that make it, with what it earns."""

    tile: str  # "new" or "slot"
    row: int
    col: int
    level: int
    rotation: int
    icons: Icons
    pillars: tuple[tuple[Cell, str], ...]  # new pillars: (cell, "single" | "double")
    statues: tuple[Cell, ...]  # statues that become pillars
    exchanges: int  # 2 singles → 1 double exchanges needed first
    belvedere: Cell | None
    decorations: tuple[tuple[PlaceDecoration, int], ...]  # enabled right after, with their points
    points: int  # score change of placing the tile alone (levels, belvedere, flowers, covering)

    @property
    def moves(self) -> tuple[Move, ...]:
        out: list[Move] = [Exchange("singles")] * self.exchanges
        out += [PlacePillar(cell, size) for cell, size in self.pillars]
        out.append(PlaceTile(self.tile, self.row, self.col, self.level, rotation=self.rotation))
        return tuple(out)

    @property
    def best_decorations(self) -> tuple[tuple[PlaceDecoration, int], ...]:
        """Enabled decorations that can all be taken together (no shared space, one round-token
        icon at most), best first."""
        used: set[Cell] = set()
        chosen = []
        wild_used = False
        for move, points in sorted(self.decorations, key=lambda d: (-d[1], d[0].wild is not None)):
            if used.isdisjoint(move.cells) and not (wild_used and move.wild is not None):
                chosen.append((move, points))
                used.update(move.cells)
                wild_used = wild_used or move.wild is not None
        return tuple(chosen)

    @property
    def value(self) -> int:
        return self.points + sum(p for _, p in self.best_decorations)

    def to_json(self) -> dict:
        """For the hint screen: where, how, and what it earns."""
        return {
            "tile": self.tile,
            "at": [self.row, self.col],
            "level": self.level,
            "rotation": self.rotation,
            "icons": list(self.icons),
            "pillars": [{"cell": list(cell), "size": size} for cell, size in self.pillars],
            "statues": [list(cell) for cell in self.statues],
            "exchanges": self.exchanges,
            "belvedere": None if self.belvedere is None else list(self.belvedere),
            "decorations": [{"move": move.to_json(), "points": points} for move, points in self.decorations],
            "points": self.points,
            "value": self.value,
            "moves": [move.to_json() for move in self.moves],
        }


def legal_placements(state: BabylonState) -> list[Placement]:
    if state.stage != "build":
        return []
    board = state.me.board
    view = board.top
    out: list[Placement] = []
    levels_present = {t.level for t in board.tiles}
    statues_standing = tuple(d.cells[0] for d in board.decorations if d.kind == "statue")
    summary = _Summary.of(board, view, state.flowers)
    supply = {k: state.supply.count(k) for k in _DECO_KINDS}
    wild_effect = state.effect if state.effect in ("icon_swap", "icon_blank") and not state.turn.wild_used else None
    targets = {icon: tuple(_icon_choices(icon, wild_effect, supply)) for icon in (None, *_DECO_KINDS)}
    memo: dict[tuple, tuple[tuple[PlaceDecoration, int], ...]] = {}
    for which in ("new", "slot"):
        tile = state.held_tile(which)
        if tile is None or tile.icons is None:
            continue
        layouts = rotations(tile.icons)
        for row in range(SIZE - 1):
            for col in range(SIZE - 1):
                cells = footprint(row, col)
                for option in _support_options(state, view, row, col, levels_present):
                    level, pillars, statues, exchanges, open_cell = option
                    points = summary.delta_for_tile(cells, level, tile.flower, open_cell is not None)
                    standing = [c for c in statues_standing if c not in statues]
                    for k, layout in enumerate(layouts):
                        decos: list[tuple[PlaceDecoration, int]] = []
                        for cell, icon in zip(cells, layout, strict=True):
                            if cell == open_cell:
                                continue
                            for target, wild in targets[icon]:
                                # Shared by every support and both tiles at this footprint and level.
                                key = (row, col, level, statues, cell, target)
                                found = memo.get(key)
                                if found is None:
                                    found = memo[key] = tuple(
                                        _decorations_at(state, view, cells, cell, target, level, standing)
                                    )
                                if not found:
                                    continue
                                if wild:
                                    decos.extend((PlaceDecoration(m.piece, m.cells, (cell, target)), g) for m, g in found)
                                else:
                                    decos.extend(found)
                        out.append(
                            Placement(
                                which, row, col, level, k, layout, pillars, statues, exchanges, open_cell, tuple(decos), points
                            )
                        )
    return out


def suggest(state: BabylonState, n: int = 3) -> list[tuple[Placement, Message]]:
    """The best few placements by points (tile plus the decorations it enables), with a reason."""
    ranked = sorted(legal_placements(state), key=lambda p: (-p.value, len(p.pillars), p.row, p.col, p.rotation))
    out = []
    for placement in ranked[:n]:
        decos = placement.best_decorations
        if decos:
            reason = Message.of(
                NP_("Tile on {cell} at level {level}: +{points} VP, then {count} decoration for +{deco} VP.",
                    "Tile on {cell} at level {level}: +{points} VP, then {count} decorations for +{deco} VP."),
                cell=cell_name((placement.row, placement.col)),
                level=placement.level,
                points=placement.points,
                count=len(decos),
                deco=sum(p for _, p in decos),
            )
        else:
            reason = Message.of(
                NP_("Tile on {cell} at level {level} with {count} new pillar: +{points} VP.",
                    "Tile on {cell} at level {level} with {count} new pillars: +{points} VP."),
                cell=cell_name((placement.row, placement.col)),
                level=placement.level,
                count=len(placement.pillars),
                points=placement.points,
            )
        out.append((placement, reason))
    return out


def _support_options(state: BabylonState, view: TopView, row: int, col: int, levels_present: set[int]) -> Iterable:
    """(level, new pillars, statues, exchanges, open cell) for each legal support of this footprint."""
    cells = footprint(row, col)
    reach: list[dict[int, str]] = []  # per cell: level reachable -> how (single, double, statue, pillar)
    heights = []
    bare = []
    for cell in cells:
        item = view.at(cell)
        heights.append(standing_height(state.me.board, cell, state.options.decoration_height))
        ways: dict[int, str] = {}
        if item.is_empty_surface:
            ways[item.level + 1] = "single"
            ways[item.level + 2] = "double"
        elif item.kind == "statue":
            ways[item.level + 1] = "statue"
        elif item.kind == PILLAR:
            ways[item.level + item.height] = "pillar"
        bare.append(item.kind == PILLAR)
        reach.append(ways)
    me = state.me
    candidate_levels = sorted({level for ways in reach for level in ways})
    for level in candidate_levels:
        if level >= 2 and level - 1 not in levels_present:
            continue  # babylon.build.one_level_at_a_time
        if any(h > level for h in heights):
            continue
        must = [i for i in range(4) if reach[i].get(level) in ("statue", "pillar")]
        can = [i for i in range(4) if reach[i].get(level) in ("single", "double")]
        lower_ok = [i for i in range(4) if heights[i] < level and not bare[i] and reach[i].get(level) != "statue"]
        if any(i not in must and i not in can and i not in lower_ok for i in range(4)):
            continue
        if any(h == level and reach[i].get(level) not in ("statue", "pillar") for i, h in enumerate(heights)):
            continue
        support_sets = []
        if len(must) + len(can) == 4:
            support_sets.append((tuple(range(4)), None))
        for left_out in can:
            chosen = tuple(i for i in range(4) if i != left_out)
            if all(i in must or i in can for i in chosen):
                support_sets.append((chosen, left_out))
        if len(must) + len(can) == 3:
            left = next(i for i in range(4) if i not in must and i not in can)
            if left in lower_ok:
                support_sets.append((tuple(i for i in range(4) if i != left), left))
        for chosen, left_out in support_sets:
            if left_out is not None and state.supply.belvedere < 1:
                continue
            new = tuple((cells[i], reach[i][level]) for i in chosen if i in can)
            singles = sum(1 for _, size in new if size == "single")
            doubles = sum(1 for _, size in new if size == "double")
            exchanges = max(0, doubles - me.doubles)
            if me.singles < singles + 2 * exchanges or state.supply.double < exchanges:
                continue
            if _exact_cover(state.me.board, row, col, level, state.options.exact_cover):
                continue
            statues = tuple(cells[i] for i in chosen if reach[i][level] == "statue")
            yield level, new, statues, exchanges, None if left_out is None else cells[left_out]


def _exact_cover(board: Board, row: int, col: int, level: int, reading: str) -> bool:
    return bool(check_exact_cover(board, row, col, level, reading))


def _icon_choices(icon, wild_effect: str | None, supply: dict[str, int]):
    """(icon, by round token?) a new tile's space may count as: its own, and with this round's token
    (babylon.round_token) any other icon (icon_swap) or any icon on a blank space (icon_blank)."""
    if icon is not None and supply.get(icon, 0) > 0:
        yield icon, False
    if (wild_effect == "icon_swap" and icon is not None) or (wild_effect == "icon_blank" and icon is None):
        for other in _DECO_KINDS:
            if other != icon and supply.get(other, 0) > 0:
                yield other, True


def _decorations_at(state, view: TopView, cells, cell: Cell, icon: str, level: int, standing):
    """Decorations joining the new tile's space `cell` (showing `icon`) to the garden as it is."""
    if icon == "statue":
        if not standing or any(in_statue_line(s, cell, state.options.statue_line) for s in standing):
            yield PlaceDecoration("statue", (cell,)), level
        return
    distance = 2 if icon == "bridge" else 1
    for dr, dc in _STEPS:
        other = (cell[0] + dr * distance, cell[1] + dc * distance)
        if not (0 <= other[0] < SIZE and 0 <= other[1] < SIZE) or other in cells:
            continue
        item = view.at(other)
        if item.kind != "tile" or item.icon != icon:
            continue
        if icon == "stairs":
            if abs(item.level - level) != 1:
                continue
            points = level + item.level
        else:
            if item.level != level:
                continue
            points = 3 * level
        if icon == "bridge":
            gap = (cell[0] + dr, cell[1] + dc)
            other_tile = state.me.board.tile(item.tile_id)
            if gap in cells or other_tile is None or other_tile.covers(gap) or view.at(gap).kind == PILLAR:
                continue
            if state.options.bridge_gap == "empty_to_board":
                if view.at(gap).kind != "recess":
                    continue
            elif standing_height(state.me.board, gap, state.options.decoration_height) >= level:
                continue
        # The new tile is placed this turn, so babylon.deco.when holds for every one of these.
        yield PlaceDecoration(icon, tuple(sorted((cell, other)))), points


@dataclass
class _Summary:
    """The scoring inputs of a garden, to price a placement without recomputing the view."""

    view: TopView
    board: Board
    flowers: tuple[str, ...]
    visible_cells: dict[str, set[Cell]]
    baseline: int = 0
    deltas: dict = field(default_factory=dict)

    @classmethod
    def of(cls, board: Board, view: TopView, flowers: tuple[str, ...]) -> _Summary:
        visible: dict[str, set[Cell]] = {}
        for r in range(SIZE):
            for c in range(SIZE):
                item = view.cells[r][c]
                for piece in (item.piece_id, item.tile_id):
                    if piece is not None:
                        visible.setdefault(piece, set()).add((r, c))
        summary = cls(view, board, flowers, visible)
        summary.baseline = summary._score(set(), None, False)
        return summary

    def _score(self, hidden: set[str], extra_tile: tuple[int, str] | None, belvedere: bool) -> int:
        # The same categories as scoring.score_lines, from counts (tests keep the two in step).
        tiles = [t for t in self.board.tiles if t.id in self.visible_cells and t.id not in hidden]
        levels = [t.level for t in self.board.tiles] + ([extra_tile[0]] if extra_tile else [])
        total = 2 * max(levels, default=0)
        decos = [d for d in self.board.decorations if d.id in self.visible_cells and d.id not in hidden]
        counts = dict.fromkeys(_DECO_KINDS, 0)
        belvederes = sum(1 for d in decos if d.kind == "belvedere") + (1 if belvedere else 0)
        for d in decos:
            if d.kind in counts:
                counts[d.kind] += 1
            if d.kind == "statue":
                total += d.level
            elif d.kind in ("fountain", "bridge"):
                total += 3 * d.level
            elif d.kind == "stairs":
                total += sum(d.levels)
        total += 4 * min(counts.values()) + belvederes
        per_flower = dict.fromkeys(self.flowers, 0)
        for t in tiles:
            if t.flower in per_flower:
                per_flower[t.flower] += 1
        if extra_tile is not None and extra_tile[1] in per_flower:
            per_flower[extra_tile[1]] += 1
        total += 4 * min(per_flower.values(), default=0)
        return total

    def delta_for_tile(self, cells, level: int, flower: str, belvedere: bool) -> int:
        key = (cells, level, flower, belvedere)
        if key not in self.deltas:
            covered = set(cells)
            hidden = {piece for piece, where in self.visible_cells.items() if where <= covered}
            self.deltas[key] = self._score(hidden, (level, flower), belvedere) - self.baseline
        return self.deltas[key]


def quarry_options(state: BabylonState) -> list[tuple[tuple[int, int], str, int, int]]:
    """For each visible quarry tile: (place, material, pillars if not your flower, if your flower),
    best first. The flower is read only when the tile is taken, so both rewards are given."""
    out = []
    for place in state.quarry.visible_places():
        material = state.quarry.top_material(place) or ""
        other = state.quarry.reward(place, False, state.effect).pillars
        own = state.quarry.reward(place, True, state.effect).pillars
        out.append((place, material, other, own))
    return sorted(out, key=lambda o: (-o[2], o[0]))
