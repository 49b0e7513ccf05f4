"""The simulated table as frames: the digital twin renders each scene, the real observers read it.

Used by `companion run` for the games whose twin layouts and observers are both built (The
Reclamation, Baubylon, and Babylon's quarry and two gardens): each still scene of the demo script is drawn by
the twin (lighting drifting slowly, sensor noise) and read back by the real observer of each board
region, calibrated once on the twin's calibration layout the way a player calibrates the real
pieces. Busy scenes are drawn with a hand reaching in. The referee then rules on what the observers
read, not on the script's truth.

Each region has its own camera view (as if each board had been located and rectified on its own).
Like a motion gate watching each region, a still scene re-reads the regions whose pieces changed
since they were last read (every region at the start); a second look at an unchanged table
re-reads the regions of the last change. A region not re-read carries no evidence this time.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..referee.session import Scene
from ..referee.views.base import ExpectedView
from ..vision.types import Frame, Observation

SUPPORTED = ("reclamation", "babylon")  # baubylon: built, not reliable yet (see docs/referee.md)


@dataclass
class RegionEye:
    """One board region's camera and observer (calibrated), and where a hand reaches in it."""

    camera: Any
    observer: Any
    centre: tuple[float, float]
    keywords: dict[str, Any] = field(default_factory=dict)  # what the observer was built with (fit)


def _region_scene(layout):
    from ..sim import garden

    return layout.region_scene() if hasattr(layout, "region_scene") else garden.region_scene(layout)


def calibrated_eye(observer_class, region: str, layout, centre: tuple[float, float], distance: float,
                   seed: int) -> RegionEye:
    """A camera over one region and its observer, whose appearance profile is learnt from three
    frames of the twin's calibration layout (the setup wizard's capture)."""
    from ..sim.camera import CameraModel, region_geometry
    from ..sim.render import render
    from ..sim.scene import TableScene
    from ..vision.appearance import AppearanceProfile

    camera = CameraModel(target_mm=(*centre, 0.0), distance_mm=distance, tilt_deg=18.0,
                         azimuth_deg=-90.0, roll_deg=0.0, width=960, height=720)
    observer = observer_class(region_geometry(camera))
    truth = layout.calibration_truth() if hasattr(layout, "calibration_truth") else layout.expected()
    samples: dict[str, list] = {}
    for k in range(3):
        image = render(TableScene((_region_scene(layout),)), camera, seed=seed * 7 + k)
        for name, vectors in observer.calibration_samples(image, truth).items():
            samples.setdefault(name, []).extend(vectors)
    observer.profile = AppearanceProfile.learn(region, samples)
    return RegionEye(camera, observer, centre)


class TwinReader:
    """Renders the table of one game region by region and reads each with its observer."""

    def __init__(self, game: str, seed: int = 0):
        from ..sim import boards, garden
        from ..sim.render import render
        from ..sim.scene import TableScene

        self.game = game
        self._render, self._TableScene = render, TableScene
        self.eyes: dict[str, RegionEye] = {}
        if game == "reclamation":
            from ..vision.observers.reclamation import ReclamationObserver

            self.eyes["reclamation"] = calibrated_eye(ReclamationObserver, "reclamation",
                                                      boards.calibration_reclamation(), (90.0, 90.0), 520.0, seed)
        elif game == "babylon":
            from ..vision.observers.babylon_garden import GardenObserver
            from ..vision.observers.babylon_quarry import QuarryObserver

            self.eyes["babylon.quarry"] = calibrated_eye(QuarryObserver, "babylon.quarry",
                                                         boards.calibration_quarry(), (100.0, 100.0), 520.0, seed)
            # both gardens are the same kind of board under the same light: one calibration
            self.eyes["babylon.garden"] = calibrated_eye(GardenObserver, "babylon.garden",
                                                         garden.calibration_layout(), (100.0, 100.0), 520.0, seed)
        elif game == "baubylon":
            from ..vision.observers.baubylon import BaubylonObserver

            self.eyes["baubylon"] = calibrated_eye(BaubylonObserver, "baubylon", boards.calibration_baubylon(),
                                                   (144.0, 144.0), 640.0, seed)
        else:
            raise NotImplementedError(f"no twin layout for {game}")
        self.index = 0
        self.last_frame: Frame | None = None
        self.shown: dict[str, Any] = {}  # region -> the layout it was last read with
        self.last_regions: tuple[str, ...] = ()
        self.reads = 0  # region reads (render + observe), for the figures
        self.read_seconds = 0.0
        self.history: dict[str, Observation] = {}  # region -> its last reading (as BoardReader.last)

    def fit(self, keywords: dict[str, dict[str, Any]]) -> None:
        """Shape the observers to the game in play (GameView.observer_keywords of its state, as
        BoardReader.fit), each keeping its camera and its learnt appearance profile."""
        from ..sim.camera import region_geometry

        for region, kw in keywords.items():
            eye = self.eyes.get(region)
            if eye is not None and eye.keywords != kw:
                eye.observer = type(eye.observer)(region_geometry(eye.camera), eye.observer.profile, **kw)
                eye.keywords = dict(kw)

    @property
    def observers(self) -> dict[str, Any]:
        """Region -> its observer (the screen's camera marks use them)."""
        regions = ["babylon.quarry", "babylon.garden.0", "babylon.garden.1"] if self.game == "babylon" else list(self.eyes)
        return {region: self.eye(region).observer for region in regions}

    def eye(self, region: str) -> RegionEye:
        return self.eyes.get(region) or self.eyes["babylon.garden"]  # babylon.garden.<seat>

    # --- what is on the table -------------------------------------------------------------------

    def layouts(self, truth: ExpectedView | None, physical: tuple[Any, Any] | None) -> dict[str, Any]:
        """Region -> twin layout of the table's truth."""
        if self.game in ("babylon", "baubylon"):
            from ..sim.adapters import babylon_layouts, baubylon_layout

            if physical is None:
                raise ValueError(f"the {self.game} twin draws from the game state (the script gives none)")
            state, move = physical
            if self.game == "baubylon":
                return {"baubylon": baubylon_layout(state, move)}
            return babylon_layouts(state, move)
        from ..sim import boards

        if truth is None:
            raise ValueError("the Reclamation twin draws from the expected view (the script gives none)")
        grid = truth["reclamation"]
        stacks = tuple(tuple((int(dict(c.attrs).get("height", 0)), c.label if c.label != "empty" else "flower")
                             for c in row) for row in grid)
        return {"reclamation": boards.ReclamationLayout(stacks)}

    def _table(self, layout, tick: int, hand_in: RegionEye | None):
        from ..sim.scene import Hand, Lighting

        drift = 0.5 - 0.5 * math.cos(2 * math.pi * tick / 120.0)
        lighting = Lighting(gain=1.0 - 0.12 * drift, gradient=(0.05 * drift, -0.04 * drift))
        arm = None
        if hand_in is not None:
            x, y = hand_in.centre
            arm = Hand(tip=(x + 30 * math.sin(tick), y, 30.0), entry=(x, -400.0, 120.0))
        return self._TableScene((_region_scene(layout),), hand=arm, lighting=lighting)

    def frame(self, region: str, layout, tick: int, hand: bool = False) -> Frame:
        eye = self.eye(region)
        image = self._render(self._table(layout, tick, eye if hand else None), eye.camera, seed=tick)
        self.index += 1
        self.last_frame = Frame(np.ascontiguousarray(image), float(tick), f"sim:{region}", self.index)
        return self.last_frame

    def observe(self, region: str, layout, tick: int) -> Observation:
        import time

        started = time.perf_counter()
        frame = self.frame(region, layout, tick)
        observation = self.eye(region).observer.observe(frame.image, frame.index, frame.timestamp,
                                                        previous=self.history.get(region))
        self.reads += 1
        self.read_seconds += time.perf_counter() - started
        self.history[region] = observation = replace(observation, region=region)
        return observation

    def read(self, truth: ExpectedView | None, tick: int, physical: tuple[Any, Any] | None = None) -> Scene:
        """A still scene: the regions whose pieces changed since last read (or, on a second look at
        an unchanged table, those of the last change) rendered and read."""
        layouts = self.layouts(truth, physical)
        regions = tuple(r for r, layout in layouts.items() if self.shown.get(r) != layout) or self.last_regions
        regions = regions or tuple(layouts)
        observations = {}
        for region in regions:
            observations[region] = self.observe(region, layouts[region], tick)
            self.shown[region] = layouts[region]
        self.last_regions = regions
        return Scene("still", observations, frame=self.last_frame)

    def busy(self, truth: ExpectedView | None, tick: int, physical: tuple[Any, Any] | None = None) -> Frame:
        """A hand over the region of the last change (where the players are at work)."""
        layouts = self.layouts(truth, physical)
        region = (self.last_regions or tuple(layouts))[0]
        return self.frame(region, layouts[region], tick, hand=True)


def rendered(scenes: Iterator[Scene], reader: TwinReader, script, hands: bool = True) -> Iterator[Scene]:
    """Replace the script's observation-level stills by rendered-and-read ones (same table truth).
    A run of busy scenes shares one rendered frame with a hand in it (`hands`; without, busy
    scenes pass as they are: headless, nobody would see the picture)."""
    hand_frame: Frame | None = None
    for tick, scene in enumerate(scenes, start=1):
        truth = script.last_truth
        physical = getattr(script, "last_physical", None)
        if scene.kind == "still" and truth is not None:
            hand_frame = None
            out = reader.read(truth, tick, physical)
            yield Scene("still", out.observations, out.frame, scene.time, scene.command, scene.note)
        elif scene.kind == "busy" and truth is not None and hands:
            if hand_frame is None:
                hand_frame = reader.busy(truth, tick, physical)
            yield Scene("busy", frame=hand_frame, time=scene.time, note=scene.note)
        else:
            yield scene
