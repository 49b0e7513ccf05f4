"""Baubylon: a stack must stand on something. A pawn's top seen along one ray fits a stack at
another space and height just as well; where that stack could stand neither on the table (its
column does not show) nor on any block that shows any of its outline or its top round the pawns,
and no taller stand nearer the camera may hide that block, the top is not that space's
(baubylon.stack). Frames of the benchmark's seed 0 where a bare space was read as a pawn on a
block three levels high, the block showing nothing (0.004-0.015 of an outline)."""

from __future__ import annotations

import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render


@pytest.mark.parametrize(("frame", "space"), [(21, (0, 1)), (158, (8, 1))])
def test_a_stack_on_nothing_seen_is_not_read(frame, space):
    camera, observer = bench.bench_setup("baubylon", 0, frame)
    layout, scene = bench.bench_scene("baubylon", 0, frame)
    expected = layout.expected()
    r, c = space
    assert expected[r][c][1] == {"height": 0, "pawns": []}
    observation = observer.observe(render(scene, camera, seed=frame))
    assert observation.cell(r, c).attrs == expected[r][c][1]
    wrong_sure = [(rr, cc) for rr in range(12) for cc in range(12)
                  if observation.cell(rr, cc).confidence > 0.8 and observation.cell(rr, cc).attrs != expected[rr][cc][1]]
    assert not wrong_sure
