"""The demo table: a Babylon garden being built, for `companion run` with no camera.

`simulated_source(config)` is what the command line hands to vision.sources.open_source, so that
vision never imports the twin itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..vision.sources.simulated import SimulatedSource
from . import garden
from .camera import CameraModel
from .scene import TableScene
from .table import ScriptedTable


def demo_scenes(seed: int = 0, steps: int = 6) -> list[TableScene]:
    """Gardens at growing stages (more tiles, pillars and decorations in each)."""
    scenes = []
    for k in range(steps):
        layout = garden.random_layout(np.random.default_rng(seed), tiles=k, bare_pillars=k, decorations=k // 2)
        scenes.append(TableScene((garden.region_scene(layout),)))
    return scenes


def simulated_source(config: Any = None, fps: float = 4.0) -> SimulatedSource:
    width = config.get("camera", "width") if config is not None else 1280
    height = config.get("camera", "height") if config is not None else 720
    camera = CameraModel(width=width, height=height, target_mm=(100.0, 100.0, 0.0))
    table = ScriptedTable(demo_scenes(), camera, loop=True)
    return SimulatedSource(table, name="sim:babylon.garden", fps=fps)
