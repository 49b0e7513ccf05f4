"""Where tiles lie, from what carries the pieces beside them (babylon_garden._where_tiles_lie,
_claimed, _no_tile_lies; babylon.build.covered_space: two tiles at one level cannot lie under one
piece, and no tile lies over a space surely seen lower)."""

from companion.benchmarking import vision as bench
from companion.vision import labels
from tests.vision.bench_frames import (
    assert_frame_reads_cell_as_laid,
    bench_reading,
    sure_and_wrong,
    visible_and_wrong,
)

REGION = "babylon.garden"


def test_pieces_another_tile_carries_do_not_move_a_space_to_a_third():
    """Bench seed 5, frame 42: the level-1 tile r6c2 shows its spaces (6, 2) and (7, 2) unclearly
    (the level-2 tile r6c3 covers its others). The pillars on (6, 1) and (7, 1) stand on level 1,
    on the level-1 tile r6c0, which (6, 0) and (7, 0) read: they do not carry a tile r6c1 that
    would take (6, 2) and (7, 2)."""
    observation, expected, seen = bench_reading(REGION, 5, 42)
    for r in (6, 7):
        assert expected[r][2][0] == labels.TILE and expected[r][2][1]["tile"] == "r6c2"
        assert seen[r, 2] >= bench.VISIBLE
        assert expected[r][1][0] in (labels.PILLAR1, labels.PILLAR2)
        assert expected[r][0][1]["tile"] == "r6c0"
        assert (observation.cell(r, 2).label, observation.cell(r, 2).attrs) == expected[r][2]
    assert visible_and_wrong(observation, expected, seen) == []
    assert sure_and_wrong(observation, expected) == []


def test_an_unclear_space_where_no_tile_can_lie_gives_way_to_the_pillar_there():
    """Bench seed 2, frame 22: a single pillar stands on (5, 4), on the level-2 tile r4c3 that
    (4, 3) and (4, 4) read surely (level 3). Its view reads unclearly as a level-4 tile r4c3,
    which cannot lie over those lower spaces, and the level-1 tile r6c3 that (7, 3) reads carries
    the pillar on (6, 4), so no level-1 tile r5c3 lies there either: it is the pillar."""
    # chosen over a reading that fits better: no surer than 0.45
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 2, 22), (5, 4), (labels.PILLAR1, {"level": 3}), 0.45)
