"""How a layout came to be: the still scenes a camera above the table saw while it was built.

A referee never reads a board cold: it reads a still scene after every move, and what it saw
beneath a piece before the piece came is evidence the single frame lacks. `build_states` gives a
layout's build as such scenes, earliest first, the last one the layout itself:

- Babylon garden: pieces stay where they are put (babylon.build.*), so the build is the layout's
  pieces in an order that can stand — the pillars before the tile on them, a tile before what
  stands on it — a few per scene. The order is found backwards: take off, at random, a piece
  with nothing on it, until the board is empty.
- Baubylon: the block field is built at setup and stays (baubylon.field); then the pawns come.
  The field rises in `setup_scenes` scenes, a cell's lower block before its upper one (a built
  field, sim/baubylon_field.py, block by block in the order it was built); the pawns arrive over
  the remaining scenes, a stack's lower pawn first. Pawns that move away, and
  knock-offs, are not played here: the scenes only add pieces.

The camera sees every scene; a real game shows more scenes (one per move) than this, so the
history it gives an observer is, if anything, thinner than at the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..games.baubylon.field import parse_space
from .boards import BaubylonLayout
from .garden import Decoration, GardenLayout, Pillar, Tile

Cell = tuple[int, int]
DEFAULT_SCENES = 10


@dataclass(frozen=True)
class _Standing:
    """A garden piece as the build sees it: the cells it covers, and per cell the level it stands
    on and the level of its top there."""

    piece: Pillar | Tile | Decoration
    stands: dict[Cell, float]
    tops: dict[Cell, float]

    def rests_on(self, other: _Standing) -> bool:
        """Whether this piece stands on (or spans over) the other on some cell they share."""
        return any(cell in other.tops and self.stands[cell] >= other.tops[cell] for cell in self.stands)


def _garden_standing(piece: Pillar | Tile | Decoration) -> _Standing:
    if isinstance(piece, Pillar):
        cell = (piece.row, piece.col)
        return _Standing(piece, {cell: piece.base_level}, {cell: piece.base_level + piece.height})
    if isinstance(piece, Tile):
        return _Standing(piece, dict.fromkeys(piece.cells(), piece.level), dict.fromkeys(piece.cells(), piece.level))
    levels = dict(zip(piece.cells, piece.levels, strict=True))
    return _Standing(piece, levels, {cell: level + 1 for cell, level in levels.items()})


def garden_order(layout: GardenLayout, rng: np.random.Generator) -> list[Pillar | Tile | Decoration]:
    """The layout's pieces in an order they can be put down in (each on what is already there)."""
    left = [_garden_standing(p) for p in (*layout.pillars, *layout.tiles, *layout.decorations)]
    taken_off: list[Pillar | Tile | Decoration] = []
    while left:
        free = [i for i, s in enumerate(left) if not any(o is not s and o.rests_on(s) for o in left)]
        if not free:  # cannot happen for a layout that stands; keep the rest in their given order
            free = [0]
        taken_off.append(left.pop(free[int(rng.integers(len(free)))]).piece)
    return taken_off[::-1]


def _garden_layout(pieces: list[Pillar | Tile | Decoration]) -> GardenLayout:
    return GardenLayout(tuple(p for p in pieces if isinstance(p, Pillar)),
                        tuple(p for p in pieces if isinstance(p, Tile)),
                        tuple(p for p in pieces if isinstance(p, Decoration)))


def _splits(count: int, scenes: int) -> list[int]:
    """How many of `count` pieces are down after each of `scenes` scenes (as even as can be)."""
    scenes = max(1, min(scenes, count)) if count else 1
    return [round(count * (k + 1) / scenes) for k in range(scenes)]


def garden_states(layout: GardenLayout, rng: np.random.Generator, scenes: int = DEFAULT_SCENES) -> list[GardenLayout]:
    order = garden_order(layout, rng)
    return [_garden_layout(order[:n]) for n in _splits(len(order), scenes)]


def _field_steps(layout: BaubylonLayout, rng: np.random.Generator) -> list[tuple[tuple[Cell, ...], int]]:
    """The field's blocks as they are laid: the spaces each covers and the pawn heights it adds.
    A built field (baubylon_field) lays its own blocks in their order, a lying one on both its
    spaces at once; another layout, 2 pawn heights at a time (baubylon.units), each cell's blocks
    bottom first, in random order."""
    built = getattr(layout, "field", None)
    if built is not None:
        return [(tuple(parse_space(s) for s in block.footprint()), block.height) for block in built.blocks]
    rows, cols = len(layout.cells), len(layout.cells[0])
    steps = [(((r, c),), min(2, h - k)) for r in range(rows) for c in range(cols)
             for h in (layout.cells[r][c][0],) for k in range(0, h, 2)]
    return [steps[i] for i in rng.permutation(len(steps))]


def baubylon_states(layout: BaubylonLayout, rng: np.random.Generator, scenes: int = DEFAULT_SCENES,
                    setup_scenes: int = 3) -> list[BaubylonLayout]:
    rows, cols = len(layout.cells), len(layout.cells[0])
    steps = _field_steps(layout, rng)
    pawns = [(r, c) for r in range(rows) for c in range(cols) for _ in layout.cells[r][c][1]]
    pawns = [pawns[i] for i in rng.permutation(len(pawns))]
    if not pawns:
        phases = [(n, 0) for n in _splits(len(steps), scenes)]
    else:
        setup_scenes = max(1, min(setup_scenes, scenes - 1))
        phases = ([(n, 0) for n in _splits(len(steps), setup_scenes)]
                  + [(len(steps), n) for n in _splits(len(pawns), scenes - setup_scenes)])
    states = []
    for blocks_down, pawns_down in phases:
        height = np.zeros((rows, cols), dtype=int)
        for cells, size in steps[:blocks_down]:
            for cell in cells:
                height[cell] += size
        stacked = np.zeros((rows, cols), dtype=int)
        for cell in pawns[:pawns_down]:
            stacked[cell] += 1
        states.append(BaubylonLayout(tuple(
            tuple((int(height[r, c]), layout.cells[r][c][1][:stacked[r, c]]) for c in range(cols))
            for r in range(rows))))
    return states


def build_states(layout: Any, rng: np.random.Generator, scenes: int = DEFAULT_SCENES) -> list[Any] | None:
    """The still scenes of the layout's build, earliest first, ending with the layout; None for a
    board whose build is not modelled (its observer has nothing beneath a piece to remember)."""
    if isinstance(layout, GardenLayout):
        return garden_states(layout, rng, scenes)
    if isinstance(layout, BaubylonLayout):
        return baubylon_states(layout, rng, scenes)
    return None
