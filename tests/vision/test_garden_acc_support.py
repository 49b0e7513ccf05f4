"""An unclear tile space joins the tile that what stands beside it carries most
(babylon_garden._where_tiles_lie; garden_rules.tile_fits' mate_sure)."""

from companion.vision import labels
from companion.vision.observers.garden_rules import tile_fits
from companion.vision.types import CellReading
from tests.vision.bench_frames import bench_reading, visible_and_wrong

REGION = "babylon.garden"


def _tile(tile: str, confidence: float, level: int = 1) -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile, "flower": "flower0", "icon": "none"})


def test_a_tiles_own_spaces_support_it_only_when_read_at_least_mate_sure():
    rows = [[CellReading(labels.RECESS, 0.99, {"level": 0}) for _ in range(8)] for _ in range(8)]
    rows[2][3] = _tile("r2c2", 0.02)  # a hidden cell's look-alike: nothing fits it
    rows[3][2] = _tile("r2c2", 0.4)
    rows[3][3] = CellReading(labels.STATUE, 0.9, {"level": 1})
    assert tile_fits(rows, 2, 2, 1, 0, 0.5) == (True, 3)
    assert tile_fits(rows, 2, 2, 1, 0, 0.5, 0.05) == (True, 2)
    # A piece standing on the tile's level counts however surely it is read... once read surely
    # enough to count at all (an unsure reading neither supports nor forbids).
    rows[3][3] = CellReading(labels.STATUE, 0.3, {"level": 1})
    assert tile_fits(rows, 2, 2, 1, 0, 0.5, 0.05) == (True, 1)


def test_an_unclear_space_joins_the_tile_its_neighbours_pieces_stand_on():
    """Bench seed 0, frame 187: (4, 6) is the top-left space of the level-1 tile r4c6, whose
    other spaces show it (twice) and a belvedere on it; its own view fitted a level-2 tile r3c6,
    which two pieces beside it (a belvedere, a pillar) could also stand on."""
    observation, expected, seen = bench_reading(REGION, 0, 187)
    assert expected[4][6] == (labels.TILE, {"level": 1, "tile": "r4c6", "flower": "flower0", "icon": "stairs"})
    assert (observation.cell(4, 6).label, observation.cell(4, 6).attrs) == expected[4][6]
    assert visible_and_wrong(observation, expected, seen) == []



def test_a_clear_space_whose_tile_cannot_lie_there_joins_the_one_at_its_level_that_can():
    """Bench seed 3, frame 152: (5, 7) is the top-right space of the level-2 tile r5c6, at the
    board's right edge; a double pillar stands on (5, 6). Its own outline fitted the bottom-right
    space of a level-2 tile r4c6 (0.6 sure), but (4, 6) and (4, 7) are surely read as the level-1
    tile r3c6: no level-2 tile covers them (babylon.build.covered_space). The level-2 tile that
    can lie there, carried by the pillar and its other space, is r5c6; not surely (its own
    outline chose otherwise)."""
    observation, expected, seen = bench_reading(REGION, 3, 152)
    assert expected[5][7] == (labels.TILE, {"level": 2, "tile": "r5c6", "flower": "flower0", "icon": "fountain"})
    assert expected[4][6][1]["tile"] == expected[4][7][1]["tile"] == "r3c6"
    assert expected[5][6] == (labels.PILLAR2, {"level": 4})
    cell = observation.cell(5, 7)
    assert (cell.label, cell.attrs) == expected[5][7]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_clear_space_read_at_another_level_than_its_tile_takes_the_tiles_level():
    """Bench seed 3, frame 51: (2, 6) is the top-right space of the level-1 tile r2c5, whose
    bottom-right space (3, 6) is read surely and whose bottom-left one carries a belvedere. Its
    own outline fitted that footprint at level 3 (0.8 sure): a level-3 tile there would cover
    (3, 5) and (3, 6), both surely read at level 1 (babylon.build.covered_space). No level-3 tile
    can lie there; the tile at another level that can is its own r2c5, at level 1."""
    observation, expected, seen = bench_reading(REGION, 3, 51)
    assert expected[2][6] == (labels.TILE, {"level": 1, "tile": "r2c5", "flower": "flower2", "icon": "none"})
    assert expected[3][5] == (labels.BELVEDERE, {"level": 1})
    cell = observation.cell(2, 6)
    assert (cell.label, cell.attrs) == expected[2][6]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_an_unclear_recess_under_a_tile_its_pieces_carry_is_that_tiles_space():
    """Bench seed 4, frame 107: (6, 0) is the bottom-left space of the level-2 tile r5c0, whose
    other spaces carry a fountain (on (5, 0) and (5, 1)) and a single pillar (6, 1): nothing of
    the tile shows but this space. Its view fitted a recess a little better (0.34 against 0.24);
    a recess there would lie under the tile those pieces stand on (babylon.build.covered_space)."""
    observation, expected, seen = bench_reading(REGION, 4, 107)
    assert expected[6][0] == (labels.TILE, {"level": 2, "tile": "r5c0", "flower": "flower2", "icon": "stairs"})
    assert expected[5][0] == expected[5][1] == (labels.FOUNTAIN, {"level": 2})
    assert expected[6][1] == (labels.PILLAR1, {"level": 3})
    cell = observation.cell(6, 0)
    assert (cell.label, cell.attrs) == expected[6][0]
    assert cell.confidence < 0.3
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_space_under_a_sure_tile_at_its_level_is_that_tiles_space():
    """Bench seed 5, frame 199: (4, 6) is the bottom-right space of the level-2 tile r3c5, whose
    other spaces are read surely (two, and a statue on the third). Under that tile nothing lower
    shows (babylon.build.covered_space); of the space's own readings at level 2 the best fitted
    the top-right space of a tile r4c5, which would lie at the same level over (4, 5): two tiles
    at one level cannot cover one cell. It is r3c5's space, not surely."""
    observation, expected, seen = bench_reading(REGION, 5, 199)
    assert expected[4][6] == (labels.TILE, {"level": 2, "tile": "r3c5", "flower": "flower3", "icon": "bridge"})
    assert expected[4][5] == (labels.STATUE, {"level": 2})
    cell = observation.cell(4, 6)
    assert (cell.label, cell.attrs) == expected[4][6]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_space_its_siblings_vote_put_on_a_lower_tile_joins_the_tile_its_pieces_carry():
    """Bench seed 3, frame 176: (2, 1) is the bottom-right space of the level-2 tile r1c0, whose
    other spaces carry a fountain and a statue. The neighbours' vote put it on a level-1 tile
    r2c0, which its own view does not fit at all, and a completed footprint made that surer; its
    own view fits r1c0's space (0.96), a tile those pieces stand on (babylon.deco.icon)."""
    observation, expected, seen = bench_reading(REGION, 3, 176)
    assert expected[2][1] == (labels.TILE, {"level": 2, "tile": "r1c0", "flower": "flower1", "icon": "none"})
    assert expected[1][0] == expected[1][1] == (labels.FOUNTAIN, {"level": 2})
    assert expected[2][0] == (labels.STATUE, {"level": 2})
    cell = observation.cell(2, 1)
    assert (cell.label, cell.attrs) == expected[2][1]
    assert cell.confidence <= 0.45
    assert visible_and_wrong(observation, expected, seen) == []


def test_a_cell_under_a_sure_tile_shows_only_a_higher_tile_that_can_lie_there():
    """Bench seed 3, frame 121: a belvedere stands at (4, 6) on the level-2 tile r3c5, read surely
    on its other spaces. The cell's view fitted a recess (under that tile: not possible) and then
    a level-4 tile r3c5, which would lie over those surely read level-2 spaces; the belvedere on
    the tile (0.77) is what can be there (babylon.build.covered_space, garden_rules.tile_fits)."""
    observation, expected, seen = bench_reading(REGION, 3, 121)
    assert expected[4][6] == (labels.BELVEDERE, {"level": 2})
    cell = observation.cell(4, 6)
    assert (cell.label, cell.attrs) == expected[4][6]
    assert visible_and_wrong(observation, expected, seen) == []
