"""Babylon player board in the twin: pillars, terrace tiles and decorations, and what is on top.

A GardenLayout is physical: where each pillar stands and how tall it is, where each tile lies and
at which level, where each decoration stands. `region_scene` draws it; `expected` says what a
perfect observer reads from straight above (the top item of each cell, labels.py vocabulary).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..vision import labels
from ..vision.boards import BABYLON_GARDEN
from ..vision.observers.dimensions import GARDEN
from .palette import DEFAULT_PALETTE, Palette, disc, icon_marks, rect
from .scene import Box, Mark, RegionScene

Cell = tuple[int, int]
DECORATIONS = ("stairs", "fountain", "bridge", "statue", "belvedere")


@dataclass(frozen=True)
class Pillar:
    row: int
    col: int
    base_level: int  # 0 = in the recess, n = on a level-n tile space
    height: int  # 1 = single, 2 = double


@dataclass(frozen=True)
class Tile:
    row: int  # top-left cell of its 2×2 footprint
    col: int
    level: int
    flower: int  # 0..3
    icons: tuple[str, str, str, str] = ("none", "none", "none", "none")  # spaces TL, TR, BL, BR
    # Quarter turns (clockwise, seen from above) of the printed face: a player lays a tile in any of
    # 4 orientations. `icons` stay the icons as they lie on the board's spaces; the turn decides
    # which corner of each space shows the flower and which way each icon is drawn.
    turn: int = 0

    def cells(self) -> tuple[Cell, ...]:
        return ((self.row, self.col), (self.row, self.col + 1), (self.row + 1, self.col), (self.row + 1, self.col + 1))

    @property
    def footprint_id(self) -> str:
        return f"r{self.row}c{self.col}"


@dataclass(frozen=True)
class Decoration:
    kind: str  # one of DECORATIONS
    cells: tuple[Cell, ...]  # stairs, fountain: 2 adjacent; bridge: 3 in a line; statue, belvedere: 1
    levels: tuple[int, ...]  # the level of the tile space under each cell


@dataclass(frozen=True)
class GardenLayout:
    pillars: tuple[Pillar, ...] = ()
    tiles: tuple[Tile, ...] = ()
    decorations: tuple[Decoration, ...] = ()

    def expected(self) -> list[list[tuple[str, dict[str, Any]]]]:
        """Per cell (label, attrs) of the item seen on top."""
        return [[(label, attrs) for _, _, label, attrs in row] for row in self._tops()]

    def calibration_truth(self) -> list[list[tuple[str, dict[str, Any]]]]:
        """expected(), except that each stairs space gives its own level (the wizard says where
        each calibration piece stands)."""
        out = self.expected()
        for d in self.decorations:
            if d.kind == "stairs":
                for (r, c), level in zip(d.cells, d.levels, strict=True):
                    out[r][c] = ("stairs", {"level": level})
        return out

    def top_faces(self) -> list[list[tuple[float, float, float, float]]]:
        """Per cell the top face as (cx, cy, half side, z), for visibility tests."""
        s = BABYLON_GARDEN.cell_mm
        return [[((c + 0.5) * s, (r + 0.5) * s, half, z) for c, (z, half, _, _) in enumerate(row)]
                for r, row in enumerate(self._tops())]

    def _tops(self) -> list[list[tuple[float, float, str, dict[str, Any]]]]:
        spec, g = BABYLON_GARDEN, GARDEN
        top: dict[Cell, tuple[float, float, str, dict[str, Any]]] = {
            (r, c): (0.0, g.recess_mm / 2 - 1.0, labels.RECESS, {"level": 0})
            for r in range(spec.rows) for c in range(spec.cols)
        }
        halves = {labels.PILLAR1: g.pillar_mm / 2 - 1.0, labels.PILLAR2: g.pillar_mm / 2 - 1.0,
                  labels.TILE: spec.cell_mm / 2 - 3.0}

        def offer(cell: Cell, z: float, label: str, attrs: dict[str, Any]) -> None:
            if z > top[cell][0]:
                top[cell] = (z, halves.get(label, g.deco_mm / 2 - 1.0), label, attrs)

        for p in self.pillars:
            level = p.base_level + p.height
            label = labels.PILLAR1 if p.height == 1 else labels.PILLAR2
            offer((p.row, p.col), GARDEN.pillar_top(level), label, {"level": level})
        for t in self.tiles:
            for cell, icon in zip(t.cells(), t.icons, strict=True):
                attrs = {"level": t.level, "tile": t.footprint_id, "flower": f"flower{t.flower}", "icon": icon}
                offer(cell, GARDEN.tile_top(t.level), labels.TILE, attrs)
        for d in self.decorations:
            level = max(d.levels)
            for cell in d.cells:
                attrs = {"level": sorted(d.levels)} if d.kind == "stairs" else {"level": level}
                offer(cell, GARDEN.deco_top(level), d.kind, attrs)
        return [[top[(r, c)] for c in range(spec.cols)] for r in range(spec.rows)]


def region_scene(layout: GardenLayout, palette: Palette = DEFAULT_PALETTE, origin=(0.0, 0.0), rotation=0.0) -> RegionScene:
    spec, g = BABYLON_GARDEN, GARDEN
    s = spec.cell_mm
    recess_inset = (s - g.recess_mm) / 2.0
    recesses = tuple(
        Mark(rect(c * s + recess_inset, r * s + recess_inset, (c + 1) * s - recess_inset, (r + 1) * s - recess_inset),
             palette["garden.recess"])
        for r in range(spec.rows) for c in range(spec.cols)
    )
    boxes: list[Box] = []
    pillar_inset = (s - g.pillar_mm) / 2.0
    for p in layout.pillars:
        z0 = g.tile_top(p.base_level)
        z1 = g.pillar_top(p.base_level + p.height)
        kind = "pillar1" if p.height == 1 else "pillar2"
        boxes.append(Box(p.col * s + pillar_inset, p.row * s + pillar_inset, (p.col + 1) * s - pillar_inset,
                         (p.row + 1) * s - pillar_inset, z0, z1, palette[f"{kind}.top"], palette[f"{kind}.side"]))
    for t in layout.tiles:
        boxes.append(_tile_box(t, palette))
    for d in layout.decorations:
        boxes.extend(_deco_boxes(d, palette))
    return RegionScene(spec, origin_mm=origin, rotation_deg=rotation, surface=palette["garden.board"],
                       surface_marks=recesses, boxes=tuple(boxes))


def _tile_box(t: Tile, palette: Palette) -> Box:
    g, s = GARDEN, BABYLON_GARDEN.cell_mm
    inset, side = g.tile_inset_mm, 2 * s - 2 * g.tile_inset_mm
    b = g.tile_border_mm
    border = palette["tile.border"]
    marks = [
        Mark(rect(0, 0, side, b), border), Mark(rect(0, side - b, side, side), border),
        Mark(rect(0, b, b, side - b), border), Mark(rect(side - b, b, side, side - b), border),
    ]
    for i, icon in enumerate(t.icons):
        # Space centres in the tile's face frame (which starts `inset` mm into the footprint).
        cx = (i % 2 + 0.5) * s - inset
        cy = (i // 2 + 0.5) * s - inset
        # Turning the whole tile about its centre moves space centres onto space centres and turns
        # each space's artwork about its own centre by the same angle.
        art = [Mark(disc(cx - 5.0, cy - 5.0, 2.6, 10), palette[f"flower{t.flower}"])]
        if icon != "none":
            art.extend(icon_marks(icon, cx + 1.0, cy + 1.0, 10.0, palette[f"icon.{icon}"]))
        marks.extend(_turned(mark, cx, cy, t.turn) for mark in art)
    x0, y0 = t.col * s + inset, t.row * s + inset
    return Box(x0, y0, x0 + side, y0 + side, g.tile_top(t.level) - g.tile_thickness_mm, g.tile_top(t.level),
               palette["tile.top"], palette["tile.side"], tuple(marks))


def _turned(mark: Mark, cx: float, cy: float, turn: int) -> Mark:
    """The mark turned by `turn` quarter turns clockwise (seen from above, y down) about (cx, cy)."""
    points = mark.polygon
    for _ in range(turn % 4):
        points = tuple((cx - (y - cy), cy + (x - cx)) for x, y in points)
    return Mark(points, mark.colour)


def _deco_boxes(d: Decoration, palette: Palette) -> list[Box]:
    g, s = GARDEN, BABYLON_GARDEN.cell_mm
    half = g.deco_mm / 2.0
    top, side = palette[f"{d.kind}.top"], palette["deco.side"]
    if d.kind in ("stairs", "statue", "belvedere"):
        # One block per space (stairs: a step on each of its two spaces, each on its own level).
        return [
            Box((c + 0.5) * s - half, (r + 0.5) * s - half, (c + 0.5) * s + half, (r + 0.5) * s + half,
                g.tile_top(level), g.deco_top(level), top, side)
            for (r, c), level in zip(d.cells, d.levels, strict=True)
        ]
    rows = [r for r, _ in d.cells]
    cols = [c for _, c in d.cells]
    level = max(d.levels)
    return [Box((min(cols) + 0.5) * s - half, (min(rows) + 0.5) * s - half, (max(cols) + 0.5) * s + half,
                (max(rows) + 0.5) * s + half, g.tile_top(level), g.deco_top(level), top, side)]


def supported(tile: Tile, base_levels: tuple[int, int, int, int], open_space: int = -1) -> list[Pillar]:
    """The pillars that carry `tile` from surfaces at `base_levels` (one per space; none under
    `open_space`, which then takes a belvedere)."""
    return [
        Pillar(r, c, base, tile.level - base)
        for i, ((r, c), base) in enumerate(zip(tile.cells(), base_levels, strict=True))
        if i != open_space
    ]


def calibration_layout() -> GardenLayout:
    """A layout showing every class the garden observer learns, each several times: recesses, both
    pillars, tile spaces with each icon and flower, each decoration (what the setup wizard asks the
    players to lay out; nothing stands where a taller piece would hide it from a camera on the
    row-0 side)."""
    # Tiles lie turned every way, as players lay them (the observer finds each tile's flower corner).
    a = Tile(2, 0, 1, 0, ("stairs", "fountain", "bridge", "statue"))
    b = Tile(2, 3, 1, 1, ("none", "stairs", "fountain", "fountain"), turn=1)
    c = Tile(5, 0, 2, 2, ("bridge", "none", "statue", "none"), turn=2)
    d = Tile(5, 2, 1, 3, ("none", "bridge", "stairs", "statue"), turn=3)
    e = Tile(2, 6, 1, 0, ("statue", "bridge", "none", "stairs"), turn=1)
    f = Tile(5, 5, 1, 2, ("fountain", "statue", "bridge", "none"))
    pillars = [Pillar(0, 0, 0, 1), Pillar(0, 2, 0, 2), Pillar(0, 4, 0, 1), Pillar(0, 6, 0, 2),
               Pillar(1, 1, 0, 1), Pillar(1, 3, 0, 2), Pillar(1, 5, 0, 1), Pillar(1, 7, 0, 2),
               Pillar(3, 4, 1, 1), Pillar(3, 6, 1, 2)]
    for tile in (a, b, c, d, e, f):
        pillars += supported(tile, (0, 0, 0, 0))
    decorations = (
        Decoration("bridge", ((2, 1), (2, 2), (2, 3)), (1, 1, 1)),
        Decoration("statue", ((3, 1),), (1,)),
        Decoration("statue", ((5, 6),), (1,)),
        Decoration("stairs", ((6, 1), (6, 2)), (2, 1)),
        Decoration("fountain", ((5, 0), (5, 1)), (2, 2)),
        Decoration("belvedere", ((6, 3),), (1,)),
        Decoration("belvedere", ((3, 7),), (1,)),
        Decoration("fountain", ((6, 5), (6, 6)), (1, 1)),
    )
    return GardenLayout(tuple(pillars), (a, b, c, d, e, f), decorations)


# --- random but buildable layouts (tests, benchmarks) --------------------------------------------

@dataclass
class _Build:
    rng: np.random.Generator
    top_level: np.ndarray = field(default_factory=lambda: np.zeros((8, 8), int))  # level of the surface
    blocked: np.ndarray = field(default_factory=lambda: np.zeros((8, 8), bool))  # pillar or deco on top
    tile_at: dict = field(default_factory=dict)  # cell -> Tile whose space is on top
    pillars: list = field(default_factory=list)
    tiles: list = field(default_factory=list)
    decos: list = field(default_factory=list)


def random_layout(rng: np.random.Generator, tiles: int = 6, bare_pillars: int = 6, decorations: int = 4,
                  max_level: int = 3) -> GardenLayout:
    """A physically possible garden: tiles on 3 or 4 pillars of equal top height, some bare pillars,
    some decorations on tile spaces. Rules of play (icons, adjacency) are not enforced: the twin
    draws what can stand, the rules engine judges it."""
    b = _Build(rng)
    for _ in range(tiles * 8):
        if len(b.tiles) >= tiles:
            break
        _try_tile(b, max_level)
    placed = 0
    for _ in range(bare_pillars * 8):
        if placed >= bare_pillars:
            break
        r, c = (int(v) for v in rng.integers(0, 8, 2))
        if b.blocked[r, c]:
            continue
        height = int(rng.integers(1, 3))
        if b.top_level[r, c] + height > max_level + 1:
            continue
        b.pillars.append(Pillar(r, c, int(b.top_level[r, c]), height))
        b.blocked[r, c] = True
        placed += 1
    for _ in range(decorations * 10):
        if len(b.decos) >= decorations:
            break
        _try_deco(b)
    return GardenLayout(tuple(b.pillars), tuple(b.tiles), tuple(b.decos))


def _try_tile(b: _Build, max_level: int) -> None:
    rng = b.rng
    r, c = (int(v) for v in rng.integers(0, 7, 2))
    cells = ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
    if any(b.blocked[cell] for cell in cells):
        return
    bases = [int(b.top_level[cell]) for cell in cells]
    level = max(bases) + int(rng.integers(1, 3))
    if level > max_level or any(level - base > 2 for base in bases):
        return
    beneath = {id(b.tile_at.get(cell)) for cell in cells}
    if len(beneath) == 1 and b.tile_at.get(cells[0]) is not None:
        old = b.tile_at[cells[0]]
        if (old.row, old.col) == (r, c):
            return  # would exactly cover the tile beneath
    open_space = int(rng.integers(0, 4)) if rng.random() < 0.25 else -1
    for i, (cell, base) in enumerate(zip(cells, bases, strict=True)):
        if i == open_space:
            continue
        b.pillars.append(Pillar(cell[0], cell[1], base, level - base))
    icons = tuple(str(rng.choice(["stairs", "fountain", "bridge", "statue", "none", "none"])) for _ in range(4))
    tile = Tile(r, c, level, int(rng.integers(0, 4)), icons, int(rng.integers(0, 4)))  # type: ignore[arg-type]
    b.tiles.append(tile)
    for cell in cells:
        b.top_level[cell] = level
        b.tile_at[cell] = tile
        b.blocked[cell] = False
    if open_space >= 0:
        cell = cells[open_space]
        b.decos.append(Decoration("belvedere", (cell,), (level,)))
        b.blocked[cell] = True


def _try_deco(b: _Build) -> None:
    rng = b.rng
    kind = str(rng.choice(["stairs", "fountain", "bridge", "statue", "belvedere"]))
    r, c = (int(v) for v in rng.integers(0, 8, 2))
    horizontal = bool(rng.integers(0, 2))
    length = {"stairs": 2, "fountain": 2, "bridge": 3}.get(kind, 1)
    cells = tuple((r, c + i) if horizontal else (r + i, c) for i in range(length))
    if any(not (0 <= rr < 8 and 0 <= cc < 8) for rr, cc in cells):
        return
    ends = (cells[0], cells[-1])
    if any(b.blocked[cell] or cell not in b.tile_at for cell in ends):
        return
    levels = tuple(int(b.top_level[cell]) for cell in cells)
    if kind == "stairs" and abs(levels[0] - levels[1]) != 1:
        return
    if kind == "fountain" and levels[0] != levels[1]:
        return
    if kind == "bridge":
        middle = cells[1]
        if levels[0] != levels[2] or b.blocked[middle] or levels[1] >= levels[0]:
            return
        if b.tile_at.get(ends[0]) is b.tile_at.get(ends[1]):
            return
        levels = (levels[0], levels[0], levels[0])
    if kind == "stairs" and b.tile_at[cells[0]] is b.tile_at[cells[1]]:
        return
    b.decos.append(Decoration(kind, cells, levels))
    for cell in cells:
        b.blocked[cell] = True
