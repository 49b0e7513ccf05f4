"""Baubylon: a stack top that a taller stack of its colour nearer the camera would hide is taken
for that stack's side (what it showed was the taller one), unless it shows its own top (colour
and outline) better than the taller stack's top shows: a pawn's side is a flat face of its
colour, with no top's outline on it (baubylon.stack). Frames of the benchmark where a lone pawn
on the table, read at 0.98-0.99, was dropped for a taller stack of its colour just in front of
it that read at 0.49-0.56."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "frame", "space", "pawn"), [(1, 179, (10, 2), "yellow"), (2, 94, (9, 8), "blue")])
def test_a_top_showing_better_than_the_stack_in_front_is_its_own(seed, frame, space, pawn):
    assert_space_read_as_laid("baubylon", seed, frame, space, {"height": 0, "pawns": [pawn]})
