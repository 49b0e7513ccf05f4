"""Pieces read by what can stand there when their colour passes for another's: stairs steps read
as pillar tops (babylon_garden._stairs_lookalikes, babylon.deco.stairs), and a pillar on a tile
that only the pieces on its other spaces show (_pillars_on_tiles, _carried_levels,
babylon.build.pillars, babylon.build.covered_space), and a piece with nothing to stand on in
view that gives way only to a reading with something to stand on (_unsupported, _stands_beside)."""

from companion.benchmarking import vision as bench
from companion.vision import labels
from companion.vision.types import CellReading
from tests.vision.bench_frames import bench_frame, bench_seen, visible_and_wrong

REGION = "babylon.garden"


def _read(seed: int, n: int):
    layout, image, observer = bench_frame(REGION, seed, n)
    return layout.expected(), bench_seen(REGION, seed, n, layout), observer, observer.observe(image)


def test_stairs_whose_steps_pass_for_double_pillars_are_read_as_stairs():
    """Bench seed 3, frame 5: a stairs piece joins (1, 0) on the level-1 tile r0c0 and (1, 1) on
    the level-2 tile r0c1. Both steps look like double pillars' tops (their colour is the
    pillars' look-alike under this light), one parallax shift higher: a double pillar at level 2
    and one at level 3, one level apart. As steps they fit their own heights better."""
    expected, seen, observer, observation = _read(3, 5)
    assert expected[1][0] == expected[1][1] == (labels.STAIRS, {"level": [1, 2]})
    assert seen[1, 0] >= bench.VISIBLE and seen[1, 1] >= bench.VISIBLE
    for c in (0, 1):
        assert (observation.cell(1, c).label, observation.cell(1, c).attrs) == expected[1][c]
        assert observation.cell(1, c).confidence <= 0.45  # chosen over a colour that said otherwise
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_lone_step_read_as_a_pillar_pairs_with_its_neighbour():
    """Bench seed 4, frame 189: the stairs (6, 2) level 1 and (6, 3) level 2; (6, 2)'s step reads as
    a double pillar's top at level 2, (6, 3)'s as a lone step. Together they are one stairs."""
    expected, seen, _, observation = _read(4, 189)
    assert expected[6][2] == expected[6][3] == (labels.STAIRS, {"level": [1, 2]})
    for c in (2, 3):
        assert (observation.cell(6, c).label, observation.cell(6, c).attrs) == expected[6][c]
    assert visible_and_wrong(observation, expected, seen) == []


def test_pillars_side_by_side_at_levels_one_apart_stay_pillars():
    """Bench seed 5, frame 182: double pillars at (2, 3) level 2 and (2, 4) level 3 are neighbours
    one level apart, like a stairs' steps; their colour is the pillars' own (next to none of a
    step's), so they stay pillars."""
    expected, seen, _, observation = _read(5, 182)
    assert expected[2][3] == (labels.PILLAR2, {"level": 2})
    assert expected[2][4] == (labels.PILLAR2, {"level": 3})
    for c in (3, 4):
        assert (observation.cell(2, c).label, observation.cell(2, c).attrs) == expected[2][c]


def test_a_pillar_stands_on_the_tile_the_pieces_beside_it_stand_on():
    """Bench seed 4, frame 191: the level-2 tile r0c5 carries double pillars on (0, 5) and (0, 6)
    and a belvedere on (1, 5); its one open space (1, 6) is mostly hidden. (0, 5)'s top also fits
    a double pillar standing in its recess (level 2), but the tile the pieces beside it stand on
    covers that recess: it stands on the tile (level 4)."""
    expected, seen, observer, observation = _read(4, 191)
    assert expected[0][5] == expected[0][6] == (labels.PILLAR2, {"level": 4})
    assert expected[1][5] == (labels.BELVEDERE, {"level": 2})
    assert (observation.cell(0, 5).label, observation.cell(0, 5).attrs) == expected[0][5]
    # The rule on its own: pieces on two other spaces of a tile that can lie there carry it.
    rows = [[CellReading(labels.RECESS, 0.99, {"level": 0}) for _ in range(8)] for _ in range(8)]
    rows[0][6] = CellReading(labels.PILLAR2, 0.9, {"level": 4})
    rows[1][5] = CellReading(labels.BELVEDERE, 0.9, {"level": 2})
    rows[1][6] = CellReading(labels.TILE, 0.1, {"level": 1, "tile": "r1c6", "flower": "flower0", "icon": "none"})
    assert observer._carried_levels(rows, 0, 5) == [2]
    rows[1][5] = CellReading(labels.RECESS, 0.1, {"level": 0})  # one piece alone carries nothing
    assert observer._carried_levels(rows, 0, 5) == []


def test_an_unsupported_piece_gives_way_only_to_a_reading_that_stands_on_something():
    """Bench seed 5, frame 82: a belvedere at (4, 4) stands on the open space of a level-1 tile
    whose other spaces the level-2 tiles r2c3 and r4c2 cover: nothing beside it shows level 1.
    The next reading of another kind, a single pillar whose top is at level 5, would stand on
    level 4, which nothing beside it shows either: the belvedere stays, not surely."""
    expected, seen, _, observation = _read(5, 82)
    assert expected[4][4] == (labels.BELVEDERE, {"level": 1})
    assert expected[3][4][1]["level"] == expected[4][3][1]["level"] == 2
    cell = observation.cell(4, 4)
    assert (cell.label, cell.attrs) == expected[4][4]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_pillar_with_nothing_to_stand_on_stands_on_the_tile_round_it():
    """Bench seed 4, frame 187: a single pillar at (4, 3) stands on the level-2 tile r3c3 (its
    other spaces show it and a belvedere on it): its top is at level 3. Its top fits best at
    level 4, a pillar standing on level 3, which nothing beside it shows; at level 3 it fits
    weakly (0.16), but at all: it stands on the tile (babylon.build.pillars)."""
    expected, seen, _, observation = _read(4, 187)
    assert expected[4][3] == (labels.PILLAR1, {"level": 3})
    assert expected[3][3][1]["tile"] == expected[3][4][1]["tile"] == "r3c3"
    cell = observation.cell(4, 3)
    assert (cell.label, cell.attrs) == expected[4][3]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_surface_beside_a_pillar_that_belongs_to_another_tile_is_nothing_to_stand_on():
    """Bench seed 3, frame 177: a single pillar at (5, 4) stands on the level-1 tile r4c3 (its
    spaces (4, 3) and (4, 4) read surely): its top is at level 2. Its top fits best at level 3
    (0.52; a pillar standing on level 2), and a level-2 surface shows beside it: the tile r5c2 at
    (5, 3) and (6, 3), whose footprint does not hold (5, 4). No level-2 tile can lie over (5, 4)
    (garden_rules.tile_fits: each footprint holding it has a cell read surely lower, or r5c2's
    space at level 2), so the pillar has nothing to stand on at level 2 and takes its reading on
    r4c3 (0.16), no surer than 0.45."""
    expected, seen, observer, observation = _read(3, 177)
    assert expected[5][4] == (labels.PILLAR1, {"level": 2})
    assert expected[4][3][1]["tile"] == expected[4][4][1]["tile"] == "r4c3"
    assert expected[5][3][1]["tile"] == "r5c2" and expected[5][3][1]["level"] == 2
    cell = observation.cell(5, 4)
    assert (cell.label, cell.attrs) == expected[5][4]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_pillar_under_two_tiles_stands_on_the_higher():
    """Bench seed 4, frame 120: (5, 4) lies under the level-2 tile r4c3 (three of its spaces read)
    and the level-1 tile r5c4 (one space and a pillar on it read): the higher covers the lower's
    space there (babylon.build.covered_space), so the single pillar stands on level 2."""
    expected, seen, _, observation = _read(4, 120)
    assert expected[5][4] == (labels.PILLAR1, {"level": 3})
    assert expected[5][5][1] == {"level": 1, "tile": "r5c4", "flower": "flower0", "icon": "stairs"}
    cell = observation.cell(5, 4)
    assert (cell.label, cell.attrs) == expected[5][4]
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_lone_step_finds_its_other_step_beside_it():
    """Bench seed 5, frame 65: a stairs piece joins (7, 6) on a level-1 space and (6, 6) on a
    level-2 one. The lower step reads as a step; the upper one as the level-2 tile space beneath
    it (its stairs icon), with a step at level 2 among its readings (0.14). A step needs its
    other step one level apart beside it (babylon.deco.stairs): that one."""
    expected, seen, _, observation = _read(5, 65)
    assert expected[6][6] == expected[7][6] == (labels.STAIRS, {"level": [1, 2]})
    for r in (6, 7):
        assert (observation.cell(r, 6).label, observation.cell(r, 6).attrs) == expected[r][6]
    assert observation.cell(6, 6).confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_lone_step_at_level_one_is_the_low_step_of_a_stairs():
    """Bench seed 3, frame 181: a stairs joins (6, 6) on a level-1 tile and (5, 6) on a level-2
    tile; (5, 6) is hidden behind taller pieces, so (6, 6)'s step is read alone. A stairs' steps
    stand on tiles one level apart (babylon.deco.stairs) and no tile lies at level 0: its other
    step is at level 2. Not surely: that step is not seen."""
    expected, seen, _, observation = _read(3, 181)
    assert expected[6][6] == (labels.STAIRS, {"level": [1, 2]}) and seen[6, 6] >= bench.VISIBLE
    assert seen[5, 6] < bench.VISIBLE
    cell = observation.cell(6, 6)
    assert (cell.label, cell.attrs) == expected[6][6]
    assert cell.confidence <= 0.45


def test_a_pillar_under_a_tile_seen_over_its_cell_stands_on_that_tile():
    """Bench seed 4, frame 72: the level-1 tile r5c6 shows its space (5, 7) and carries a
    belvedere on (5, 6) and a single pillar on (6, 7). The double pillar on its fourth space
    (6, 6) fits best as a double pillar standing in the board's recess (top at level 2): its foot
    would then be below the tile over its cell, which it would pass through. It stands on the tile
    (top at level 3), as its next reading says, not surely."""
    expected, seen, _, observation = _read(4, 72)
    assert expected[6][6] == (labels.PILLAR2, {"level": 3}) and seen[6, 6] >= bench.VISIBLE
    assert expected[5][7][1]["tile"] == "r5c6" and expected[5][6] == (labels.BELVEDERE, {"level": 1})
    cell = observation.cell(6, 6)
    assert (cell.label, cell.attrs) == expected[6][6]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_pillar_that_can_stand_nowhere_on_a_tile_seen_round_it_is_that_tiles_space():
    """Bench seed 1, frame 61: (2, 1) is the stairs-icon space of the level-1 tile r2c0, whose
    spaces (2, 0) and (3, 0) show it and which carries a pillar on (3, 1). Its middle fits a double
    pillar's top at level 4, standing on level 2; but no level-2 tile can lie over (2, 1) (the
    level-2 tile r0c0 beside it, the level-1 tile and the recesses round it), and no pillar on the
    level-1 tile fits: it is that tile's space, not surely."""
    expected, seen, _, observation = _read(1, 61)
    assert expected[2][1] == (labels.TILE, {"level": 1, "tile": "r2c0", "flower": "flower1", "icon": "stairs"})
    assert seen[2, 1] >= bench.VISIBLE
    cell = observation.cell(2, 1)
    assert (cell.label, cell.attrs) == expected[2][1]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_space_whose_outline_fits_nothing_shows_the_pillar_standing_on_it():
    """Bench seed 4, frame 94: a double pillar stands on (5, 3), a space of the level-1 tile r5c2
    (its spaces (5, 2) and (6, 2) show it). Its top fits a double pillar at level 3 (foot on the
    tile) fairly; where tiles lie made it the tile's space, whose own outline fits nothing there
    (the pillar hides it): it is the pillar (babylon.build.pillars), not surely."""
    expected, seen, _, observation = _read(4, 94)
    assert expected[5][3] == (labels.PILLAR2, {"level": 3}) and seen[5, 3] >= bench.VISIBLE
    assert expected[5][2][1]["tile"] == "r5c2" and expected[5][2][1]["level"] == 1
    cell = observation.cell(5, 3)
    assert (cell.label, cell.attrs) == expected[5][3]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []
