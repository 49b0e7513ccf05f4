"""The garden observer reads tiles laid in any of the four orientations: the flower (whose dot sits
in the turned corner of every space), the icons on their spaces and the footprint."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.render import render
from companion.sim.scene import Imaging, Lighting, TableScene
from companion.sim.visibility import visible_share
from companion.vision import labels
from tests.sim.helpers import GAMES, calibrated, camera_for

GAME = GAMES["babylon.garden"]


@pytest.fixture(scope="module")
def eye():
    camera = camera_for(GAME)
    return camera, calibrated(GAME, camera)


def _turned_layout() -> garden.GardenLayout:
    tiles = (
        garden.Tile(0, 0, 1, 0, ("stairs", "none", "fountain", "statue"), turn=0),
        garden.Tile(0, 4, 1, 1, ("none", "bridge", "statue", "none"), turn=1),
        garden.Tile(4, 0, 1, 2, ("fountain", "statue", "none", "bridge"), turn=2),
        garden.Tile(4, 4, 2, 3, ("bridge", "none", "stairs", "fountain"), turn=3),
    )
    pillars = [p for tile in tiles for p in garden.supported(tile, (0, 0, 0, 0))]
    return garden.GardenLayout(tuple(pillars), tiles)


def _wrong_tile_cells(camera, observer, layout, lighting, imaging, seed):
    region = garden.region_scene(layout)
    observation = observer.observe(render(TableScene((region,), lighting=lighting, imaging=imaging), camera, seed=seed))
    seen = visible_share(region, camera, layout.top_faces())
    expected = layout.expected()
    checked, wrong = 0, []
    for r in range(8):
        for c in range(8):
            label, attrs = expected[r][c]
            if label != labels.TILE or seen[r, c] < 0.6:
                continue
            checked += 1
            cell = observation.cell(r, c)
            if (cell.label, cell.attrs) != (label, attrs):
                wrong.append(((r, c), attrs, cell.label, cell.attrs))
    return checked, wrong


def test_tiles_turned_every_way_read_back(eye):
    camera, observer = eye
    checked, wrong = _wrong_tile_cells(camera, observer, _turned_layout(), Lighting(), Imaging(), seed=3)
    assert checked >= 12
    assert wrong == []


def test_turned_tiles_read_back_under_other_light(eye):
    camera, observer = eye
    light = Lighting(gain=0.9, gradient=(0.08, -0.05), colour_gains=(0.95, 1.0, 1.05))
    noisy = Imaging(noise_sigma=3.0, blur_sigma=0.8, jpeg_quality=85)
    checked, wrong = _wrong_tile_cells(camera, observer, _turned_layout(), light, noisy, seed=5)
    assert len(wrong) <= checked // 12, wrong


def test_every_turn_gives_the_same_reading(eye):
    """The same tile at the same place, turned four ways: one flower, the same icons per space."""
    camera, observer = eye
    readings = []
    for turn in range(4):
        tile = garden.Tile(2, 2, 1, 3, ("statue", "none", "bridge", "fountain"), turn=turn)
        layout = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
        observation = observer.observe(render(TableScene((garden.region_scene(layout),)), camera, seed=turn))
        readings.append([(observation.cell(r, c).label, observation.cell(r, c).attrs) for r, c in tile.cells()])
    expected = [garden.GardenLayout((), (garden.Tile(2, 2, 1, 3, ("statue", "none", "bridge", "fountain")),)).expected()[r][c]
                for r, c in ((2, 2), (2, 3), (3, 2), (3, 3))]
    assert all(reading == expected for reading in readings), readings
    assert np.all([a["flower"] == "flower3" for reading in readings for _, a in reading])
