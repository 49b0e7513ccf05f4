"""What a garden looks like from straight above: the item on top of each cell, and what is hidden.

This is the contract between the rules engine and the camera side: the digital twin draws it, the
live referee compares it with what the observer reads, and scoring (`babylon.score.*`) counts only
what it shows ("wholly or partly visible scores; wholly covered does not").

Stacking order inside one cell, lowest first: the recess (level 0); a tile at level n; a
decoration standing on that tile (n + ½); a bare pillar standing on level n, whose top reaches
n + 1 or n + 2 (drawn just below a tile resting on it); the next tile up; and so on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import SIZE, Board, Cell

RECESS = "recess"
TILE = "tile"
PILLAR = "pillar"


@dataclass(frozen=True)
class TopItem:
    """The item seen on top of one cell.

    kind: recess | tile | pillar | stairs | fountain | bridge | statue | belvedere.
    level: where it stands (a tile: its level; a decoration: the level of the space under it;
    a pillar: the level it stands on, its top being level + height).
    tile_id, flower, icon: the tile space this item is on or is (None on a recess or a bridge gap).
    piece_id: the tile, pillar or decoration id (None for a recess).
    height: a pillar's height in levels (1 single or statue, 2 double), else 0.
    """

    kind: str
    level: int
    tile_id: str | None = None
    flower: str | None = None
    icon: str | None = None
    piece_id: str | None = None
    height: int = 0

    @property
    def is_empty_surface(self) -> bool:
        """A recess or a tile space with nothing standing on it: it may take a pillar."""
        return self.kind in (RECESS, TILE)


@dataclass(frozen=True)
class TopView:
    """The view from above, with the physical height of each cell for placing tiles."""

    cells: tuple[tuple[TopItem, ...], ...]  # [row][col]
    heights: tuple[tuple[int, ...], ...]  # highest point of anything in the cell, in levels
    surfaces: tuple[tuple[tuple[int, str | None], ...], ...]  # highest tile (level, id) or (0, None)
    visible: frozenset[str]  # ids of tiles, pillars and decorations at least partly visible

    def at(self, cell: Cell) -> TopItem:
        return self.cells[cell[0]][cell[1]]

    def height(self, cell: Cell) -> int:
        return self.heights[cell[0]][cell[1]]

    def surface(self, cell: Cell) -> tuple[int, str | None]:
        return self.surfaces[cell[0]][cell[1]]

    def is_visible(self, piece_id: str) -> bool:
        return piece_id in self.visible

    def visible_recesses(self) -> int:
        return sum(1 for row in self.cells for item in row if item.kind == RECESS)


def top_view(board: Board) -> tuple[tuple[TopItem, ...], ...]:
    """8×8 of the item seen on top of each cell (see TopItem)."""
    return board.top.cells


def visible_pieces(board: Board) -> frozenset[str]:
    """Ids of every tile, pillar and decoration at least partly visible from above."""
    return board.top.visible


def covered_pieces(board: Board) -> frozenset[str]:
    """Ids of every tile, pillar and decoration wholly covered (these score nothing)."""
    every = {t.id for t in board.tiles} | {p.id for p in board.pillars} | {d.id for d in board.decorations}
    return frozenset(every - board.top.visible)


def compute_top_view(board: Board) -> TopView:
    # Per cell: best (z, item), physical height and highest tile surface.
    best: list[list[tuple[float, TopItem]]] = [[(0.0, TopItem(RECESS, 0))] * SIZE for _ in range(SIZE)]
    heights = [[0] * SIZE for _ in range(SIZE)]
    surfaces: list[list[tuple[int, str | None]]] = [[(0, None)] * SIZE for _ in range(SIZE)]
    tile_at: dict[tuple[int, int, int], tuple[str, str, str | None]] = {}  # (row, col, level) -> tile

    def offer(cell: Cell, z: float, item: TopItem) -> None:
        r, c = cell
        if z > best[r][c][0]:
            best[r][c] = (z, item)

    for tile in board.tiles:
        for cell, icon in zip(tile.cells, tile.icons, strict=True):
            r, c = cell
            offer(cell, float(tile.level), TopItem(TILE, tile.level, tile.id, tile.flower, icon, tile.id))
            heights[r][c] = max(heights[r][c], tile.level)
            if tile.level > surfaces[r][c][0]:
                surfaces[r][c] = (tile.level, tile.id)
            tile_at[(r, c, tile.level)] = (tile.id, tile.flower, icon)
    for pillar in board.pillars:
        r, c = pillar.cell
        item = TopItem(PILLAR, pillar.base, piece_id=pillar.id, height=pillar.height)
        under = tile_at.get((r, c, pillar.base))
        if under is not None:
            item = TopItem(PILLAR, pillar.base, under[0], under[1], under[2], pillar.id, pillar.height)
        offer(pillar.cell, pillar.top - 0.25, item)
        heights[r][c] = max(heights[r][c], pillar.top)
    for deco in board.decorations:
        for cell, level in zip(deco.cells, deco.levels, strict=True):
            r, c = cell
            under = tile_at.get((r, c, level))
            tile_id, flower, icon = under if under is not None else (None, None, None)
            offer(cell, level + 0.5, TopItem(deco.kind, level, tile_id, flower, icon, deco.id))
            # A statue stands one level tall (it can carry a tile); other decorations lie flat.
            heights[r][c] = max(heights[r][c], level + (1 if deco.kind == "statue" else 0))

    visible: set[str] = set()
    for row in best:
        for _, item in row:
            if item.piece_id is not None:
                visible.add(item.piece_id)
            if item.tile_id is not None:  # a decoration on a space leaves the tile partly visible
                visible.add(item.tile_id)
    return TopView(
        cells=tuple(tuple(item for _, item in row) for row in best),
        heights=tuple(tuple(row) for row in heights),
        surfaces=tuple(tuple(row) for row in surfaces),
        visible=frozenset(visible),
    )
