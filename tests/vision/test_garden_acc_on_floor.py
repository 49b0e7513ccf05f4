"""A piece read over a surely read tile stands on that tile when the higher piece its view fits
has nothing to stand on in view (babylon_garden._covered, _on_floor; babylon.build.pillars,
babylon.deco.icon, babylon.build.covered_space), and a surely read decoration that is no
parallax ghost of a hidden cell's unclear look-alike (_ghosts)."""

from companion.benchmarking import vision as bench
from companion.vision import labels
from tests.vision.bench_frames import (
    assert_frame_reads_cell_as_laid,
    bench_reading,
    sure_and_wrong,
    visible_and_wrong,
)

REGION = "babylon.garden"


def _read_as_laid(seed: int, n: int, r: int, c: int, laid) -> None:
    # chosen over a reading that fits better: no surer than 0.45
    assert_frame_reads_cell_as_laid(bench_reading(REGION, seed, n), (r, c), laid, 0.45)


def test_a_pillar_whose_top_passes_for_a_high_belvedere_stands_on_the_tile():
    """Bench seed 0, frame 152: a single pillar stands on (4, 4), on a level-1 tile (level 2).
    Its view fits best a belvedere at level 4, with no level-4 surface beside it; the pillar
    standing on the tile is among its candidates."""
    _read_as_laid(0, 152, 4, 4, (labels.PILLAR1, {"level": 2}))


def test_a_belvedere_read_two_levels_too_high_stands_on_the_tile():
    """Bench seed 3, frame 174: a belvedere stands on (1, 4) at level 2. Its view fits best at
    level 4, with nothing of level 4 beside it; at level 2 it stands on the tile read there."""
    _read_as_laid(3, 174, 1, 4, (labels.BELVEDERE, {"level": 2}))


def test_a_surely_read_belvedere_is_no_ghost_of_a_hidden_cells_look_alike():
    """Bench seed 2, frame 140: a belvedere stands on (3, 2) at level 3, read surely, beside the
    level-3 tile r2c2. Its top shows where a belvedere at level 1 on the hidden cell (4, 1) would,
    and that cell, which the camera does not show, reads so, unclearly: both have something to
    stand on beside them, and the surely read one is the piece, not the higher one's ghost."""
    observation, expected, seen = bench_reading(REGION, 2, 140)
    assert expected[3][2] == (labels.BELVEDERE, {"level": 3})
    assert seen[3, 2] >= bench.VISIBLE and seen[4, 1] < bench.VISIBLE
    assert (observation.cell(3, 2).label, observation.cell(3, 2).attrs) == expected[3][2]
    assert visible_and_wrong(observation, expected, seen) == []
    assert sure_and_wrong(observation, expected) == []
