"""A scripted table for the simulated camera: still scenes, and between them a hand that reaches in,
makes the change and leaves (the demo, the motion-gate tests)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from .camera import CameraModel
from .render import render
from .scene import Hand, TableScene


@dataclass
class ScriptedTable:
    scenes: Sequence[TableScene]
    camera: CameraModel
    still_frames: int = 8  # frames each scene stays untouched
    hand_frames: int = 8  # frames a hand is in view between two scenes
    seed: int = 0
    reach_to: tuple[float, float] = (100.0, 100.0)  # table point the hand reaches for
    loop: bool = False

    @property
    def length(self) -> int:
        n = len(self.scenes)
        return n * self.still_frames + (n - 1) * self.hand_frames

    def state(self, n: int) -> tuple[int, float | None]:
        """(index of the scene on the table, hand progress 0..1 or None) at frame n; (-1, None) past the end."""
        if self.loop and self.length:
            n %= self.length
        period = self.still_frames + self.hand_frames
        step, offset = divmod(n, period)
        if step >= len(self.scenes) or (step == len(self.scenes) - 1 and offset >= self.still_frames):
            return -1, None
        if offset < self.still_frames:
            return step, None
        progress = (offset - self.still_frames + 0.5) / self.hand_frames
        # The pieces move while the hand is over the board: the second half shows the next scene.
        return (step if progress < 0.5 else step + 1), progress

    def hand_at(self, progress: float) -> Hand:
        reach = math.sin(math.pi * progress)  # in, then out again
        # The arm comes from the camera's side of the table, from outside the view.
        az = math.radians(self.camera.azimuth_deg)
        entry = (self.reach_to[0] + 450.0 * math.cos(az), self.reach_to[1] + 450.0 * math.sin(az), 160.0)
        tip = tuple(e + (t - e) * reach for e, t in zip(entry, (*self.reach_to, 90.0), strict=True))
        return Hand(tip=tip, entry=entry)  # type: ignore[arg-type]

    def __call__(self, n: int) -> np.ndarray | None:
        index, progress = self.state(n)
        if index < 0:
            return None
        scene = self.scenes[index]
        if progress is not None:
            scene = replace(scene, hand=self.hand_at(progress))
        return render(scene, self.camera, seed=self.seed * 100003 + n)
