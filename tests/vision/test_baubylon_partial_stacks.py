"""Baubylon: stacks a taller stand nearer the camera hides in part (issue #5, baubylon.units,
baubylon.stack).

A pawn is narrower than a block (14 mm across on a 24 mm space): a stack's pawns, above its
block, hide only a pawn's width of what lies behind them. A pawn top beside such a stack may show
its middle where a block-wide stand would hide it, and is then read from the part in view. A stack
of two pawns behind a stand is looked for as a single pawn is: its top in part, the pawn under it
along the middle unless hidden too.
"""

from __future__ import annotations

import numpy as np

from tests.vision.bench_frames import bench_frame, sure_and_wrong


def _stands(layout):
    """(S,) each space's block and (S,) its stack's top (0 where none), in pawn heights."""
    cells = [attrs for row in layout.expected() for _, attrs in row]
    blocks = np.array([cell["height"] for cell in cells])
    stacks = np.array([cell["height"] + len(cell["pawns"]) if cell["pawns"] else 0 for cell in cells])
    return blocks, stacks


def test_a_pawn_beside_a_nearer_stack_shows_its_middle_past_the_pawns():
    # Bench frame 70 of seed 1: a white pawn on the table at (11, 4); at (10, 4), nearer the camera,
    # a lying block with a pawn on it, taller: the pawn on it is a pawn wide, not a block.
    layout, image, observer = bench_frame("baubylon", 1, 70)
    expected = layout.expected()
    assert expected[11][4][1] == {"height": 0, "pawns": ["white"]}
    assert expected[10][4][1]["height"] == 2 and len(expected[10][4][1]["pawns"]) == 1
    blocks, stacks = _stands(layout)
    own = np.full(144, 1)
    space = 11 * 12 + 4
    # Taken as block-wide, the stand at (10, 4) hides the middle of that pawn's top; a pawn wide, not.
    assert observer._taller_in_front(own, np.maximum(blocks, stacks))[0][space]
    assert not observer._middle_hidden(own, blocks, stacks)[space]
    # ...while a stand as tall that is a block all the way up would hide it.
    assert observer._middle_hidden(own, np.maximum(blocks, stacks), np.zeros(144, int))[space]
    observation = observer.observe(image)
    cell = observation.cell(11, 4)
    assert cell.attrs == expected[11][4][1]
    assert cell.confidence <= 0.45  # in part hidden: the referee asks
    assert sure_and_wrong(observation, expected) == []


def test_two_pawns_partly_behind_a_taller_stand_are_read_as_two():
    # Bench frame 116 of seed 4: two pawns, black on top, on the table at (6, 4), part of the top
    # hidden by a taller stand nearer the camera; read as a bare table before.
    layout, image, observer = bench_frame("baubylon", 4, 116)
    expected = layout.expected()
    assert expected[6][4][1] == {"height": 0, "pawns": [None, "black"]}
    observation = observer.observe(image)
    cell = observation.cell(6, 4)
    assert cell.attrs == expected[6][4][1]
    assert cell.confidence <= 0.45
    assert sure_and_wrong(observation, expected) == []

