"""Baubylon: a pawn's outline is not a block's. Beyond some sides of a pawn's top its own side
faces show, so its outline crosses elsewhere than a block top's (in bench calibrations ~+0.3 px
outward against ~-0.25 px): the calibration learns where, per side facing, from its own pawns.
A frame from the vision benchmark's own variation (seed 2, frame 107) where a yellow pawn on the
table, in full view, was once lost to a tall stack read along the same ray on the space before it
(its square lands on the pawn's, a little larger: the pawn's outline, judged by the blocks', fit
worse)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.visibility import visible_share
from companion.vision.observers.baubylon import PAWN_OUTLINE, _pawn_offsets
from companion.vision.observers.stack_sampling import FACINGS, offset_table


@pytest.fixture(scope="module")
def setup():
    return bench.bench_setup("baubylon", 2, 107)


def test_the_calibration_learns_where_a_pawns_outline_crosses(setup):
    _, observer = setup
    profile = observer.profile
    pawns = offset_table(profile, PAWN_OUTLINE, np.full(3, np.nan, np.float32))
    blocks = offset_table(profile, "outline", np.full(3, np.nan, np.float32))
    learned = ~np.isnan(pawns)
    assert learned.sum() >= 2, dict(zip(FACINGS, pawns, strict=True))
    # Outward of a block top's, on every facing both show.
    both = learned & ~np.isnan(blocks)
    assert (pawns[both] > blocks[both] + 0.2).all(), (pawns, blocks)
    # A facing the calibration's pawns did not show takes the mean of those they did.
    offsets = _pawn_offsets(profile)
    assert np.allclose(offsets[learned], pawns[learned])
    assert np.allclose(offsets[~learned], np.nanmean(pawns))


def test_a_pawn_is_not_lost_to_a_stack_read_along_its_ray(setup):
    camera, observer = setup
    layout, scene = bench.bench_scene("baubylon", 2, 107)
    observation = observer.observe(render(scene, camera, seed=107))
    seen = visible_share(scene.regions[0], camera, layout.top_faces())
    expected = layout.expected()
    for r, c in ((6, 10), (5, 10)):  # the pawn, and the block the stack was read on
        assert seen[r, c] >= bench.VISIBLE
        assert observation.cell(r, c).attrs == expected[r][c][1], (r, c)
