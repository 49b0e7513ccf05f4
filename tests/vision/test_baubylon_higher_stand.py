"""Baubylon: a stack read on a block whose next level up it allows (the same top, one block's
height fewer pawns) and which shows that level's outline at least _UP_SHOWS and _UP_OUTSHOWS times
its own stands on that higher block (baubylon.units: a block's top shows its edges;
baubylon.stack: pawns on the lower block would stand where the higher top's edges show). Frames
of the benchmark where one pawn on a block was read as three on a block one lying block lower
(support 0.92 against 0.30, and 0.86 against 0)."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "frame", "space", "attrs"),
                         [(0, 129, (10, 10), {"height": 4, "pawns": ["yellow"]}),
                          (2, 40, (3, 6), {"height": 6, "pawns": ["black"]})])
def test_a_stack_stands_on_the_higher_block_whose_outline_shows(seed, frame, space, attrs):
    assert_space_read_as_laid("baubylon", seed, frame, space, attrs)
