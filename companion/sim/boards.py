"""The twin's other boards: Babylon quarry, The Reclamation, Babel Builders, Baubylon.

Each layout is physical (what stands where, how high), draws itself (`region_scene`), says what a
perfect observer reads (`expected`, labels.py vocabulary) and where each cell's top face is
(`top_faces`, for visibility). `random_*` make varied layouts; `calibration_*` show every class.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..vision import labels
from ..vision.boards import BABEL, BABYLON_QUARRY, BAUBYLON, RECLAMATION
from ..vision.observers.babel import column_heights
from ..vision.observers.dimensions import BAUBYLON as BAU
from ..vision.observers.dimensions import CUBES, QUARRY, STONES
from .palette import DEFAULT_PALETTE, Palette, disc, rect
from .scene import Box, Mark, RegionScene

Reading = tuple[str, dict[str, Any]]
Face = tuple[float, float, float, float]  # cx, cy, half side, z


def _grid_lines(spec, colour, width: float = 1.6) -> tuple[Mark, ...]:
    marks = []
    for i in range(spec.rows + 1):
        y = i * spec.cell_mm
        marks.append(Mark(rect(0, y - width / 2, spec.width_mm, y + width / 2), colour))
    for j in range(spec.cols + 1):
        x = j * spec.cell_mm
        marks.append(Mark(rect(x - width / 2, 0, x + width / 2, spec.height_mm), colour))
    return tuple(marks)


# --- Babylon quarry: 4×4 places, up to 3 layers (basalt, granite, clay from the bottom) -----------

QUARRY_LAYERS = (labels.QUARRY_EMPTY, labels.QUARRY_BASALT, labels.QUARRY_GRANITE, labels.QUARRY_CLAY)


@dataclass(frozen=True)
class QuarryLayout:
    layers: tuple[tuple[int, ...], ...]  # [row][col] tiles left at each place, 0..3

    def expected(self) -> list[list[Reading]]:
        return [[(QUARRY_LAYERS[n], {"layers": n}) for n in row] for row in self.layers]

    def top_faces(self) -> list[list[Face]]:
        s = BABYLON_QUARRY.cell_mm
        return [[((c + 0.5) * s, (r + 0.5) * s, s / 2 - 4, n * QUARRY.layer_mm) for c, n in enumerate(row)]
                for r, row in enumerate(self.layers)]

    def region_scene(self, palette: Palette = DEFAULT_PALETTE, origin=(0.0, 0.0), rotation=0.0) -> RegionScene:
        s, e, t = BABYLON_QUARRY.cell_mm, QUARRY.tile_inset_mm, QUARRY.layer_mm
        boxes = []
        for r, row in enumerate(self.layers):
            for c, n in enumerate(row):
                for k in range(1, n + 1):
                    material = QUARRY_LAYERS[k]
                    boxes.append(Box(c * s + e, r * s + e, (c + 1) * s - e, (r + 1) * s - e, (k - 1) * t, k * t,
                                     palette[f"{material}.top"], palette["quarry.side"]))
        return RegionScene(BABYLON_QUARRY, origin, rotation, palette["quarry.bottom"], boxes=tuple(boxes))


def random_quarry(rng: np.random.Generator) -> QuarryLayout:
    return QuarryLayout(tuple(tuple(int(v) for v in row) for row in rng.integers(0, 4, (4, 4))))


def calibration_quarry() -> QuarryLayout:
    return QuarryLayout(((3, 2, 1, 0), (0, 1, 2, 3), (3, 3, 1, 1), (2, 0, 2, 0)))


# --- The Reclamation: 6×6 squares, stacks of 0-3 stones, top face Flower or Vine ---------------

@dataclass(frozen=True)
class ReclamationLayout:
    stacks: tuple[tuple[tuple[int, str], ...], ...]  # [row][col] (height 0..3, top face "flower"/"vine")

    def expected(self) -> list[list[Reading]]:
        return [[(labels.EMPTY, {"height": 0, "gardener": False}) if h == 0
                 else (face, {"height": h, "gardener": h == 3}) for h, face in row] for row in self.stacks]

    def top_faces(self) -> list[list[Face]]:
        s = RECLAMATION.cell_mm
        return [[((c + 0.5) * s, (r + 0.5) * s, STONES.stone_mm / 2 - 1.5, h * STONES.stone_height_mm)
                 for c, (h, _) in enumerate(row)] for r, row in enumerate(self.stacks)]

    def region_scene(self, palette: Palette = DEFAULT_PALETTE, origin=(0.0, 0.0), rotation=0.0) -> RegionScene:
        s, a, t = RECLAMATION.cell_mm, STONES.stone_mm, STONES.stone_height_mm
        inset = (s - a) / 2
        boxes = []
        for r, row in enumerate(self.stacks):
            for c, (h, face) in enumerate(row):
                for k in range(1, h + 1):
                    top = k == h
                    marks = _stone_marks(face, a, palette) if top else ()
                    boxes.append(Box(c * s + inset, r * s + inset, (c + 1) * s - inset, (r + 1) * s - inset,
                                     (k - 1) * t, k * t, palette[f"{face}.top"], palette["stone.side"], marks))
        return RegionScene(RECLAMATION, origin, rotation, palette["reclamation.board"],
                           surface_marks=_grid_lines(RECLAMATION, palette["reclamation.line"]), boxes=tuple(boxes))


def _stone_marks(face: str, a: float, palette: Palette) -> tuple[Mark, ...]:
    c = a / 2
    if face == labels.FLOWER:
        return (Mark(disc(c, c, 4.0, 12), palette["flower.mark"]),)
    return (Mark(((c - 6, c + 4), (c + 4, c - 6), (c + 6, c - 4), (c - 4, c + 6)), palette["vine.mark"]),)


def random_reclamation(rng: np.random.Generator) -> ReclamationLayout:
    heights = rng.choice([0, 0, 1, 1, 2, 3], size=(6, 6))
    faces = rng.choice([labels.FLOWER, labels.VINE], size=(6, 6))
    return ReclamationLayout(tuple(tuple((int(h), str(f)) for h, f in zip(hr, fr, strict=True))
                                   for hr, fr in zip(heights, faces, strict=True)))


def calibration_reclamation() -> ReclamationLayout:
    """Both faces on single stones, stacks of two and both gardeners, with empty squares between."""
    row_a = ((1, "flower"), (0, "flower"), (1, "vine"), (0, "vine"), (1, "flower"), (1, "vine"))
    row_b = ((0, "flower"), (1, "vine"), (0, "vine"), (1, "flower"), (0, "flower"), (0, "vine"))
    row_c = ((2, "flower"), (0, "flower"), (3, "vine"), (0, "vine"), (2, "vine"), (0, "vine"))
    row_d = ((0, "flower"), (0, "vine"), (0, "vine"), (0, "flower"), (0, "flower"), (3, "flower"))
    return ReclamationLayout((row_a, row_b, row_c, row_d, row_a, row_b))


# --- Babel Builders: 3×3 cells, each tower built as 2×2 columns of 10 mm cubes ------------------

COLUMN_OFFSETS = ((-1, -1), (1, -1), (-1, 1), (1, 1))  # columns TL, TR, BL, BR as (dx, dy) in half cubes


@dataclass(frozen=True)
class BabelLayout:
    columns: tuple[tuple[tuple[int, int, int, int], ...], ...]  # [row][col] heights of the 4 columns

    def expected(self) -> list[list[Reading]]:
        return [[(labels.CUBES, {"count": int(sum(cols))}) for cols in row] for row in self.columns]

    def top_faces(self) -> list[list[Face]]:
        s, q = BABEL.cell_mm, CUBES.cube_mm
        return [[((c + 0.5) * s, (r + 0.5) * s, q - 1.0, max(cols) * q) for c, cols in enumerate(row)]
                for r, row in enumerate(self.columns)]

    def region_scene(self, palette: Palette = DEFAULT_PALETTE, origin=(0.0, 0.0), rotation=0.0) -> RegionScene:
        s, q = BABEL.cell_mm, CUBES.cube_mm
        boxes = []
        for r, row in enumerate(self.columns):
            for c, cols in enumerate(row):
                cx, cy = (c + 0.5) * s, (r + 0.5) * s
                for (dx, dy), h in zip(COLUMN_OFFSETS, cols, strict=True):
                    if h == 0:
                        continue
                    x0, y0 = cx + (dx - 1) * q / 2, cy + (dy - 1) * q / 2
                    # One box per cube: the seams between cubes show on the sides like the real ones.
                    for k in range(h):
                        boxes.append(Box(x0 + 0.2, y0 + 0.2, x0 + q - 0.2, y0 + q - 0.2, k * q, (k + 1) * q,
                                         palette["cube.top"], palette["cube.side"]))
        return RegionScene(BABEL, origin, rotation, palette["babel.card"],
                           surface_marks=_grid_lines(BABEL, palette["babel.line"], 1.0), boxes=tuple(boxes))


def random_babel(rng: np.random.Generator) -> BabelLayout:
    counts = rng.integers(0, 14, (3, 3))
    return BabelLayout(tuple(tuple(column_heights(int(n)) for n in row) for row in counts))


def calibration_babel() -> BabelLayout:
    return BabelLayout(((column_heights(0), column_heights(4), column_heights(0)),
                        (column_heights(8), column_heights(0), column_heights(1)),
                        (column_heights(0), column_heights(2), column_heights(0))))


# --- Baubylon: blocks (heights in pawn heights) with pawn stacks on top -----------------------

PAWN_COLOURS = ("red", "blue", "green", "yellow", "black", "white", "purple")


@dataclass(frozen=True)
class BaubylonLayout:
    cells: tuple[tuple[tuple[int, tuple[str, ...]], ...], ...]  # [row][col] (block height, pawns bottom→top)

    def expected(self) -> list[list[Reading]]:
        """Only the top pawn's colour can be seen; the ones beneath read as None (JSON null)."""
        out = []
        for row in self.cells:
            out.append([(labels.FIELD, {"height": h, "pawns": [None] * (len(p) - 1) + [p[-1]] if p else []})
                        for h, p in row])
        return out

    def top_faces(self) -> list[list[Face]]:
        s, ph = BAUBYLON.cell_mm, BAU.pawn_height_mm
        return [[((c + 0.5) * s, (r + 0.5) * s, (BAU.pawn_mm if p else s - 4) / 2 - 1.0, (h + len(p)) * ph)
                 for c, (h, p) in enumerate(row)] for r, row in enumerate(self.cells)]

    def region_scene(self, palette: Palette = DEFAULT_PALETTE, origin=(0.0, 0.0), rotation=0.0) -> RegionScene:
        s, ph, pw = BAUBYLON.cell_mm, BAU.pawn_height_mm, BAU.pawn_mm
        boxes = []
        for r, row in enumerate(self.cells):
            for c, (h, pawns) in enumerate(row):
                if h:
                    boxes.append(Box(c * s + 0.3, r * s + 0.3, (c + 1) * s - 0.3, (r + 1) * s - 0.3, 0.0, h * ph,
                                     palette["block.top"], palette["block.side"]))
                cx, cy = (c + 0.5) * s, (r + 0.5) * s
                for k, colour in enumerate(pawns):
                    z0 = (h + k) * ph
                    boxes.append(Box(cx - pw / 2, cy - pw / 2, cx + pw / 2, cy + pw / 2, z0, z0 + ph,
                                     palette[f"pawn.{colour}"], palette[f"pawn.{colour}"]))
        return RegionScene(BAUBYLON, origin, rotation, palette["baubylon.table"], margin_mm=4.0, boxes=tuple(boxes))


RANDOM_BAUBYLON_HEIGHTS = (0, 0, 0, 0, 0, 0, 2, 2, 4, 6)  # block tops drawn per space (pawn heights)


def random_baubylon(rng: np.random.Generator, pawns: int = 14) -> BaubylonLayout:
    heights = rng.choice(RANDOM_BAUBYLON_HEIGHTS, size=(12, 12))
    stacks: dict[tuple[int, int], list[str]] = {}
    for _ in range(pawns):
        cell = (int(rng.integers(0, 12)), int(rng.integers(0, 12)))
        stack = stacks.setdefault(cell, [])
        if len(stack) < 3:
            stack.append(str(rng.choice(PAWN_COLOURS)))
    return BaubylonLayout(tuple(tuple((int(heights[r, c]), tuple(stacks.get((r, c), ()))) for c in range(12))
                                for r in range(12)))


def calibration_baubylon() -> BaubylonLayout:
    cells = [[(0, ()) for _ in range(12)] for _ in range(12)]
    for i, colour in enumerate(PAWN_COLOURS):
        cells[1][1 + i] = (0, (colour,))
        cells[4][1 + i] = (2, (colour,))
        cells[7][1 + i] = (4, (colour,))
    for c in range(0, 12, 2):
        cells[10][c] = (2, ())
        cells[10][c + 1] = (4, ())
    return BaubylonLayout(tuple(tuple(row) for row in cells))
