"""A terrace tile read as one thing: footprint from all its spaces, one flower per tile."""

from __future__ import annotations

import numpy as np

from companion.vision import labels
from companion.vision.observers.garden_tiles import pool_flowers, regroup_footprints, tile_support
from companion.vision.types import CellReading

FLOWERS = ("flower0", "flower1", "flower2", "flower3")


def _board(tiles: dict[tuple[int, int], tuple[str, int, str]]) -> list[list[CellReading]]:
    rows = [[CellReading(labels.RECESS, 0.9, {"level": 0}) for _ in range(8)] for _ in range(8)]
    for (r, c), (tile, level, flower) in tiles.items():
        rows[r][c] = CellReading(labels.TILE, 0.7, {"level": level, "tile": tile, "flower": flower, "icon": "none"})
    return rows


def test_a_tile_is_supported_by_all_four_of_its_spaces_each_in_its_own_position():
    space = np.zeros((3, 8, 8, 4))
    for i, (dr, dc) in enumerate(((0, 0), (0, 1), (1, 0), (1, 1))):
        space[1, 2 + dr, 3 + dc, i] = 0.8
    space[1, 2, 4, 0] = 0.5  # the top-right space also looks a little like a top-left one
    whole = tile_support(space)
    assert whole.shape == (3, 7, 7)
    assert np.isclose(whole[1, 2, 3], 3.2)
    assert whole[1, 2, 4] == 0.0  # it votes only where it fits best
    assert whole[2].max() == 0.0


def test_a_space_joins_the_tile_its_siblings_show():
    # Three spaces of tile r2c3 at level 1; the fourth was read as the top-left of its own tile.
    rows = _board({(2, 3): ("r2c3", 1, "flower0"), (2, 4): ("r2c3", 1, "flower0"),
                   (3, 3): ("r2c3", 1, "flower0"), (3, 4): ("r3c4", 1, "flower0")})
    space = np.zeros((2, 8, 8, 4))
    space[1, 2, 3, 0] = space[1, 2, 4, 1] = space[1, 3, 3, 2] = 0.9
    space[1, 3, 4, 3] = 0.6  # bottom-right of r2c3
    space[1, 3, 4, 0] = 0.7  # top-left of a tile r3c4 no other space shows
    out = regroup_footprints(rows, space)
    assert out[3][4].attrs["tile"] == "r2c3"
    assert out[2][3].attrs["tile"] == "r2c3"


def test_one_flower_per_tile_from_the_corner_all_its_spaces_agree_on():
    rows = _board({(2, 3): ("r2c3", 1, "flower2"), (2, 4): ("r2c3", 1, "flower1"),
                   (3, 3): ("r2c3", 1, "flower1"), (3, 4): ("r2c3", 1, "flower1")})
    support = {}
    for r, c in ((2, 3), (2, 4), (3, 3), (3, 4)):
        dots = np.zeros((4, 4))
        dots[1, 1] = 0.9  # the dot of flower1 in the top-right corner (the tile turned once)
        support[(r, c)] = dots
    support[(2, 3)][2, 2] = 1.0  # one space also catches something yellow elsewhere
    out = pool_flowers(rows, lambda level, r, c: support[(r, c)], FLOWERS)
    assert {out[r][c].attrs["flower"] for r, c in support} == {"flower1"}
