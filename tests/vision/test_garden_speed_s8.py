"""Garden speed (eighth sitting): the same numbers from less work per read.

- Which points the neighbours hide (garden_occlusion.Occlusion.hidden), one compiled loop, is the
  numpy gather's booleans (hidden_reference) on random boards, for the three kinds of points the
  observer asks about (flower dots, icon middles, recess floors).
- The flower dots' colours read from their projections made once per geometry
  (SeenDots.colours with sample_pixels) are the numbers of projecting them per read.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera import region_geometry
from companion.vision import labels
from companion.vision.boards import BABYLON_GARDEN
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.garden_decide import FaceCentres
from companion.vision.observers.garden_flowers import SeenDots
from companion.vision.observers.garden_occlusion import Occlusion
from companion.vision.observers.garden_points import grid_points
from companion.vision.types import CellReading
from tests.sim.helpers import GAMES, camera_for

from .bench_frames import bench_frame

LEVELS = [1, 2, 3, 4, 5]
S = BABYLON_GARDEN.cell_mm


def random_rows(rng) -> list[list[CellReading]]:
    """A board of random readings of every kind and level (stairs paired or not)."""
    rows = []
    for _ in range(8):
        row = []
        for _ in range(8):
            kind = rng.integers(0, 6)
            level = int(rng.integers(1, 6))
            if kind == 0:
                row.append(CellReading(labels.RECESS, 0.9, {"level": 0}))
            elif kind == 1:
                row.append(CellReading((labels.PILLAR1, labels.PILLAR2)[level % 2], 0.9, {"level": level}))
            elif kind == 2:
                row.append(CellReading(labels.TILE, 0.9, {"level": level, "tile": "r0c0", "flower": "flower0",
                                                          "icon": "none"}))
            elif kind == 3:
                row.append(CellReading(labels.STAIRS, 0.9, {"level": [level, level + 1] if level < 5 else level}))
            else:
                row.append(CellReading((labels.FOUNTAIN, labels.BELVEDERE)[kind - 4], 0.9, {"level": level}))
        rows.append(row)
    return rows


@pytest.fixture(scope="module")
def occlusions():
    geometry = region_geometry(camera_for(GAMES["babylon.garden"]))
    middle = grid_points((S / 2 - 3, S / 2 - 3, S / 2 + 3, S / 2 + 3), 1.25)
    return {"middles": Occlusion(geometry, GARDEN, S, LEVELS, middle),
            "dots": SeenDots(geometry, GARDEN, S, LEVELS).occlusion,
            "floors": FaceCentres(geometry, GARDEN, S, LEVELS).floor}


@pytest.mark.parametrize("kind", ["middles", "dots", "floors"])
@pytest.mark.parametrize("seed", range(6))
def test_hidden_points_are_the_numpy_gathers(occlusions, kind, seed):
    occlusion = occlusions[kind]
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    top_level = occlusion.hide_heights.shape[0] - 1
    cells = [(int(r), int(c), int(k)) for r, c, k in zip(rng.integers(0, 8, 30), rng.integers(0, 8, 30),
                                                         rng.integers(1, top_level + 1, 30), strict=True)]
    cells += [(0, 0, 1), (7, 7, top_level), (0, 7, 1), (7, 0, top_level)]  # corners: neighbours off the board
    got = occlusion.hidden(rows, cells)
    want = occlusion.hidden_reference(rows, cells)
    assert got.dtype == bool and got.shape == want.shape == (len(cells), occlusion.hide_heights.shape[2])
    np.testing.assert_array_equal(got, want)
    standing = occlusion.standing(rows)
    np.testing.assert_array_equal(occlusion.hidden(rows, cells, standing), want)
    assert want.any() and not want.all()  # a board that hides some points and not others


def test_hidden_points_of_no_spaces_and_of_a_flat_board(occlusions):
    occlusion = occlusions["dots"]
    flat = [[CellReading(labels.RECESS, 1.0, {"level": 0})] * 8 for _ in range(8)]
    assert occlusion.hidden(flat, []).shape == (0, occlusion.hide_heights.shape[2])
    assert not occlusion.hidden(flat, [(3, 3, 1), (0, 0, 5)]).any()  # nothing stands up: nothing hidden


def test_a_tall_neighbour_on_the_cameras_side_hides_a_dot_the_other_side_does_not(occlusions):
    occlusion = occlusions["dots"]
    flat = [[CellReading(labels.RECESS, 1.0, {"level": 0})] * 8 for _ in range(8)]
    hidden = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rows = [list(row) for row in flat]
        rows[4 + dr][4 + dc] = CellReading(labels.PILLAR2, 1.0, {"level": 5})
        got = occlusion.hidden(rows, [(4, 4, 1)])
        np.testing.assert_array_equal(got, occlusion.hidden_reference(rows, [(4, 4, 1)]))
        hidden.append(int(got.sum()))
    assert max(hidden) > 0 and min(hidden) == 0  # hidden from one side, not from the far one


@pytest.fixture(scope="module")
def read():
    _, image, observer = bench_frame("babylon.garden", 0, 3)
    observer.observe(image)
    return observer


def test_dot_pixels_made_once_are_the_per_read_projections(read):
    seen = read._seen_dots
    rng = np.random.default_rng(3)
    cells = [(int(r), int(c), int(k)) for r, c, k in zip(rng.integers(0, 8, 12), rng.integers(0, 8, 12),
                                                         rng.integers(1, 6, 12), strict=True)]
    for r, c, level in cells:
        np.testing.assert_array_equal(seen.pixels[level, 8 * r + c],
                                      read.sampler.geometry.to_pixels(seen._xyz([(r, c, level)])[0]))
    hidden = rng.random((len(cells), len(seen.points))) < 0.5
    hidden[2] = True  # a space all hidden
    want = seen.colours(read.sampler.sample_points, cells, hidden)
    got = seen.colours(read.sampler.sample_points, cells, hidden, read.sampler.sample_pixels)
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
    assert (got[1][2] == 0).all() and got[1].sum() > 0


def test_a_read_compiles_no_other_version_of_the_hiding_kernel(read):
    from companion.vision.observers.garden_kernels_occlusion import hidden_points

    assert len(hidden_points.signatures) == 1  # the constructor's warm-up's: the live read's types


def test_footprints_parsed_once_are_the_parsed_cells():
    from companion.vision.observers import babylon_garden as bg

    for tile in ("r0c0", "r3c5", "r6c6", "r-1c2"):
        tr, tc = (int(v) for v in tile[1:].split("c"))
        want = [(tr + dr, tc + dc, i) for i, (dr, dc) in enumerate(bg.POSITIONS)]
        assert list(bg._footprint_cells(tile)) == want
        assert list(bg._footprint_cells(tile)) == want  # asked again: the same
        for r, c, i in want:
            assert bg._position_of(tile, r, c) == i
    with pytest.raises(ValueError):
        bg._position_of("r2c2", 5, 5)  # not a space of that tile


def regroup_reference(rows, space_score, sure=None, moved_floor=0.0):
    """garden_tiles.regroup_footprints as it was before the eighth sitting (each cell's
    stands-below test asked per candidate tile)."""
    from companion.vision.observers.garden_rules import stands_on
    from companion.vision.observers.garden_tiles import POSITIONS, tile_id

    def stands_below(cell, level):
        if cell.confidence < sure or cell.label in (labels.RECESS, labels.TILE):
            return False
        return max(stands_on(cell)) < level

    at_level = {(r, c): cell.attrs["level"] for r, row in enumerate(rows) for c, cell in enumerate(row)
                if cell.label == labels.TILE}
    scores = {level: np.asarray(space_score)[level].tolist() for level in set(at_level.values())}
    candidates = {}
    for (r, c), level in at_level.items():
        for dr, dc in POSITIONS:
            tr, tc = r - dr, c - dc
            if not (0 <= tr <= 6 and 0 <= tc <= 6) or (tr, tc, level) in candidates:
                continue
            total = 0.0
            for i, (er, ec) in enumerate(POSITIONS):
                cell = (tr + er, tc + ec)
                if at_level.get(cell) == level:
                    total += max(scores[level][cell[0]][cell[1]][i], 0.0)
                elif sure is not None and stands_below(rows[cell[0]][cell[1]], level):
                    total = -1.0
                    break
            candidates[(tr, tc, level)] = total
    out = [list(row) for row in rows]
    claimed = set()
    for (tr, tc, level), total in sorted(candidates.items(), key=lambda kv: -kv[1]):
        if total < 0:
            continue
        for i, (er, ec) in enumerate(POSITIONS):
            r, c = tr + er, tc + ec
            if (r, c) in claimed or at_level.get((r, c)) != level or scores[level][r][c][i] <= 0.0:
                continue
            claimed.add((r, c))
            cell = out[r][c]
            if cell.attrs["tile"] != tile_id(tr, tc):
                out[r][c] = CellReading(cell.label, min(cell.confidence, max(scores[level][r][c][i], moved_floor)),
                                        {**cell.attrs, "tile": tile_id(tr, tc)}, cell.alternatives)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_regrouped_footprints_are_as_before(seed):
    from companion.vision.observers.garden_tiles import regroup_footprints

    rows, space = random_tile_board(seed)
    for sure in (None, 0.5):
        got = regroup_footprints(rows, space, sure, 0.45)
        assert got == regroup_reference(rows, space, sure, 0.45)


def test_random_tile_boards_move_some_spaces():
    moved = 0
    for seed in range(12):
        rows, space = random_tile_board(seed)
        moved += regroup_reference(rows, space, 0.5, 0.45) != rows
    assert moved >= 6  # the comparison above is not only of boards left alone


def random_tile_board(seed):
    """Random readings with tile spaces of random footprints and confidences, and outline scores
    (negative, zero and -0.0 among them)."""
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    for r in range(8):
        for c in range(8):
            cell = rows[r][c]
            tile = f"r{min(max(r - int(rng.integers(0, 2)), 0), 6)}c{min(max(c - int(rng.integers(0, 2)), 0), 6)}"
            attrs = {**cell.attrs, "tile": tile} if cell.label == labels.TILE else cell.attrs
            rows[r][c] = CellReading(cell.label, float(rng.choice([0.2, 0.5, 0.7, 0.95])), attrs)
    space = rng.normal(0.2, 0.4, (6, 8, 8, 4))
    space[rng.random(space.shape) < 0.1] = 0.0
    space[rng.random(space.shape) < 0.05] = -0.0
    return rows, space


def test_the_dots_corners_are_blocks_and_their_hidden_corners_as_before(occlusions):
    from companion.vision.observers.garden_flowers import dot_points

    points, corner = dot_points(S)
    assert (corner == np.repeat(np.arange(4), len(corner) // 4)).all()
    hidden = np.random.default_rng(0).random((9, len(corner))) < 0.05
    blocks = hidden.reshape(9, 4, -1).any(axis=-1)
    np.testing.assert_array_equal(blocks, np.stack([hidden[:, corner == k].any(axis=1) for k in range(4)], axis=1))


def test_standing_is_each_cells_occluder(occlusions):
    occlusion = occlusions["middles"]
    rows = random_rows(np.random.default_rng(5))
    tops, kinds = occlusion.standing(rows)
    want = [occlusion.occluder(cell) for row in rows for cell in row]
    assert tops.tolist() == [t for t, _ in want] + [-np.inf] and kinds.tolist() == [k for _, k in want] + [0]
    assert tops.dtype == np.float64 and kinds.dtype == np.int64
