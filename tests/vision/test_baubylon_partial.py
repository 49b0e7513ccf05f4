"""Baubylon: a pawn partly hidden behind a taller stand nearer the camera (its top 60–90 % in
view) mixes its colour with the stand's; the part of its top in view still shows the pawn's colour
and is read. Frames from the vision benchmark's own variation (camera, light, sensor), where the
reader used to miss these pawns."""

from __future__ import annotations

import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share


def _frame(observer, camera, n: int):
    layout, scene = bench.bench_scene("baubylon", 0, n)
    seen = visible_share(scene.regions[0], camera, layout.top_faces())
    return layout, observer.observe(render(scene, camera, seed=n)), seen


@pytest.fixture(scope="module")
def setup():
    camera = bench.bench_camera("baubylon", 0, 10)
    return camera, bench._calibrate("baubylon", camera, 10)


@pytest.mark.parametrize(("frame", "cell"), [(13, (4, 10)), (15, (3, 0))])
def test_a_pawn_partly_hidden_behind_a_taller_stand_is_read(setup, frame, cell):
    camera, observer = setup
    layout, observation, seen = _frame(observer, camera, frame)
    r, c = cell
    truth = layout.expected()[r][c][1]
    assert truth["pawns"] and 0.6 <= seen[r, c] < 0.9  # a pawn, partly hidden but counted
    assert observation.cell(r, c).attrs == truth
