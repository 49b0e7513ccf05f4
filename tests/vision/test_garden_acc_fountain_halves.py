"""A fountain half that fits two heights alike takes the level of its other half read surely
beside it (babylon_garden._deco_levels, _fountain_mate_level; babylon.deco.fountain: a fountain
joins two icons on tiles at the same level), not the level more of its neighbours stand on."""

from companion.vision import labels
from tests.vision.bench_frames import assert_frame_reads_cell_as_laid, bench_reading

REGION = "babylon.garden"


def test_a_fountain_half_beside_tiles_of_the_level_above_stays_at_its_other_halfs():
    """Bench seed 8, frame 28: a level-1 fountain on (2, 3) and (3, 3), (3, 3) read at level 1
    (0.98). (2, 3) fits level 1 (0.98) and level 2 (0.93) alike, and the level-2 tile r1c4 beside
    it made it level 2."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 8, 28), (2, 3), (labels.FOUNTAIN, {"level": 1}))


def test_a_fountain_half_takes_its_other_halfs_higher_level():
    """Bench seed 8, frame 141: a level-2 fountain on (4, 6) and (5, 6), (4, 6) read at level 2.
    (5, 6) fits level 1 (0.98) and level 2 (0.96) alike; nothing beside it told them apart."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 8, 141), (5, 6), (labels.FOUNTAIN, {"level": 2}))
