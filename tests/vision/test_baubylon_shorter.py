"""Baubylon: in one space, of two pawn tops one pawn height apart that score within _SHORTER of
each other the lower is taken (baubylon.stack: seen from near above, a top one pawn higher looks
just the same; the shorter stack when in doubt). A frame of the benchmark where a lone pawn on the
table near the camera's nadir scored 0.90 at its top and 0.93 one pawn higher, and was read as two
pawns. (A pawn on a block whose top shows round it is taken one higher again by _pawn_on_next: in
seeds 0-5 this rule alone broke s1 f163 (0,8), which that rule reads right.)"""

from __future__ import annotations

from .bench_frames import assert_space_read_as_laid


def test_a_lone_pawn_under_the_camera_is_not_two():
    assert_space_read_as_laid("baubylon", 4, 66, (0, 7), {"height": 0, "pawns": ["green"]})


def test_a_pawn_on_a_standing_block_stays_one_pawn_on_it():
    assert_space_read_as_laid("baubylon", 1, 163, (0, 8), {"height": 4, "pawns": ["white"]})
