"""The compiled kernels' float64 sum is numpy's own, bit for bit (the kernels' readings rest on it)."""

import numpy as np
import pytest

from companion.vision.observers.kernel_sums import pairwise_sum


@pytest.mark.parametrize("count", [0, 1, 2, 5, 7, 8, 9, 13, 15, 16, 17, 25, 40, 100, 128])
def test_pairwise_sum_is_numpys_sum_bit_for_bit(count):
    rng = np.random.default_rng(count)
    spread = rng.random(count + 3) * np.exp(rng.normal(0, 5, count + 3))  # magnitudes far apart
    tiny_to_large = rng.random(count + 3) * 10.0 ** rng.uniform(-8, 3, count + 3)
    for values in (spread, tiny_to_large):
        for start in (0, 3):
            assert pairwise_sum(values, start, count) == values[start:start + count].sum()
