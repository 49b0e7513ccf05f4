"""The digital twin's light (sim/render.py `_finish`) at given pixels, for tests that check the
light an observer measures against the light the frame was rendered under."""

from __future__ import annotations

import numpy as np

from companion.sim.scene import Lighting


def light_at(lighting: Lighting, pixels: np.ndarray) -> np.ndarray:
    """(N, 3) the twin's light (BGR) at image pixels of a 1280×720 frame."""
    x = 2.0 * pixels[:, 0] / 1279.0 - 1.0
    y = 2.0 * pixels[:, 1] / 719.0 - 1.0
    gain = lighting.gain * (1.0 + lighting.gradient[0] * x + lighting.gradient[1] * y)
    return gain[:, None] * np.asarray(lighting.colour_gains)[None, :]
