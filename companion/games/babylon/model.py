"""The physical pieces of a Babylon garden: tiles, pillars, decorations and the 8×8 player board.

Geometry: a cell is (row, col), row 0 at the board's top as the camera sees it, both 0..7. A tile
covers a 2×2 block whose top-left cell is (row, col), 0..6. Its four spaces are listed clockwise
from the top-left: TL, TR, BR, BL, so turning a tile a quarter clockwise is a cyclic shift.
Levels follow `babylon.level`: the board is level 0, a tile on one single pillar on the board is at
level 1, and a piece standing on a level-n tile is at level n.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

SIZE = 8
ICONS = ("stairs", "fountain", "bridge", "statue")
DECORATIONS = ("stairs", "fountain", "bridge", "statue", "belvedere")
MATERIALS = ("clay", "granite", "basalt", "start")
ICON_COUNT = {"clay": 2, "granite": 3, "basalt": 4}  # printed icons per material (DIGEST §1)
PILLAR_HEIGHT = {"single": 1, "double": 2, "statue": 1}  # a statue used as a pillar counts as one level
# The rulebooks name two flowers (Linda's white, John's pink); the other two boards' flowers are
# given neutral colour names here. A game may rename all four (they are stored in the state).
DEFAULT_FLOWERS = ("white", "pink", "yellow", "blue")

Cell = tuple[int, int]
Icon = str | None
Icons = tuple[Icon, Icon, Icon, Icon]


def in_board(cell: Cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def footprint(row: int, col: int) -> tuple[Cell, Cell, Cell, Cell]:
    """The four cells of a tile at (row, col), clockwise from the top-left: TL, TR, BR, BL."""
    return ((row, col), (row, col + 1), (row + 1, col + 1), (row + 1, col))


def cell_name(cell: Cell) -> str:
    """A short name for overlays and messages: columns a–h, rows 1–8 (row 0 is '1')."""
    return f"{'abcdefgh'[cell[1]]}{cell[0] + 1}"


def rotate(icons: Icons, quarter_turns: int) -> Icons:
    """The icons after turning the tile clockwise `quarter_turns` times."""
    k = quarter_turns % 4
    return tuple(icons[(i - k) % 4] for i in range(4))  # type: ignore[return-value]


def rotations(icons: Icons) -> tuple[Icons, ...]:
    """The distinct layouts a tile can show, in quarter-turn order."""
    seen: dict[Icons, None] = {}
    for k in range(4):
        seen.setdefault(rotate(icons, k), None)
    return tuple(seen)


@dataclass(frozen=True)
class Tile:
    """A terrace tile as read from its face. `icons` is None until someone has read them.

    The engine never invents a layout: icons come from the camera, the touchscreen or a catalogue.
    """

    id: str
    material: str  # clay | granite | basalt | start
    flower: str
    icons: Icons | None = None


@dataclass(frozen=True)
class PlacedTile:
    """A tile in a garden: where, at which level, its icons as they lie on the board, and when."""

    tile: Tile
    row: int
    col: int
    level: int
    icons: Icons  # board orientation, TL, TR, BR, BL; a round-token override already applied
    round: int

    @property
    def id(self) -> str:
        return self.tile.id

    @property
    def flower(self) -> str:
        return self.tile.flower

    @property
    def cells(self) -> tuple[Cell, Cell, Cell, Cell]:
        return footprint(self.row, self.col)

    def covers(self, cell: Cell) -> bool:
        return self.row <= cell[0] <= self.row + 1 and self.col <= cell[1] <= self.col + 1

    def icon_at(self, cell: Cell) -> Icon:
        return self.icons[self.cells.index(cell)]


@dataclass(frozen=True)
class Pillar:
    """A pillar standing on a recess (base 0) or a tile space (base = that tile's level)."""

    id: str
    cell: Cell
    base: int
    kind: str  # single | double | statue (a statue serving as a pillar, babylon.build.statue_pillar)

    @property
    def height(self) -> int:
        return PILLAR_HEIGHT[self.kind]

    @property
    def top(self) -> int:
        return self.base + self.height


@dataclass(frozen=True)
class Decoration:
    """A decoration on tile spaces. `cells` and `levels` run in parallel.

    Stairs and fountains join two cells; a bridge lists its two icon cells and the gap between them
    (the gap at the bridge's level); a statue or a belvedere stands on one cell.
    """

    id: str
    kind: str  # stairs | fountain | bridge | statue | belvedere
    cells: tuple[Cell, ...]
    levels: tuple[int, ...]
    round: int

    @property
    def level(self) -> int:
        """The level it stands at (the higher end for stairs)."""
        return max(self.levels)


@dataclass(frozen=True)
class Board:
    """One player's garden: everything on the 8×8 building area."""

    tiles: tuple[PlacedTile, ...] = ()
    pillars: tuple[Pillar, ...] = ()
    decorations: tuple[Decoration, ...] = ()

    def tile(self, tile_id: str) -> PlacedTile | None:
        return next((t for t in self.tiles if t.id == tile_id), None)

    @cached_property
    def top(self):  # -> TopView; imported lazily to keep the modules one-way
        from .topview import compute_top_view

        return compute_top_view(self)

    def with_tile(self, placed: PlacedTile) -> Board:
        return replace(self, tiles=(*self.tiles, placed))

    def with_pillar(self, pillar: Pillar) -> Board:
        return replace(self, pillars=(*self.pillars, pillar))

    def without_pillar(self, pillar_id: str) -> Board:
        return replace(self, pillars=tuple(p for p in self.pillars if p.id != pillar_id))

    def with_decoration(self, decoration: Decoration) -> Board:
        return replace(self, decorations=(*self.decorations, decoration))

    def statue_to_pillar(self, decoration_id: str, new_pillar_id: str) -> Board:
        """babylon.build.statue_pillar: a statue carrying a tile is a pillar from now on."""
        statue = next(d for d in self.decorations if d.id == decoration_id)
        pillar = Pillar(new_pillar_id, statue.cells[0], statue.levels[0], "statue")
        return replace(
            self,
            decorations=tuple(d for d in self.decorations if d.id != decoration_id),
            pillars=(*self.pillars, pillar),
        )
