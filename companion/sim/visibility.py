"""Which part of a top face the camera can see: rays from points on the face to the camera, tested
against every box of the region. A cell hidden behind a taller neighbour cannot be read from one
frame; benchmarks and tests judge the reading of visible cells and expect low confidence elsewhere."""

from __future__ import annotations

import math

import numpy as np

from .camera import CameraModel
from .scene import RegionScene


def camera_in_region(region: RegionScene, camera: CameraModel) -> np.ndarray:
    a = math.radians(region.rotation_deg)
    rel = camera.position[:2] - np.asarray(region.origin_mm, float)
    x = math.cos(a) * rel[0] + math.sin(a) * rel[1]
    y = -math.sin(a) * rel[0] + math.cos(a) * rel[1]
    return np.array([x, y, camera.position[2]])


def visible(region: RegionScene, camera: CameraModel, points: np.ndarray) -> np.ndarray:
    """(N,) bool: is each region-frame point (N, 3) in sight of the camera?"""
    pts = np.asarray(points, float).reshape(-1, 3) + np.array([0.0, 0.0, 0.05])
    if not region.boxes:
        return np.ones(len(pts), bool)
    eye = camera_in_region(region, camera)
    direction = eye - pts  # t in (0, 1] runs from the point to the camera
    lo = np.array([[b.x0, b.y0, b.z0] for b in region.boxes])
    hi = np.array([[b.x1, b.y1, b.z1] for b in region.boxes])
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = 1.0 / direction[:, None, :]
        t1 = (lo[None] - pts[:, None, :]) * inv
        t2 = (hi[None] - pts[:, None, :]) * inv
    t_near = np.nan_to_num(np.minimum(t1, t2), nan=-np.inf)
    t_far = np.nan_to_num(np.maximum(t1, t2), nan=np.inf)
    # A zero direction component: inside the slab means no limit, outside means no hit.
    flat = direction[:, None, :] == 0
    inside = (pts[:, None, :] >= lo[None]) & (pts[:, None, :] <= hi[None])
    t_near = np.where(flat, np.where(inside, -np.inf, np.inf), t_near)
    t_far = np.where(flat, np.where(inside, np.inf, -np.inf), t_far)
    enter = t_near.max(axis=2)
    leave = t_far.min(axis=2)
    hit = (enter < leave) & (leave > 1e-6) & (enter < 1.0)
    return ~hit.any(axis=1)


def visible_share(region: RegionScene, camera: CameraModel, faces: list[list[tuple[float, float, float, float]]],
                  grid: int = 4) -> np.ndarray:
    """Per cell, the share of its top face that is in sight. faces[row][col] = (cx, cy, half, z): a
    square of half-side `half` centred at (cx, cy) at height z."""
    rows, cols = len(faces), len(faces[0])
    offsets = (np.arange(grid) + 0.5) / grid * 2.0 - 1.0
    ox, oy = np.meshgrid(offsets, offsets)
    pts = []
    for row in faces:
        for cx, cy, half, z in row:
            pts.append(np.column_stack([cx + ox.ravel() * half, cy + oy.ravel() * half, np.full(ox.size, z)]))
    seen = visible(region, camera, np.vstack(pts)).reshape(rows, cols, grid * grid)
    return seen.mean(axis=2)
