"""class_support.ClassSupport (moved from garden_kernels_decide, which re-exports it) as Baubylon
uses it: the table's support among table and blocks, the profile's own numbers bit for bit, and
ready (compiled) once the observer is built."""

from __future__ import annotations

import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from companion.vision.observers import class_support as module
from companion.vision.observers import garden_kernels_decide
from companion.vision.observers.baubylon import BLOCK, TABLE
from companion.vision.observers.class_support import ClassSupport
from companion.vision.observers.common import class_support
from tests.vision.bench_frames import bench_frame


@pytest.fixture(scope="module")
def frame():
    return bench_frame("baubylon", 1, 7)


_KERNELS = ("whitened_d2", "support_arguments", "support_finish")


def _compiled() -> dict[str, int]:
    """How many compiled versions each of ClassSupport's kernels has."""
    kernels = {name: getattr(module, name) for name in _KERNELS}
    assert all(isinstance(value, CPUDispatcher) for value in kernels.values())
    return {name: len(value.signatures) for name, value in kernels.items()}


def test_the_garden_module_still_gives_the_same_class():
    assert garden_kernels_decide.ClassSupport is ClassSupport


def test_baubylon_table_support_is_the_profiles_bit_for_bit(frame):
    _, image, observer = frame
    profile = observer.profile
    features = observer._measure_blocks(image, profile, observer._learned_offsets(profile)[0])[0]
    assert features.shape == (12, 12, 6)
    want = class_support(profile, features, (TABLE, BLOCK))[TABLE]
    np.testing.assert_array_equal(observer._table_support(profile, features), want)
    assert 0.0 < want.min() < 0.5 < want.max()  # both table and blocks among the spaces
    # Rows near either class, far from both, and NaN: the same numbers too.
    rng = np.random.default_rng(3)
    means = np.stack([profile.classes[name].mean for name in (TABLE, BLOCK)])
    rows = np.concatenate([means[rng.integers(0, 2, 120)] + rng.normal(0, 5.0, (120, 6)),
                           rng.normal(50, 60, (23, 6)), np.full((1, 6), np.nan)]).reshape(12, 12, 6)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(observer._table_support(profile, rows),
                                      class_support(profile, rows, (TABLE, BLOCK))[TABLE])


def test_a_new_profile_gets_its_own_support(frame):
    _, image, observer = frame
    profile = observer.profile
    features = np.random.default_rng(4).normal(50, 20, (12, 12, 6))
    first = observer._table_support(profile, features)
    changed = type(profile)(profile.region, {**profile.classes, TABLE: profile.classes[BLOCK]})
    second = observer._table_support(changed, features)
    np.testing.assert_array_equal(second, class_support(changed, features, (TABLE, BLOCK))[TABLE])
    assert not np.array_equal(first, second)


def test_the_kernels_are_ready_once_the_observer_is_built(frame):
    _, image, observer = frame
    before = _compiled()
    assert all(before.values())
    observer.observe(image)
    assert _compiled() == before
