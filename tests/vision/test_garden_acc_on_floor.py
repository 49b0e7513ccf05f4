"""A piece read over a surely read tile stands on that tile when the higher piece its view fits
has nothing to stand on in view (babylon_garden._covered, _on_floor; babylon.build.pillars,
babylon.deco.icon, babylon.build.covered_space)."""

from companion.benchmarking import vision as bench
from companion.vision import labels
from tests.vision.bench_frames import bench_reading, sure_and_wrong, visible_and_wrong

REGION = "babylon.garden"


def _read_as_laid(seed: int, n: int, r: int, c: int, laid) -> None:
    observation, expected, seen = bench_reading(REGION, seed, n)
    assert expected[r][c] == laid
    assert seen[r, c] >= bench.VISIBLE
    cell = observation.cell(r, c)
    assert (cell.label, cell.attrs) == laid
    assert cell.confidence <= 0.45  # chosen over a reading that fits better
    assert visible_and_wrong(observation, expected, seen) == []
    assert sure_and_wrong(observation, expected) == []


def test_a_pillar_whose_top_passes_for_a_high_belvedere_stands_on_the_tile():
    """Bench seed 0, frame 152: a single pillar stands on (4, 4), on a level-1 tile (level 2).
    Its view fits best a belvedere at level 4, with no level-4 surface beside it; the pillar
    standing on the tile is among its candidates."""
    _read_as_laid(0, 152, 4, 4, (labels.PILLAR1, {"level": 2}))


def test_a_belvedere_read_two_levels_too_high_stands_on_the_tile():
    """Bench seed 3, frame 174: a belvedere stands on (1, 4) at level 2. Its view fits best at
    level 4, with nothing of level 4 beside it; at level 2 it stands on the tile read there."""
    _read_as_laid(3, 174, 1, 4, (labels.BELVEDERE, {"level": 2}))
