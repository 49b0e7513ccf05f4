"""Rectified views of a board region at several heights, sampled in one remap.

A view at height z is the region seen as if from straight above, sampled on the plane z: a top
face standing at z appears in it exactly over its cell, a face at another height appears shifted
(parallax). The maps are computed once per geometry; each frame costs one area-downscale, one
remap and one colour conversion.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.lib.stride_tricks import as_strided

from ..boards import BoardSpec
from .geometry import RegionGeometry


class ViewStack:
    def __init__(self, geometry: RegionGeometry, spec: BoardSpec, heights_mm: Sequence[float],
                 px_per_cell: int, margin_cells: float = 0.5, image_size: tuple[int, int] | None = None):
        self.spec = spec
        self.heights = tuple(float(z) for z in heights_mm)
        self.n = int(px_per_cell)
        self.mm_per_px = spec.cell_mm / self.n
        self.margin = int(round(margin_cells * self.n))
        self.height_px = spec.rows * self.n + 2 * self.margin
        self.width_px = spec.cols * self.n + 2 * self.margin
        ys, xs = np.mgrid[0 : self.height_px, 0 : self.width_px].astype(np.float64)
        x_mm = (xs + 0.5 - self.margin) * self.mm_per_px
        y_mm = (ys + 0.5 - self.margin) * self.mm_per_px
        maps = []
        for z in self.heights:
            pts = np.column_stack([x_mm.ravel(), y_mm.ravel(), np.full(x_mm.size, z)])
            maps.append(geometry.to_pixels(pts).reshape(self.height_px, self.width_px, 2))
        full = np.concatenate(maps, axis=0).astype(np.float32)
        # Sample from an area-averaged copy so that thin lines are neither missed nor aliased.
        step = np.linalg.norm(full[:, 1:, :] - full[:, :-1, :], axis=2)
        self.downscale = int(np.clip(np.floor(np.median(step)), 1, 4))
        full = (full + 0.5) / self.downscale - 0.5
        self.map_x, self.map_y = cv2.convertMaps(full[..., 0], full[..., 1], cv2.CV_16SC2)
        self.image_size = image_size
        self.nadir = geometry.nadir_xy()

    def facing_sides(self, threshold: float = 0.2) -> np.ndarray:
        """(rows, cols, 4) True for every side of a cell that faces the camera at all."""
        cy = (np.arange(self.spec.rows) + 0.5) * self.spec.cell_mm
        cx = (np.arange(self.spec.cols) + 0.5) * self.spec.cell_mm
        dx = self.nadir[0] - cx[None, :]
        dy = self.nadir[1] - cy[:, None]
        norm = np.maximum(np.hypot(dx, dy), 1e-6)
        towards = np.stack([-dy / norm, dx / norm, dy / norm, -dx / norm], axis=-1)
        return towards > threshold

    def near_sides(self, span: int = 1, threshold: float = 0.35) -> np.ndarray:
        """(rows', cols', 4) True for the side of each cell (block) that faces the camera most: a
        taller neighbour there can hide the cell, so that side is not evidence. Sides: y−, x+, y+, x−."""
        return near_sides(self.spec, self.nadir, span, threshold)

    def sample(self, image: np.ndarray) -> np.ndarray:
        """BGR uint8 views, shape (len(heights), height_px, width_px, 3)."""
        if self.downscale > 1:
            h, w = image.shape[:2]
            image = cv2.resize(image, (w // self.downscale, h // self.downscale), interpolation=cv2.INTER_AREA)
        stacked = cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return stacked.reshape(len(self.heights), self.height_px, self.width_px, 3)

    def sample_lab(self, image: np.ndarray) -> np.ndarray:
        """The views in CIE Lab, float32 (L 0..100)."""
        views = self.sample(image)
        flat = views.reshape(-1, self.width_px, 3).astype(np.float32) / 255.0
        return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(views.shape)

    def px(self, mm: float) -> int:
        return int(round(mm / self.mm_per_px))

    def blocks(self, views: np.ndarray, y_mm: float, x_mm: float, h_mm: float, w_mm: float,
               span: int = 1) -> np.ndarray:
        """For every cell (row, col) whose `span`×`span` block fits the board: the sub-image whose
        corner is (x_mm, y_mm) from that cell's corner, of size h_mm × w_mm.

        Returns a strided view of shape (K, rows - span + 1, cols - span + 1, h_px, w_px, C).
        """
        y0 = self.margin + self.px(y_mm)
        x0 = self.margin + self.px(x_mm)
        bh, bw = max(1, self.px(h_mm)), max(1, self.px(w_mm))
        rows, cols = self.spec.rows - span + 1, self.spec.cols - span + 1
        if y0 < 0 or x0 < 0 or y0 + (rows - 1) * self.n + bh > self.height_px or x0 + (cols - 1) * self.n + bw > self.width_px:
            raise ValueError("block outside the sampled margin")
        sk, sy, sx, sc = views.strides
        base = views[:, y0:, x0:, :]
        return as_strided(base, shape=(views.shape[0], rows, cols, bh, bw, views.shape[3]),
                          strides=(sk, sy * self.n, sx * self.n, sy, sx, sc), writeable=False)


def near_sides(spec: BoardSpec, nadir: tuple[float, float], span: int = 1, threshold: float = 0.35) -> np.ndarray:
    """ViewStack.near_sides without the views: `nadir` is the camera's foot on the board (mm)."""
    rows, cols = spec.rows - span + 1, spec.cols - span + 1
    cy = (np.arange(rows) + span / 2.0) * spec.cell_mm
    cx = (np.arange(cols) + span / 2.0) * spec.cell_mm
    dx = nadir[0] - cx[None, :]
    dy = nadir[1] - cy[:, None]
    norm = np.maximum(np.hypot(dx, dy), 1e-6)
    ux, uy = dx / norm, dy / norm
    towards = np.stack([-uy, ux, uy, -ux], axis=-1)  # outward normal · direction to the camera
    dominant = towards == towards.max(axis=-1, keepdims=True)
    return dominant & (towards > threshold)
