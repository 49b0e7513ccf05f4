"""The Baubylon read (and stack_sampling's shared steps) take cheaper paths than plain numpy: sums
and distances channel by channel or side by side, medians by one sort, a greedy pick looped over
the few that meet. Each must give the very same numbers as the plain formulation it replaced, so
readings do not change with the speed work."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.appearance import AppearanceProfile
from companion.vision.observers import baubylon, stack_sampling
from companion.vision.observers.stack_sampling import ProbeSamples
from tests.vision.libm import libm_exp

RNG = np.random.default_rng(11)


def _lab(shape) -> np.ndarray:
    return np.stack([RNG.uniform(10, 95, shape), RNG.uniform(-50, 50, shape), RNG.uniform(-50, 50, shape)],
                    axis=-1).astype(np.float32)


def _plain_outline(samples: ProbeSamples, reference: np.ndarray):
    """stack_sampling.outline as it was written first (einsum, take_along_axis)."""
    a = samples.across
    d = a - np.asarray(reference, np.float32)[:, :, None, None, None, :]
    p = np.sqrt(np.einsum("...c,...c->...", d, d))
    lo, hi = p[..., 0], p[..., -1]
    half = 0.5 * (lo + hi)
    first = np.clip(np.argmax(p >= half[..., None], axis=-1), 1, p.shape[-1] - 1)
    before = np.take_along_axis(p, (first - 1)[..., None], axis=-1)[..., 0]
    after = np.take_along_axis(p, first[..., None], axis=-1)[..., 0]
    frac = np.clip((half - before) / np.maximum(after - before, 1e-6), 0.0, 1.0)
    offsets = np.asarray(samples.offsets, np.float32)
    crossing = offsets[first - 1] + frac * (offsets[first] - offsets[first - 1])
    centre = len(samples.offsets) // 2
    return crossing, hi - lo, lo, hi, p[..., centre - 1 : centre + 2].max(axis=-1)


@pytest.mark.parametrize("offsets", [(-2.0, -1.0, 0.0, 1.0, 2.0), stack_sampling.ACROSS_PX])
def test_outline_matches_the_plain_formulation(offsets):
    across = _lab((30, 4, 4, 4, len(offsets)))
    across[..., len(offsets) // 2 + 1 :, :] += 25.0  # an outline past the middle on most probes
    samples = ProbeSamples(np.zeros((30, 4, 0, 3), np.float32), across, offsets)
    reference = _lab((30, 4))
    lines = stack_sampling.outline(samples, reference)
    for fast, plain in zip((lines.crossing, lines.step, lines.inside, lines.outside, lines.middle),
                           _plain_outline(samples, reference), strict=True):
        np.testing.assert_array_equal(fast, plain)
        assert fast.dtype == plain.dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("count", [3, 4, 5])
def test_along_side_matches_sum_less_best_and_worst(dtype, count):
    score = RNG.random((50, 4, 4, count)).astype(dtype)
    plain = (score.sum(axis=-1) - score.max(axis=-1) - score.min(axis=-1)) / (count - 2)
    np.testing.assert_array_equal(stack_sampling.along_side(score), plain)


@pytest.mark.parametrize("count", [1, 2, 9, 16])
def test_small_median_is_np_median(count):
    grid = _lab((40, 3, count))
    np.testing.assert_array_equal(stack_sampling.small_median(grid), np.median(grid, axis=-2))
    np.testing.assert_array_equal(stack_sampling.robust_features(grid)[..., 3:],
                                  1.4826 * np.median(np.abs(grid - np.median(grid, axis=-2)[..., None, :]), axis=-2))


def test_rebalance_and_unit_lab_match_the_plain_conversions():
    lab = _lab((60, 9))
    gains = RNG.uniform(0.6, 1.6, (60, 1, 3)).astype(np.float32)
    plain = stack_sampling.to_lab(stack_sampling.lab_to_bgr(lab) * gains)
    np.testing.assert_array_equal(stack_sampling.rebalance_each(lab, gains), plain)
    raw = RNG.integers(0, 256, (500, 3), dtype=np.uint8)
    np.testing.assert_array_equal(stack_sampling.unit_lab(raw),
                                  stack_sampling.to_lab(raw.astype(np.float32) * np.float32(1.0 / 255.0)))


def _profile() -> AppearanceProfile:
    samples = {}
    for name in (baubylon.TABLE, baubylon.BLOCK, *baubylon.PAWN_CLASSES):
        centre = _lab((1,))[0]
        samples[name] = [np.concatenate([centre + RNG.normal(0, 3, 3), RNG.uniform(1, 3, 3)]) for _ in range(12)]
    return AppearanceProfile.learn(baubylon.BAUBYLON.region, samples)


def test_colour_support_and_unlikeness_match_einsum_and_norm():
    profile = _profile()
    classes = (baubylon.TABLE, baubylon.BLOCK, *baubylon.PAWN_CLASSES)
    lab = _lab((300,))
    names, means, whiten, logdet = baubylon._colour_model(profile, classes)
    y = np.einsum("ncf,cfg->ncg", np.asarray(lab, np.float64)[..., None, :] - means, whiten)
    d2 = np.einsum("ncg,ncg->nc", y, y)
    loglik = -0.5 * d2 + logdet
    post = libm_exp(loglik - loglik.max(axis=-1, keepdims=True))  # the kernel's exp: the C library's
    post /= post.sum(axis=-1, keepdims=True)
    plain = post * libm_exp(-np.maximum(0.0, d2 - baubylon._TYPICAL_D2_COLOUR) / 10.0)
    fast = baubylon.colour_support(profile, lab, classes)
    for k, name in enumerate(names):
        np.testing.assert_array_equal(fast[name], plain[:, k])
    seen = _lab((20, 13))
    unlike = np.minimum(np.linalg.norm(seen - profile.classes[baubylon.TABLE].mean[:3], axis=-1),
                        np.linalg.norm(seen - profile.classes[baubylon.BLOCK].mean[:3], axis=-1))
    np.testing.assert_array_equal(baubylon._unlike_table_and_blocks(seen, profile), unlike)


def test_first_in_place_keeps_what_the_greedy_loop_kept():
    for _ in range(50):
        count = int(RNG.integers(2, 40))
        near = RNG.random((count, count)) < RNG.uniform(0.02, 0.3)
        plain_near = near.copy()
        np.fill_diagonal(plain_near, False)
        kept = np.ones(count, bool)
        for n in np.flatnonzero(plain_near.any(axis=1)):
            if (plain_near[n, :n] & kept[:n]).any():
                kept[n] = False
        np.testing.assert_array_equal(baubylon._first_in_place(near), kept)
    points = RNG.uniform(0, 1280, (30, 2))
    np.testing.assert_array_equal(baubylon._apart(points),
                                  np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1))
    sides = RNG.random((12, 12, 5, 4))
    np.testing.assert_array_equal(baubylon._sum_sides(sides), sides.sum(axis=-1))
