"""A tile space whose middle shows pixels unlike the tile that look like no icon's print (the
side of a pillar standing beside it, which the occlusion model does not count as hiding the
middle) shows no icon when that is a sliver of the middle (babylon_garden._unprinted: every icon
is one of four prints, and covers more of the middle)."""

from companion.vision import labels
from tests.vision.bench_frames import assert_frame_reads_cell_as_laid, bench_reading

REGION = "babylon.garden"


def test_a_pillars_side_beside_a_bare_space_is_no_statue():
    """Bench seed 7, frame 89: (6, 1) is a bare space of the level-1 tile r5c1, a double pillar
    standing on its sibling (5, 2). A sixth of its middle is unlike the tile (the pillar's side),
    with glyph supports summing 0.02: it read a statue icon."""
    laid = (labels.TILE, {"level": 1, "tile": "r5c1", "flower": "flower3", "icon": "none"})
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 7, 89), (6, 1), laid, 0.0)


def test_a_pillars_side_beside_another_bare_space_is_no_statue():
    """Bench seed 7, frame 154: the same, on another board and camera (tile r5c1, flower0)."""
    laid = (labels.TILE, {"level": 1, "tile": "r5c1", "flower": "flower0", "icon": "none"})
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 7, 154), (6, 1), laid, 0.0)


def test_a_whole_middle_unlike_the_tile_is_a_print_however_weak_its_glyph_supports():
    """Bench seed 2, frame 125: (5, 0) is a stairs space of the level-2 tile r4c0. All its middle
    is unlike the tile (no sliver of a neighbour's side) while its glyph supports sum 0.04: it
    stays a stairs icon (SLIVER_SHARE)."""
    laid = (labels.TILE, {"level": 2, "tile": "r4c0", "flower": "flower3", "icon": "stairs"})
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 2, 125), (5, 0), laid)
