"""Garden: a tile space whose own outline cannot show (a belvedere stands on the tile's open space
beside it, so the inner edges run into the belvedere, not into tile) still joins the tile its
sibling spaces show, when it shows that tile's colour and flower dot, in the tile's corner, at the
tile's height. Frames from the vision benchmark's own variation (camera, light, sensor), where the
space used to be read as a tile one level lower with a footprint of its own."""

from __future__ import annotations

import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision import labels

REGION = "babylon.garden"


@pytest.fixture(scope="module")
def setup():
    return bench.bench_setup(REGION, 2, 50)


@pytest.mark.parametrize(("frame", "cell"), [(50, (5, 6)), (51, (2, 7))])
def test_a_space_beside_a_belvedere_on_its_tile_joins_the_tile(setup, frame, cell):
    camera, observer = setup
    layout, scene = bench.bench_scene(REGION, 2, frame)
    observation = observer.observe(render(scene, camera, seed=frame))
    seen = visible_share(scene.regions[0], camera, layout.top_faces())
    expected = layout.expected()
    r, c = cell
    label, attrs = expected[r][c]
    assert label == labels.TILE and seen[r, c] >= bench.VISIBLE
    # The tile's open space (no pillar under it) carries a belvedere, beside this space.
    belvedere = [(rr, cc) for rr in range(8) for cc in range(8) if expected[rr][cc][0] == labels.BELVEDERE
                 and expected[rr][cc][1]["level"] == attrs["level"] and abs(rr - r) + abs(cc - c) == 1]
    assert belvedere
    assert (observation.cell(r, c).label, observation.cell(r, c).attrs) == (label, attrs)
    # The whole visible board is read right too (no space of another tile taken by the rule).
    wrong = [(rr, cc) for rr in range(8) for cc in range(8) if seen[rr, cc] >= bench.VISIBLE
             and (observation.cell(rr, cc).label, observation.cell(rr, cc).attrs) != expected[rr][cc]]
    assert wrong == []
