"""The twin's camera: a pinhole with lens distortion at a pose above the table.

The pose is given the way one mounts a camera: the table point it aims at, its distance, its tilt
from straight down, the azimuth it looks from, and a roll. `project` includes the lens distortion;
`project_ideal` is the same camera without it (the renderer draws ideal, then distorts the image).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np


@dataclass(frozen=True)
class CameraModel:
    width: int = 1280
    height: int = 720
    hfov_deg: float = 66.0  # Pi Camera Module 3 (standard lens) is about 66°
    distortion: tuple[float, float, float, float, float] = (-0.08, 0.02, 0.0, 0.0, 0.0)  # k1 k2 p1 p2 k3
    target_mm: tuple[float, float, float] = (0.0, 0.0, 0.0)  # table point at the image centre
    distance_mm: float = 560.0
    tilt_deg: float = 25.0  # from straight down
    azimuth_deg: float = -90.0  # direction (in the table's xy plane) from the target to the camera
    roll_deg: float = 0.0

    @cached_property
    def matrix(self) -> np.ndarray:
        fx = (self.width / 2.0) / math.tan(math.radians(self.hfov_deg) / 2.0)
        return np.array([[fx, 0.0, self.width / 2.0], [0.0, fx, self.height / 2.0], [0.0, 0.0, 1.0]])

    @cached_property
    def dist_coeffs(self) -> np.ndarray:
        return np.array(self.distortion, dtype=np.float64)

    @cached_property
    def position(self) -> np.ndarray:
        tilt, az = math.radians(self.tilt_deg), math.radians(self.azimuth_deg)
        offset = np.array([math.sin(tilt) * math.cos(az), math.sin(tilt) * math.sin(az), math.cos(tilt)])
        return np.asarray(self.target_mm, dtype=np.float64) + self.distance_mm * offset

    @cached_property
    def rotation(self) -> np.ndarray:
        """World → camera rotation (rows: camera x right, y down, z forward)."""
        forward = np.asarray(self.target_mm, dtype=np.float64) - self.position
        forward /= np.linalg.norm(forward)
        # Image "down" points towards the camera's own side of the table (near things are low).
        az = math.radians(self.azimuth_deg)
        down_hint = np.array([math.cos(az), math.sin(az), 0.0])  # never parallel to forward
        down = down_hint - forward * float(down_hint @ forward)
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        rot = np.stack([right, down, forward])
        roll = math.radians(self.roll_deg)
        c, s = math.cos(roll), math.sin(roll)
        return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]) @ rot

    @cached_property
    def rvec(self) -> np.ndarray:
        return cv2.Rodrigues(self.rotation)[0]

    @cached_property
    def tvec(self) -> np.ndarray:
        return -self.rotation @ self.position

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points → (N, 3) camera coordinates."""
        return (np.asarray(points, dtype=np.float64) @ self.rotation.T) + self.tvec

    def project(self, points: np.ndarray) -> np.ndarray:
        """(N, 3) world points → (N, 2) pixels, lens distortion included."""
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(pts, self.rvec, self.tvec, self.matrix, self.dist_coeffs)
        return out.reshape(-1, 2)

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        cam = self.to_camera(points)
        z = np.maximum(cam[:, 2:3], 1e-6)
        uv = cam[:, :2] / z
        k = self.matrix
        return np.column_stack([uv[:, 0] * k[0, 0] + k[0, 2], uv[:, 1] * k[1, 1] + k[1, 2]])

    @cached_property
    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """remap() maps from the distorted (real) image to the ideal one, for the renderer."""
        ys, xs = np.mgrid[0 : self.height, 0 : self.width].astype(np.float32)
        pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
        ideal = cv2.undistortPoints(
            pts, self.matrix, self.dist_coeffs, None, None, self.matrix,
            (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-3),
        ).reshape(self.height, self.width, 2)
        return ideal[..., 0].astype(np.float32), ideal[..., 1].astype(np.float32)


def region_to_world(points: np.ndarray, origin_mm: tuple[float, float], rotation_deg: float) -> np.ndarray:
    """(N, 3) points in a region frame → table frame."""
    pts = np.asarray(points, dtype=np.float64)
    a = math.radians(rotation_deg)
    c, s = math.cos(a), math.sin(a)
    out = pts.copy()
    out[:, 0] = c * pts[:, 0] - s * pts[:, 1] + origin_mm[0]
    out[:, 1] = s * pts[:, 0] + c * pts[:, 1] + origin_mm[1]
    return out


def region_extrinsics(camera: CameraModel, origin_mm: tuple[float, float], rotation_deg: float):
    """(rvec, tvec) taking a region frame straight into camera coordinates."""
    a = math.radians(rotation_deg)
    c, s = math.cos(a), math.sin(a)
    r_region = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    t_region = np.array([origin_mm[0], origin_mm[1], 0.0])
    rot = camera.rotation @ r_region
    tvec = camera.rotation @ t_region + camera.tvec
    return cv2.Rodrigues(rot)[0].ravel(), tvec.ravel()


def region_geometry(camera: CameraModel, origin_mm: tuple[float, float] = (0.0, 0.0), rotation_deg: float = 0.0):
    """The true geometry of a region as the observers take it (what calibration + locator estimate)."""
    from ..vision.observers.geometry import CameraGeometry

    rvec, tvec = region_extrinsics(camera, origin_mm, rotation_deg)
    return CameraGeometry(camera.matrix, camera.dist_coeffs, rvec, tvec)
