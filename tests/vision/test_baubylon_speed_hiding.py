"""Which tops a taller stand nearer the camera may hide (BaubylonObserver._taller_in_front,
compiled: baubylon_kernels.taller_in_front) is what the hiding tables and the near sides say in
numpy (_any_hides over the stands nearer and taller, _beside's neighbours on the sides facing the
camera): the same booleans, so _behind_taller and the second look at partly hidden pawns read as
before."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera import region_geometry
from companion.vision.boards import BAUBYLON
from companion.vision.observers import baubylon
from tests.sim.helpers import GAMES, camera_for

SPACES = BAUBYLON.rows * BAUBYLON.cols


def _plain(observer, own: np.ndarray, stands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The numpy formulation (as _behind_taller and _partly_hidden_pawns had it)."""
    beside = stands[observer.hiding_other]
    taller = observer.hiding_nearer & (beside > own[:, None])
    middle = observer._any_hides(own, beside, taller)
    part = observer._any_hides(own, beside, taller, observer._hiding_part_flat)
    beyond = baubylon._beside(stands.reshape(BAUBYLON.rows, BAUBYLON.cols)).reshape(-1, 4)
    part |= ((observer.facing.reshape(-1, 4) > 0) & (beyond > own[:, None])).any(axis=-1)
    return middle, part


@pytest.mark.parametrize(("tilt", "azimuth"), [(30.0, -60.0), (15.0, 170.0)])
def test_taller_in_front_is_the_tables_and_the_near_sides(tilt, azimuth):
    game = GAMES["baubylon"]
    observer = game.observer(region_geometry(camera_for(game, tilt=tilt, azimuth=azimuth)))
    rng = np.random.default_rng(int(tilt))
    hidden = 0
    for trial in range(40):
        stands = rng.integers(0, observer.top + 1, SPACES) * (rng.random(SPACES) < 0.1 + trial / 50)
        own = stands if trial % 2 else np.minimum(rng.integers(0, 9, SPACES) + 1, observer.top)
        middle, part = observer._taller_in_front(own, stands)
        plain_middle, plain_part = _plain(observer, own, stands)
        np.testing.assert_array_equal(middle, plain_middle)
        np.testing.assert_array_equal(part, plain_part)
        hidden += int(middle.sum())
        tops = stands.reshape(BAUBYLON.rows, BAUBYLON.cols)
        np.testing.assert_array_equal(observer._behind_taller(tops), _plain(observer, stands, stands)[1].reshape(tops.shape))
    assert hidden > 0  # (stands tall enough to hide a middle were drawn)
