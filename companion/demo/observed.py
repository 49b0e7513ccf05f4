"""Observations as an observer would give them, made from an expected view with realistic noise.

Used by the demo when the twin or the observers are not available, and by `companion bench
referee`. Noise: every confidence drifts with the lighting; a few cells are read unsurely (the
truth on top, a wrong alternative close behind); fewer are misread (a wrong label on top with low
confidence, the truth as the alternative). Observers are expected to be unsure rather than wrong
when they err; a confident misread is a bug of the observer, not noise the referee must absorb.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..referee.views.base import ExpectedView
from ..vision import labels
from ..vision.types import CellReading, Observation

VOCABULARY = {
    "babylon.garden": labels.BABYLON_GARDEN_LABELS,
    "babylon.quarry": labels.BABYLON_QUARRY_LABELS,
    "reclamation": labels.RECLAMATION_LABELS,
    "babel": (labels.CUBES,),
    "baubylon": (labels.FIELD,),
    "grid": (labels.GRID_EMPTY, labels.GRID_DARK, labels.GRID_LIGHT),
}


def vocabulary(region: str) -> tuple[str, ...]:
    for prefix, words in VOCABULARY.items():
        if region == prefix or region.startswith(prefix + "."):
            return words
    return ()


@dataclass(frozen=True)
class Noise:
    unsure_rate: float = 0.03
    misread_rate: float = 0.006
    drift: float = 0.06  # how far the lighting pulls confidences down at its worst
    drift_period: float = 90.0  # scenes per lighting cycle

    @classmethod
    def clean(cls) -> Noise:
        return cls(0.0, 0.0, 0.0)


def _other(rng: random.Random, words: tuple[str, ...], label: str) -> str | None:
    others = [w for w in words if w != label]
    return rng.choice(others) if others else None


def read_view(view: ExpectedView, rng: random.Random, noise: Noise, tick: int = 0,
              frame_index: int = 0) -> dict[str, Observation]:
    """One still scene's observations of `view`."""
    dim = noise.drift * (0.5 - 0.5 * math.cos(2 * math.pi * tick / noise.drift_period))
    out = {}
    for region, grid in view.items():
        words = vocabulary(region)
        rows = []
        for row in grid:
            cells = []
            for expected in row:
                attrs = dict(expected.attrs)
                conf = rng.uniform(0.88, 0.99) - dim
                roll = rng.random()
                wrong = _other(rng, words, expected.label)
                if roll < noise.misread_rate and wrong is not None:
                    top = rng.uniform(0.40, 0.52)
                    alt = rng.uniform(0.30, min(0.45, 0.98 - top))
                    cells.append(CellReading(wrong, top, {}, ((expected.label, attrs, alt),)))
                elif roll < noise.misread_rate + noise.unsure_rate and wrong is not None:
                    top = rng.uniform(0.55, 0.72)
                    alt = rng.uniform(0.1, 0.98 - top)
                    cells.append(CellReading(expected.label, top, attrs, ((wrong, {}, alt),)))
                else:
                    cells.append(CellReading(expected.label, conf, attrs))
            rows.append(tuple(cells))
        out[region] = Observation(region, len(rows), len(rows[0]) if rows else 0, tuple(rows),
                                  frame_index=frame_index)
    return out
