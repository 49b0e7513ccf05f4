"""A camera's intrinsics: focal lengths, principal point and lens distortion, in pixels."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...errors import CompanionError, ErrorText
from ...i18n import N_

DEFAULT_FOCAL_PER_WIDTH = 0.8
"""Focal length / image width for an uncalibrated camera: the Pi Camera Module 2 (62° horizontal
field of view) gives 0.83, Module 3 (66°) 0.77, common USB webcams (60-70°) 0.7-0.87."""


class OtherAspectRatio(CompanionError, ValueError):
    """The camera was measured at another aspect ratio than the frames it now gives (a ValueError
    too, as it always was); its text says so in the player's language."""


@dataclass(frozen=True)
class Intrinsics:
    image_size: tuple[int, int]  # (width, height) the matrix was measured at
    camera_matrix: tuple[tuple[float, float, float], ...]  # 3×3
    dist_coeffs: tuple[float, ...] = ()  # OpenCV order k1, k2, p1, p2, k3, ...
    rms_px: float | None = None  # reprojection error of the calibration; None = not measured
    views: int = 0  # how many views the calibration used

    @property
    def measured(self) -> bool:
        return self.rms_px is not None

    @property
    def matrix(self) -> np.ndarray:
        return np.array(self.camera_matrix, dtype=np.float64)

    @property
    def distortion(self) -> np.ndarray:
        return np.array(self.dist_coeffs or (0.0,) * 5, dtype=np.float64)

    def for_size(self, width: int, height: int) -> Intrinsics:
        """The same camera at another resolution with the same aspect ratio (scaled matrix).

        Raises OtherAspectRatio (a ValueError) when the aspect ratio differs: the sensor crop is
        then unknown.
        """
        w0, h0 = self.image_size
        if (w0, h0) == (width, height):
            return self
        if abs(width / w0 - height / h0) > 0.01 * width / w0:
            raise OtherAspectRatio(message=ErrorText.of(
                N_("the camera was measured at {measured}, its frames are {size} (another aspect ratio): measure it "
                   "again at this size with {command}"),
                measured=f"{w0}×{h0}", size=f"{width}×{height}", command="companion calibrate camera"))
        sx, sy = width / w0, height / h0
        k = self.matrix.copy()
        k[0] *= sx
        k[1] *= sy
        k[2] = (0.0, 0.0, 1.0)
        return Intrinsics((width, height), _tuple3(k), self.dist_coeffs, self.rms_px, self.views)


def default_intrinsics(width: int, height: int) -> Intrinsics:
    """A distortion-free pinhole guess: focal length from a typical field of view, centred."""
    f = DEFAULT_FOCAL_PER_WIDTH * max(width, height)
    k = np.array([[f, 0.0, width / 2.0], [0.0, f, height / 2.0], [0.0, 0.0, 1.0]])
    return Intrinsics((width, height), _tuple3(k))


def _tuple3(k: np.ndarray) -> tuple[tuple[float, float, float], ...]:
    return tuple(tuple(float(v) for v in row) for row in k)
