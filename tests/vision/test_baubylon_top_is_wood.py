"""Baubylon: a bare block top is the blocks' wood all across (issue #5, baubylon.units).

An edge elsewhere in the frame (a farther space's side, a shaded face) can line up with the outline
a block top would have at some height above a space. The middle of such a top then shows what lies
along that ray: where it shows the table and no taller stand nearer the camera may hide any of
that top, the top is not there."""

from __future__ import annotations

import numpy as np

from companion.vision.observers import baubylon
from tests.vision.bench_frames import bench_frame, sure_and_wrong


def test_a_table_space_is_not_read_as_a_block_whose_middle_shows_the_table():
    # Bench frame 179 of seed 0: (9, 4) is the table, beside a 6-high block at (9, 3); a block top
    # 6 high there lined up with an edge on its far side (its middle: the table, shaded faces).
    layout, image, observer = bench_frame("baubylon", 0, 179)
    expected = layout.expected()
    assert expected[9][4][1] == {"height": 0, "pawns": []}
    assert expected[9][3][1]["height"] == 6
    observation = observer.observe(image)
    assert observation.cell(9, 4).attrs == expected[9][4][1]
    assert observation.cell(9, 3).attrs == expected[9][3][1]
    assert sure_and_wrong(observation, expected) == []


def test_only_bare_tops_whose_middle_shows_the_table_are_ruled_out():
    layout, image, observer = bench_frame("baubylon", 0, 179)
    profile = observer.profile
    rows, cols, n_levels = 12, 12, len(observer.levels)
    expected, pawn_offsets = observer._learned_offsets(profile)
    _, _, gains = observer._measure_blocks(image, profile, expected)
    *_, look = observer._read_pawns(image, profile, pawn_offsets, gains)
    cells = [[layout.expected()[r][c][1] for c in range(cols)] for r in range(rows)]
    truth = np.array([[cell["height"] for cell in row] for row in cells])
    levels = np.searchsorted(observer.levels, truth)
    stacked = np.array([[bool(cell["pawns"]) for cell in row] for row in cells])
    top = np.where(stacked, truth + np.array([[len(cell["pawns"]) for cell in row] for row in cells]), 0)
    # The layout's own field: every bare top there is wood (or may be hidden): nothing ruled out.
    assert observer._table_in_middle(look[0], gains, profile, levels, stacked, top) is None
    # (9, 4) read 6 high: its 6 is ruled out there, and nowhere else anything.
    wrong = levels.copy()
    wrong[9, 4] = 3
    out = observer._table_in_middle(look[0], gains, profile, wrong, stacked, top)
    assert out is not None and out[9, 4, 3] and not out[9, 4, 0]
    assert not np.delete(out.reshape(rows * cols, n_levels), 9 * cols + 4, axis=0).any()
    # A stack read there: not a bare top, not judged.
    stacked[9, 4] = True
    top[9, 4] = 7
    assert observer._table_in_middle(look[0], gains, profile, wrong, stacked, top) is None
    assert baubylon.BLOCK in profile.names
