"""Babel Builders: cube counts read by parallax, from rendered frames (the twin), under another
light and sensor than the calibration's, from a steep and a nearly vertical camera."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import boards
from companion.sim.render import render
from companion.vision.observers.babel import BabelObserver, column_heights
from tests.sim.helpers import GAMES, calibrated, camera_for, read_and_score
from tests.vision.test_observers import NOISY, WARM_DIM

GAME = GAMES["babel"]


def _layout(counts) -> boards.BabelLayout:
    return boards.BabelLayout(tuple(tuple(column_heights(n) for n in row) for row in counts))


@pytest.fixture(scope="module", params=[(12.0, -75.0), (30.0, -110.0)], ids=["near-vertical", "tilted"])
def setup(request):
    tilt, azimuth = request.param
    camera = camera_for(GAME, tilt=tilt, azimuth=azimuth)
    return camera, calibrated(GAME, camera)


@pytest.mark.parametrize("counts", [
    ((0, 1, 2), (3, 4, 5), (6, 7, 8)),
    ((9, 10, 11), (12, 13, 14), (15, 16, 0)),
    ((17, 0, 20), (1, 25, 2), (24, 3, 19)),
], ids=["0-8", "9-16", "17-25"])
def test_every_count_reads_back(setup, counts):
    camera, observer = setup
    score = read_and_score(GAME, observer, camera, _layout(counts), seed=3, lighting=WARM_DIM, imaging=NOISY)
    assert score.visible >= 8
    assert score.wrong == 0, score


def test_towers_not_built_layer_by_layer(setup):
    """Reading does not assume the order cubes were put down in: one column alone, two opposite
    columns, a column taller than the rest by two."""
    camera, observer = setup
    columns = (((2, 0, 0, 0), (0, 0, 0, 1), (0, 3, 0, 0)),
               ((1, 0, 0, 1), (0, 2, 2, 0), (3, 1, 1, 1)),
               ((0, 0, 1, 0), (2, 2, 2, 2), (1, 1, 0, 0)))
    layout = boards.BabelLayout(columns)
    score = read_and_score(GAME, observer, camera, layout, seed=5, lighting=WARM_DIM, imaging=NOISY)
    assert score.wrong == 0, score


def test_calibration_learns_where_this_camera_draws_outlines(setup):
    _, observer = setup
    names = observer.profile.names
    assert {"card", "cube", "outline:near", "outline:far"} <= set(names)
    for name in ("outline:near", "outline:far"):
        assert abs(observer.profile.classes[name].mean[0]) < 2.0  # px: a bevel, a blur, not a level


def test_readings_carry_the_runner_up_count():
    camera = camera_for(GAME)
    observer = calibrated(GAME, camera)
    layout = _layout(((5, 0, 5), (0, 9, 0), (5, 0, 5)))
    _, scene = GAME.scene(layout)
    observation = observer.observe(render(scene, camera, seed=1))
    middle = observation.cell(1, 1)
    assert middle.attrs == {"count": 9}
    assert middle.confidence > 0.5
    assert all(alt[0] == "cubes" and alt[1]["count"] != 9 for alt in middle.alternatives)
    assert observation.cell(0, 1).attrs == {"count": 0}


def test_without_a_profile_it_says_calibrate_first():
    observer = BabelObserver(__import__("companion.sim.camera", fromlist=["x"]).region_geometry(camera_for(GAME)))
    with pytest.raises(ValueError, match="colours are not learned yet"):
        observer.observe(np.zeros((720, 1280, 3), np.uint8))
