"""The garden observer's point sampling (garden_points.py) and the physical rules that read pieces
standing on a tile: a double pillar on a tile's space, decorations on tiles, pieces of one colour
side by side."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import garden
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.sim.visibility import visible_share
from companion.vision import labels
from companion.vision.observers.garden_points import (
    NEG_INF,
    POS_INF,
    grid_points,
    lattice_points,
    pad_indices,
)
from tests.sim.helpers import GAMES, calibrated, camera_for

GAME = GAMES["babylon.garden"]


def test_a_padded_face_keeps_its_own_median():
    rng = np.random.default_rng(4)
    values = [rng.normal(50, 10, n) for n in (5, 9, 17, 3)]
    samples = np.concatenate([*values, [np.inf, -np.inf]])
    starts = np.cumsum([0, *(len(v) for v in values)])
    lists = [np.arange(a, a + len(v)) for a, v in zip(starts, values, strict=False)]
    padded = pad_indices(lists, alternate=True)
    assert padded.shape[1] % 2 == 1
    padded = np.where(padded == POS_INF, len(samples) + POS_INF, np.where(padded == NEG_INF, len(samples) + NEG_INF, padded))
    middle = padded.shape[1] // 2
    medians = np.partition(samples[padded], middle, axis=1)[:, middle]
    np.testing.assert_allclose(medians, [np.median(v) for v in values])


def test_points_cover_their_rect_and_half_a_face_keeps_half_its_lattice():
    points = grid_points((0.0, 0.0, 10.0, 5.0), 1.25)
    assert points.shape == (8 * 4, 2)
    assert points[:, 0].min() > 0 and points[:, 0].max() < 10 and points[:, 1].max() < 5
    whole = lattice_points((4.5, 4.5, 20.5, 20.5), 2.5)
    far_half = lattice_points((4.5, 12.5, 20.5, 20.5), 2.5)
    assert len(far_half) * 2 == len(whole)
    # A band narrower than the lattice still gets points.
    assert len(lattice_points((3.0, 3.1, 20.0, 3.9), 2.5)) > 0


@pytest.fixture(scope="module")
def eye():
    camera = camera_for(GAME)
    return camera, calibrated(GAME, camera)


def _read(eye, layout, seed=5):
    camera, observer = eye
    region = garden.region_scene(layout)
    observation = observer.observe(render(TableScene((region,)), camera, seed=seed))
    return observation, visible_share(region, camera, layout.top_faces()), layout.expected()


def test_a_double_pillar_on_a_tile_space_is_read_at_its_top(eye):
    # Double pillars standing on the spaces of level-1 and level-2 tiles: their tops are 2 levels
    # above the tile (a reading one level lower would stand inside the tile).
    low = garden.Tile(4, 1, 1, 0, ("none", "statue", "none", "bridge"))
    high = garden.Tile(4, 4, 2, 1, ("fountain", "none", "none", "none"))
    pillars = [*garden.supported(low, (0, 0, 0, 0)), *garden.supported(high, (0, 0, 0, 0)),
               garden.Pillar(5, 1, 1, 2), garden.Pillar(5, 5, 2, 2)]
    observation, seen, expected = _read(eye, garden.GardenLayout(tuple(pillars), (low, high)))
    for r, c, level in ((5, 1, 3), (5, 5, 4)):
        assert seen[r, c] >= 0.6
        cell = observation.cell(r, c)
        assert (cell.label, cell.attrs) == (labels.PILLAR2, {"level": level}) == expected[r][c]


def test_belvederes_on_two_levels_one_behind_the_other_are_both_read(eye):
    # A belvedere on a level-2 tile with another on a level-1 tile just beyond it (as the camera
    # sees them): the far one's top borders the near one's, in one colour.
    near_tile = garden.Tile(2, 2, 2, 0, ("none", "none", "statue", "none"))
    far_tile = garden.Tile(4, 2, 1, 1, ("none", "none", "none", "bridge"))
    pillars = [*garden.supported(near_tile, (0, 0, 0, 0)), *garden.supported(far_tile, (0, 0, 0, 0))]
    decorations = (garden.Decoration("belvedere", ((3, 3),), (2,)), garden.Decoration("belvedere", ((4, 3),), (1,)))
    observation, seen, expected = _read(eye, garden.GardenLayout(tuple(pillars), (near_tile, far_tile), decorations))
    checked = 0
    for r in range(8):
        for c in range(8):
            if seen[r, c] < 0.6:
                continue
            checked += 1
            cell = observation.cell(r, c)
            assert (cell.label, cell.attrs) == expected[r][c], (r, c)
    assert checked >= 50


@pytest.fixture(scope="module")
def slanted():
    camera = camera_for(GAME, tilt=28.0)
    return camera, calibrated(GAME, camera)


def test_an_icon_partly_hidden_by_a_tall_pillar_in_front_is_read_from_what_shows(slanted):
    # Double pillars on the near spaces of level-2 tiles (the camera is on the row-0 side): their
    # orange sides cover part of the middle of the space behind them (on the right, nearly all of
    # it), which must not pass for an icon.
    left = garden.Tile(0, 0, 2, 0, ("none", "none", "none", "stairs"))
    right = garden.Tile(0, 4, 2, 2, ("none", "none", "fountain", "none"))
    pillars = [*garden.supported(left, (0, 0, 0, 0)), *garden.supported(right, (0, 0, 0, 0)),
               garden.Pillar(0, 0, 2, 2), garden.Pillar(0, 5, 2, 2)]
    observation, seen, expected = _read(slanted, garden.GardenLayout(tuple(pillars), (left, right)))
    for r, c in ((1, 0), (1, 5)):
        assert seen[r, c] >= 0.6
        cell = observation.cell(r, c)
        assert (cell.label, cell.attrs) == expected[r][c], (r, c)
