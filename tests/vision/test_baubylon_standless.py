"""Baubylon: a stack must stand on something. A pawn's top seen along one ray fits a stack at
another space and height just as well; where that stack could stand neither on the table (its
column does not show) nor on any block that shows any of its outline or its top round the pawns,
and no taller stand nearer the camera may hide that block, the top is not that space's
(baubylon.stack). Frames of the benchmark's seed 0 where a bare space was read as a pawn on a
block three levels high, the block showing nothing (0.004-0.015 of an outline)."""

from __future__ import annotations

import pytest

from .bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("frame", "space"), [(21, (0, 1)), (158, (8, 1))])
def test_a_stack_on_nothing_seen_is_not_read(frame, space):
    assert_space_read_as_laid("baubylon", 0, frame, space, {"height": 0, "pawns": []})
