"""Baubylon: a block top is seen by its edges (baubylon.units).

A level's score is a mean over the sides in use: between tops read at one height it scores by
its joints, or at least by the wood going on across where its sides would be (any wood there does
that, at any height), and a side whose outline hardly moves with height weighs little. A bare
level that shows little of itself gives way to a level whose outline shows twice as much (at
least _STANDLESS) and that scores at least _NO_OUTLINE; it used to win on its mean."""

from __future__ import annotations

import pytest

from tests.vision.bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "n", "space", "height"), [
    # (7, 5) is 4 high; level 2 scored 0.48 on wood going on across its sides, with no outline
    # at all; level 4 0.46 with its outline showing.
    (1, 145, (7, 5), 4),
    # (6, 1) is 2 high; level 4 scored 0.48 showing no outline, level 2 0.44 showing 0.44.
    (3, 140, (6, 1), 2),
    # (2, 8) is 2 high; level 4 scored 0.94 on 0.09 of outline, level 2 0.82 on 1.37.
    (5, 135, (2, 8), 2),
])
def test_a_top_that_shows_little_of_itself_gives_way_to_one_whose_outline_shows(seed, n, space, height):
    assert_space_read_as_laid("baubylon", seed, n, space, {"height": height, "pawns": []})
