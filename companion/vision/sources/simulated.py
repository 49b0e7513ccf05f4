"""Frames rendered live by a renderer function (the digital twin's scripted table, for the demo).

The renderer is passed in: vision never imports the twin (companion.sim); whoever starts the
demo (the command line) hands over `companion.sim.table.ScriptedTable`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from ...i18n import N_
from .base import FrameSource, failure, source_error


class SimulatedSource(FrameSource):
    def __init__(self, render_frame: Callable[[int], np.ndarray | None], name: str = "sim", fps: float = 0.0):
        super().__init__()
        self._render = render_frame
        self.name = name
        self.fps = fps  # 0 = as fast as rendered
        self._n = 0
        self._next_due = 0.0

    def _open(self) -> None:
        self._n = 0
        self._next_due = time.monotonic()

    def _read(self) -> np.ndarray | None:
        if self.fps > 0:
            delay = self._next_due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self._next_due = max(self._next_due, time.monotonic() - 1.0) + 1.0 / self.fps
        try:
            image = self._render(self._n)
        except Exception as exc:  # noqa: BLE001 - a broken script is a source failure, said clearly
            raise source_error(N_("the simulated table failed at frame {frame} ({detail})"),
                               frame=self._n, detail=failure(exc)) from None
        self._n += 1
        return image
