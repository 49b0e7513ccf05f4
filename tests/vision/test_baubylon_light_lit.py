"""Baubylon: the light at read time is a plane through the lit table round the field
(baubylon_light). Shadows darken part of that table by 15-40 %, and behind the field the blocks'
faces stand in front of it, brighter than it or, shaded, as bright: a plane fitted to all of it
took the wrong tilt, ~15-20 % off at the far spaces, and blocks there were read as bare table.
The plane is pinned at the brightest places nothing can stand in front of and tilted the way
most places of the light's hue agree with."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.scene import Lighting
from companion.sim.visibility import visible_share
from companion.vision.observers.baubylon_light import lit_table_plane
from companion.vision.observers.stack_sampling import (
    gains_at,
    lab_to_bgr,
    plane_design,
    surface_gain_field,
    to_lab,
    unit_lab,
)

from .bench_frames import bench_frame, sure_and_wrong, visible_and_wrong
from .twin_light import light_at


@pytest.fixture(scope="module")
def near_shadow():
    """Bench seed 1, frame 140: a third of the near edge's table in the blocks' shadows (0.82×)."""
    layout, image, observer = bench_frame("baubylon", 1, 140)
    _, scene = bench.bench_scene("baubylon", 1, 140)
    camera = bench.bench_setup("baubylon", 1, 140)[0]
    return observer, layout, scene, image, visible_share(scene.regions[0], camera, layout.top_faces())


def _truth(observer, scene) -> np.ndarray:
    return light_at(Lighting(), observer.cell_pixels) / light_at(scene.lighting, observer.cell_pixels)


def test_the_light_at_every_space_is_the_twins_within_4_percent(near_shadow):
    observer, _, scene, image, _ = near_shadow
    truth = _truth(observer, scene)
    gains = observer._light_gains(image, observer.profile)
    assert np.abs(gains / truth - 1.0).max() < 0.04
    # The plane fitted to the whole ring took the shadows for a light falling off to one side.
    cached = observer._table_bgr_for
    whole = surface_gain_field(unit_lab(observer.margin.raw(image)), observer.margin.pixels, cached[1],
                               unhidden=observer.margin_unhidden, front_bgr=cached[3])
    assert np.abs(gains_at(whole, observer.cell_pixels) / truth - 1.0).max() > 0.15


def test_the_blocks_by_the_far_edge_are_read(near_shadow):
    observer, layout, _, image, seen = near_shadow
    observation = observer.observe(image)
    expected = layout.expected()
    wrong = visible_and_wrong(observation, expected, seen)
    assert wrong == []
    assert sure_and_wrong(observation, expected) == []


def test_a_frame_with_most_of_the_near_edge_shaded_has_its_light():
    """Bench seed 1, frame 150: 28 of the 48 near places shaded (0.7×); the plane through the
    whole ring was 16 % too bright at the far spaces."""
    layout, image, observer = bench_frame("baubylon", 1, 150)
    _, scene = bench.bench_scene("baubylon", 1, 150)
    gains = observer._light_gains(image, observer.profile)
    assert np.abs(gains / _truth(observer, scene) - 1.0).max() < 0.04


# --- the plane on its own, on a synthetic ring ----------------------------------------------------

KNOWN = np.array([45.0, 9.0, 20.0], np.float32)  # the table's calibrated colour (Lab)
TINT = np.array([0.96, 1.0, 1.04])  # a warmer light than at calibration (B, G, R)


def _ring():
    """Pixels of a ring round a field (near edge at the bottom, unhidden) and its plane terms."""
    near, far = np.linspace(350.0, 930.0, 48), np.linspace(420.0, 860.0, 40)
    side = np.linspace(190.0, 560.0, 30)
    pixels = np.concatenate([np.column_stack([near, np.full(48, 600.0)]), np.column_stack([far, np.full(40, 170.0)]),
                             np.column_stack([np.linspace(380.0, 420.0, 30), side]),
                             np.column_stack([np.linspace(900.0, 860.0, 30), side])])
    unhidden = np.zeros(len(pixels), bool)
    unhidden[:48] = True
    return pixels, unhidden, plane_design(pixels)


def _seen(pixels, factor, hue_shift=None):
    """What the ring shows: the table's colour in a light falling off to the right and towards
    the far edge (brightness 1.1 − 0.08·x + 0.12·y, x, y in 640 px from the centre), tinted,
    times `factor` (shadows, faces), with some channels shifted (a face's own hue)."""
    design = plane_design(pixels)
    light = design @ np.array([1.1, -0.08, 0.12])
    bgr = lab_to_bgr(KNOWN).reshape(3)[None, :] * (light * factor)[:, None] * TINT[None, :]
    if hue_shift is not None:
        bgr = bgr * hue_shift
    noise = np.random.default_rng(5).normal(0.0, 0.006, bgr.shape)
    return to_lab(np.clip(bgr * (1.0 + noise), 0.0, 1.0).astype(np.float32)), light[:, None] * TINT[None, :]


def _ratio(seen):
    return lab_to_bgr(seen) / lab_to_bgr(KNOWN).reshape(3)


def test_the_plane_goes_through_the_lit_table_between_shadows_and_faces():
    pixels, unhidden, design = _ring()
    factor = np.ones(len(pixels))
    factor[:48][np.arange(48) % 5 < 3] = 0.72  # three fifths of the near edge in shadow
    faces = np.arange(40) % 4 > 0  # three of every four far places show a block's face...
    factor[48:88][faces] = 1.12  # ...a little brighter than the table...
    shift = np.ones((len(pixels), 3))
    shift[48:88][faces] = (0.93, 1.0, 1.05)  # ...and a little yellower
    factor[88:] = np.where(np.arange(60) % 2 == 0, 0.78, 1.0)  # half the sides shaded
    seen, light = _seen(pixels, factor, shift)
    coeffs = lit_table_plane(_ratio(seen), design, np.ones(len(pixels), bool), unhidden)
    assert coeffs is not None
    assert design @ coeffs == pytest.approx(light, rel=0.02)
    # The plane through the whole ring, raised out of the shadows, leans towards the faces.
    whole = surface_gain_field(seen, pixels, KNOWN, unhidden=unhidden)
    assert np.abs(design @ whole / light - 1.0).max() > 0.08


def test_the_plane_is_the_same_whichever_way_the_light_falls():
    pixels, unhidden, design = _ring()
    factor = np.ones(len(pixels))
    factor[:48][:30] = 0.75  # the near edge's left part in one long shadow
    seen, light = _seen(pixels, factor)
    coeffs = lit_table_plane(_ratio(seen), design, np.ones(len(pixels), bool), unhidden)
    assert design @ coeffs == pytest.approx(light, rel=0.02)
    # Mirrored: the shadow on the right, the light falling off to the left.
    mirrored = pixels.copy()
    mirrored[:, 0] = 1280.0 - pixels[:, 0]
    seen, light = _seen(mirrored, factor)
    coeffs = lit_table_plane(_ratio(seen), plane_design(mirrored), np.ones(len(pixels), bool), unhidden)
    assert plane_design(mirrored) @ coeffs == pytest.approx(light, rel=0.02)


def test_too_little_lit_table_in_view_gives_no_plane():
    pixels, unhidden, design = _ring()
    seen, _ = _seen(pixels, np.ones(len(pixels)))
    ratio = _ratio(seen)
    # Nothing unhidden shows the table (the caller then fits the whole ring as before).
    like = ~unhidden
    like[:4] = True
    assert lit_table_plane(ratio, design, like, unhidden) is None
    # Fewer than 12 places of the light's hue in all.
    assert lit_table_plane(ratio[:10], design[:10], np.ones(10, bool), unhidden[:10]) is None
    assert lit_table_plane(ratio, design, np.zeros(len(pixels), bool), unhidden) is None
