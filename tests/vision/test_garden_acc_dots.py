"""A flower dot seen on a tile space means nothing stands on it (babylon_garden._dots_in_view)."""

import pytest

from companion.benchmarking import vision as bench
from companion.vision import labels
from companion.vision.observers.babylon_garden import GHOST_CAP
from tests.vision.bench_frames import bench_reading, visible_and_wrong

REGION = "babylon.garden"


@pytest.mark.parametrize(("seed", "n", "cell", "still_wrong"), [
    # (4, 3): the bottom-right space of the level-2 tile r3c2 (its other spaces read), its dot in
    # view; a pillar1 top at level 3 fitted a little better there (a look-alike). (6, 2)'s icon
    # reads right too since _occluded_icons no longer reads a bridge into a middle hidden by
    # neighbours that showed only tile colour (test_garden_acc_icons).
    (1, 143, (4, 3), []),
    # (6, 3): the one visible space of the level-1 tile r5c3, a pillar standing on its other
    # space; a pillar2 top at level 3 fitted a little better there.
    (0, 140, (6, 3), []),
])
def test_a_space_showing_its_dot_is_not_read_as_a_piece(seed, n, cell, still_wrong):
    observation, expected, seen = bench_reading(REGION, seed, n)
    r, c = cell
    assert expected[r][c][0] == labels.TILE and seen[r, c] >= bench.VISIBLE
    reading = observation.cell(r, c)
    assert (reading.label, reading.attrs["level"], reading.attrs["tile"]) == (
        labels.TILE, expected[r][c][1]["level"], expected[r][c][1]["tile"])
    assert reading.confidence <= GHOST_CAP  # chosen over a reading that fitted better
    assert visible_and_wrong(observation, expected, seen) == still_wrong
