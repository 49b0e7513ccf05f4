"""Baubylon history, renderer to observer: a field seen empty, then pawns on it, is read right with
history where the frame alone misreads it; a pawn that moves is read where it now is."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.benchmarking import vision as bench
from companion.sim.boards import BaubylonLayout
from companion.sim.render import render
from companion.vision.observers.baubylon_history import FIELD

from .bench_frames import bench_frame, bench_seen, sure_and_wrong, visible_and_wrong

SEED, N = 1, 37  # bench frame 37 of seed 1: (10, 6), a 4-high block, read as table from that frame alone
pytestmark = pytest.mark.slow


def _render(layout: BaubylonLayout, seed: int):
    _, scene = bench.bench_scene("baubylon", SEED, N)
    return render(replace(scene, regions=(layout.region_scene(),)), bench.bench_camera("baubylon", SEED, N), seed=seed)


@pytest.fixture(scope="module")
def read():
    layout, image, observer = bench_frame("baubylon", SEED, N)
    empty = BaubylonLayout(tuple(tuple((h, ()) for h, _ in row) for row in layout.cells))
    field = observer.observe(_render(empty, 7))  # baubylon.field: built before the pawns come
    return layout, image, observer, field, observer.observe(image, previous=field)


def test_the_field_seen_before_the_pawns_reads_a_block_the_frame_alone_misses(read):
    layout, image, observer, field, in_play = read
    expected, seen = layout.expected(), bench_seen("baubylon", SEED, N, layout)
    assert visible_and_wrong(observer.observe(image), expected, seen) == [(10, 6)]  # the frame alone
    assert visible_and_wrong(in_play, expected, seen) == []
    assert sure_and_wrong(in_play, expected) == []
    cell = in_play.cell(10, 6)
    assert cell.attrs == {"height": 4, "pawns": []}
    assert cell.confidence <= field.cell(10, 6).confidence  # no surer than what was seen
    assert cell.alternatives[0][1] == {"height": 0, "pawns": []}  # the frame's own reading kept
    assert len(in_play.extras[FIELD]) == 144  # the field carried on to the next read


def test_without_history_the_reading_is_the_frames_own(read):
    _, image, observer, _, _ = read
    assert observer.observe(image, previous=None) == observer.observe(image)


def test_a_pawn_that_moves_is_read_gone_and_where_it_went(read):
    layout, _, observer, _, in_play = read
    expected = layout.expected()
    # a lone pawn the frame reads surely, moved to a bare table space it also reads surely (baubylon.move)
    start = next((r, c) for r in range(12) for c in range(12)
                 if len(layout.cells[r][c][1]) == 1 and in_play.cell(r, c).confidence > 0.8
                 and in_play.cell(r, c).attrs == expected[r][c][1])
    goal = next((r, c) for r in range(12) for c in range(12)
                if layout.cells[r][c] == (0, ()) and in_play.cell(r, c).confidence > 0.8 and abs(r - start[0]) > 2)
    cells = [list(row) for row in layout.cells]
    pawn = cells[start[0]][start[1]][1]
    cells[start[0]][start[1]] = (cells[start[0]][start[1]][0], ())
    cells[goal[0]][goal[1]] = (0, pawn)
    moved = BaubylonLayout(tuple(tuple(row) for row in cells))
    after = observer.observe(_render(moved, 11), previous=in_play)
    assert after.cell(*start).attrs == {"height": layout.cells[start[0]][start[1]][0], "pawns": []}
    assert after.cell(*goal).attrs == {"height": 0, "pawns": list(pawn)}
