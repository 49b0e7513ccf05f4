"""Garden speed: steps done without numpy's reductions of many short rows (and
without a full sort) give the same numbers and decisions bit for bit."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from companion.sim.camera import region_geometry
from companion.vision import labels
from companion.vision.observers import babylon_garden as bg
from companion.vision.observers import garden_tiles
from companion.vision.observers.babylon_garden import BABYLON_GARDEN
from companion.vision.observers.dimensions import GARDEN
from companion.vision.observers.garden_decide import FaceCentres, face_of
from companion.vision.observers.garden_kernels_first import best_columns
from companion.vision.observers.garden_rules import footprint, stands_on, tile_fits
from companion.vision.observers.garden_tiles import POSITIONS, tile_support
from companion.vision.types import CellReading
from tests.sim.helpers import GAMES, camera_for


def awkward(rng, shape, steps=8):
    """Values with ties (coarse steps), ±inf, NaN and both zeros."""
    a = np.round(rng.uniform(-1.0, 1.0, shape) * steps) / steps
    pick = rng.random(shape)
    a[pick < 0.08] = -np.inf
    a[(pick >= 0.08) & (pick < 0.12)] = np.inf
    a[(pick >= 0.12) & (pick < 0.16)] = np.nan
    a[(pick >= 0.16) & (pick < 0.22)] = -0.0
    a[(pick >= 0.22) & (pick < 0.28)] = 0.0
    return a


@pytest.mark.parametrize("seed", range(40))
def test_best_columns_are_the_stable_sorts_first(seed):
    rng = np.random.default_rng(seed)
    cells, columns = int(rng.integers(1, 70)), int(rng.integers(1, 50))
    width = int(rng.integers(1, columns + 1))
    scores = awkward(rng, (cells, columns), int(rng.choice([2, 8, 1000])))
    got = np.empty((cells, width), np.int64)
    best_columns(scores, got)
    assert np.array_equal(got, np.argsort(-scores, axis=1, kind="stable")[:, :width])


def test_best_columns_of_the_observers_width():
    rng = np.random.default_rng(1)
    columns = bg._CandidateColumns.of([1, 2, 3, 4, 5, 6])
    scores = awkward(rng, (64, len(columns.label)))
    got = np.empty((64, bg.TOP_CANDIDATES), np.int64)
    best_columns(scores, got)
    assert np.array_equal(got, np.argsort(-scores, axis=1, kind="stable")[:, : bg.TOP_CANDIDATES])


@pytest.mark.parametrize("flowers", [1, 2, 4, 5, 7, 8, 11])
def test_corner_best_is_the_sum_then_max(flowers):
    rng = np.random.default_rng(flowers)
    dots = rng.random((7, 8, 8, 4, flowers)) * rng.choice([1e-6, 1.0, 1e6], (7, 8, 8, 4, flowers))
    dots[0, 0, 0, 1, 0] = np.nan
    dots[1, 2, 3] = 0.0
    want = dots.sum(axis=-1).max(axis=-1)
    got = bg._corner_best(dots)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.isnan(got), np.isnan(want))


def tile_support_reference(space):
    """tile_support as it was: the best position by numpy's max over the last axis."""
    agree = np.where(space >= space.max(axis=-1, keepdims=True), np.maximum(space, 0.0), 0.0)
    total = np.zeros((space.shape[0], 7, 7))
    for i, (dr, dc) in enumerate(POSITIONS):
        total += agree[:, dr : dr + 7, dc : dc + 7, i]
    return total


@pytest.mark.parametrize("seed", range(10))
def test_tile_support_takes_each_spaces_best_position_as_before(seed):
    rng = np.random.default_rng(seed)
    space = awkward(rng, (7, 8, 8, 4), 1000)
    assert np.array_equal(tile_support(space), tile_support_reference(space), equal_nan=True)


def random_rows(rng, sure=0.5):
    """An 8×8 reading of random pieces at random levels (stairs paired now and then)."""
    kinds = (labels.RECESS, labels.TILE, labels.PILLAR1, labels.PILLAR2, labels.STAIRS, labels.FOUNTAIN)
    rows = []
    for _ in range(8):
        row = []
        for _ in range(8):
            label = kinds[int(rng.integers(len(kinds)))]
            level = int(rng.integers(1, GARDEN.max_level))  # a stairs pair reaches one higher
            attrs = {"level": 0} if label == labels.RECESS else {"level": level}
            if label == labels.STAIRS and rng.random() < 0.5:
                attrs = {"level": [level, level + 1]}
            row.append(CellReading(label, float(rng.random()), attrs))
        rows.append(row)
    return rows


def twins_reference(centres, rows, within):
    """FaceCentres.twins as it was: every reading's face_of, np.linalg.norm of each pair."""
    faces = [(r, c, face) for r, row in enumerate(rows) for c, cell in enumerate(row)
             if (face := face_of(cell)) is not None]
    if len(faces) < 2:
        return {}
    kind = np.array([f[0] for _, _, f in faces])
    level = np.array([f[1] for _, _, f in faces])
    index = np.array([8 * r + c for r, c, _ in faces])
    here = centres.px[kind, level, index]
    near = np.linalg.norm(here[:, None, :] - here[None, :, :], axis=-1) <= within * centres.cell_px
    near &= (kind[:, None] == kind[None, :]) & (level[:, None] != level[None, :])
    out = {}
    for i, j in zip(*np.nonzero(near), strict=True):
        out.setdefault(faces[i][:2], []).append(faces[j][:2])
    return out


@pytest.fixture(scope="module")
def centres():
    geometry = region_geometry(camera_for(GAMES["babylon.garden"]))
    return FaceCentres(geometry, GARDEN, BABYLON_GARDEN.cell_mm, list(range(1, GARDEN.max_level + 1)))


@pytest.mark.parametrize("seed", range(12))
def test_twins_are_found_as_before(centres, seed):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    for within in (0.3, bg.GHOST_PX, 1.0, 3.0):
        assert centres.twins(rows, within) == twins_reference(centres, rows, within)


@pytest.mark.parametrize("seed", range(12))
def test_cells_behind_are_the_rows_any(seed):
    """_LazyCandidates.behind: a `label` scoring at least `floor` among a cell's second to sixth
    candidates, as numpy's any over each row said."""
    rng = np.random.default_rng(seed)
    columns = bg._CandidateColumns.of([1, 2, 3, 4, 5])
    count = rng.integers(1, bg.TOP_CANDIDATES + 1, 64)
    order = np.stack([rng.permutation(len(columns.label))[: bg.TOP_CANDIDATES + 1] for _ in range(64)])
    order[np.arange(bg.TOP_CANDIDATES + 1)[None, :] >= count[:, None]] = -1
    scores = awkward(rng, order.shape)
    lazy = bg._LazyCandidates(order.tolist(), count.tolist(), scores.tolist(), columns.meta, (order, scores))
    names = np.array([name for name, _, _ in columns.meta])
    for label in ("deco", "pillar", labels.TILE, labels.RECESS):
        for floor in (-0.5, 0.0, 0.25, 0.9):
            after = order[:, 1:6]
            want = ((after >= 0) & (names[after] == label) & (scores[:, 1:6] >= floor)).any(axis=1)
            assert np.array_equal(lazy.behind(label, floor), want)


def tile_fits_reference(rows, r, c, level, position, sure, mate_sure=0.0):
    """garden_rules.tile_fits as it was (footprint()'s list, the tile's id made first)."""
    dr, dc = POSITIONS[position]
    top_row, top_col = r - dr, c - dc
    if not (0 <= top_row <= 6 and 0 <= top_col <= 6):
        return False, 0
    tile = f"r{top_row}c{top_col}"
    support = 0
    for rr, cc in footprint(top_row, top_col):
        if (rr, cc) == (r, c):
            continue
        cell = rows[rr][cc]
        if cell.label == labels.TILE and cell.attrs.get("level") == level:
            if cell.attrs.get("tile") == tile:
                support += cell.confidence >= mate_sure
                continue
            if cell.confidence >= sure:
                return False, 0
            continue
        if cell.confidence < sure:
            continue
        levels = stands_on(cell)
        if not levels or max(levels) < level:
            return False, 0
        support += level in levels and cell.label != labels.TILE
    return True, support


@pytest.mark.parametrize("seed", range(8))
def test_tile_fits_as_before(seed):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    for r, row in enumerate(rows):  # tiles with ids of footprints round them, some their own
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                dr, dc = POSITIONS[int(rng.integers(4))]
                row[c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "tile": f"r{r - dr}c{c - dc}"})
    for r in range(8):
        for c in range(8):
            for level in range(1, 5):
                for position in range(4):
                    for sure, mate_sure in ((0.5, 0.0), (0.3, 0.05), (0.9, 0.5)):
                        assert (tile_fits(rows, r, c, level, position, sure, mate_sure)
                                == tile_fits_reference(rows, r, c, level, position, sure, mate_sure))


def test_a_reads_middles_are_judged_without_a_copy():
    """_glyph_stats takes the measurements' middles and strips as views (their lead dimensions
    merge), and copies what is broadcast or does not merge."""
    planes = np.zeros((3, 6, 64, 25), np.float32)  # as GardenSampler.pixels lays a frame's middles out
    patch = np.moveaxis(planes, 0, -1)[1:].reshape(5, 8, 8, 5, 5, 3)
    flat = bg._flat(patch, (5, 8, 8), (5, 5, 3))
    assert flat.shape == (320, 5, 5, 3) and np.shares_memory(flat, planes)
    keep = np.ones((8, 8, 5, 5), bool)
    copied = bg._flat(keep, (5, 8, 8), (5, 5))
    assert copied.shape == (320, 5, 5) and not np.shares_memory(copied, keep) and copied.flags.c_contiguous
    odd = np.zeros((8, 5, 8, 5, 5, 3), np.float32).transpose(1, 0, 2, 3, 4, 5)  # lead does not merge
    assert not np.shares_memory(bg._flat(odd, (5, 8, 8), (5, 5, 3)), odd)


@pytest.mark.parametrize("shape", [(1, 1, 3), (1, 25, 3), (7, 4, 6), (2, 1, 6)])
def test_strided_copies_keep_the_values_and_are_never_contiguous(shape):
    a = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    for layout in (a, np.asfortranarray(a)):
        got = bg._strided(layout)
        assert np.array_equal(got, a) and not got.flags.c_contiguous and not got.flags.f_contiguous
    view = np.zeros((*shape[:-1], 2 * shape[-1] + 1), np.float32)[..., 1::2]
    assert bg._strided(view) is view


def pillar_twins_reference(observer, rows):
    """GardenObserver._pillar_twins as it was: np.hypot of the read pairs' tops, per read."""
    found = [(r, c, cell) for r, row in enumerate(rows) for c, cell in enumerate(row)
             if cell.label in (labels.PILLAR1, labels.PILLAR2)]
    if len(found) < 2:
        return rows, []
    out = [list(row) for row in rows]
    at = observer._pillar_px[[cell.attrs["level"] for _, _, cell in found], [r for r, _, _ in found],
                             [c for _, c, _ in found]]
    apart = (at[None, :, :] - at[:, None, :]).transpose(2, 0, 1)
    near = (np.hypot(apart[0], apart[1]) <= bg.GHOST_PX * observer._cell_px).tolist()
    twinned = []
    for i, (r, c, cell) in enumerate(found):
        twins = [o for j, (r2, c2, o) in enumerate(found) if (r2, c2) != (r, c)
                 and o.attrs["level"] != cell.attrs["level"] and near[i][j]]
        if not twins:
            continue
        twinned.append((r, c))
        if any(o.confidence > cell.confidence for o in twins) and cell.confidence > bg.GHOST_CAP:
            out[r][c] = replace(cell, confidence=bg.GHOST_CAP)
    return out, twinned


def test_pillar_twins_as_before():
    observer = bg.GardenObserver(region_geometry(camera_for(GAMES["babylon.garden"])))
    found = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        rows = random_rows(rng)
        got = observer._pillar_twins(rows)
        assert got == pillar_twins_reference(observer, rows)
        found += len(got[1])
    assert found > 0  # twins occur


def regroup_reference(rows: list[list[CellReading]], space_score: np.ndarray,
                       sure: float | None = None, moved_floor: float = 0.0) -> list[list[CellReading]]:
    """garden_tiles.regroup_footprints as it was (dicts and sets of cells)."""
    at_level = {(r, c): cell.attrs["level"] for r, row in enumerate(rows) for c, cell in enumerate(row)
                if cell.label == labels.TILE}
    # Plain floats, read a few hundred times below: only the levels spaces were read at.
    space_score = np.asarray(space_score)
    scores = {level: space_score[level].tolist() for level in set(at_level.values())}
    candidates: dict[tuple[int, int, int], float] = {}
    # Per cell not read as a tile: the highest level what it surely shows stands on (None: it rules
    # out no tile); a tile cannot lie over a piece standing lower than itself (made when asked).
    tops: dict[tuple[int, int], int | None] = {}
    for (r, c), level in at_level.items():
        level_scores = scores[level]
        for dr, dc in POSITIONS:
            tr, tc = r - dr, c - dc
            if not (0 <= tr <= 6 and 0 <= tc <= 6) or (tr, tc, level) in candidates:
                continue
            total = 0.0
            for i, (er, ec) in enumerate(POSITIONS):
                cell = (tr + er, tc + ec)
                if at_level.get(cell) == level:
                    value = level_scores[cell[0]][cell[1]][i]
                    total += 0.0 if value < 0.0 else value  # max(value, 0.0): NaN and -0.0 kept
                elif sure is not None:
                    if cell in tops:
                        top = tops[cell]
                    else:
                        top = tops[cell] = garden_tiles._surely_stands_on(rows[cell[0]][cell[1]], sure)
                    if top is not None and top < level:
                        total = -1.0
                        break
            candidates[(tr, tc, level)] = total
    out = [list(row) for row in rows]
    claimed: set[tuple[int, int]] = set()
    for (tr, tc, level), total in sorted(candidates.items(), key=lambda kv: -kv[1]):
        if total < 0:
            continue  # it cannot lie there
        for i, (er, ec) in enumerate(POSITIONS):
            r, c = tr + er, tc + ec
            if (r, c) in claimed or at_level.get((r, c)) != level:
                continue
            if scores[level][r][c][i] <= 0.0:
                continue  # no outline evidence for this place in the tile at all
            claimed.add((r, c))
            cell = out[r][c]
            if cell.attrs["tile"] != garden_tiles.tile_id(tr, tc):
                # Moved: its confidence was earned in its own footprint, so it is read no surer
                # than its outline evidence in the new one.
                out[r][c] = CellReading(cell.label, min(cell.confidence, max(scores[level][r][c][i], moved_floor)),
                                        {**cell.attrs, "tile": garden_tiles.tile_id(tr, tc)}, cell.alternatives)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_regroup_footprints_as_before(seed):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                dr, dc = POSITIONS[int(rng.integers(4))]
                row[c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "tile": f"r{r - dr}c{c - dc}"})
    space = awkward(rng, (6, 8, 8, 4), 16)
    for sure, floor in ((None, 0.0), (0.5, 0.45), (0.2, 0.0)):
        got = garden_tiles.regroup_footprints(rows, space, sure, floor)
        assert got == regroup_reference(rows, space, sure, floor)


def pool_flowers_reference(rows, dot_support, flowers):
    """garden_tiles.pool_flowers as it was: each corner's sums as plain floats, value by value."""
    groups = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    out = [list(row) for row in rows]
    for (_, level), cells in groups.items():
        support = [[0.0] * len(flowers) for _ in range(4)]
        for r, c in cells:
            for corner_sum, corner_dots in zip(support, np.asarray(dot_support(level, r, c)).tolist(), strict=True):
                for f, value in enumerate(corner_dots):
                    corner_sum[f] += value
        corner = garden_tiles._first_max([garden_tiles._running_sum(row) for row in support])
        flower = flowers[garden_tiles._first_max(support[corner])]
        for r, c in cells:
            cell = out[r][c]
            if cell.attrs["flower"] != flower:
                out[r][c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "flower": flower}, cell.alternatives)
    return out


@pytest.mark.parametrize("seed", range(12))
def test_pool_flowers_as_before(seed):
    rng = np.random.default_rng(seed)
    rows = random_rows(rng)
    for r, row in enumerate(rows):  # 2×2 tiles of a few ids, so that spaces pool
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                row[c] = CellReading(cell.label, cell.confidence,
                                     {**cell.attrs, "tile": f"r{r - r % 2}c{c - c % 2}", "flower": "flower0"})
    flowers = bg.FLOWER_CLASSES
    dots = np.abs(awkward(rng, (6, 8, 8, 4, len(flowers)), 1000))
    for table in (dots, dots.astype(np.float32)):
        first = lambda level, r, c, table=table: table[level, r, c]  # noqa: E731
        assert garden_tiles.pool_flowers(rows, first, flowers) == pool_flowers_reference(rows, first, flowers)
