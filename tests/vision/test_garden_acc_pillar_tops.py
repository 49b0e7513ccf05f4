"""Pillars on a tile read from what can carry them when their tops' shape fits a wrong height
(babylon_garden._pillars_on_tiles, _space_or_pillar; babylon.build.pillars,
babylon.build.covered_space)."""

from companion.vision import labels
from tests.vision.bench_frames import assert_frame_reads_cell_as_laid, bench_reading

REGION = "babylon.garden"


def test_a_double_pillar_on_a_tile_whose_top_fits_a_level_too_high_stays_a_pillar():
    """Bench seed 2, frame 72: a double pillar stands on (1, 6), the bottom-left space of the
    level-2 tile r0c6 (level 4). Close below the camera, its top's shape fits level 5 (its foot
    on level 3, where no tile can lie), not level 4. The space shows neither an icon nor the
    tile's colour: it is the pillar, standing on the tile, not the tile's space."""
    # chosen over where its shape fits best: no surer than 0.45
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 2, 72), (1, 6), (labels.PILLAR2, {"level": 4}), 0.45)


def test_a_double_pillar_fitting_two_heights_alike_stands_where_something_carries_it():
    """Bench seed 4, frame 139: a double pillar stands in the recess (4, 4) (level 2). Its top fits
    level 3 (its foot on level 1, with no level-1 surface beside it) a little better than level
    2; the piece with nothing to stand on is the pillar at the height the board carries, not
    the next reading of another kind (a high stairs step)."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 4, 139), (4, 4), (labels.PILLAR2, {"level": 2}))
