"""Baubylon: a stack read on a block whose top is at the next level up's height, where that level
shows its outline at least _LYING_ROUND and no less than the level read, and a top of the same
colour one pawn height up scores at least _LYING_TOP times the top read, is one pawn on that
higher block (baubylon.units: a block's top shows its edges round a pawn on it). A frame of the
benchmark where a pawn on a standing block was read as two pawns on a lying one (support 0.98
against 0.71; the top one up 0.97 of the one read)."""

from __future__ import annotations

from .bench_frames import assert_space_read_as_laid


def test_a_pawn_on_a_standing_block_is_not_two_on_a_lying_one():
    assert_space_read_as_laid("baubylon", 1, 161, (0, 8), {"height": 4, "pawns": ["black"]})
