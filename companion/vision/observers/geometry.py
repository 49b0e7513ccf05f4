"""Where a point of a board region (x, y, z in mm, region frame) falls in the camera image.

Observers read a piece's top at the height it stands, so they need the mapping at every height,
not only the board plane. Two ways to know it:
- CameraGeometry: a calibrated camera and the region's pose (what the twin knows exactly, and what
  calibration + locator give on the Pi), lens distortion included;
- LevelHomographies: two plane homographies (the board plane and one raised plane, e.g. from mat
  markers and a level-1 calibration) for an undistorted image; every other height follows, because
  a 3×4 projection's plane homographies differ only in their third column, linearly in z.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np


class RegionGeometry(Protocol):
    def to_pixels(self, xyz: np.ndarray) -> np.ndarray:
        """(N, 3) region points in mm → (N, 2) image pixels (x, y)."""
        ...

    def nadir_xy(self) -> tuple[float, float]:
        """The board point straight below the camera (region frame, mm)."""
        ...


@dataclass(frozen=True)
class CameraGeometry:
    matrix: np.ndarray  # 3×3 intrinsics
    dist_coeffs: np.ndarray  # OpenCV order k1 k2 p1 p2 [k3 ...]
    rvec: np.ndarray  # region frame → camera
    tvec: np.ndarray

    def nadir_xy(self) -> tuple[float, float]:
        """The point of the board plane straight below the camera, region frame."""
        rot = cv2.Rodrigues(np.asarray(self.rvec, float))[0]
        centre = -rot.T @ np.asarray(self.tvec, float).ravel()
        return float(centre[0]), float(centre[1])

    def to_pixels(self, xyz: np.ndarray) -> np.ndarray:
        pts = np.asarray(xyz, dtype=np.float64).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(pts, np.asarray(self.rvec, float), np.asarray(self.tvec, float),
                                   np.asarray(self.matrix, float), np.asarray(self.dist_coeffs, float))
        return out.reshape(-1, 2)


@dataclass(frozen=True)
class LevelHomographies:
    """Plane homographies (region mm → pixels of an undistorted image) at z = 0 and z = height_mm.

    With `matrix` and `dist_coeffs` the result is distorted again to land on the raw frame.
    """

    h_board: np.ndarray
    h_raised: np.ndarray
    height_mm: float
    matrix: np.ndarray | None = None
    dist_coeffs: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.height_mm <= 0:
            raise ValueError("height_mm must be positive")

    def _columns(self) -> tuple[np.ndarray, np.ndarray]:
        h0 = np.asarray(self.h_board, float)
        h0 = h0 / np.linalg.norm(h0[:, :2])
        h1 = np.asarray(self.h_raised, float)
        # Homographies are defined up to scale: bring the raised one to the board one's scale on the
        # x and y columns, which a projection shares across all heights.
        alpha = float(np.sum(h1[:, :2] * h0[:, :2]) / np.sum(h1[:, :2] * h1[:, :2]))
        z_column = (alpha * h1[:, 2] - h0[:, 2]) / self.height_mm
        return h0, z_column

    def homography_at(self, z_mm: float) -> np.ndarray:
        h0, z_column = self._columns()
        out = h0.copy()
        out[:, 2] = h0[:, 2] + z_mm * z_column
        return out

    def nadir_xy(self) -> tuple[float, float]:
        """The board point whose image is the vanishing point of vertical lines (below the camera)."""
        h0, z_column = self._columns()
        p = np.linalg.solve(h0, z_column)
        return float(p[0] / p[2]), float(p[1] / p[2])

    def to_pixels(self, xyz: np.ndarray) -> np.ndarray:
        pts = np.asarray(xyz, dtype=np.float64).reshape(-1, 3)
        h0, z_column = self._columns()
        homog = pts[:, :2] @ h0[:, :2].T + h0[:, 2] + pts[:, 2:3] * z_column
        uv = homog[:, :2] / homog[:, 2:3]
        if self.matrix is None or self.dist_coeffs is None:
            return uv
        k = np.asarray(self.matrix, float)
        normalised = np.column_stack([(uv[:, 0] - k[0, 2]) / k[0, 0], (uv[:, 1] - k[1, 2]) / k[1, 1],
                                      np.ones(len(uv))])
        out, _ = cv2.projectPoints(normalised.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k,
                                   np.asarray(self.dist_coeffs, float))
        return out.reshape(-1, 2)
