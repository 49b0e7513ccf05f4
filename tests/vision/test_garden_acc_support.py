"""An unclear tile space joins the tile that what stands beside it carries most
(babylon_garden._where_tiles_lie; garden_rules.tile_fits' mate_sure)."""

from companion.vision import labels
from companion.vision.observers.garden_rules import tile_fits
from companion.vision.types import CellReading
from tests.vision.bench_frames import bench_frame, bench_seen, visible_and_wrong

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
    layout, image, observer = bench_frame(REGION, 0, 187)
    seen = bench_seen(REGION, 0, 187, layout)
    expected = layout.expected()
    observation = observer.observe(image)
    assert expected[4][6] == (labels.TILE, {"level": 1, "tile": "r4c6", "flower": "flower0", "icon": "stairs"})
    assert (observation.cell(4, 6).label, observation.cell(4, 6).attrs) == expected[4][6]
    assert visible_and_wrong(observation, expected, seen) == []

