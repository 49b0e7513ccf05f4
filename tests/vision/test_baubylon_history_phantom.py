"""Baubylon history: a stack the frame reads higher than any stack on the remembered block can
reach is another space's top seen along the same ray (baubylon.field: the field does not change in
play; baubylon.stack: a stack holds five pawns)."""

from __future__ import annotations

from companion.vision import labels
from companion.vision.observers.baubylon_history import FIELD, with_history

from .test_baubylon_history import COLS, board, view


def playing(cells):
    """A board in play (a pawn read surely at (11, 11)) with `cells` read as given."""
    return board({(11, 11): (0, ["red"], 0.9), **cells})


def test_a_stack_too_tall_for_the_remembered_block_is_not_there():
    # bench seed 4 frame 12: a 2-high block seen for nine scenes, then a top 12 pawn heights up read
    # there (4 pawns on an 8-high block): on the 2-high block that would be 10 pawns
    before = playing({(4, 8): (2, [], 0.71)})
    now = playing({(4, 8): (8, [None, None, None, "purple"], 0.11)})
    after = with_history(now, before, view(now, block={(4, 8): 1.0}))
    read = after.cell(4, 8)
    assert read.attrs == {"height": 2, "pawns": []}
    assert read.confidence == 0.45  # from history: no surer than a hidden top
    assert read.alternatives[0] == (labels.FIELD, {"height": 8, "pawns": [None, None, None, "purple"]}, 0.11)
    assert after.extras[FIELD][4 * COLS + 8] == [2, 0.71]  # the field stays as remembered


def test_a_sure_frame_stack_too_tall_for_the_block_is_no_longer_sure():
    # bench seed 5 frame 12: read at 0.67 (a sure wrong cell) on a 6-high block remembered at 0.95
    before = playing({(0, 3): (6, [], 0.95)})
    now = playing({(0, 3): (8, [None, None, None, "yellow"], 0.67)})
    read = with_history(now, before, view(now, block={(0, 3): 1.0})).cell(0, 3)
    assert read.attrs == {"height": 6, "pawns": []}
    assert read.confidence < 0.5


def test_a_stack_the_remembered_block_can_carry_is_kept():
    # five pawns on the remembered 2-high block: a stack can be that tall. Where the frame reads
    # the height under it surer than the memory, the frame's own reading stands...
    before = playing({(4, 8): (2, [], 0.7)})
    now = playing({(4, 8): (4, [None, None, "blue"], 0.8)})
    assert with_history(now, before, view(now)).cell(4, 8) == now.cell(4, 8)
    # ...and where the memory is the surer, the stack keeps its top on the remembered block (in
    # play the field stays: baubylon.field)
    before = playing({(4, 8): (2, [], 0.9)})
    read = with_history(now, before, view(now)).cell(4, 8)
    assert read.attrs == {"height": 2, "pawns": [None, None, None, None, "blue"]}
    assert read.confidence <= 0.45


def test_an_unsure_memory_does_not_overrule_the_frames_stack():
    before = playing({(4, 8): (0, [], 0.3)})
    now = playing({(4, 8): (6, [None, None, None, "blue"], 0.8)})
    assert with_history(now, before, view(now)).cell(4, 8) == now.cell(4, 8)


def test_while_the_field_is_built_a_tall_stack_is_the_frames():
    # no pawn read on the board yet: blocks may still be added under what the frame sees
    before = board({(4, 8): (0, [], 0.9)})
    now = board({(4, 8): (6, [None, None, None, "blue"], 0.8)})
    assert with_history(now, before, view(now, pawn={(4, 8): 0.4})).cell(4, 8) == now.cell(4, 8)


def test_a_clear_current_view_still_wins_where_the_field_agrees():
    # the pawn moved away (baubylon.move): the bare remembered block is read as the frame sees it
    before = playing({(4, 8): (2, [None, "green"], 0.9)})
    now = playing({(4, 8): (2, [], 0.9)})
    assert with_history(now, before, view(now)).cell(4, 8).attrs == {"height": 2, "pawns": []}


def test_a_stack_top_no_higher_than_the_remembered_block_is_not_there():
    # bench seed 5 frame 153: a 4-high block seen surely, then two pawns read on the table there
    # (a top 2 pawn heights up, below the block's own top)
    before = playing({(10, 5): (4, [], 0.95)})
    now = playing({(10, 5): (0, [None, "green"], 0.45)})
    read = with_history(now, before, view(now, block={(10, 5): 1.0}, hidden=[(10, 5)])).cell(10, 5)
    assert read.attrs == {"height": 4, "pawns": []}
    assert read.confidence == 0.45


def test_a_stack_top_level_with_the_remembered_block_is_one_pawn_on_it():
    # bench seed 5 frame 197 and seed 3 frame 113: one pawn on a 2-high block remembered surely,
    # read as two pawns on the table (the same top colour, its top a level low)
    before = playing({(5, 2): (2, [], 0.92)})
    now = playing({(5, 2): (0, [None, "orange"], 0.6)})
    read = with_history(now, before, view(now, block={(5, 2): 1.0})).cell(5, 2)
    assert read.attrs == {"height": 2, "pawns": ["orange"]}
    assert read.confidence == 0.45


def test_in_play_a_less_sure_reading_does_not_replace_the_remembered_field():
    # bench seed 4 frame 78: a 2-high block seen at 0.92, read as table at 0.66 in one scene; the
    # field stays (baubylon.field): the block seen more surely is read, not sure, and remembered,
    # so the next scene's unsure reading of the block is not overruled by the one-scene table
    before = playing({(11, 10): (2, [], 0.92)})
    now = playing({(11, 10): (0, [], 0.66)})
    after = with_history(now, before, view(now))
    read = after.cell(11, 10)
    assert read.attrs == {"height": 2, "pawns": []} and read.confidence <= 0.45
    assert read.alternatives[0] == (labels.FIELD, {"height": 0, "pawns": []}, 0.66)  # the frame's own kept
    assert after.extras[FIELD][11 * COLS + 10] == [2, 0.92]
    later = playing({(11, 10): (2, [], 0.45)})
    assert with_history(later, after, view(later)).cell(11, 10).attrs == {"height": 2, "pawns": []}


def test_in_play_a_surer_reading_replaces_the_remembered_field():
    before = playing({(11, 10): (2, [], 0.6)})
    now = playing({(11, 10): (0, [], 0.9)})
    assert with_history(now, before, view(now)).extras[FIELD][11 * COLS + 10] == [0, 0.9]


def test_a_top_level_with_a_block_seen_at_least_as_surely_as_the_frames_height_is_one_pawn_on_it():
    # bench seed 0 frame 32 (5, 1) and seed 3 frame 62 (3, 1), in play: a 2-high block seen bare
    # at 0.45 (behind a taller stand), then a pawn on it read as two pawns on the table, the
    # height under them at 0.42 (0.00): the field stays (baubylon.field), so the top level with
    # the block is one pawn on it
    before = playing({(5, 1): (2, [], 0.45)})
    now = playing({(5, 1): (0, [None, "white"], 0.0)})
    read = with_history(now, before, view(now, block={(5, 1): 0.42}, pawn={(5, 1): 0.0}, hidden=[(5, 1)])).cell(5, 1)
    assert read.attrs == {"height": 2, "pawns": ["white"]}
    assert read.confidence <= 0.45
    # the frame's height surer than the block remembered: its two pawns on the table stand
    now = playing({(5, 1): (0, [None, "white"], 0.3)})
    before = playing({(5, 1): (2, [], 0.3)})
    after = with_history(now, before, view(now, block={(5, 1): 0.44}, hidden=[(5, 1)]))
    assert after.cell(5, 1) == now.cell(5, 1)
