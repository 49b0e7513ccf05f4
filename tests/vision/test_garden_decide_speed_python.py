"""The garden decisions' cheaper Python gives the same answers as the code it replaced: what each
cell stands up as made once per pass (garden_occlusion.Occlusion.standing), a floor's share hidden
without one reading, one flower per tile summed as plain floats (garden_tiles.pool_flowers), and a
middle's kept points made once per camera side (babylon_garden._middle_keep)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera import region_geometry
from companion.vision import labels
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.observers.babylon_garden import _middle_keep, _middle_keep_made
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.garden_decide import FaceCentres, _floor_hidden_without
from companion.vision.observers.garden_tiles import _first_max, pool_flowers
from companion.vision.types import CellReading
from tests.sim.helpers import GAMES, camera_for

LEVELS = list(range(1, GARDEN.max_level + 1))


def _random_rows(rng) -> list[list[CellReading]]:
    """A board of random readings of every kind (stairs paired as lists of levels too)."""
    rows = []
    for _ in range(8):
        row = []
        for _ in range(8):
            kind = rng.integers(0, 6)
            level = int(rng.integers(1, GARDEN.max_level + 1))
            if kind == 0:
                row.append(CellReading(labels.RECESS, 0.9, {"level": 0}))
            elif kind == 1:
                row.append(CellReading(labels.PILLAR1, 0.7, {"level": level}))
            elif kind == 2:
                row.append(CellReading(labels.PILLAR2, 0.7, {"level": max(level, 2)}))
            elif kind == 3:
                row.append(CellReading(labels.BELVEDERE, 0.6, {"level": level}))
            elif kind == 4:
                row.append(CellReading(labels.STAIRS, 0.6, {"level": [level, level + 1]}))
            else:
                row.append(CellReading(labels.TILE, 0.8, {"level": level, "tile": "r0c0", "flower": "flower0",
                                                          "icon": "none"}))
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def faces():
    geometry = region_geometry(camera_for(GAMES["babylon.garden"]))
    return FaceCentres(geometry, GARDEN, BABYLON_GARDEN.cell_mm, LEVELS)


def test_standing_is_each_cells_occluder_and_hidden_with_it_is_the_same(faces):
    occlusion = faces.floor
    for seed in range(5):
        rows = _random_rows(np.random.default_rng(seed))
        tops, kinds = occlusion.standing(rows)
        want = [occlusion.occluder(cell) for row in rows for cell in row]
        assert tops.tolist() == [top for top, _ in want] + [-np.inf]
        assert kinds.tolist() == [kind for _, kind in want] + [0]
        cells = [(r, c, 1) for r in range(8) for c in range(8)]
        np.testing.assert_array_equal(occlusion.hidden(rows, cells, (tops, kinds)), occlusion.hidden(rows, cells))


def test_a_floor_hidden_without_one_reading_is_that_reading_made_a_recess(faces):
    for seed in range(5):
        rows = _random_rows(np.random.default_rng(10 + seed))
        standing = faces.floor.standing(rows)
        for cell, without in (((3, 3), (2, 3)), ((4, 5), (5, 5)), ((0, 0), (0, 1)), ((7, 7), (6, 6))):
            alone = [list(row) for row in rows]
            alone[without[0]][without[1]] = CellReading(labels.RECESS, 1.0, {"level": 0})
            want = float(faces.floor_hidden(alone, [cell])[0])
            assert _floor_hidden_without(faces, standing, cell, without) == want


def test_first_max_is_numpys_argmax():
    rng = np.random.default_rng(3)
    cases = [[1.0], [0.2, 0.2, 0.1], [0.1, 0.3, 0.3, 0.2], [float("nan"), 1.0], [1.0, float("nan"), 2.0],
             [-0.0, 0.0], *(rng.integers(0, 3, 4).astype(float).tolist() for _ in range(50))]
    for values in cases:
        assert _first_max(values) == int(np.argmax(values))


def _pool_flowers_numpy(rows, dot_support, flowers):
    """pool_flowers as it was written with numpy (the reference)."""
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    chosen = {}
    for key, cells in groups.items():
        support = sum(dot_support(key[1], r, c) for r, c in cells)
        corner = int(np.argmax(support.sum(axis=1)))
        chosen[key] = flowers[int(np.argmax(support[corner]))]
    return chosen


def test_pool_flowers_chooses_as_the_numpy_sums_did():
    flowers = ("flower0", "flower1", "flower2", "flower3")
    for seed in range(20):
        rng = np.random.default_rng(seed)
        # Tiles of 1-4 read spaces; dot supports that often tie (a few distinct values).
        rows = [[CellReading(labels.RECESS, 0.9, {"level": 0}) for _ in range(8)] for _ in range(8)]
        for tr, tc in ((0, 0), (0, 4), (4, 0), (4, 4), (2, 2)):
            level = int(rng.integers(1, 4))
            for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))[: rng.integers(1, 5)]:
                rows[tr + dr][tc + dc] = CellReading(labels.TILE, 0.7, {"level": level, "tile": f"r{tr}c{tc}",
                                                                        "flower": "flower0", "icon": "none"})
        dots = rng.choice([0.0, 0.1, 0.25, 1 / 3, 0.5], size=(6, 8, 8, 4, 4))
        support = lambda level, r, c, dots=dots: dots[level, r, c]  # noqa: E731
        want = _pool_flowers_numpy(rows, support, flowers)
        got = pool_flowers(rows, support, flowers)
        for row in got:
            for cell in row:
                if cell.label == labels.TILE:
                    assert cell.attrs["flower"] == want[(cell.attrs["tile"], cell.attrs["level"])]


def test_a_middles_kept_points_made_once_are_those_made_afresh_and_cannot_be_changed():
    rng = np.random.default_rng(4)
    for _ in range(5):
        near = rng.random((8, 8, 4)) < 0.5
        keep = _middle_keep(near, 5, 5)
        np.testing.assert_array_equal(keep, _middle_keep_made(near, 5, 5))
        assert _middle_keep(near.copy(), 5, 5) is keep  # the same camera sides: the same mask
        with pytest.raises(ValueError):
            keep[0, 0, 2, 2] = False
    assert _middle_keep(near, 7, 7).shape == (8, 8, 7, 7)
