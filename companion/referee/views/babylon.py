"""Babylon seen from above: the quarry (4×4 places, top material) and each player's garden (8×8).

Regions: "babylon.quarry" and "babylon.garden.<seat>" (seat 0 = the start player). Cells use the
labels.py vocabulary as the digital twin draws it: pillars by the level of their top, tile spaces
with level, footprint id ("r2c3" of the top-left cell), flower ("flower<i>", i = the flower's
index in the game) and icon ("none" for a blank space), decorations with the level they stand at.

What the camera cannot see is not guessed: which flower is on a tile just taken from the quarry
(its garden side faces the player) is asked; the icons of a tile come from the camera when it is
placed (scene candidates); the end of a build, what goes to storage and which round token is turned
up are declared by a player, except that a single sensible storage choice is proposed (all single
pillars up to 6, the unplaced tile kept when the slot allows it) so play flows on.
Illegal actions weighed: tiles seen where the rules forbid them (support, exact cover, one level at
a time, covered spaces) and decorations seen where they may not go (icons, levels, gaps, statue
lines, tiles of an earlier round).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from typing import Any

from ...games.api import GameState, Move
from ...games.babylon.model import ICONS, SIZE, footprint, rotate, rotations
from ...games.babylon.moves import (
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
    Reveal,
    Store,
    Take,
)
from ...games.babylon.quarry import all_places
from ...games.babylon.state import BabylonState
from ...vision import labels
from ...vision.types import Observation
from .base import ExpectedCell, ExpectedView, GameView, freeze

QUARRY = "babylon.quarry"
DECOS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)
PLACEABLE = ("stairs", "fountain", "bridge", "statue")
UNSURE_ICON = 0.75  # a tile space read less surely than this may show another icon


def garden_region(seat: int) -> str:
    return f"babylon.garden.{seat}"


class BabylonView(GameView):
    def __init__(self, **options: Any) -> None:
        # a tile's icon is small on the picture: a sure misreading of it never rules a reading out
        super().__init__("babylon", (QUARRY,), max_chain=2, budget=1500, options=options, soft_attrs=("icon",))
        self._gardens: dict[int, tuple] = {}
        self._quarries: dict[tuple, Any] = {}

    def region_shape(self, region: str) -> tuple[int, int]:
        return (4, 4) if region == QUARRY else (SIZE, SIZE)

    # --- what the table looks like --------------------------------------------------------------

    def expected(self, state: GameState) -> ExpectedView:
        assert isinstance(state, BabylonState)
        view: dict[str, Any] = {QUARRY: self._quarry(state)}
        for seat_index, seat in enumerate(state.seats):
            view[garden_region(seat_index)] = self._garden(state, seat.board)
        return view

    def _quarry(self, state: BabylonState):
        hit = self._quarries.get(state.quarry.heights)
        if hit is None:
            hit = self._quarries[state.quarry.heights] = self._quarry_grid(state)
        return hit

    def _quarry_grid(self, state: BabylonState):
        rows = [[ExpectedCell.of(labels.QUARRY_EMPTY)] * 4 for _ in range(4)]
        for place in all_places():
            material = state.quarry.top_material(place)
            rows[place[0]][place[1]] = ExpectedCell.of(material or labels.QUARRY_EMPTY)
        return freeze(rows)

    def _garden(self, state: BabylonState, board):
        """The expected 8×8 of one board; boards are immutable and shared between the states
        the search visits, so each is worked out once (keyed by its cached top view)."""
        top = board.top
        hit = self._gardens.get(id(top))
        if hit is not None and hit[0] is top and hit[1] == state.flowers:
            return hit[2]
        grid = self._garden_grid(state, board, top)
        if len(self._gardens) > 1024:  # a bounded cache: each entry is a whole 8×8 grid
            self._gardens.clear()
        self._gardens[id(top)] = (top, state.flowers, grid)
        return grid

    def _garden_grid(self, state: BabylonState, board, top):
        origin = {t.id: (t.row, t.col) for t in board.tiles}
        rows = []
        for r in range(SIZE):
            row = []
            for c in range(SIZE):
                row.append(self._cell(state, top.cells[r][c], origin))
            rows.append(row)
        return freeze(rows)

    def _cell(self, state: BabylonState, item, origin) -> ExpectedCell:
        if item.kind == "recess":
            return ExpectedCell.of(labels.RECESS, level=0)
        if item.kind == "pillar":
            label = labels.PILLAR2 if item.height == 2 else labels.PILLAR1
            return ExpectedCell.of(label, level=item.level + item.height)
        if item.kind == "tile":
            r, c = origin.get(item.tile_id, (0, 0))
            return ExpectedCell.of(labels.TILE, level=item.level, tile=f"r{r}c{c}",
                                   flower=self.flower_label(state, item.flower), icon=item.icon or "none")
        if item.kind == labels.STAIRS:
            return ExpectedCell.of(labels.STAIRS)  # the two levels it joins are not compared
        return ExpectedCell.of(item.kind, level=item.level)

    @staticmethod
    def flower_label(state: BabylonState, flower: str | None) -> str:
        if flower in state.flowers:
            return f"flower{state.flowers.index(flower)}"
        return str(flower)

    # --- candidates ----------------------------------------------------------------------------

    def legal_candidates(self, state: GameState) -> Iterator[Move]:
        assert isinstance(state, BabylonState)
        if state.stage == "store":
            yield self.default_store(state)
            return
        for move in state.legal_moves():
            if isinstance(move, PlaceTile):
                continue  # tiles come from the scene, where one is seen (scene_candidates)
            yield move

    def adapt(self, state: GameState, observations: Mapping[str, Any]) -> Mapping[str, Any]:
        """A camera that sees one garden ("babylon.garden") sees the garden of the player to move."""
        if "babylon.garden" not in observations:
            return observations
        assert isinstance(state, BabylonState)
        out = dict(observations)
        out[garden_region(state.turn_of)] = out.pop("babylon.garden")
        return out

    def candidates_near(self, state: GameState, seen: frozenset[tuple[str, int, int]]) -> Iterator[Move]:
        """Only moves touching what changed: takes at changed quarry places, pillars on changed
        cells of the player's garden, and the moves nobody sees (end of build, storage, token)."""
        assert isinstance(state, BabylonState)
        stage = state.stage
        garden = garden_region(state.turn_of)
        places = {(r, c) for region, r, c in seen if region == QUARRY}
        cells = {(r, c) for region, r, c in seen if region == garden}
        if stage in ("trim", "quarry"):
            for move in state.legal_moves():
                place = getattr(move, "place", None)
                if place is None or tuple(place) in places:
                    yield move
        elif stage == "build":
            me = state.me
            top = me.board.top
            for r, c in sorted(cells):
                item = top.cells[r][c]
                if item.is_empty_surface:
                    if me.singles:
                        yield PlacePillar((r, c), "single")
                    if me.doubles:
                        yield PlacePillar((r, c), "double")
                elif item.kind == "pillar" and item.piece_id in state.turn.pillars:
                    yield RemovePillar((r, c))
            if me.singles >= 2 and state.supply.double >= 1:
                yield Exchange("singles")
            if state.check(EndBuild()).accepted:
                yield EndBuild()
        elif stage == "store":
            yield self.default_store(state)
        else:
            yield from state.legal_moves()

    @staticmethod
    def default_store(state: BabylonState) -> Store:
        stores = [m for m in state.legal_moves() if isinstance(m, Store)]
        return max(stores, key=lambda m: (m.singles, m.store_new, not m.discard_slot))

    def scene_candidates(self, state: GameState, observations: Mapping[str, Observation]) -> Iterator[Move]:
        assert isinstance(state, BabylonState)
        if state.stage != "build":
            return
        region = garden_region(state.turn_of)
        obs = observations.get(region)
        if obs is None:
            return
        shown = self._garden(state, state.me.board)
        yield from self._seen_tiles(state, obs, shown)
        yield from self._seen_decorations(state, obs, shown)

    def _seen_tiles(self, state: BabylonState, obs: Observation, shown) -> Iterator[Move]:
        """A tile seen on a 2×2 footprint (one space may carry the belvedere of a 3-pillar tile).

        Every tile reading of a space counts (its top reading or an alternative): an observer may
        put a tile level or icon it is unsure of second. A space whose top reading is a belvedere,
        or that offers no tile with a level, is covered: its icon is unknown (at most one per tile).
        """
        for row in range(SIZE - 1):
            for col in range(SIZE - 1):
                cells = footprint(row, col)
                options = [_tile_options(obs.cell(*cell)) for cell in cells]
                covered = [i for i, found in enumerate(options) if not found]
                if len(covered) > 1:
                    continue
                belvedere = bool(covered) and _as(obs.cell(*cells[covered[0]]), labels.BELVEDERE) is not None
                if covered and not belvedere and _as(obs.cell(*cells[covered[0]]), labels.TILE) is None:
                    continue  # neither a tile nor a belvedere: no tile there
                fid = f"r{row}c{col}"
                shared = set.intersection(*({a["level"] for a in found} for found in options if found))
                for level in sorted(shared):
                    if any(shown[r][c].label == labels.TILE and shown[r][c].attr("tile") == fid
                           and shown[r][c].attr("level") == level for r, c in cells):
                        continue  # that tile is already there (a tile above one of the same footprint is new)
                    seen = [None if not found else _icon_at(found, level) for found in options]
                    unsure = [i for i, cell in enumerate(cells) if i not in covered
                              and (obs.cell(*cell).label != labels.TILE or obs.cell(*cell).confidence < UNSURE_ICON)]
                    old_top = any(shown[r][c].label == labels.TILE and shown[r][c].attr("level") == level
                                  for r, c in cells)
                    if covered or len(unsure) > 2 or old_top:  # (a tile already lying there: no new icons)
                        unsure = []
                    for icons in _icon_choices(seen, unsure):
                        yield from self._tiles_at(state, row, col, int(level), icons, covered, belvedere)

    def _tiles_at(self, state: BabylonState, row: int, col: int, level: int, seen: list,
                  covered: list[int], belvedere: bool) -> Iterator[Move]:
        for which in ("new", "slot"):
            tile = state.held_tile(which)
            if tile is None:
                continue
            if tile.icons is not None:  # known face: the engine knows its turns
                for k in range(len(rotations(tile.icons))):
                    yield PlaceTile(which, row, col, level, rotation=k)
            elif not covered:
                yield PlaceTile(which, row, col, level, icons=tuple(seen))
            else:
                options = []
                for hidden in (None, *ICONS):
                    seen[covered[0]] = hidden
                    options.append(PlaceTile(which, row, col, level, icons=tuple(seen)))
                if belvedere:  # the icon under it cannot be read and never matters again:
                    yield next((m for m in options if state.check(m).accepted), options[0])
                else:  # an unsure space: every icon it may show (a second look decides)
                    yield from options

    def _seen_decorations(self, state: BabylonState, obs: Observation, shown) -> Iterator[Move]:
        new: dict[str, list[tuple[int, int]]] = {}
        for r in range(SIZE):
            for c in range(SIZE):
                for piece in PLACEABLE:
                    if _as(obs.cell(r, c), piece) is not None and shown[r][c].label != piece:
                        new.setdefault(piece, []).append((r, c))
        wild_ok = state.effect in ("icon_swap", "icon_blank") and not state.turn.wild_used
        for piece, cells in new.items():
            groups: list[tuple[tuple[int, int], ...]] = []
            if piece == "statue":
                groups = [(cell,) for cell in cells]
            else:
                d = 2 if piece == "bridge" else 1
                for a in cells:  # diagonal pairs too: placed diagonally is an illegal action to call
                    for dr, dc in ((0, d), (d, 0), (d, d), (d, -d)):
                        b = (a[0] + dr, a[1] + dc)
                        if b in cells:
                            groups.append((a, b))
            for spaces in groups:
                yield PlaceDecoration(piece, spaces)
                if wild_ok:  # a round token lets one space count as another icon
                    for space in spaces:
                        yield PlaceDecoration(piece, spaces, (space, piece))

    def physical_after(self, state: GameState, move: Move) -> ExpectedView | None:
        assert isinstance(state, BabylonState)
        view = dict(self.expected(state))
        region = garden_region(state.turn_of)
        grid = [list(row) for row in view[region]]
        if isinstance(move, PlaceTile):
            tile = state.held_tile(move.tile)
            if tile is None or (move.icons is None and tile.icons is None):
                return None
            icons = move.icons if move.icons is not None else rotate(tile.icons, move.rotation)
            for (r, c), icon in zip(footprint(move.row, move.col), icons, strict=True):
                grid[r][c] = ExpectedCell.of(labels.TILE, level=move.level, tile=f"r{move.row}c{move.col}",
                                             flower=self.flower_label(state, tile.flower), icon=icon or "none")
        elif isinstance(move, PlaceDecoration):
            cells = list(move.cells)
            if move.piece == "bridge" and len(cells) == 2:
                (r0, c0), (r1, c1) = cells
                cells.insert(1, ((r0 + r1) // 2, (c0 + c1) // 2))
            for r, c in cells:
                under = grid[r][c]
                level = under.attr("level", 0) if under.label == labels.TILE else 0
                grid[r][c] = (ExpectedCell.of(labels.STAIRS) if move.piece == "stairs"
                              else ExpectedCell.of(move.piece, level=level))
        else:
            return super().physical_after(state, move)
        view[region] = freeze(grid)
        return view

    def illegal_examples(self, state: GameState, rng: Any) -> Iterator[Move]:
        """Tiles put where they may not go and decorations on the wrong spaces."""
        assert isinstance(state, BabylonState)
        if state.stage != "build":
            return
        top = state.me.board.top
        for which in ("new", "slot"):
            tile = state.held_tile(which)
            if tile is None:
                continue
            icons = tile.icons or _random_icons(rng, tile.material)
            spots = [(r, c) for r in range(SIZE - 1) for c in range(SIZE - 1)]
            rng.shuffle(spots)
            for r, c in spots[:12]:
                cells = footprint(r, c)
                if all(top.at(cell).kind == "recess" for cell in cells):
                    yield PlaceTile(which, r, c, rng.choice((0, 1, 2)), icons=icons)  # no support
                elif all(top.at(cell).kind == "tile" for cell in cells):
                    level = top.at(cells[0]).level
                    yield PlaceTile(which, r, c, level + rng.choice((1, 2)), icons=icons)
        spaces = [(r, c) for r in range(SIZE) for c in range(SIZE) if top.cells[r][c].kind == "tile"]
        rng.shuffle(spaces)
        for r, c in spaces[:10]:
            yield PlaceDecoration("statue", ((r, c),))
            for dr, dc in ((0, 1), (1, 0), (1, 1)):
                if (r + dr, c + dc) in spaces:
                    yield PlaceDecoration(rng.choice(("stairs", "fountain")), ((r, c), (r + dr, c + dc)))
            if (r, c + 2) in spaces:
                yield PlaceDecoration("bridge", ((r, c), (r, c + 2)))

    def as_entered(self, state: GameState, move: Move) -> Move:
        """A tile placed as the player sees it: its icons as they lie on the board."""
        assert isinstance(state, BabylonState)
        if isinstance(move, PlaceTile) and move.icons is None:
            tile = state.held_tile(move.tile)
            if tile is not None and tile.icons is not None:
                return PlaceTile(move.tile, move.row, move.col, move.level, icons=rotate(tile.icons, move.rotation))
        return move

    def shows_later(self, state: GameState, move: Move) -> bool:
        """The flower of a tile taken from the quarry shows when the tile is placed."""
        return isinstance(move, Take)

    def still_unseen(self, state: GameState, move: Move) -> bool:
        """The tile taken by `move` is still in a player's hand or storage slot (not yet placed,
        not removed from the game): its flower may still show."""
        assert isinstance(state, BabylonState)
        if not isinstance(move, Take):
            return False
        suffix = f"-{move.place[0]}{move.place[1]}"
        held = [state.turn.new_tile, *(seat.slot for seat in state.seats)]
        return any(tile is not None and tile.id.endswith(suffix) for tile in held)

    def invisible_choices(self, state: GameState) -> tuple[type, ...]:
        return (EndBuild, Store, Reveal)


def _random_icons(rng: Any, material: str) -> tuple:
    count = {"clay": 2, "granite": 3, "basalt": 4}.get(material, 2)
    spaces = rng.sample(range(4), count)
    return tuple(rng.choice(ICONS) if i in spaces else None for i in range(4))


def _icon_choices(seen: list, unsure: list[int]) -> Iterator[list]:
    """The icons as read, then every other icon on the spaces read unsurely (at most two)."""
    yield list(seen)
    if not unsure:
        return
    for combo in itertools.product((None, *ICONS), repeat=len(unsure)):
        icons = list(seen)
        for i, icon in zip(unsure, combo, strict=True):
            icons[i] = icon
        if icons != seen:
            yield icons


def _tile_options(reading) -> list[dict]:
    """The tile readings (with a level) a cell offers, its top reading first; none under a belvedere."""
    if reading.label == labels.BELVEDERE:
        return []
    found = [reading.attrs] if reading.label == labels.TILE else []
    found += [attrs for label, attrs, _conf in reading.alternatives if label == labels.TILE]
    return [a for a in found if "level" in a]


def _icon_at(found: list[dict], level: Any) -> str | None:
    """The icon a space shows under its tile reading at `level` (None: blank or not read)."""
    for attrs in found:
        if attrs.get("level") == level:
            icon = attrs.get("icon")
            return None if icon in (None, "none") else icon
    return None


def _as(reading, label: str) -> dict | None:
    """The attrs of `label` in a reading (its top or an alternative), or None."""
    if reading.label == label:
        return reading.attrs
    for alt_label, attrs, _conf in reading.alternatives:
        if alt_label == label:
            return attrs
    return None
