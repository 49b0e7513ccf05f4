"""Baubylon: of two stack tops seen in one place of the frame (a tall stand near the camera and
a low one behind it, on one ray), the one whose stand shows is the stack. Their tops look alike
(a pawn top's width grows only 0.28-0.74 px per pawn), but the blocks under them stand elsewhere
in the frame: the block just under each top is judged by its outline. Frames from the vision
benchmark's own variation (seed 0) where a pawn on a standing block (height 6, in full view) was
lost to a top read on the space behind it, which the stand hides entirely."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision.observers.baubylon import BaubylonObserver


@pytest.mark.parametrize(("frame", "cell"), [(69, (9, 3)), (118, (8, 5))])
def test_a_pawn_on_a_tall_block_keeps_its_top(frame, cell):
    camera, observer = bench.bench_setup("baubylon", 0, frame)
    layout, scene = bench.bench_scene("baubylon", 0, frame)
    observation = observer.observe(render(scene, camera, seed=frame))
    seen = visible_share(scene.regions[0], camera, layout.top_faces())
    expected = layout.expected()
    r, c = cell
    assert seen[r, c] >= bench.VISIBLE and expected[r][c][1]["height"] == 6 and expected[r][c][1]["pawns"]
    assert observation.cell(r, c).attrs == expected[r][c][1]
    # No stack read where none stands in view.
    phantoms = [(i, j) for i in range(12) for j in range(12) if seen[i, j] >= bench.VISIBLE
                and observation.cell(i, j).attrs["pawns"] and not expected[i][j][1]["pawns"]]
    assert not phantoms


def test_the_stand_under_a_top_is_the_block_just_under_it():
    observer = BaubylonObserver(region_geometry(bench.bench_camera("baubylon", 0, 0)))
    evidence = np.zeros((12, 12, len(observer.levels), 4))
    evidence[3, 4, 3] = 1.0  # a block of 6 pawn heights shows its whole outline at (3, 4)
    stands = observer._stand_fit(evidence)[3 * 12 + 4]  # by top height 1..13
    assert stands[6] == pytest.approx(1.0) and stands[7] == pytest.approx(1.0)  # one or two pawns on it
    assert stands[4] == 0.0 and stands[8] == 0.0  # on a block of 4, or of 8
    assert stands[0] == stands[1] > 0.0  # on the table: no outline of its own to show
