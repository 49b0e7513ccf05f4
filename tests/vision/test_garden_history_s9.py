"""Garden history, session 9's rules (garden_history): a pillar put since on a surface seen there,
read unsurely by the frame. Hand-made readings with a stand-in view of the faces; a clear view
still wins."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.vision import labels
from companion.vision.observers.babylon_garden import with_history
from companion.vision.types import CellReading, Observation
from tests.vision.bench_frames import bench_frame, wrong_cells

REGION = "babylon.garden"


class Blind:
    """A stand-in FaceView: every face hidden by this share."""

    def __init__(self, share: float):
        self.share = share

    def hidden(self, rows, faces):
        return np.full(len(faces), self.share)


IN_VIEW, OUT_OF_VIEW = Blind(0.2), Blind(0.6)


def board(cells: dict[tuple[int, int], CellReading]) -> Observation:
    recess = CellReading(labels.RECESS, 0.9, {"level": 0})
    return Observation(REGION, 8, 8, tuple(tuple(cells.get((r, c), recess) for c in range(8)) for r in range(8)))


def tile(confidence: float, icon: str = "none", level: int = 1, alternatives=()) -> CellReading:
    attrs = {"level": level, "tile": "r5c5", "flower": "flower1", "icon": icon}
    return CellReading(labels.TILE, confidence, attrs, tuple(alternatives))


def read_at(reading: Observation, r: int = 5, c: int = 5) -> tuple[str, dict]:
    cell = reading.cell(r, c)
    return cell.label, cell.attrs


SEEN_TILE = board({(5, 5): tile(0.95, level=1)})


def test_the_tile_read_unsurely_with_another_icon_is_the_pillar_the_frame_also_saw_on_it():
    # a double pillar on a level-1 space hides its icon; its top (level 3) is among the alternatives
    now = board({(5, 5): tile(0.0, icon="bridge", alternatives=(("tile", {"level": 5}, 0.11),
                                                                 ("pillar", {"level": 3}, 0.11)))})
    read = with_history(now, SEEN_TILE, IN_VIEW)
    assert read_at(read) == (labels.PILLAR2, {"level": 3})
    assert read.cell(5, 5).confidence <= 0.0 + 1e-12  # no surer than the frame's own reading
    assert read.cell(5, 5).alternatives[0][0] == labels.TILE  # the frame's reading is kept first


def test_the_tile_read_unsurely_exactly_as_before_is_the_pillar_the_frame_also_saw_on_it():
    # the same, the frame reading the space down to its icon as before (the pillar's side over the
    # middle matching the colour the space is judged against), with no confidence (below FITS); a
    # reading that fits at all, or one out of view, or with no pillar standing on it among the
    # alternatives, stays as it was seen
    same = board({(5, 5): tile(0.0, alternatives=(("tile", {"level": 5}, 0.11), ("pillar", {"level": 3}, 0.11)))})
    read = with_history(same, SEEN_TILE, IN_VIEW)
    assert read_at(read) == (labels.PILLAR2, {"level": 3})
    assert read.cell(5, 5).confidence <= 0.0 + 1e-12
    assert read_at(with_history(same, SEEN_TILE, OUT_OF_VIEW)) == read_at(SEEN_TILE)
    sure = board({(5, 5): tile(0.3, alternatives=(("pillar", {"level": 3}, 0.11),))})
    assert read_at(with_history(sure, SEEN_TILE, IN_VIEW)) == read_at(SEEN_TILE)
    bare = board({(5, 5): tile(0.0, alternatives=(("tile", {"level": 2}, 0.3),))})
    assert read_at(with_history(bare, SEEN_TILE, IN_VIEW)) == read_at(SEEN_TILE)


def test_the_board_read_unsurely_over_a_tile_space_is_the_pillar_standing_on_that_space():
    seen = board({(5, 5): tile(0.95, level=2)})
    now = board({(5, 5): CellReading(labels.RECESS, 0.01, {"level": 0},
                                     (("pillar", {"level": 4}, 0.3), ("tile", {"level": 1}, 0.1)))})
    assert read_at(with_history(now, seen, IN_VIEW)) == (labels.PILLAR2, {"level": 4})


def test_no_pillar_is_put_on_a_surface_out_of_view_or_from_an_alternative_that_hardly_fits():
    weak = board({(5, 5): tile(0.17, icon="none", alternatives=(("tile", {"level": 1}, 0.0),
                                                                 ("pillar", {"level": 2}, 0.01)))})
    assert read_at(with_history(weak, SEEN_TILE, IN_VIEW)) == read_at(SEEN_TILE)  # fits < FITS
    hidden = board({(5, 5): tile(0.1, icon="bridge", alternatives=(("pillar", {"level": 3}, 0.3),))})
    assert read_at(with_history(hidden, SEEN_TILE, OUT_OF_VIEW)) == read_at(SEEN_TILE)
    assert read_at(with_history(hidden, SEEN_TILE, None)) == read_at(SEEN_TILE)  # no view known
    # a pillar standing on another level is not one standing on this surface
    other = board({(5, 5): tile(0.1, icon="bridge", alternatives=(("pillar", {"level": 4}, 0.3),))})
    assert read_at(with_history(other, SEEN_TILE, IN_VIEW)) == read_at(SEEN_TILE)


def test_a_pillar_read_one_level_off_its_height_over_a_surface_in_view_stands_on_it():
    now = board({(5, 5): CellReading(labels.PILLAR2, 0.32, {"level": 2}, (("pillar", {"level": 3}, 0.13),))})
    read = with_history(now, SEEN_TILE, IN_VIEW)
    assert read_at(read) == (labels.PILLAR2, {"level": 3})  # the frame's kind, at its height on the space
    assert read.cell(5, 5).confidence <= 0.32
    above = board({(5, 5): CellReading(labels.PILLAR2, 0.44, {"level": 4}, (("pillar", {"level": 2}, 0.21),))})
    assert read_at(with_history(above, SEEN_TILE, IN_VIEW)) == (labels.PILLAR2, {"level": 3})
    # out of view the surface stands, as before
    assert read_at(with_history(now, SEEN_TILE, OUT_OF_VIEW)) == read_at(SEEN_TILE)


def test_a_pillar_read_far_off_its_height_takes_the_standing_pillar_among_the_alternatives():
    on_board = board({})
    now = board({(5, 5): CellReading(labels.PILLAR1, 0.45, {"level": 4},
                                     (("pillar", {"level": 2}, 0.39), ("pillar", {"level": 3}, 0.16)))})
    assert read_at(with_history(now, on_board, IN_VIEW)) == (labels.PILLAR2, {"level": 2})
    # read far off with no pillar standing on the surface among the alternatives: the surface stands
    lone = board({(5, 5): CellReading(labels.PILLAR1, 0.45, {"level": 5},
                                      (("tile", {"level": 3}, 0.12), ("tile", {"level": 3}, 0.09)))})
    assert read_at(with_history(lone, SEEN_TILE, IN_VIEW)) == read_at(SEEN_TILE)


def test_a_clear_view_still_wins_and_a_piece_taken_back_is_read_gone():
    pillar_seen = with_history(board({(5, 5): CellReading(labels.PILLAR2, 0.3, {"level": 2},
                                                          (("pillar", {"level": 3}, 0.2),))}), SEEN_TILE, IN_VIEW)
    assert read_at(pillar_seen) == (labels.PILLAR2, {"level": 3})
    sure = board({(5, 5): CellReading(labels.PILLAR2, 0.9, {"level": 3})})
    remembered = with_history(sure, pillar_seen, IN_VIEW)
    # the pillar taken back: the tile space read clearly again is the tile space
    back = with_history(SEEN_TILE, remembered, IN_VIEW)
    assert read_at(back) == read_at(SEEN_TILE)
    # the tile read clearly with another icon (no pillar alternative) is the frame's reading
    clear = board({(5, 5): tile(0.9, icon="bridge", alternatives=(("pillar", {"level": 3}, 0.3),))})
    assert read_at(with_history(clear, SEEN_TILE, IN_VIEW)) == read_at(clear)



def space(confidence: float, level: int, tile_id: str, icon: str = "none") -> CellReading:
    return CellReading(labels.TILE, confidence, {"level": level, "tile": tile_id, "flower": "flower2", "icon": icon})


def stairs(level: int, confidence: float) -> CellReading:
    return CellReading(labels.STAIRS, confidence, {"level": [level]})


# A level-2 tile's space at (7,2) beside a level-1 tile's space at (7,3), both seen clearly.
STEPS_SEEN = board({(7, 2): space(0.9, 2, "r6c1"), (7, 3): space(0.9, 1, "r6c3")})


def test_stairs_read_on_one_step_beside_a_space_one_level_apart_are_the_pair():
    # babylon.deco.stairs: one piece over two spaces of two tiles one level apart; the frame found
    # one step only, and read the other space as the tile with another icon (the stairs hide it)
    now = board({(7, 2): space(0.38, 2, "r6c1", icon="fountain"), (7, 3): stairs(1, 0.02)})
    read = with_history(now, STEPS_SEEN, IN_VIEW)
    for cell in ((7, 2), (7, 3)):
        assert read_at(read, *cell) == (labels.STAIRS, {"level": [1, 2]})
    assert read.cell(7, 2).confidence <= 0.38 and read.cell(7, 3).confidence <= 0.02
    assert read.cell(7, 2).alternatives[0][0] == labels.TILE  # the frame's reading kept first


def test_stairs_are_not_paired_with_a_space_read_surely_an_unseen_one_or_two_candidates():
    sure = board({(7, 2): space(0.9, 2, "r6c1", icon="fountain"), (7, 3): stairs(1, 0.02)})
    assert read_at(with_history(sure, STEPS_SEEN, IN_VIEW), 7, 2) == read_at(sure, 7, 2)  # a clear view wins
    assert read_at(with_history(sure, STEPS_SEEN, IN_VIEW), 7, 3) == (labels.STAIRS, {"level": [1]})
    unseen = board({(7, 3): space(0.9, 1, "r6c3")})  # nothing seen at (7,2) before
    now = board({(7, 2): space(0.38, 2, "r6c1"), (7, 3): stairs(1, 0.02)})
    assert read_at(with_history(now, unseen, IN_VIEW), 7, 3) == (labels.STAIRS, {"level": [1]})
    two = board({(7, 2): space(0.9, 2, "r6c1"), (7, 3): space(0.9, 1, "r6c3"), (7, 4): space(0.9, 2, "r6c4")})
    both = board({(7, 2): space(0.38, 2, "r6c1"), (7, 3): stairs(1, 0.02), (7, 4): space(0.3, 2, "r6c4")})
    read = with_history(both, two, IN_VIEW)
    assert read_at(read, 7, 3) == (labels.STAIRS, {"level": [1]}) and read.cell(7, 2).label == labels.TILE
    # the step's level must be what was seen under it
    low = board({(7, 2): space(0.38, 2, "r6c1"), (7, 3): stairs(3, 0.02)})
    assert read_at(with_history(low, STEPS_SEEN, IN_VIEW), 7, 2) == read_at(STEPS_SEEN, 7, 2)


def test_stairs_read_on_a_different_single_step_on_both_spaces_are_the_pair():
    seen = board({(2, 3): space(0.95, 2, "r1c2"), (3, 3): space(0.98, 1, "r2c2")})
    now = board({(2, 3): stairs(4, 0.37), (3, 3): stairs(1, 0.48)})
    read = with_history(now, seen, IN_VIEW)
    assert read_at(read, 2, 3) == read_at(read, 3, 3) == (labels.STAIRS, {"level": [1, 2]})


def test_a_tile_space_read_unsurely_over_a_decoration_seen_there_is_the_decoration():
    # babylon.deco.icon: nothing goes on a decoration; a lone higher tile space is its look-alike
    seen = board({(3, 6): CellReading(labels.BELVEDERE, 0.95, {"level": 2})})
    now = board({(3, 6): CellReading(labels.TILE, 0.09, {"level": 4, "tile": "r2c5", "flower": "flower3",
                                                         "icon": "statue"})})
    read = with_history(now, seen, IN_VIEW)
    assert read_at(read, 3, 6) == (labels.BELVEDERE, {"level": 2})
    assert read.cell(3, 6).confidence <= 0.75
    # a statue may carry a tile (babylon.build.statue_pillar): the frame's reading stands
    statue = board({(3, 6): CellReading(labels.STATUE, 0.95, {"level": 2})})
    assert read_at(with_history(now, statue, IN_VIEW), 3, 6) == read_at(now, 3, 6)
    # a clear view of the tile wins
    clear = board({(3, 6): replace(now.cell(3, 6), confidence=0.9)})
    assert read_at(with_history(clear, seen, IN_VIEW), 3, 6) == read_at(clear, 3, 6)


def test_a_fountain_over_the_board_seen_there_stands_on_a_tile_read_surely_round_it_in_view():
    fountain = CellReading(labels.FOUNTAIN, 0.26, {"level": 1})
    laid = {(4, 4): space(0.98, 1, "r3c4"), (4, 5): space(0.64, 1, "r3c4")}
    now = board({(3, 4): fountain, **laid})
    assert read_at(with_history(now, board({}), IN_VIEW), 3, 4) == (labels.FOUNTAIN, {"level": 1})
    # no tile read surely round it, or the board out of view: the board seen there stands
    unsure = board({(3, 4): fountain, (4, 4): space(0.3, 1, "r3c4")})
    assert read_at(with_history(unsure, board({}), IN_VIEW), 3, 4) == (labels.RECESS, {"level": 0})
    assert read_at(with_history(now, board({}), OUT_OF_VIEW), 3, 4) == (labels.RECESS, {"level": 0})


PILLAR_SEEN = board({(5, 4): CellReading(labels.PILLAR1, 0.96, {"level": 2})})


def test_a_piece_read_unsurely_above_a_pillar_seen_there_is_the_pillar_unless_a_tile_was_laid_on_it():
    # babylon.build.pillars / babylon.deco.icon: a pillar's top carries only a tile
    higher = board({(5, 4): CellReading(labels.PILLAR1, 0.45, {"level": 3}, (("pillar", {"level": 2}, 0.16),))})
    read = with_history(higher, PILLAR_SEEN, IN_VIEW)
    assert read_at(read, 5, 4) == (labels.PILLAR1, {"level": 2}) and read.cell(5, 4).confidence <= 0.75
    belvedere = board({(5, 4): CellReading(labels.BELVEDERE, 0.45, {"level": 4}, (("pillar", {"level": 1}, 0.34),))})
    assert read_at(with_history(belvedere, PILLAR_SEEN, IN_VIEW), 5, 4) == (labels.PILLAR1, {"level": 2})
    # a tile laid on the pillar since, read round it at the piece's level: the frame's reading stands
    laid = board({(5, 4): CellReading(labels.PILLAR1, 0.45, {"level": 3}), (5, 5): space(0.9, 2, "r4c4")})
    assert read_at(with_history(laid, PILLAR_SEEN, IN_VIEW), 5, 4) == (labels.PILLAR1, {"level": 3})
    # a clear view wins: the pillar taken back and a double one put there
    sure = board({(5, 4): CellReading(labels.PILLAR2, 0.9, {"level": 3})})
    assert read_at(with_history(sure, PILLAR_SEEN, IN_VIEW), 5, 4) == (labels.PILLAR2, {"level": 3})


def test_a_decoration_above_a_pillar_seen_there_stands_at_the_pillars_level():
    # on a tile laid on the pillar since: read at that level, or fitted there by the frame too
    at_level = board({(5, 4): CellReading(labels.FOUNTAIN, 0.08, {"level": 2}, (("deco", {"level": 4}, 0.92),))})
    assert read_at(with_history(at_level, PILLAR_SEEN, IN_VIEW), 5, 4) == (labels.FOUNTAIN, {"level": 2})
    fitted = board({(5, 4): CellReading(labels.FOUNTAIN, 0.0, {"level": 3}, (("deco", {"level": 2}, 0.98),))})
    assert read_at(with_history(fitted, PILLAR_SEEN, IN_VIEW), 5, 4) == (labels.FOUNTAIN, {"level": 2})
    assert read_at(with_history(fitted, PILLAR_SEEN, OUT_OF_VIEW), 5, 4) == (labels.PILLAR1, {"level": 2})


def test_a_sure_reading_that_cannot_stand_on_the_surface_seen_there_is_read_but_not_remembered():
    seen = board({(3, 2): space(0.73, 2, "r3c2")})
    # a belvedere at level 5 over a level-2 space, no tile read round it at level 5: the frame's
    # sure reading stands now (a clear view wins) ...
    misread = board({(3, 2): CellReading(labels.BELVEDERE, 0.65, {"level": 5})})
    now = with_history(misread, seen, IN_VIEW)
    assert read_at(now, 3, 2) == (labels.BELVEDERE, {"level": 5})
    # ... but the memory keeps the space: a double pillar read unsurely next is on the space
    later = board({(3, 2): CellReading(labels.PILLAR2, 0.0, {"level": 4}, (("deco", {"level": 5}, 0.75),))})
    assert read_at(with_history(later, now, IN_VIEW), 3, 2) == (labels.PILLAR2, {"level": 4})
    # a reading that can stand there is remembered as before
    statue = board({(3, 2): CellReading(labels.STATUE, 0.9, {"level": 2})})
    lower = board({(3, 2): CellReading(labels.RECESS, 0.1, {"level": 0})})
    assert read_at(with_history(lower, with_history(statue, seen, IN_VIEW), IN_VIEW), 3, 2) == \
        (labels.STATUE, {"level": 2})
    assert read_at(with_history(lower, now, IN_VIEW), 3, 2) == read_at(seen, 3, 2)


@pytest.mark.slow
def test_a_double_pillar_put_on_a_tile_seen_before_is_read_with_history_on_a_rendered_table():
    """Bench frame 94 of seed 4, in play: the double pillar on (5,3) stands on tile r5c2's space,
    seen clearly three scenes before. The single frame read the tile (another icon) at 0.00, a
    pillar topping level 3 among its alternatives, until _pieces_on_spaces (the space's own
    outline fits nothing there): it now reads the pillar itself. Read after that earlier scene,
    the pillar is read too, and nothing the single frame reads right is read wrong."""
    layout, image, observer = bench_frame(REGION, 4, 94)
    camera = bench.bench_camera(REGION, 4, 94)
    history = bench.bench_history(REGION, 4, 94)
    _, earlier = history[6]
    before = observer.observe(render(earlier, camera, seed=bench.HISTORY_SEEDS + 94 * 64 + 6))
    assert read_at(before, 5, 3)[0] == labels.TILE
    single = observer.observe(image)
    read = observer.observe(image, previous=before)
    expected = layout.expected()
    wrong = partial(wrong_cells, expected=expected)

    assert expected[5][3] == (labels.PILLAR2, {"level": 3})
    assert (5, 3) not in wrong(single)  # the single frame's own rule (_pieces_on_spaces)
    assert (5, 3) not in wrong(read)
    assert wrong(read) <= wrong(single)


def test_a_lone_tile_space_read_surely_with_no_view_of_its_own_over_the_board_seen_there_is_the_board():
    # a recess behind a tall neighbour passes for a level-1 space (the neighbour's look-alike):
    # no view of its own (its face and the board's hidden), none of its tile's other spaces shown
    lone = board({(6, 4): space(0.71, 1, "r5c4", icon="bridge")})
    read = with_history(lone, board({}), OUT_OF_VIEW)
    assert read_at(read, 6, 4) == (labels.RECESS, {"level": 0})
    assert read.cell(6, 4).confidence <= 0.75
    # in view, the frame's clear reading wins (a tile laid there)
    assert read_at(with_history(lone, board({}), IN_VIEW), 6, 4) == read_at(lone, 6, 4)
    # shown on another of its spaces, the tile stands
    shown = board({(6, 4): space(0.71, 1, "r5c4"), (5, 4): space(0.9, 1, "r5c4")})
    assert read_at(with_history(shown, board({}), OUT_OF_VIEW), 6, 4) == read_at(shown, 6, 4)
