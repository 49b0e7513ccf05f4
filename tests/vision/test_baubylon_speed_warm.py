"""The Baubylon observer's compiled loops are made ready when it is built: a read then compiles
nothing (the live loop's first read does not pay numba's compile or its cache's loading)."""

from __future__ import annotations

import pytest
from numba.core.registry import CPUDispatcher

from companion.vision.observers import baubylon_kernels as kernels
from tests.vision.bench_frames import bench_frame


def _compiled() -> dict[str, int]:
    """How many compiled versions each kernel of baubylon_kernels has."""
    return {name: len(value.signatures) for name, value in vars(kernels).items() if isinstance(value, CPUDispatcher)}


@pytest.mark.slow
def test_a_read_after_the_observer_is_built_compiles_nothing():
    layout, image, observer = bench_frame("baubylon", 0, 3)  # built: kernels.warm() has run
    before = _compiled()
    assert before["block_scores"] and before["colour_support"]  # warmed, not merely imported
    observation = observer.observe(image)
    assert _compiled() == before
    assert observation.rows == 12
