"""Baubylon: a block top is seen by its edges (baubylon.units).

Between tops read at one height, a level scores by its joints, or at least by the wood going on
across where its sides would be: any wood there does that, whatever the height. A bare level
that shows nothing of itself (no outline, no joint line on any side) gives way to a level whose
outline does show (at least _NO_OUTLINE well); it used to win on wood alone."""

from __future__ import annotations

from tests.vision.bench_frames import bench_frame, sure_and_wrong


def test_a_top_that_shows_nothing_of_itself_gives_way_to_one_whose_outline_shows():
    # Bench frame 145 of seed 1: (7, 5) is 4 high; level 2 scored 0.48 on wood going on across
    # its sides, showing no outline at all; level 4 scored 0.46 with its outline showing.
    layout, image, observer = bench_frame("baubylon", 1, 145)
    expected = layout.expected()
    assert expected[7][5][1] == {"height": 4, "pawns": []}
    observation = observer.observe(image)
    assert observation.cell(7, 5).attrs == expected[7][5][1]
    assert sure_and_wrong(observation, expected) == []


def test_a_lower_top_that_shows_its_outline_is_read_under_one_that_shows_nothing():
    # Bench frame 140 of seed 3: (6, 1) is 2 high; level 4 scored 0.48 showing no outline, level
    # 2 0.44 with its outline showing.
    layout, image, observer = bench_frame("baubylon", 3, 140)
    expected = layout.expected()
    assert expected[6][1][1] == {"height": 2, "pawns": []}
    observation = observer.observe(image)
    assert observation.cell(6, 1).attrs == expected[6][1][1]
    assert sure_and_wrong(observation, expected) == []
