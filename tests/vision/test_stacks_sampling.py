"""Edge probes of stack_sampling: where an outline crosses, to a fraction of a pixel, and the small
helpers the stack observers build on (light gains from a known surface, the per-side average)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.appearance import AppearanceProfile
from companion.vision.observers.stack_sampling import (
    FACINGS,
    SquareProbes,
    along_side,
    lab_to_bgr,
    offset_samples,
    outline,
    outline_offsets,
    rebalance,
    surface_gains,
    to_lab,
)

SCALE = 10.0  # px per mm


class FlatGeometry:
    """Straight down, 10 px per mm, no parallax: x px = 10·x + 100."""

    def to_pixels(self, xyz: np.ndarray) -> np.ndarray:
        pts = np.asarray(xyz, float).reshape(-1, 3)
        return pts[:, :2] * SCALE + 100.0

    def nadir_xy(self) -> tuple[float, float]:
        return (-1000.0, -1000.0)


def _square_image(x0: float, y0: float, x1: float, y1: float, fine: int = 8) -> np.ndarray:
    """A light square on a dark ground, edges at those mm to a fraction of a pixel: drawn 8× finer
    without anti-aliasing and averaged down (exact coverage), then a little blur."""
    image = np.full((300 * fine, 300 * fine, 3), (60, 90, 120), np.uint8)
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]) * SCALE + 100.0
    # Pixel centres are at integer coordinates: pixel i covers [i − 0.5, i + 0.5).
    fine_corners = np.round((corners + 0.5) * fine - 0.5).astype(np.int32)
    cv2.fillConvexPoly(image, fine_corners, (140, 190, 220))
    image = cv2.resize(image, (300, 300), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(image, (0, 0), 0.8)


def _crossings(image: np.ndarray) -> np.ndarray:
    probes = SquareProbes(FlatGeometry(), [(4.0, 4.0, 12.0, 12.0)], [0.0])
    samples = probes.sample(image)
    lines = outline(samples, samples.interior_colour())
    return np.median(lines.crossing[0, 0], axis=-1)  # per side y−, x+, y+, x−


def test_outline_crossing_follows_the_edge_to_a_fraction_of_a_pixel():
    here = _crossings(_square_image(4.0, 4.0, 12.0, 12.0))
    assert np.all(np.abs(here) < 0.8), here
    # The right side 0.15 mm (1.5 px) further out, the top side 0.1 mm (1 px) further in.
    moved = _crossings(_square_image(4.0, 4.1, 12.15, 12.0))
    assert moved[1] - here[1] == pytest.approx(1.5, abs=0.35)
    assert moved[0] - here[0] == pytest.approx(-1.0, abs=0.35)
    assert moved[2] == pytest.approx(here[2], abs=0.2) and moved[3] == pytest.approx(here[3], abs=0.2)


def test_evidence_falls_off_with_the_distance_to_where_the_height_puts_the_outline():
    probes = SquareProbes(FlatGeometry(), [(4.0, 4.0, 12.0, 12.0)], [0.0])
    samples = probes.sample(_square_image(4.0, 4.0, 12.0, 12.0))
    lines = outline(samples, samples.interior_colour())
    on = lines.evidence(0.0)[0, 0]
    off = lines.evidence(2.0)[0, 0]  # as if this camera's outlines lay 2 px further out
    assert np.all(on > 0.6), on
    assert np.all(off < 0.3 * on), off


def test_a_face_without_an_outline_gives_no_evidence():
    flat = np.full((300, 300, 3), (140, 190, 220), np.uint8)
    probes = SquareProbes(FlatGeometry(), [(4.0, 4.0, 12.0, 12.0)], [0.0])
    samples = probes.sample(flat)
    assert np.all(outline(samples, samples.interior_colour()).evidence(0.0) < 0.05)


def test_sample_pairs_and_levels_read_what_sample_reads():
    geometry = FlatGeometry()
    probes = SquareProbes(geometry, [(4.0, 4.0, 12.0, 12.0), (14.0, 4.0, 18.0, 8.0)], [0.0, 5.0, 10.0])
    image = _square_image(4.0, 4.0, 12.0, 12.0)
    full = probes.sample(image)
    pairs = probes.sample_pairs(image, np.array([1, 0]), np.array([2, 1]))
    assert np.allclose(pairs.across[0, 0], full.across[1, 2], atol=1e-3)
    assert np.allclose(pairs.interior[1, 0], full.interior[0, 1], atol=1e-3)
    levels = probes.sample_levels(image, np.array([[2], [0]]))
    assert np.allclose(levels.across[0, 0], full.across[0, 2], atol=1e-3)
    assert np.allclose(probes.sample_interior(image), full.interior, atol=1e-3)


def test_along_side_leaves_out_one_best_and_one_worst_position():
    assert along_side(np.array([0.9, 0.0, 0.8, 0.85])) == pytest.approx(0.825)
    assert along_side(np.array([0.1, 0.9, 0.5])) == pytest.approx(0.5)  # the median of three
    assert along_side(np.array([0.2, 0.4])) == pytest.approx(0.3)


def test_surface_gains_undo_a_dimmer_warmer_light():
    table = to_lab(np.array([60, 90, 120], np.float32) / 255.0)
    block = to_lab(np.array([140, 190, 220], np.float32) / 255.0)
    light = np.array([0.8, 0.85, 0.95], np.float32)  # dimmer, warmer
    seen_table = rebalance(table, light)
    seen_block = rebalance(block, light)
    places = np.array([seen_table] * 8 + [seen_block] * 4)  # the table between some blocks
    gains = surface_gains(places, table)
    assert gains == pytest.approx(1.0 / light, rel=0.03)
    assert np.linalg.norm(rebalance(seen_block, gains) - block) < 1.5
    # Too few places like the table: no change rather than a guess.
    assert surface_gains(np.array([seen_block] * 6), table) == pytest.approx(np.ones(3))
    assert lab_to_bgr(table) == pytest.approx(np.array([60, 90, 120]) / 255.0, abs=0.01)


def test_outline_offsets_travel_with_the_profile(tmp_path):
    samples = {"card": [np.array([86.0, 1.0, 8.0, 0.5, 0.5, 0.5])] * 3}
    samples.update(offset_samples({0: [-1.2, -1.4, -1.3], 1: [0.3, 0.2, 0.4]}))
    profile = AppearanceProfile.learn("babel", samples)
    facing = np.array([[1, -1, 0, 1]])
    path = tmp_path / "babel.json"
    profile.save(path)
    loaded = AppearanceProfile.load(path)
    offsets = outline_offsets(loaded, facing)
    assert offsets[0, 0] == pytest.approx(-1.3, abs=0.05) and offsets[0, 3] == pytest.approx(-1.3, abs=0.05)
    assert offsets[0, 1] == pytest.approx(0.3, abs=0.05)
    assert offsets[0, 2] == 0.0  # no oblique sides in the calibration: no offset
    assert set(FACINGS) == {"near", "far", "oblique"}
