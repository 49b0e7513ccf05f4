"""The simulated table as frames: the digital twin renders each scene, the observer reads it.

Used by `companion run` for the games whose twin layout and observer are both built (The
Reclamation on this build): each still scene of the demo script is drawn by the twin (lighting
drifting slowly, sensor noise) and read back by the real observer, calibrated on the twin's
calibration layout the way a player calibrates the real pieces. Busy scenes are drawn with a hand
reaching in. The referee then rules on what the observer read, not on the script's truth.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from ..referee.session import Scene
from ..referee.views.base import ExpectedView
from ..vision.types import Frame

SUPPORTED = ("reclamation",)


class TwinReader:
    """Renders expected views of one region and reads them with the region's observer."""

    def __init__(self, region: str, seed: int = 0):
        from ..sim import boards, variation
        from ..sim.camera import CameraModel, region_geometry
        from ..sim.render import render
        from ..sim.scene import TableScene
        from ..vision.appearance import AppearanceProfile
        from ..vision.observers.reclamation import ReclamationObserver

        if region != "reclamation":
            raise NotImplementedError(f"no twin layout for {region}")
        self.region = region
        self._render, self._TableScene, self._variation = render, TableScene, variation
        self._layout_type = boards.ReclamationLayout
        self.camera = CameraModel(target_mm=(90.0, 90.0, 0.0), distance_mm=520.0, tilt_deg=18.0,
                                  azimuth_deg=-90.0, roll_deg=0.0, width=960, height=720)
        self.observer = ReclamationObserver(region_geometry(self.camera))
        layout = boards.calibration_reclamation()
        samples: dict[str, list] = {}
        for k in range(3):  # a short calibration capture of the twin's pieces
            image = render(TableScene((layout.region_scene(),)), self.camera, seed=seed * 7 + k)
            for name, vectors in self.observer.calibration_samples(image, layout.expected()).items():
                samples.setdefault(name, []).extend(vectors)
        self.observer.profile = AppearanceProfile.learn(region, samples)
        self.index = 0
        self.last_frame: Frame | None = None

    def _scene(self, grid, tick: int, hand: bool):
        from ..sim.scene import Hand, Lighting

        stacks = tuple(tuple((int(dict(c.attrs).get("height", 0)), c.label if c.label != "empty" else "flower")
                             for c in row) for row in grid)
        layout = self._layout_type(stacks)
        drift = 0.5 - 0.5 * math.cos(2 * math.pi * tick / 120.0)
        lighting = Lighting(gain=1.0 - 0.12 * drift, gradient=(0.05 * drift, -0.04 * drift))
        arm = Hand(tip=(90.0 + 30 * math.sin(tick), 90.0, 30.0), entry=(90.0, -400.0, 120.0)) if hand else None
        return self._TableScene((layout.region_scene(),), hand=arm, lighting=lighting)

    def frame(self, view: ExpectedView, tick: int, hand: bool = False) -> Frame:
        image = self._render(self._scene(view[self.region], tick, hand), self.camera, seed=tick)
        self.index += 1
        self.last_frame = Frame(np.ascontiguousarray(image), float(tick), f"sim:{self.region}", self.index)
        return self.last_frame

    def read(self, view: ExpectedView, tick: int) -> Scene:
        frame = self.frame(view, tick)
        observation = self.observer.observe(frame.image, frame.index, frame.timestamp)
        return Scene("still", {self.region: observation}, frame=frame)


def rendered(scenes: Iterator[Scene], reader: TwinReader, script) -> Iterator[Scene]:
    """Replace the script's observation-level stills by rendered-and-read ones (same table truth)."""
    for tick, scene in enumerate(scenes, start=1):
        truth = script.last_truth
        if scene.kind == "still" and truth is not None:
            out = reader.read(truth, tick)
            yield Scene("still", out.observations, out.frame, scene.time, scene.command, scene.note)
        elif scene.kind == "busy" and truth is not None:
            frame = reader.frame(truth, tick, hand=True)
            yield Scene("busy", frame=frame, time=scene.time, note=scene.note)
        else:
            yield scene
