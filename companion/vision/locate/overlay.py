"""Pictures of what was found: the located board and the readings drawn on the frame."""

from __future__ import annotations

import cv2
import numpy as np

from ..types import Observation
from .location import BoardLocation

OUTLINE = (0, 200, 255)  # BGR
COLOURS = {"B": (255, 80, 0), "W": (0, 220, 0), ".": (160, 160, 160)}


def _pt(p: np.ndarray) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


def draw_location(image: np.ndarray, location: BoardLocation) -> np.ndarray:
    """The board's lines (or cell edges) at level 0, its outline thicker, corner 0 marked."""
    out = image.copy()
    spec = location.spec
    n_v = spec.cols if spec.on_points else spec.cols + 1
    n_h = spec.rows if spec.on_points else spec.rows + 1
    thin = max(1, image.shape[1] // 800)
    for i in range(n_v):
        a, b = location.project(np.array([[i * spec.cell_mm, 0], [i * spec.cell_mm, spec.height_mm]]))
        cv2.line(out, _pt(a), _pt(b), OUTLINE, thin * (2 if i in (0, n_v - 1) else 1), cv2.LINE_AA)
    for j in range(n_h):
        a, b = location.project(np.array([[0, j * spec.cell_mm], [spec.width_mm, j * spec.cell_mm]]))
        cv2.line(out, _pt(a), _pt(b), OUTLINE, thin * (2 if j in (0, n_h - 1) else 1), cv2.LINE_AA)
    origin = location.project(np.array([[0.0, 0.0]]))[0]
    cv2.circle(out, _pt(origin), 6 * thin, (0, 0, 255), -1, cv2.LINE_AA)
    cv2.putText(out, f"{spec.region} [{location.method}] {location.error_px:.2f}px", (10, 30 * thin),
                cv2.FONT_HERSHEY_SIMPLEX, 0.8 * thin, OUTLINE, 2 * thin, cv2.LINE_AA)
    return out


def draw_observation(image: np.ndarray, location: BoardLocation, observation: Observation) -> np.ndarray:
    """Each cell's reading at the height it was read (attrs "level" when the observer gives one)."""
    out = draw_location(image, location)
    spec = location.spec
    radius = max(3, int(0.3 * _pixels_per_cell(location)))
    for r in range(observation.rows):
        for c in range(observation.cols):
            reading = observation.cell(r, c)
            level = reading.attrs.get("level", 0)
            level = max(level) if isinstance(level, list) else level
            centre = location.project(np.array([spec.cell_centre(r, c)]), float(level or 0))[0]
            colour = COLOURS.get(reading.label, (0, 0, 255) if reading.confidence < 0.5 else (255, 255, 0))
            if reading.label in ("B", "W"):
                cv2.circle(out, _pt(centre), radius, colour, 2, cv2.LINE_AA)
            elif reading.label == ".":
                cv2.circle(out, _pt(centre), 2, colour, -1, cv2.LINE_AA)
            else:
                text = reading.label[:6] + (f"@{level}" if level else "")
                cv2.putText(out, text, (int(centre[0]) - radius, int(centre[1])), cv2.FONT_HERSHEY_SIMPLEX,
                            0.35, colour, 1, cv2.LINE_AA)
            if reading.confidence < 0.5:  # say where the reading is unsure
                cv2.circle(out, _pt(centre), radius + 3, (0, 0, 255), 1, cv2.LINE_AA)
    return out


def _pixels_per_cell(location: BoardLocation) -> float:
    spec = location.spec
    a, b = location.project(np.array([[0.0, 0.0], [spec.cell_mm, 0.0]]))
    return float(np.linalg.norm(b - a))
