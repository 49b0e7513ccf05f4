"""An unclear cell two tiles' footprints both take shows the higher tile's space, not the lower
one's (babylon_garden._complete_footprints, _higher_space; babylon.build.covered_space: a tile
lying over a lower one covers that one's space there)."""

from companion.vision import labels
from tests.vision.bench_frames import assert_frame_reads_cell_as_laid, bench_reading

REGION = "babylon.garden"


def _space(level: int, tile: str, flower: str, icon: str):
    return (labels.TILE, {"level": level, "tile": tile, "flower": flower, "icon": icon})


def test_the_higher_of_two_sure_tiles_completes_the_cell_both_take():
    """Bench seed 6, frame 180: (6, 1) is a space of the level-2 tile r6c0, read surely on (7, 0)
    and (7, 1); the level-1 tile r5c1, read surely on (5, 2) and (6, 2), would take it too (its
    space there is under r6c0). Completed by r5c1 first (the surer), it read as r5c1's space."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 6, 180), (6, 1), _space(2, "r6c0", "flower2", "stairs"))


def test_a_higher_space_whose_siblings_carry_pieces_is_not_a_lower_tiles():
    """Bench seed 7, frame 60: (0, 6) is the only bare space of the level-2 tile r0c5 (belvederes
    on (0, 5) and (1, 6), a double pillar on (1, 5), all standing on level 2), over the level-1
    tile r0c6 read surely on (0, 7) and (1, 7). Its outline fits r0c5's space (0.78) better than
    r0c6's (0.29); completing r0c6's footprint read it as r0c6's."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 7, 60), (0, 6), _space(2, "r0c5", "flower3", "none"), 0.45)


def test_a_higher_space_read_on_a_sibling_is_not_a_lower_tiles():
    """Bench seed 7, frame 73: (6, 6) is a space of the level-2 tile r5c6 (read on (5, 7), statues
    at level 2 on (5, 6) and (6, 7)), over the level-1 tile r5c5 read surely on (5, 5) and
    (6, 5), whose space there fits nothing (below 1e-12) while r5c6's fits 0.25."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 7, 73), (6, 6), _space(2, "r5c6", "flower0", "fountain"), 0.45)


def test_one_piece_on_the_higher_level_does_not_show_a_higher_tile():
    """Bench seed 2, frame 132: (2, 4) is a stairs space of the level-1 tile r2c4, read unclearly.
    A level-2 space of r1c4 fits it (0.16), and of r1c4's other spaces only (1, 4) shows level 2,
    a fountain half that stands on another level-2 tile: no higher tile is seen there
    (SIBLINGS_SHOWN)."""
    assert_frame_reads_cell_as_laid(bench_reading(REGION, 2, 132), (2, 4), _space(1, "r2c4", "flower1", "stairs"))
