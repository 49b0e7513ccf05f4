"""Baubylon history on a built field (bench baubylon.built, in play as the bench reads it): once
play has begun the field stays (baubylon.field), so a block height the frame reads less surely than
it was seen before gives way to the remembered one even where the frame reads it clearly."""

from __future__ import annotations

import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render

REGION, SEED, N = "baubylon.built", 1, 78  # (6, 3): a red pawn on an 8-high block, read 6 + 3 pawns at 0.52 from the frame
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def in_play():
    camera, calibrated = bench.bench_setup(REGION, SEED, N)
    layout, scene = bench.bench_scene(REGION, SEED, N)
    observer = bench.fitted_observer(calibrated, camera, layout, {})
    previous = None
    for k, (_, earlier) in enumerate(bench.bench_history(REGION, SEED, N)):
        previous = observer.observe(render(earlier, camera, seed=bench.HISTORY_SEEDS + N * 64 + k), previous=previous)
    return layout, previous, observer.observe(render(scene, camera, seed=N), previous=previous)


def test_a_block_seen_surely_before_play_outweighs_a_less_sure_clear_view(in_play):
    layout, previous, now = in_play
    cell = now.cell(6, 3)
    assert cell.attrs == layout.expected()[6][3][1] == {"height": 8, "pawns": ["red"]}
    assert cell.confidence <= 0.45  # the frame reads it otherwise: not sure
    assert cell.alternatives[0][1] == {"height": 6, "pawns": [None, None, "red"]}  # the frame's own reading kept
