"""Baubylon: a lone pawn on the table behind a taller stand nearer the camera, its top's middle
in view and its colour plain, shows little of its outline on the sides that stand leaves in
view; it is a pawn all the same (baubylon.stack). Frames of the benchmark where such a pawn
scored 0.05-0.12 of an outline (_PART_SHOWN) and was read as a bare space."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "frame", "space", "pawn"),
                         [(1, 11, (1, 10), "blue"), (3, 124, (1, 0), "blue"), (4, 40, (11, 5), "blue"),
                          (5, 174, (5, 1), "green")])
def test_a_pawn_behind_a_stand_showing_little_outline_is_read(seed, frame, space, pawn):
    assert_space_read_as_laid("baubylon", seed, frame, space, {"height": 0, "pawns": [pawn]})
