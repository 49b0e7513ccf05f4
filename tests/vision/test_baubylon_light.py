"""Baubylon: the light at read time is measured on the table just outside the field, and pieces
cast shadows there. A frame from the vision benchmark's own variation (seed 1, frame 122) where
half the table along the field's edges lies in the blocks' shadows: the light was once measured
on the shadows, every colour balanced ~25 % too bright, and 50 blocks were read as bare table.
Shadows only darken, and nothing on the field can stand in front of the table on the camera's
side: the light is the lit table's there."""

from __future__ import annotations

import numpy as np
import pytest

from companion.benchmarking import vision as bench
from companion.sim.render import render
from companion.sim.scene import Lighting
from companion.sim.visibility import visible_share
from companion.vision.observers.stack_sampling import lab_to_bgr, surface_gain_field, to_lab

from .bench_frames import visible_and_wrong
from .twin_light import light_at


@pytest.fixture(scope="module")
def shaded():
    camera, observer = bench.bench_setup("baubylon", 1, 122)
    layout, scene = bench.bench_scene("baubylon", 1, 122)
    return observer, layout, scene, render(scene, camera, seed=122), visible_share(scene.regions[0], camera,
                                                                                     layout.top_faces())


def test_the_light_is_measured_on_the_lit_table_not_its_shadows(shaded):
    observer, _, scene, image, _ = shaded
    truth = light_at(Lighting(), observer.cell_pixels) / light_at(scene.lighting, observer.cell_pixels)
    gains = observer._light_gains(image, observer.profile)
    assert np.median(np.abs(gains / truth - 1.0)) < 0.04
    # Without the places nothing can hide, the same fit would take the shadows for the table.
    known = observer.profile.classes["table"].mean[:3]
    seen = to_lab(observer.margin.bgr(image))
    plain = surface_gain_field(seen, observer.margin.pixels, known)
    design = np.column_stack([np.ones(len(observer.cell_pixels)), (observer.cell_pixels - (640.0, 360.0)) / 640.0])
    assert np.median(np.abs(1.0 / (design @ plain) / truth - 1.0)) > 0.15


def test_blocks_with_shadows_round_them_are_read(shaded):
    observer, layout, _, image, seen = shaded
    observation = observer.observe(image)
    expected = layout.expected()
    wrong = visible_and_wrong(observation, expected, seen)
    assert len(wrong) <= 2, wrong


def test_a_plane_through_shadows_is_raised_to_the_lit_table():
    """Synthetic: a table seen 10 % brighter than at calibration along four edges, most of it in
    30 % shadows; along the near edge (nothing can stand in front of it) a third is lit; on the
    far edge a block's bright side (nearly the table's hue) hides the table in places."""
    known = np.array([40.0, 8.0, 22.0], np.float32)
    known_bgr = lab_to_bgr(known).reshape(3)
    near, far, side = np.linspace(300.0, 900.0, 36), np.linspace(300.0, 900.0, 24), np.linspace(150, 600, 24)
    pixels = np.concatenate([np.column_stack([near, np.full(36, 600.0)]), np.column_stack([far, np.full(24, 150.0)]),
                             np.column_stack([np.full(24, 300.0), side]), np.column_stack([np.full(24, 900.0), side])])
    light = np.full((len(pixels), 1), 1.1)
    light[:36][np.arange(36) % 3 > 0] *= 0.7  # two thirds of the near edge in shadow
    light[36:48] *= 1.25  # a block's side on the far edge
    light[60:] *= 0.7  # both lateral edges in shadow
    seen = to_lab(np.clip(known_bgr[None, :] * light, 0, 1).astype(np.float32))
    unhidden = np.zeros(len(pixels), bool)
    unhidden[:36] = True
    design = np.column_stack([np.ones(len(pixels)), (pixels - (640.0, 360.0)) / 640.0])
    shadows = surface_gain_field(seen, pixels, known)  # most places are shaded
    assert (design @ shadows).mean(axis=-1) == pytest.approx(np.full(len(pixels), 0.77), rel=0.03)
    lit = surface_gain_field(seen, pixels, known, unhidden=unhidden)
    assert (design @ lit).mean(axis=-1) == pytest.approx(np.full(len(pixels), 1.1), rel=0.03)
