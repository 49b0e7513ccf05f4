"""The data that flows through the vision path (see ARCHITECTURE.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Frame:
    """One camera image (BGR, uint8, HxWx3) with its capture time and where it came from."""

    image: np.ndarray
    timestamp: float  # seconds, monotonic clock of the source
    source: str  # e.g. "picamera2", "opencv:0", "files:/path", "sim:babylon:seed=3"
    index: int = 0


@dataclass(frozen=True)
class CellReading:
    """What is seen on top of one cell, with the confidence of that reading (0..1).

    `label` is an observer-specific class name (e.g. "recess", "pillar1", "tile", "stairs",
    "flower:vine", "cubes"); `attrs` carries extra readings such as a level, a stack height, a
    flower or an icon, each a plain JSON value. `alternatives` lists the next-likeliest readings
    (label, attrs, confidence) so the referee can weigh them against the legal moves.
    """

    label: str
    confidence: float
    attrs: dict[str, Any] = field(default_factory=dict)
    alternatives: tuple[tuple[str, dict[str, Any], float], ...] = ()


@dataclass(frozen=True)
class Observation:
    """What an observer read from one still frame of one board region."""

    region: str  # "babylon.garden", "babylon.quarry", "reclamation", "babel", "baubylon", "grid"
    rows: int
    cols: int
    cells: tuple[tuple[CellReading, ...], ...]  # [row][col], row 0 = the board's top as calibrated
    frame_index: int = 0
    timestamp: float = 0.0
    extras: dict[str, Any] = field(default_factory=dict)  # e.g. tile footprints, gardeners, pawns

    def cell(self, row: int, col: int) -> CellReading:
        return self.cells[row][col]

    @property
    def min_confidence(self) -> float:
        return min((c.confidence for row in self.cells for c in row), default=1.0)
