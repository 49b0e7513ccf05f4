"""Shared by the garden decisions' speed tests: a profile of every class the decisions ask about,
and one rendered frame's measurements."""

from __future__ import annotations

import numpy as np

from companion.sim import garden
from companion.sim.camera import region_geometry
from companion.sim.render import render
from companion.sim.scene import TableScene
from companion.vision import labels
from companion.vision.appearance import AppearanceProfile
from companion.vision.observers.babylon_garden import (
    CENTRE_CLASSES,
    DECOS,
    FLOWER_CLASSES,
    GLYPH_CLASSES,
    TILE_BASE,
    GardenObserver,
)
from tests.sim.helpers import GAMES, camera_for

BAND_CLASSES = (TILE_BASE, labels.RECESS, labels.PILLAR1, labels.PILLAR2, *DECOS)


def decisions_profile(seed: int) -> AppearanceProfile:
    """A profile of every class the decisions ask about, each a cloud round its own colour."""
    rng = np.random.default_rng(seed)
    names = dict.fromkeys((*CENTRE_CLASSES, *BAND_CLASSES, *FLOWER_CLASSES, *GLYPH_CLASSES))
    samples = {name: rng.normal([*rng.uniform(20, 80, 3), 2, 2, 2], rng.uniform(1.5, 4.0), (15, 6))
               for name in names}
    return AppearanceProfile.learn("babylon.garden", samples)


def measured_frame() -> tuple[GardenObserver, dict[str, np.ndarray]]:
    """An observer and its measurements of one rendered garden (layout seed 5, frame seed 4)."""
    camera = camera_for(GAMES["babylon.garden"])
    layout = garden.random_layout(np.random.default_rng(5))
    frame = render(TableScene((garden.region_scene(layout),)), camera, seed=4)
    observer = GardenObserver(region_geometry(camera))
    return observer, observer._measure(frame)
