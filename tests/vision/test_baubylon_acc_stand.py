"""Baubylon: a stack stands on a level its column allows, even when that level's top loses its
place in the frame to another top (issue #5; baubylon.stack).

A stack's column rules out the lower levels: below its top pawn, every pawn of a taller stack
would show along the space's middle. When the one allowed level lost its place to another top,
the choice used to fall to the table, which the column had ruled out, and the stack was read as
pawns standing on the table (a pawn on a 4-high block read as five pawns)."""

from __future__ import annotations

import numpy as np

from companion.vision.observers.baubylon import _stand_on_allowed
from tests.vision.bench_frames import bench_frame, sure_and_wrong


def test_a_choice_outside_the_allowed_levels_moves_to_the_allowed_one_that_shows_most():
    seen = np.array([[0.0, 0.1, 0.8, 0.0], [0.24, 0.5, 0.0, 0.0], [0.0, 0.3, 0.6, 0.0]])
    fewer = np.array([[0.0, 0.15, 0.3, 0.45], [0.0, 0.0, 0.0, 0.0], [0.0, 0.15, 0.3, 0.45]])
    allowed = np.array([[False, True, True, False], [True, True, True, True], [False, False, False, False]])
    chosen = np.array([0, 0, 0])
    _stand_on_allowed(chosen, seen, fewer, allowed)
    # the first: level 2 shows most of the allowed; the second chose an allowed level: kept;
    # the third has none allowed (nothing to choose from): kept
    assert chosen.tolist() == [2, 0, 0]


def test_an_allowed_choice_is_left_as_it_is():
    seen = np.array([[0.0, 0.9, 0.1]])
    allowed = np.array([[False, True, True]])
    chosen = np.array([2])
    _stand_on_allowed(chosen, seen, np.zeros((1, 3)), allowed)
    assert chosen.tolist() == [2]


def test_a_pawn_on_a_block_is_not_read_as_five_pawns_on_the_table():
    # Bench frame 29 of seed 1: a red pawn on a 4-high block at (6, 6), a 6-high block in front
    # of it (nearer the camera). The column shows the block below the pawn, so only level 4 may
    # bear it; that level's top lost its place in the frame, and the read fell to the table.
    layout, image, observer = bench_frame("baubylon", 1, 29)
    expected = layout.expected()
    assert expected[6][6][1] == {"height": 4, "pawns": ["red"]}
    observation = observer.observe(image)
    assert observation.cell(6, 6).attrs == expected[6][6][1]
    assert observation.cell(6, 6).confidence < 0.5  # another top claims its place: not sure
    assert sure_and_wrong(observation, expected) == []
