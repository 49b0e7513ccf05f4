"""Where a tile can lie, from what is read around it (babylon.build.support, babylon.build.covered_space):
garden_rules on readings made by hand, then the observer on bench frames where the rules decide."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision import labels
from companion.vision.observers.garden_rules import stands_on, tile_fits
from companion.vision.observers.garden_tiles import regroup_footprints
from companion.vision.types import CellReading

REGION = "babylon.garden"


def _board(cells: dict[tuple[int, int], CellReading]) -> list[list[CellReading]]:
    rows = [[CellReading(labels.RECESS, 0.9, {"level": 0}) for _ in range(8)] for _ in range(8)]
    for (r, c), cell in cells.items():
        rows[r][c] = cell
    return rows


def _tile(tile: str, level: int, confidence: float = 0.9) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile, "flower": "flower0", "icon": "none"})


def test_what_a_reading_stands_on():
    assert stands_on(CellReading(labels.RECESS, 1.0, {"level": 0})) == ()
    assert stands_on(CellReading(labels.PILLAR1, 1.0, {"level": 3})) == (2,)
    assert stands_on(CellReading(labels.PILLAR2, 1.0, {"level": 3})) == (1,)
    assert stands_on(CellReading(labels.STAIRS, 1.0, {"level": [1, 2]})) == (1, 2)
    assert stands_on(CellReading(labels.BELVEDERE, 1.0, {"level": 2})) == (2,)
    assert stands_on(_tile("r0c0", 2)) == (2,)


def test_a_tile_cannot_lie_over_a_recess_surely_seen():
    rows = _board({(2, 3): _tile("r2c3", 1, 0.1)})  # its three other cells are sure recesses
    assert tile_fits(rows, 2, 3, 1, 0, sure=0.5) == (False, 0)


def test_an_unsure_reading_does_not_rule_a_tile_out():
    rows = _board({(2, 3): _tile("r2c3", 1, 0.1)})
    for cell in ((2, 4), (3, 3), (3, 4)):
        rows[cell[0]][cell[1]] = CellReading(labels.RECESS, 0.2, {"level": 0})
    assert tile_fits(rows, 2, 3, 1, 0, sure=0.5) == (True, 0)


def test_what_stands_on_the_tile_level_supports_it():
    # A tile r2c3 at level 1: a single pillar (top 2) and a belvedere stand on its level, the
    # third cell shows a higher tile lying over it.
    rows = _board({(2, 3): _tile("r2c3", 1, 0.1),
                   (2, 4): CellReading(labels.PILLAR1, 0.9, {"level": 2}),
                   (3, 3): CellReading(labels.BELVEDERE, 0.9, {"level": 1}),
                   (3, 4): _tile("r3c4", 2)})
    assert tile_fits(rows, 2, 3, 1, 0, sure=0.5) == (True, 2)
    # At level 2 the pillar and the belvedere would be under it.
    assert tile_fits(rows, 2, 3, 2, 0, sure=0.5) == (False, 0)


def test_two_tiles_cannot_lie_at_one_level_over_one_cell():
    rows = _board({(2, 3): _tile("r2c3", 1, 0.1), (2, 4): _tile("r1c4", 1), (3, 3): _tile("r3c2", 2),
                   (3, 4): _tile("r3c4", 2)})
    assert tile_fits(rows, 2, 3, 1, 0, sure=0.5) == (False, 0)
    # The same tile's own spaces support it.
    rows[2][4] = _tile("r2c3", 1)
    assert tile_fits(rows, 2, 3, 1, 0, sure=0.5) == (True, 1)


def test_a_tile_lies_on_the_board():
    rows = _board({(7, 7): _tile("r6c6", 1, 0.1)})
    assert tile_fits(rows, 7, 7, 1, 0, sure=0.5) == (False, 0)  # its top-left space at (7, 7): off the board


def _read(seed: int, frame: int):
    camera, observer = bench.bench_setup(REGION, seed, frame)
    layout, scene = bench.bench_scene(REGION, seed, frame)
    observation = observer.observe(render(scene, camera, seed=frame))
    return layout.expected(), observation, visible_share(scene.regions[0], camera, layout.top_faces())


@pytest.mark.slow
def test_a_belvedere_beside_pillars_standing_on_its_level_is_kept():
    """Bench seed 2 frame 97: a belvedere on a level-1 tile's open space, the tile's other spaces
    under a pillar and pieces of other tiles: the pillar standing on level 1 beside it is what
    shows it has something to stand on (it was read as a tile at level 4)."""
    expected, observation, seen = _read(2, 97)
    assert expected[4][2] == (labels.BELVEDERE, {"level": 1}) and seen[4, 2] >= bench.VISIBLE
    assert expected[4][1][0] == labels.PILLAR2 and expected[4][1][1]["level"] == 3
    cell = observation.cell(4, 2)
    assert (cell.label, cell.attrs) == expected[4][2]


@pytest.mark.slow
def test_a_space_where_nothing_fits_is_the_tile_its_neighbours_stand_on():
    """Bench seed 2 frame 70: the corner space of a level-1 tile whose three other spaces carry a
    fountain and a belvedere: its inner edges run into those pieces, so no reading fits there; what
    stands on level 1 beside it says it is that tile's space (it was read as a statue)."""
    expected, observation, seen = _read(2, 70)
    label, attrs = expected[7][7]
    assert label == labels.TILE and attrs["tile"] == "r6c6" and seen[7, 7] >= bench.VISIBLE
    assert {expected[r][c][0] for r, c in ((6, 6), (6, 7), (7, 6))} <= {labels.FOUNTAIN, labels.BELVEDERE}
    cell = observation.cell(7, 7)
    assert (cell.label, cell.attrs) == (label, attrs)


@pytest.mark.slow
def test_a_fountain_stands_at_the_height_its_neighbours_stand_on():
    """Bench seed 1 frame 196: a fountain on a level-2 tile fits level 1 nearly as well; its
    neighbours (the tile's other spaces, a belvedere, a pillar on level 2) stand on level 2, and
    its own other half, which shows the same height for the same reason, does not count."""
    expected, observation, seen = _read(1, 196)
    for r, c in ((2, 4), (3, 4)):
        assert expected[r][c] == (labels.FOUNTAIN, {"level": 2}) and seen[r, c] >= bench.VISIBLE
        cell = observation.cell(r, c)
        assert (cell.label, cell.attrs) == expected[r][c]


@pytest.mark.slow
@pytest.mark.parametrize(("frame", "cells"), [(18, ((3, 0), (3, 1))), (129, ((4, 0), (5, 0)))])
def test_a_stairs_piece_over_a_tile_space_is_kept(frame, cells):
    """Bench seed 1 frames 18 and 129: stairs joining a level-1 and a level-2 space. Frame 18: one
    half fitted best as a tile at level 3 where no tile can lie (a double pillar on the board and
    a recess are in its footprint), its next reading is the stairs. Both frames: an unclear half
    read as stairs one level from the other half is not taken for the tile space beneath it."""
    expected, observation, seen = _read(1, frame)
    for r, c in cells:
        assert expected[r][c] == (labels.STAIRS, {"level": [1, 2]}) and seen[r, c] >= bench.VISIBLE
        cell = observation.cell(r, c)
        assert (cell.label, cell.attrs) == expected[r][c]


@pytest.mark.slow
def test_a_pillar_top_where_another_pillar_shows_is_the_tile_space_its_siblings_show():
    """Bench seed 2 frame 83: a level-2 tile space fitted a double pillar's top at level 4 best,
    where the double pillar on the board just beyond shows its top in the frame (parallax); the
    tile's other spaces are surely read and the space fits as theirs nearly as well."""
    expected, observation, seen = _read(2, 83)
    label, attrs = expected[5][6]
    assert label == labels.TILE and attrs["level"] == 2 and seen[5, 6] >= bench.VISIBLE
    assert expected[6][6] == (labels.PILLAR2, {"level": 2})
    cell = observation.cell(5, 6)
    assert (cell.label, cell.attrs) == (label, attrs)
    assert observation.cell(6, 6).label == labels.PILLAR2


@pytest.mark.slow
def test_a_pillar_top_read_where_a_surer_one_shows_is_not_sure():
    """Bench seed 1 frame 108: two recesses hidden behind double pillars (their floors out of
    sight) fit the pillars' own tops as pillars two levels higher, at the same place in the frame.
    The camera cannot tell them apart; the readings under the surer pillars must not be sure."""
    expected, observation, seen = _read(1, 108)
    for (r, c), front in (((6, 3), (7, 3)), ((6, 4), (7, 4))):
        assert expected[r][c][0] == labels.RECESS and seen[r, c] < bench.VISIBLE
        assert (observation.cell(*front).label, observation.cell(*front).attrs) == expected[front[0]][front[1]]
        assert observation.cell(*front).confidence > 0.8
        assert observation.cell(r, c).confidence < 0.5


def test_spaces_are_not_grouped_into_a_tile_over_a_pillar_standing_lower():
    # (2, 4) fits best as the top-left space of a tile r2c4, but a single pillar stands on the
    # board at (2, 5), in that footprint: the tile at level 1 cannot lie there, so (2, 4) stays
    # the top-right space of r2c3.
    rows = _board({(2, 3): _tile("r2c3", 1), (2, 4): _tile("r2c4", 1, 0.4), (3, 3): _tile("r2c3", 1),
                   (3, 4): _tile("r2c3", 1), (2, 5): CellReading(labels.PILLAR1, 0.95, {"level": 1})})
    space = np.zeros((2, 8, 8, 4))
    space[1, 2, 3, 0] = space[1, 3, 3, 2] = space[1, 3, 4, 3] = 0.3
    space[1, 2, 4, 1] = 0.3
    space[1, 2, 4, 0] = 0.9
    space[1, 3, 4, 2] = 0.9  # (3, 4) also fits the bottom-left of r2c4
    assert regroup_footprints(rows, space)[2][4].attrs["tile"] == "r2c4"
    assert regroup_footprints(rows, space, sure=0.5)[2][4].attrs["tile"] == "r2c3"
