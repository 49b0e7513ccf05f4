"""Baubylon: a lower top just behind a taller one, both standing (issue #5).

Seen from the camera, a block top one space behind a taller block lands near it in the frame:
the nearer top hides the lower one's near part, and the lower one's far sides show past it.
Those far sides are no reason to take the taller top away (it used to read as table)."""

from __future__ import annotations

from tests.vision.bench_frames import bench_frame, sure_and_wrong


def test_a_taller_top_in_front_of_a_lower_one_is_read():
    # Bench frame 10 of seed 1: (10, 2) is 4 high, (11, 2) behind it 2 high; the far top's
    # outline used to oust the nearer one, read as table.
    layout, image, observer = bench_frame("baubylon", 1, 10)
    expected = layout.expected()
    assert expected[10][2][1] == {"height": 4, "pawns": []}
    assert expected[11][2][1] == {"height": 2, "pawns": []}
    observation = observer.observe(image)
    assert observation.cell(10, 2).attrs == expected[10][2][1]
    assert observation.cell(11, 2).attrs == expected[11][2][1]
    assert sure_and_wrong(observation, expected) == []
