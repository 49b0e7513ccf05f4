"""The twin lays terrace tiles in any of four orientations (a player may turn a tile any way)."""

from __future__ import annotations

import numpy as np

from companion.sim import garden
from companion.sim.camera import CameraModel
from companion.sim.palette import DEFAULT_PALETTE
from companion.sim.render import render
from companion.sim.scene import Imaging, TableScene
from companion.vision.boards import BABYLON_GARDEN

OVERHEAD = CameraModel(target_mm=(100.0, 100.0, 0.0), distance_mm=420.0, tilt_deg=0.0, distortion=(0.0,) * 5)
CLEAN = Imaging(noise_sigma=0.0, blur_sigma=0.0)
# Where a space shows its flower after 0..3 clockwise quarter turns (mm from the space's centre).
DOT = ((-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0))


def _pixel(image: np.ndarray, x: float, y: float, z: float) -> np.ndarray:
    u, v = np.round(OVERHEAD.project(np.array([[x, y, z]]))[0]).astype(int)
    return image[v, u].astype(int)


def test_the_flower_dot_turns_with_the_tile():
    flower = np.array(DEFAULT_PALETTE["flower0"])
    for turn in range(4):
        tile = garden.Tile(2, 2, 1, 0, turn=turn)
        layout = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
        image = render(TableScene((garden.region_scene(layout),), imaging=CLEAN), OVERHEAD)
        for r, c in tile.cells():
            x, y = BABYLON_GARDEN.cell_centre(r, c)
            for corner, (dx, dy) in enumerate(DOT):
                near_flower = np.abs(_pixel(image, x + dx, y + dy, 22.0) - flower).max() < 40
                assert near_flower == (corner == turn), (turn, r, c, corner)


def test_icons_stay_on_their_spaces_and_their_drawing_turns():
    icons = ("stairs", "none", "none", "none")
    drawn = []
    for turn in (0, 1):
        tile = garden.Tile(2, 2, 1, 0, icons, turn=turn)
        layout = garden.GardenLayout(tuple(garden.supported(tile, (0, 0, 0, 0))), (tile,))
        assert layout.expected()[2][2][1]["icon"] == "stairs"  # what is read does not depend on the turn
        image = render(TableScene((garden.region_scene(layout),), imaging=CLEAN), OVERHEAD)
        x, y = BABYLON_GARDEN.cell_centre(2, 2)
        drawn.append([_pixel(image, x + dx, y + 1.0, 22.0).sum() for dx in np.arange(-3.0, 3.5, 0.5)])
    # Stairs are stripes across the space: horizontal at turn 0 (one row is all one colour),
    # vertical at turn 1 (the same row crosses the stripes).
    assert np.ptp(drawn[0]) < 60 < np.ptp(drawn[1])


def test_random_layouts_turn_tiles_every_way():
    turns = {tile.turn for seed in range(10) for tile in garden.random_layout(np.random.default_rng(seed)).tiles}
    assert turns == {0, 1, 2, 3}
