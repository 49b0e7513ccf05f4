"""Baubylon: a stack read on the table (two pawns) where a lying block's top shows its outline
round it (support at least _LYING_ROUND) and a top of the same colour one pawn height up scores
at least _LYING_TOP times the top read is one pawn on that lying block (baubylon.units: a lying
block is 2 pawn heights high and its top's edges show round a pawn on it; seen from above, a
pawn's colour shows at every height below its top, so the column does not tell the block from
pawns). Frames of the benchmark where such a pawn was read as two pawns on the table (support
0.70 and 1.05; the top one up 0.61 and 0.50 of the one read; no correct table stack of seeds 0-5
shows a lying outline of 0.15 or more with a top one up of 0.25 of its own)."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "frame", "space", "colour"), [(3, 113, (9, 6), "yellow"), (5, 197, (5, 2), "red")])
def test_a_pawn_on_a_lying_block_is_not_two_pawns_on_the_table(seed, frame, space, colour):
    assert_space_read_as_laid("baubylon", seed, frame, space, {"height": 2, "pawns": [colour]})
