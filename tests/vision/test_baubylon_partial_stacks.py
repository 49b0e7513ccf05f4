"""Baubylon: two pawns a taller stand nearer the camera hides in part (issue #5, baubylon.stack).

A stack of two pawns behind a stand is looked for as a single pawn is: its top read from the part
in view (colour and outline on the sides left in view), the pawn under it showing along the
middle, unlike table and blocks, or hidden by the stand too (a stack shows below its top).
"""

from __future__ import annotations

from tests.vision.bench_frames import bench_frame, sure_and_wrong


def test_two_pawns_partly_behind_a_taller_stand_are_read_as_two():
    # Bench frame 116 of seed 4: two pawns, black on top, on the table at (6, 4), part of the top
    # hidden by a taller stand nearer the camera; read as a bare table before.
    layout, image, observer = bench_frame("baubylon", 4, 116)
    expected = layout.expected()
    assert expected[6][4][1] == {"height": 0, "pawns": [None, "black"]}
    observation = observer.observe(image)
    cell = observation.cell(6, 4)
    assert cell.attrs == expected[6][4][1]
    assert cell.confidence <= 0.45  # in part hidden: the referee asks
    assert sure_and_wrong(observation, expected) == []
