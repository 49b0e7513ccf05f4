"""Random but plausible capture conditions: camera pose, light, sensor (benchmarks, tests)."""

from __future__ import annotations

import numpy as np

from .camera import CameraModel
from .scene import Imaging, Lighting


def random_camera(rng: np.random.Generator, target: tuple[float, float], distance=(480.0, 640.0),
                  tilt=(12.0, 30.0), azimuth=(-120.0, -60.0), roll=(-8.0, 8.0)) -> CameraModel:
    """A camera on an arm beside the board, looking down at it from one side."""
    return CameraModel(
        target_mm=(target[0] + rng.uniform(-15, 15), target[1] + rng.uniform(-15, 15), 0.0),
        distance_mm=float(rng.uniform(*distance)),
        tilt_deg=float(rng.uniform(*tilt)),
        azimuth_deg=float(rng.uniform(*azimuth)),
        roll_deg=float(rng.uniform(*roll)),
        distortion=(float(rng.uniform(-0.12, -0.02)), float(rng.uniform(0.0, 0.04)), 0.0, 0.0, 0.0),
    )


def random_lighting(rng: np.random.Generator) -> Lighting:
    warm = rng.uniform(-0.08, 0.08)  # colour temperature drift: blue down, red up (or back)
    return Lighting(
        gain=float(rng.uniform(0.8, 1.15)),
        gradient=(float(rng.uniform(-0.15, 0.15)), float(rng.uniform(-0.15, 0.15))),
        colour_gains=(float(1.0 - warm), 1.0, float(1.0 + warm)),
        shadow_direction=(float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.35, 0.35))),
        shadow_strength=float(rng.uniform(0.15, 0.4)),
        side_shading=float(rng.uniform(0.6, 0.8)),
    )


def random_imaging(rng: np.random.Generator) -> Imaging:
    return Imaging(
        noise_sigma=float(rng.uniform(1.0, 4.0)),
        blur_sigma=float(rng.uniform(0.3, 1.0)),
        jpeg_quality=int(rng.choice([0, 75, 85, 95])),
    )
