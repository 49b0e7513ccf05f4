"""Babel: a column h cubes tall fills the space below its top, so where the card shows at a lower
level of that column the height is ruled out (a top read on another tower's face further along
the same ray). First on made-up measurements, then on the benchmark frame that showed it."""

from __future__ import annotations

import numpy as np

from companion.benchmarking import vision as bench
from companion.sim import variation
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.observers.babel import BabelObserver
from tests.sim.helpers import GAMES, camera_for


def _measurements(levels: int):
    """Every column clearly empty (card at level 0, no outline), except the first column of the
    centre tower: footprint not seen as card, and a fair outline at level 6 on every side."""
    card = np.zeros((3, 3, 4, levels))
    card[..., 0] = 1.0
    cube = np.zeros((3, 3, 4, levels))
    evidence = np.zeros((3, 3, 4, levels, 4))
    card[1, 1, 0, 0] = 0.0
    evidence[1, 1, 0, 6] = 0.5
    cube[1, 1, 0, 6] = 1.0
    return card, cube, evidence


def test_card_seen_below_a_top_rules_the_height_out():
    observer = BabelObserver(region_geometry(camera_for(GAMES["babel"], tilt=26.0, azimuth=-100.0)))
    card, cube, evidence = _measurements(observer.levels)
    heights, _ = observer._read_towers(card, cube, evidence)
    assert heights[1, 1, 0] == 6  # nothing says otherwise: a tall column
    card[1, 1, 0, 2:5] = 1.0  # ...but the card shows where its body would stand
    heights, _ = observer._read_towers(card, cube, evidence)
    assert heights[1, 1, 0] == 0
    assert (heights == 0).all()


def test_benchmark_frame_two_cubes_not_read_as_eight():
    """bench vision --games babel --seed 1, frame 21: the centre tower (two cubes side by side) was
    read as 8, an empty column taken 6 cubes tall on a neighbouring tower's top."""
    seed, n = 1, 21
    _, random_layout, _, target, distance = bench.GAMES["babel"]
    camera = variation.random_camera(np.random.default_rng((seed, 20, 1)), target, distance=distance)
    observer = bench._calibrate("babel", camera, seed * 1000 + 20)
    rng = np.random.default_rng((seed, n))
    layout = random_layout(rng)
    scene = TableScene((bench._region(layout),), lighting=variation.random_lighting(rng),
                       imaging=variation.random_imaging(rng))
    observation = observer.observe(render(scene, camera, seed=n))
    expected = layout.expected()
    assert expected[1][1] == ("cubes", {"count": 2})
    for r in range(3):
        for c in range(3):
            cell = observation.cell(r, c)
            assert (cell.label, cell.attrs) == tuple(expected[r][c]), (r, c)
