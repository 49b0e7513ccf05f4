"""Baubylon history on hand-made readings: the field as seen before, where the frame reads a block
height unsurely; the frame wins wherever it reads clearly (pawns move)."""

from __future__ import annotations

import numpy as np

from companion.vision import labels
from companion.vision.observers.baubylon_history import (
    FIELD,
    SpaceView,
    remembered_field,
    with_history,
)
from companion.vision.types import CellReading, Observation

ROWS = COLS = 12


def board(cells: dict[tuple[int, int], tuple[int, list, float]], default=(0, [], 0.95), extras=None) -> Observation:
    """A Baubylon reading: (height, pawns, confidence) per space, `default` elsewhere."""
    rows = []
    for r in range(ROWS):
        row = []
        for c in range(COLS):
            height, pawns, sure = cells.get((r, c), default)
            row.append(CellReading(labels.FIELD, sure, {"height": height, "pawns": list(pawns)}))
        rows.append(tuple(row))
    return Observation("baubylon", ROWS, COLS, tuple(rows), extras=extras or {})


def view(observation: Observation, block=None, pawn=None, hidden=()) -> SpaceView:
    """The frame's parts of the confidence: each space's block and pawn reading as sure as its cell
    unless given ({(r, c): sure}); `hidden` spaces may be hidden in part by a taller stand."""
    cells = [cell for row in observation.cells for cell in row]
    block_sure = np.array([cell.confidence for cell in cells])
    pawn_sure = np.ones(len(cells))
    hide = np.zeros(len(cells), bool)
    for (r, c), sure in (block or {}).items():
        block_sure[r * COLS + c] = sure
    for (r, c), sure in (pawn or {}).items():
        pawn_sure[r * COLS + c] = sure
    for r, c in hidden:
        hide[r * COLS + c] = True
    return SpaceView(block_sure, pawn_sure, hide)


def test_an_unsure_height_takes_the_field_seen_before():
    before = board({(3, 4): (4, [], 0.9)})
    now = board({(3, 4): (2, [], 0.3)})
    read = with_history(now, before, view(now)).cell(3, 4)
    assert read.attrs == {"height": 4, "pawns": []}
    assert read.confidence <= 0.9
    assert read.alternatives[0] == (labels.FIELD, {"height": 2, "pawns": []}, 0.3)  # the frame's own reading kept


def test_a_stack_keeps_the_top_it_shows_on_the_remembered_block():
    # baubylon.units / baubylon.stack: the top is 2 + 3 pawn heights; the block seen empty was 4 high
    before = board({(5, 5): (4, [], 0.85)})
    now = board({(5, 5): (2, [None, None, "blue"], 0.2)})
    read = with_history(now, before, view(now, pawn={(5, 5): 0.7})).cell(5, 5)
    assert read.attrs == {"height": 4, "pawns": ["blue"]}
    assert read.confidence == 0.45  # no surer than a reading the frame gives otherwise


def test_a_pawn_on_a_block_read_as_pawns_on_the_table():
    before = board({(0, 0): (2, [], 0.8)})
    now = board({(0, 0): (0, [None, None, None, "red"], 0.3)})  # the top 4 pawn heights up
    assert with_history(now, before, view(now)).cell(0, 0).attrs == {"height": 2, "pawns": [None, "red"]}


def test_a_top_that_leaves_no_pawn_or_too_many_is_not_the_spaces():
    before = board({(1, 1): (6, [], 0.9), (1, 2): (0, [], 0.9)})
    now = board({(1, 1): (2, [None, "red"], 0.3), (1, 2): (6, [None, None, "red"], 0.3)})
    # the top at 4 would stand below the 6-high block; 9 pawn heights on the table are 9 pawns
    # (baubylon.stack: 5): neither top is the space's own (test_baubylon_history_phantom)
    after = with_history(now, before, view(now))
    assert after.cell(1, 1).attrs == {"height": 6, "pawns": []}
    assert after.cell(1, 2).attrs == {"height": 0, "pawns": []}


def test_a_clear_view_wins_over_history():
    before = board({(2, 2): (4, [], 0.95)})
    now = board({(2, 2): (2, [], 0.7)})
    after = with_history(now, before, view(now))
    assert after.cell(2, 2) == now.cell(2, 2)
    assert after.extras[FIELD][2 * COLS + 2] == [2, 0.7]  # and it is what is remembered from now on


def test_a_pawn_that_moved_away_is_read_gone():
    # baubylon.move: the pawn left; the frame sees the bare block clearly
    before = board({(7, 7): (2, [None, "green"], 0.9)})
    now = board({(7, 7): (2, [], 0.9)})
    assert with_history(now, before, view(now)).cell(7, 7).attrs == {"height": 2, "pawns": []}


def test_a_pawn_that_arrived_is_read_as_the_frame_sees_it():
    before = board({(7, 7): (2, [], 0.9)})
    now = board({(7, 7): (2, ["white"], 0.8)})
    assert with_history(now, before, view(now)).cell(7, 7).attrs == {"height": 2, "pawns": ["white"]}


def test_history_is_no_surer_than_what_was_seen_nor_than_a_hidden_top():
    before = board({(4, 4): (2, [], 0.6)})
    now = board({(4, 4): (0, [], 0.1)})
    read = with_history(now, before, view(now)).cell(4, 4)
    assert read.attrs["height"] == 2 and read.confidence <= 0.45
    before = board({(4, 4): (2, [], 0.99)})
    read = with_history(now, before, view(now, hidden=[(4, 4)])).cell(4, 4)
    assert read.attrs["height"] == 2 and read.confidence <= 0.45


def test_a_surer_unsure_reading_is_not_overruled_by_a_weaker_memory():
    before = board({(4, 4): (2, [], 0.2)})
    now = board({(4, 4): (0, [], 0.4)})
    after = with_history(now, before, view(now))
    assert after.cell(4, 4) == now.cell(4, 4)
    assert after.extras[FIELD][4 * COLS + 4] == [0, 0.4]


def test_the_memory_is_carried_from_frame_to_frame():
    empty = board({(9, 3): (4, [], 0.9)})  # the field seen before the pawns came (read without history)
    heights, sures = remembered_field(empty)
    assert heights[9 * COLS + 3] == 4 and sures[9 * COLS + 3] == 0.9
    first = board({(9, 3): (2, [], 0.3)})
    second = board({(9, 3): (0, [None, None, None, None, "black"], 0.35)})
    one = with_history(first, empty, view(first))
    two = with_history(second, one, view(second))
    assert one.extras[FIELD][9 * COLS + 3] == [4, 0.9]
    assert two.cell(9, 3).attrs == {"height": 4, "pawns": ["black"]}


def test_a_block_read_surely_on_a_pawns_space_is_remembered_by_its_height_alone():
    # a cell's confidence is the lesser of its height's and its pawns'; the memory keeps the height's
    before = board({(6, 6): (4, ["red"], 0.4)})
    now = board({(6, 6): (4, [], 0.2)})
    after = with_history(now, before, view(now, block={(6, 6): 0.8}))
    assert after.extras[FIELD][6 * COLS + 6] == [4, 0.8]


def test_another_board_is_not_remembered():
    before = Observation("baubylon", 2, 2, tuple(tuple(CellReading(labels.FIELD, 0.9, {"height": 6, "pawns": []})
                                                      for _ in range(2)) for _ in range(2)))
    now = board({})
    assert with_history(now, before, view(now)) is now


def test_a_block_added_while_the_field_is_built_is_read_as_the_frame_sees_it():
    # baubylon.field: before any pawn is on the board, blocks come; the table seen there before says nothing
    before = board({(3, 3): (0, [], 0.95)})
    now = board({(3, 3): (2, [], 0.3)})
    after = with_history(now, before, view(now))
    assert after.cell(3, 3) == now.cell(3, 3)
    assert after.extras[FIELD][3 * COLS + 3] == [2, 0.3]


def test_once_pawns_are_on_the_board_no_block_comes():
    before = board({(3, 3): (0, [], 0.95)})
    now = board({(3, 3): (2, [], 0.3), (8, 8): (0, ["red"], 0.9)})
    assert with_history(now, before, view(now)).cell(3, 3).attrs == {"height": 0, "pawns": []}


def hides(spaces):
    """A frame's hiding test: the middle of a top on `spaces` lies behind a taller stand."""
    flat = {r * COLS + c for r, c in spaces}
    return lambda own: np.array([i in flat for i in range(len(own))])


def test_a_stack_behind_a_taller_stand_now_is_still_there():
    before = board({(5, 5): (2, [None, "blue"], 0.9), (8, 8): (0, ["red"], 0.9)})
    now = board({(5, 5): (2, [], 0.45), (6, 5): (6, ["green"], 0.9), (8, 8): (0, ["red"], 0.9)})
    base = view(now)
    read = with_history(now, before, SpaceView(base.block_sure, base.pawn_sure, base.hidden, hides([(5, 5)]))).cell(5, 5)
    assert read.attrs == {"height": 2, "pawns": [None, "blue"]}
    assert read.confidence <= 0.45
    assert read.alternatives[0] == (labels.FIELD, {"height": 2, "pawns": []}, 0.45)


def test_a_stack_gone_from_where_the_frame_sees_is_gone():
    before = board({(5, 5): (2, [None, "blue"], 0.9)})
    now = board({(5, 5): (2, [], 0.45)})
    base = view(now)
    # unsure, but nothing now stands in front of where its top was: the frame sees it left
    after = with_history(now, before, SpaceView(base.block_sure, base.pawn_sure, base.hidden, hides([])))
    assert after.cell(5, 5).attrs == {"height": 2, "pawns": []}
    # seen clearly gone even where a stand might hide it
    now = board({(5, 5): (2, [], 0.8)})
    base = view(now)
    after = with_history(now, before, SpaceView(base.block_sure, base.pawn_sure, base.hidden, hides([(5, 5)])))
    assert after.cell(5, 5).attrs == {"height": 2, "pawns": []}


def test_the_remembered_block_must_be_one_the_frames_column_allows_under_its_stack():
    # baubylon.stack: three pawns under a top 5 high would show below it; the frame saw one
    before = board({(5, 5): (2, [], 0.45)})
    now = board({(5, 5): (4, ["red"], 0.0), (9, 9): (0, ["blue"], 0.9)})
    base = view(now)
    levels = (0, 2, 4, 6, 8)
    allowed = np.ones((ROWS * COLS, len(levels)), bool)
    allowed[5 * COLS + 5] = [False, False, True, False, False]
    after = with_history(now, before, SpaceView(base.block_sure, base.pawn_sure, base.hidden, None, allowed, levels))
    assert after.cell(5, 5) == now.cell(5, 5)
    allowed[5 * COLS + 5, 1] = True
    after = with_history(now, before, SpaceView(base.block_sure, base.pawn_sure, base.hidden, None, allowed, levels))
    assert after.cell(5, 5).attrs == {"height": 2, "pawns": [None, None, "red"]}


def test_a_height_read_where_a_taller_stand_may_hide_the_top_is_no_surer_than_its_cell():
    # an outline hidden by a taller neighbour reads as none: the table's sign; the observer caps the cell
    before = board({(8, 2): (2, [], 0.9), (9, 9): (0, ["blue"], 0.9)})
    now = board({(8, 2): (0, [], 0.45), (9, 9): (0, ["blue"], 0.9)})
    after = with_history(now, before, view(now, block={(8, 2): 0.97}, hidden=[(8, 2)]))
    assert after.cell(8, 2).attrs == {"height": 2, "pawns": []}
    assert after.cell(8, 2).confidence <= 0.45
    # as sure as the memory: the field seen first stands (blocks do not move in play)
    before = board({(8, 2): (2, [], 0.45), (9, 9): (0, ["blue"], 0.9)})
    after = with_history(now, before, view(now, block={(8, 2): 0.97}, hidden=[(8, 2)]))
    assert after.cell(8, 2).attrs == {"height": 2, "pawns": []}
