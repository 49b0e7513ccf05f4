"""The Baubylon read's compiled kernels (observers/baubylon_kernels.py) give the very numbers of
the numpy code they stand in for, on random inputs and on edge cases (empty, one element, NaN), so
readings do not change with the speed work."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.boards import BAUBYLON
from companion.vision.observers import baubylon_kernels as kernels
from companion.vision.observers.baubylon_speed import block_outline_terms
from companion.vision.observers.stack_sampling import (
    Outline,
    ProbeSamples,
    along_side,
    outline,
    seam_evidence,
)

RNG = np.random.default_rng(61)
OFFSETS = (-2.0, -1.0, 0.0, 1.0, 2.0)


def _lab(shape) -> np.ndarray:
    return np.stack([RNG.uniform(10, 95, shape), RNG.uniform(-50, 50, shape), RNG.uniform(-50, 50, shape)],
                    axis=-1).astype(np.float32)


def _block_samples(spaces: int, heights: int = 4, positions: int = 4, offsets=OFFSETS):
    """Samples across block tops' sides (S, K, 4, P, O, 3) and one colour per space (S, 3), some
    faces like their colour inside (so the likeness terms are not all ~0)."""
    across = _lab((spaces, heights, 4, positions, len(offsets)))
    reference = _lab((spaces,))
    inner = len(offsets) // 2
    across[::3, :, :, :, :inner] = (reference[::3, None, None, None, None, :]
                                    + RNG.normal(0, 3, (1, 1, 1, 1, inner, 3)).astype(np.float32))
    return across, reference


def _plain_terms(across, reference, offsets, expected, alike_scale):
    """outline() then Outline.evidence, seam_evidence and the two likeness terms, along each side,
    with a zero table level in front: (4, S, K + 1, 4)."""
    samples = ProbeSamples(np.zeros((*across.shape[:2], 0, 3), np.float32), across, offsets)
    reference = np.broadcast_to(reference[:, None, :], (*across.shape[:2], 3))
    lines = outline(samples, reference)
    plain = Outline(lines.crossing, lines.step, lines.inside, lines.outside, lines.middle)
    terms = (plain.evidence(expected), seam_evidence(plain),
             along_side(np.exp(-((plain.inside / alike_scale) ** 2) - (plain.outside / alike_scale) ** 2)),
             along_side(plain.inside_like(alike_scale)))
    out = np.zeros((4, across.shape[0], across.shape[1] + 1, 4), np.float32)
    for index, term in enumerate(terms):
        out[index, :, 1:] = term
    return out


@pytest.mark.parametrize("alike_scale", [15.0, 9.0])
def test_block_outline_terms_are_outline_then_the_fused_terms(alike_scale):
    across, reference = _block_samples(BAUBYLON.rows * BAUBYLON.cols)
    expected = RNG.uniform(-0.5, 0.5, across.shape[:3]).astype(np.float32)
    got = kernels.block_outline_terms(across, reference, OFFSETS, expected, alike_scale, BAUBYLON.rows, BAUBYLON.cols)
    samples = ProbeSamples(np.zeros((*across.shape[:2], 0, 3), np.float32), across, OFFSETS)
    lines = outline(samples, np.broadcast_to(reference[:, None, :], (*across.shape[:2], 3)))
    want = block_outline_terms(lines, expected, alike_scale)  # the numpy path the kernel replaced
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype == np.float32 and g.shape == w.shape
        np.testing.assert_array_equal(g, w)
    assert got[0].max() > 0.1 and got[1].max() > 0.0 and got[3].max() > 0.1  # not all ~0


@pytest.mark.parametrize(("spaces", "positions", "offsets"), [
    (1, 4, OFFSETS),  # one space
    (3, 1, OFFSETS),  # one position: along_side's mean
    (2, 2, OFFSETS),
    (2, 5, (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)),  # seven offsets, five positions
    (0, 4, OFFSETS),  # nothing
])
def test_block_outline_terms_on_other_shapes(spaces, positions, offsets):
    across, reference = _block_samples(spaces, positions=positions, offsets=offsets)
    expected = RNG.uniform(-1, 1, across.shape[:3]).astype(np.float32)
    got = np.stack(kernels.block_outline_terms(across, reference, offsets, expected, 15.0, 1, spaces))
    np.testing.assert_array_equal(got.reshape(4, spaces, across.shape[1] + 1, 4), _plain_terms(across, reference, offsets, expected, 15.0))


def test_block_outline_terms_carry_nan_as_numpy_does():
    across, reference = _block_samples(6)
    across[0, 0, 0, 0, 0, 0] = np.nan  # the inside of one position
    across[1, 1, 2, :, 4, 1] = np.nan  # the outside of a whole side
    across[2, 0, 1, 3, 2, 2] = np.nan  # the middle of one position
    reference[3, 0] = np.nan  # a whole space
    expected = RNG.uniform(-1, 1, across.shape[:3]).astype(np.float32)
    got = np.stack(kernels.block_outline_terms(across, reference, OFFSETS, expected, 15.0, 2, 3))
    want = _plain_terms(across, reference, OFFSETS, expected, 15.0)
    assert np.isnan(want).any()
    np.testing.assert_array_equal(got.reshape(want.shape), want)  # NaN where numpy has NaN
