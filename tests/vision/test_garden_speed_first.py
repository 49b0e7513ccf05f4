"""The garden's first readings made for all 64 cells at once (garden_kernels_first, the observer's
_first_readings) are _reading's, number for number, and the candidates the rules look at later
are the ones the per-cell loop made."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import labels
from companion.vision.observers import babylon_garden as bg
from companion.vision.observers.garden_kernels_first import first_readings
from companion.vision.observers.garden_speed_candidates import candidate_order

from .bench_frames import bench_frame
from .fresh_process import printed_in_fresh_process

TIE_FLOOR = bg.RECESS_TIE_FLOOR


def per_cell_loop(scores, order, best_tile, columns):
    """The per-cell loop the arrays replace (babylon_garden before this sitting): each cell's
    candidate columns best first, all of them (not only the first 6)."""
    out = []
    for i in range(len(scores)):
        cell = scores[i].tolist()
        top = [j for j in order[i].tolist() if cell[j] > -math.inf]
        if (columns.label[top[0]] == labels.RECESS and columns.label[top[1]] == "deco"
                and cell[top[1]] >= max(TIE_FLOOR, cell[top[0]] - 0.05)):
            top.insert(0, top.pop(1))
        if columns.label[top[0]] == labels.TILE:
            chosen = int(best_tile[i])
            top = [chosen, *(j for j in top if j != chosen)]
        out.append(top)
    return out


def random_scores(rng, columns, cells=64):
    """Scores with ties (coarse steps), -inf for a position a tile cannot take, recesses and
    decorations close together (their swap) and tiles first (their siblings' choice)."""
    scores = np.round(rng.uniform(-0.2, 1.2, (cells, len(columns.label))) * 8) / 8
    scores[rng.random(scores.shape) < 0.15] = -np.inf
    scores[:, 0] = np.where(rng.random(cells) < 0.5, 0.9, scores[:, 0])
    deco = np.flatnonzero(np.array(columns.label) == "deco")
    scores[np.arange(cells), rng.choice(deco, cells)] = np.where(rng.random(cells) < 0.4, 0.88, -0.1)
    tiles = columns.tile
    lift = rng.random(cells) < 0.4
    scores[np.flatnonzero(lift), rng.choice(tiles, cells)[lift]] = 1.5
    best_tile = rng.choice(tiles, cells)
    order = np.argsort(-scores, axis=1, kind="stable")[:, : bg.TOP_CANDIDATES]
    return scores, order, best_tile


@pytest.fixture(scope="module")
def columns():
    return bg._CandidateColumns.of([1, 2, 3, 4, 5])


def kernel_order(scores, order, best_tile, columns):
    cells, width = order.shape
    out = [np.empty((cells, width + 1), np.int64), *(np.empty(cells, np.int64) for _ in range(2)),
           np.empty(cells), np.empty(cells, np.int64), np.empty(cells)]
    post = np.zeros((6, 8, 8, 3))
    first_readings(scores, order, best_tile, columns.kind, columns.group, columns.level, columns.position, TIE_FLOOR,
                   0.05, post, np.array([0, 1]), post[1:], np.array([0, 1, 2]), np.array([0, 1]),
                   np.zeros((6, 8, 8, 4, 4)), *out)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_candidates_are_ordered_as_the_per_cell_loop_ordered_them(columns, seed):
    rng = np.random.default_rng(seed)
    scores, order, best_tile = random_scores(rng, columns)
    loop = per_cell_loop(scores, order, best_tile, columns)
    reference = candidate_order(scores, order, best_tile, columns.kind, columns.group, TIE_FLOOR)
    compiled, count, runner = kernel_order(scores, order, best_tile, columns)[:3]
    for i, top in enumerate(loop):
        assert reference.columns[i, : reference.count[i]].tolist() == top
        assert compiled[i, : count[i]].tolist() == top
        assert (compiled[i, count[i]:] == -1).all()
        # The runner-up: the first of another kind or level.
        kinds = [(columns.label[j], columns.level[j]) for j in top]
        expected = next((j for j, k in zip(top[1:], kinds[1:], strict=True) if k != kinds[0]), -1)
        assert runner[i] == reference.runner[i] == expected
    # The cases the orders exist for occur: a decoration swapped before the recess, a chosen tile
    # moved to the front and one put there from outside the best few.
    firsts = [columns.label[top[0]] for top in loop]
    assert "deco" in firsts and labels.TILE in firsts
    assert any(len(top) == bg.TOP_CANDIDATES + 1 for top in loop)


def test_confidence_is_pythons_to_the_last_bit(columns):
    # Best score and margin over the ranges and edges a read meets: math.exp's numbers (64 cells
    # a call, as a read makes; the best a recess, the runner-up a level-2 pillar or none).
    rng = np.random.default_rng(11)
    edges = [(0.0, 0.0), (-0.0, 0.0), (1.0, 0.0), (1e-300, 0.0), (0.15, 0.0), (2.0, 1e-12), (0.5, np.inf)]
    for batch in range(40):
        scores = np.full((64, len(columns.label)), -np.inf)
        best = rng.uniform(-0.5, 1.5, 64)
        margin = rng.exponential(0.2, 64)
        if batch == 0:
            best[: len(edges)], margin[: len(edges)] = np.array(edges).T
        scores[:, 0], scores[:, 8] = best, best - margin  # column 8: the pillar at level 2
        order = np.argsort(-scores, axis=1, kind="stable")[:, : bg.TOP_CANDIDATES]
        ranked, _, runners, confidence = kernel_order(scores, order, np.zeros(64, np.int64), columns)[:4]
        for i in range(64):
            assert ranked[i, 0] == 0
            b = float(scores[i, 0])
            second = float(scores[i, 8]) if scores[i, 8] > -np.inf else 0.0
            expected = min(max(b, 0.0), 1.0) * (1.0 - math.exp(-max(b - second, 0.0) / 0.15))
            assert runners[i] == (8 if scores[i, 8] > -np.inf else -1)
            assert confidence[i] == expected


@pytest.fixture(scope="module")
def read():
    """A bench frame's read, with the arrays the first readings were made from."""
    _, image, observer = bench_frame("babylon.garden", 0, 3)
    made = {}
    original = observer._first_readings

    def keep(*args):
        made["args"] = args
        made["rows"] = original(*args)
        lazy = observer.last_candidates  # as made, before any rule reorders a cell's
        made["candidates"] = bg._LazyCandidates(lazy.columns, lazy.count, lazy.scores, lazy._meta)
        return made["rows"]

    observer._first_readings = keep
    observer.observe(image)
    del observer._first_readings
    return observer, made


def full_candidates(scores, order, best_tile, columns):
    return [[bg._Candidate(float(scores[i, j]), *columns.meta[j]) for j in top]
            for i, top in enumerate(per_cell_loop(scores, order, best_tile, columns))]


def test_first_readings_are_readings_of_each_cells_candidates(read):
    observer, made = read
    scores, order, best_tile, meas, post = made["args"]
    cands = full_candidates(scores, order, best_tile, observer._columns)
    kinds = set()
    for i, cell_cands in enumerate(cands):
        r, c = divmod(i, 8)
        expected = observer._reading(cell_cands, meas, post, r, c)
        got = made["rows"][r][c]
        assert got == expected  # label, attrs, alternatives and confidence, bitwise
        assert repr(got.alternatives) == repr(expected.alternatives)
        kinds.add(got.label)
    assert {labels.RECESS, labels.TILE} <= kinds


def test_first_readings_match_reading_on_random_supports(read):
    # Every branch of _reading (pillar single or double, each decoration, tile flowers and icons)
    # on supports drawn at random, with ties.
    observer, made = read
    _, _, _, meas, post = made["args"]
    rng = np.random.default_rng(3)
    for _ in range(4):
        scores, order, best_tile = random_scores(rng, observer._columns)
        fake = dict(post)
        for key in ("pillar", "deco", "dots", "glyph_share", "glyph"):
            fake[key] = np.round(rng.uniform(0, 1, post[key].shape) * 4) / 4
        fake["glyph_share"] = rng.uniform(0, 0.4, post["glyph_share"].shape)
        rows = observer._first_readings(scores, order, best_tile, meas, fake)
        for i, cell_cands in enumerate(full_candidates(scores, order, best_tile, observer._columns)):
            r, c = divmod(i, 8)
            expected = observer._reading(cell_cands, meas, fake, r, c)
            assert rows[r][c] == expected
            assert repr(rows[r][c].alternatives) == repr(expected.alternatives)


def test_the_rules_see_each_cells_best_six_candidates(read):
    observer, made = read
    scores, order, best_tile, _, _ = made["args"]
    cands = full_candidates(scores, order, best_tile, observer._columns)
    lazy = made["candidates"]
    for i, cell_cands in enumerate(cands):
        r, c = divmod(i, 8)
        # Asked before they are made and after: the same answer as the tuples give.
        for label in ("deco", "pillar", labels.TILE):
            for floor in (0.0, 0.3, TIE_FLOOR):
                expected = any(k.label == label and k.score >= floor for k in cell_cands[:6][1:])
                assert bg._any_behind(lazy, r, c, label, floor) == expected
        assert lazy[(r, c)] == cell_cands[:6]
        assert all(type(k) is bg._Candidate for k in lazy[(r, c)])
        assert bg._any_behind(lazy, r, c, "deco", TIE_FLOOR) == any(
            k.label == "deco" and k.score >= TIE_FLOOR for k in cell_cands[1:6])
    with pytest.raises(KeyError):
        lazy[(8, 0)]


_FRESH_PROCESS = """
import numpy as np
from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision.observers import garden_kernels_first as first, garden_kernels_flowers as flowers
from companion.vision.observers.babylon_garden import GardenObserver
from tests.sim.helpers import GAMES, camera_for
from tests.vision.garden_decide_helpers import decisions_profile
camera = camera_for(GAMES["babylon.garden"])
observer = GardenObserver(region_geometry(camera), decisions_profile(2))
ready = [list(k.signatures) for k in (first.first_readings, flowers.corner_means)]
tables = observer._seen_dots
frame = render(TableScene((garden.region_scene(garden.random_layout(np.random.default_rng(3))),)), camera, seed=1)
observer.observe(frame)
print(all(ready), ready == [list(k.signatures) for k in (first.first_readings, flowers.corner_means)],
      observer._seen_dots is tables)
"""


@pytest.mark.slow
def test_a_made_observer_reads_without_compiling_or_building_tables():
    # In a fresh process (kernels compiled by other tests here would hide a missing warm-up): the
    # first readings' and the dots' kernels are compiled for the live read's types when the
    # observer is made, and the dots' per-geometry tables are made then too.
    assert printed_in_fresh_process(_FRESH_PROCESS) == ["True", "True", "True"]


def test_cells_behind_are_the_cells_any_behind_finds(read):
    observer, made = read
    scores, order, best_tile, meas, post = made["args"]
    observer._first_readings(scores, order, best_tile, meas, post)
    for lazy in (observer.last_candidates, bg._LazyCandidates(observer.last_candidates.columns,
                                                              observer.last_candidates.count,
                                                              observer.last_candidates.scores, observer._columns.meta)):
        plain = {key: lazy[key] for key in [(r, c) for r in range(8) for c in range(8)]}
        for label, floor in (("deco", TIE_FLOOR), ("deco", 0.0), (labels.TILE, 0.2), ("pillar", 0.1)):
            fresh = bg._LazyCandidates(lazy.columns, lazy.count, lazy.scores, lazy._meta, lazy._arrays)
            expected = {(r, c) for r in range(8) for c in range(8) if bg._any_behind(plain, r, c, label, floor)}
            assert bg._cells_behind(fresh, label, floor) == expected == bg._cells_behind(plain, label, floor)
        assert bg._cells_behind(fresh, "deco", 0.0)  # some cell has a decoration behind its first
    # A cell a rule reordered answers from its own order: its first moved behind, and back.
    fresh = bg._LazyCandidates(lazy.columns, lazy.count, lazy.scores, lazy._meta, lazy._arrays)
    r, c = next(divmod(i, 8) for i in range(64) if lazy.count[i] >= 2)
    cands = fresh[(r, c)]
    fresh[(r, c)] = [cands[1], cands[0], *cands[2:]]
    for floor in (0.0, 0.5):
        want = any(k.label == cands[0].label and k.score >= floor for k in fresh[(r, c)][1:])
        assert ((r, c) in bg._cells_behind(fresh, cands[0].label, floor)) == want
