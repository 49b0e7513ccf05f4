"""The Baubylon light fit's compiled loop (baubylon_light_kernels.tilt_scores) counts what the
numpy formulation it replaced counts, on random places and tilts and on edge cases."""

from __future__ import annotations

import numpy as np

from companion.vision.observers import baubylon_light
from companion.vision.observers.baubylon_light_kernels import tilt_scores


def numpy_scores(brightness, dx, dy, unhidden, level, tx, ty, tolerance, above, penalty):
    """The numpy formulation (as baubylon_light._best_tilt first had it)."""
    planes = level + tx[:, None] * dx + ty[:, None] * dy
    relative = brightness / np.maximum(planes, 1e-3)
    return ((np.abs(relative - 1.0) < tolerance).sum(axis=1)
            - penalty * ((relative > 1.0 + above) & unhidden).sum(axis=1))


def _case(rng, places, tilts, level=1.0):
    brightness = level * rng.uniform(0.5, 1.4, places)
    dx, dy = rng.uniform(-1.2, 1.2, places), rng.uniform(-0.8, 0.8, places)
    unhidden = rng.random(places) < 0.4
    tx, ty = rng.uniform(-0.4, 0.4, tilts), rng.uniform(-0.4, 0.4, tilts)
    return brightness, dx, dy, unhidden, level, tx, ty


def test_the_compiled_scores_are_numpys_on_random_places():
    rng = np.random.default_rng(11)
    for places, tilts, level in ((150, 121, 1.0), (37, 169, 0.8), (300, 7, 1.3)):
        args = _case(rng, places, tilts, level)
        expected = numpy_scores(*args, 0.04, 0.06, 3.0)
        assert np.array_equal(tilt_scores(*args, 0.04, 0.06, 3.0), expected)
        assert expected.max() > expected.min()  # the cases tell tilts apart


def test_the_scores_on_the_actual_grid_of_a_fit():
    """Places on a plane (all agree with it) and the planes of the fit's own coarse grid."""
    rng = np.random.default_rng(3)
    dx, dy = rng.uniform(-1, 1, 90), rng.uniform(-0.6, 0.6, 90)
    brightness = 1.05 + 0.1 * dx - 0.05 * dy
    unhidden = dy > 0.3
    steps = np.arange(-0.3, 0.3 + 1e-9, 0.06)
    tx, ty = (grid.ravel() for grid in np.meshgrid(steps, steps, indexing="ij"))
    args = (brightness, dx, dy, unhidden, 1.05, np.ascontiguousarray(tx), np.ascontiguousarray(ty))
    assert np.array_equal(tilt_scores(*args, 0.04, 0.06, 3.0), numpy_scores(*args, 0.04, 0.06, 3.0))


def test_edge_cases_none_one_nan_and_a_plane_below_zero():
    one = np.ones(1)
    none = np.zeros(0)
    # No places: every tilt scores 0; no tilts: no scores.
    assert np.array_equal(tilt_scores(none, none, none, np.zeros(0, bool), 1.0, one, one, 0.04, 0.06, 3.0), [0.0])
    assert tilt_scores(one, one, one, np.ones(1, bool), 1.0, none, none, 0.04, 0.06, 3.0).shape == (0,)
    # One place, NaN brightness (counts nowhere, as in numpy), a plane clipped at 1e-3.
    for brightness, level, t in ((1.0, 1.0, 0.0), (np.nan, 1.0, 0.1), (0.0005, -2.0, 0.0), (1.2, 1.0, 0.0)):
        args = (np.array([brightness]), one, one, np.ones(1, bool), level, np.array([t]), np.array([t]))
        assert np.array_equal(tilt_scores(*args, 0.04, 0.06, 3.0), numpy_scores(*args, 0.04, 0.06, 3.0))


def test_warm_compiles_the_types_a_read_passes():
    baubylon_light.warm()
    signatures = set(tilt_scores.signatures)
    rng = np.random.default_rng(0)
    ratio = np.repeat(rng.uniform(0.97, 1.03, (40, 1)), 3, axis=1)  # the table, lit, of the light's hue
    design = np.column_stack([np.ones(40), rng.uniform(-1, 1, 40), rng.uniform(-0.5, 0.5, 40)])
    unhidden = np.arange(40) < 15
    assert baubylon_light.lit_table_plane(ratio, design, np.ones(40, bool), unhidden) is not None
    assert set(tilt_scores.signatures) == signatures
