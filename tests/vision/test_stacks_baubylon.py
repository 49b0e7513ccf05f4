"""Baubylon: block heights and pawn stacks read by parallax from rendered frames (the twin), under
another light and sensor than the calibration's."""

from __future__ import annotations

import pytest

from companion.sim import boards
from companion.sim.render import render
from tests.sim.helpers import GAMES, calibrated, camera_for, read_and_score
from tests.vision.test_observers import NOISY, WARM_DIM

GAME = GAMES["baubylon"]
EMPTY = (0, ())


def _layout(placed: dict[tuple[int, int], tuple[int, tuple[str, ...]]]) -> boards.BaubylonLayout:
    return boards.BaubylonLayout(tuple(tuple(placed.get((r, c), EMPTY) for c in range(12)) for r in range(12)))


@pytest.fixture(scope="module", params=[(14.0, -80.0), (28.0, -115.0)], ids=["near-vertical", "tilted"])
def setup(request):
    tilt, azimuth = request.param
    camera = camera_for(GAME, tilt=tilt, azimuth=azimuth)
    return camera, calibrated(GAME, camera)


def test_every_block_height_alone_and_in_plateaus(setup):
    camera, observer = setup
    placed = {}
    for i, h in enumerate((2, 4, 6, 8)):
        placed[(1, 1 + 3 * i)] = (h, ())  # alone
        for dr in range(2):  # a 2×2 plateau
            for dc in range(2):
                placed[(4 + dr, 1 + 3 * i + dc)] = (h, ())
    for c in range(12):  # a staircase
        placed[(8, c)] = (2 * (1 + c % 4), ())
    score = read_and_score(GAME, observer, camera, _layout(placed), seed=4, lighting=WARM_DIM, imaging=NOISY)
    assert score.visible >= 90
    assert score.wrong == 0, score


def test_pawn_stacks_on_every_height(setup):
    camera, observer = setup
    colours = ("red", "blue", "green", "yellow", "black", "white", "purple")
    placed = {}
    for i, h in enumerate((0, 2, 4, 6)):
        for k in range(1, 4):
            placed[(1 + 3 * i % 12, 1 + 4 * (k - 1) + (i % 2))] = (h, tuple(colours[(i + j + k) % 7] for j in range(k)))
    score = read_and_score(GAME, observer, camera, _layout(placed), seed=6, lighting=WARM_DIM, imaging=NOISY)
    assert score.wrong == 0, score


def test_a_pawn_top_is_one_stack_not_two():
    """A pawn standing tall seen along the same ray as a space nearer the camera must not make
    that space read as a taller stack too."""
    camera = camera_for(GAME, tilt=28.0, azimuth=-100.0)
    observer = calibrated(GAME, camera)
    layout = _layout({(6, 6): (6, ("blue",)), (9, 9): (4, ("yellow", "red")), (3, 3): (0, ("green",))})
    _, scene = GAME.scene(layout)
    observation = observer.observe(render(scene, camera, seed=2))
    stacks = {(r, c) for r in range(12) for c in range(12) if observation.cell(r, c).attrs["pawns"]}
    assert stacks == {(6, 6), (9, 9), (3, 3)}
    assert observation.cell(9, 9).attrs == {"height": 4, "pawns": [None, "red"]}
