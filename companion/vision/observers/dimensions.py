"""Physical sizes of the pieces (mm) that the observers need to know where a top face lies.

Sizes, never colours: colours are learned (appearance.py). The digital twin builds its pieces from
the same numbers, so the round trip tests check geometry, not a private convention. A measured set
can replace these defaults.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class GardenDimensions:
    """Babylon player board: pillars in 8×8 recesses, 2×2 terrace tiles, decorations on tiles."""

    level_mm: float = 22.0  # one level: a single pillar plus a tile
    tile_thickness_mm: float = 3.0
    tile_inset_mm: float = 1.0  # a tile is 2 cells minus this on each side (the gap between tiles)
    tile_border_mm: float = 1.5  # the printed frame along a tile's edge
    pillar_mm: float = 16.0  # square section of a pillar
    recess_mm: float = 21.0  # the recess cut into the board
    deco_height_mm: float = 10.0  # decorations stand this high on their tile space
    deco_mm: float = 17.0  # a decoration's footprint within one space
    max_level: int = 5

    def tile_top(self, level: int) -> float:
        return level * self.level_mm

    def pillar_top(self, level: int) -> float:
        """A pillar whose top is at `level` carries a level-`level` tile on that top."""
        return level * self.level_mm - self.tile_thickness_mm

    def deco_top(self, level: int) -> float:
        return self.tile_top(level) + self.deco_height_mm


@dataclass(frozen=True)
class QuarryDimensions:
    layer_mm: float = 3.0  # a tile's thickness: basalt layer 1, granite 2, clay 3
    tile_inset_mm: float = 1.0


@dataclass(frozen=True)
class StoneDimensions:
    """The Reclamation: square stones stacked in the 6×6 squares."""

    stone_mm: float = 24.0
    stone_height_mm: float = 6.0
    max_stack: int = 3


@dataclass(frozen=True)
class CubeDimensions:
    """Babel Builders: each cell's tower is built as 2×2 columns of 10 mm cubes."""

    cube_mm: float = 10.0
    max_column: int = 7  # 4 columns × 7 > 25 cubes


@dataclass(frozen=True)
class BaubylonDimensions:
    """Baubylon: blocks are 1 × 1 × 2 spaces; one space is two pawn heights; pawns are cylinders."""

    pawn_height_mm: float = 12.0
    pawn_mm: float = 14.0  # pawn diameter (drawn and read as a square of this side)
    # The highest block top read, in pawn heights (levels every 2): a field built from the box's 48
    # blocks has its goal at 16 or lower in 99.8 % of the twin's built fields (sim/baubylon_field.py).
    # Each level more is one more candidate everywhere: where the field's height is known (the
    # field the players entered), read with `up_to` its tallest top.
    max_block_height: int = 16
    max_pawns: int = 5
    # A field's range is never below this (two standing blocks): the range region baubylon's low
    # random layouts are benched and tuned at (bench vision).
    least_read: int = 8

    def up_to(self, tallest: int) -> BaubylonDimensions:
        """These dimensions reading block tops up to `tallest` pawn heights (to the next level)."""
        return replace(self, max_block_height=max(2, tallest + tallest % 2))

    def for_field(self, tallest: int) -> BaubylonDimensions:
        """These dimensions reading a field whose highest top is `tallest` pawn heights: up to it,
        never below `least_read`."""
        return self.up_to(max(tallest, self.least_read))


GARDEN = GardenDimensions()
QUARRY = QuarryDimensions()
STONES = StoneDimensions()
CUBES = CubeDimensions()
BAUBYLON = BaubylonDimensions()
