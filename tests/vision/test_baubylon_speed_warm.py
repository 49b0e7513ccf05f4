"""The Baubylon observer's compiled loops are made ready when it is built: a read then compiles
nothing (the live loop's first read does not pay numba's compile or its cache's loading). And what
a read reuses instead of measuring again gives the numbers measuring again gives."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from companion.vision.observers import baubylon
from companion.vision.observers import baubylon_kernels as kernels
from tests.vision.bench_frames import bench_frame

pytestmark = pytest.mark.slow


def _compiled() -> dict[str, int]:
    """How many compiled versions each kernel of baubylon_kernels has."""
    return {name: len(value.signatures) for name, value in vars(kernels).items() if isinstance(value, CPUDispatcher)}


@pytest.fixture(scope="module")
def frame():
    return bench_frame("baubylon", 0, 3)  # the observer built: kernels.warm() has run


def test_a_read_after_the_observer_is_built_compiles_nothing(frame):
    _, image, observer = frame
    before = _compiled()
    assert before["block_scores"] and before["colour_support"]  # warmed, not merely imported
    observation = observer.observe(image)
    assert _compiled() == before
    assert observation.rows == 12


def test_a_second_look_judged_already_scores_as_judged_afresh(frame):
    _, image, observer = frame
    profile = observer.profile
    pawn_offsets = observer._learned_offsets(profile)[1]
    gains = observer._light_gains(image, profile)
    *_, look = observer._read_pawns(image, profile, pawn_offsets, gains)
    rng = np.random.default_rng(5)
    squares = rng.choice(len(look[0]), 40, replace=False)
    heights = rng.integers(0, observer.top, 40)
    grids = look[0][squares, heights]  # the first look's interiors at those pairs
    looked = baubylon._unlike_part(grids, gains[squares], profile)
    support = observer._grid_support(grids, gains[squares], profile, looked)
    judged = observer._partial_pawn_scores(image, profile, pawn_offsets, gains, squares, heights,
                                           judged=(grids, support, looked))
    afresh = observer._partial_pawn_scores(image, profile, pawn_offsets, gains, squares, heights)
    for got, want in zip(judged, afresh, strict=True):
        np.testing.assert_array_equal(got, want)
    assert judged[0].max() > 0.0  # some tops show
