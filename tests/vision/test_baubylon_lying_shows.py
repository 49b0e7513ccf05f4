"""Baubylon: a bare block top read one lying block high (2 pawn heights) that shows hardly any of
its own outline, no edge and no joint line (support below _LYING_SHOWS), only the wood going on
across its sides, is higher: a lying block's top shows its edges (baubylon.units), and what goes
on there is a taller block's own wood. Frames of the benchmark where a standing block (4 pawn
heights) among lying ones was read lying, its top at 2 showing 0-0.16 of an outline."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "frame", "space"),
                         [(0, 93, (7, 3)), (1, 192, (10, 6)), (2, 45, (8, 5)), (3, 78, (8, 10)), (4, 191, (5, 8))])
def test_a_lying_top_that_shows_no_outline_is_higher(seed, frame, space):
    assert_space_read_as_laid("baubylon", seed, frame, space, {"height": 4, "pawns": []})
