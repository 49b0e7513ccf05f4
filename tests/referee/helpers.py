"""Hand-made observations for tracker tests."""

from __future__ import annotations

import time

from companion.referee.views.base import ExpectedView
from companion.vision.types import CellReading, Observation


def observe(view: ExpectedView, confidence: float = 0.95,
            overrides: dict[tuple[str, int, int], CellReading] | None = None) -> dict[str, Observation]:
    """A clean reading of an expected view, with some cells replaced."""
    overrides = overrides or {}
    out = {}
    for region, grid in view.items():
        cells = tuple(
            tuple(
                overrides.get((region, r, c)) or CellReading(cell.label, confidence, dict(cell.attrs))
                for c, cell in enumerate(row)
            )
            for r, row in enumerate(grid)
        )
        out[region] = Observation(region, len(grid), len(grid[0]), cells)
    return out


def grid_obs(rows: list[str], confidence: float = 0.95,
             unsure: dict[tuple[int, int], tuple[str, float, str, float]] | None = None) -> dict[str, Observation]:
    """A toy-grid observation from strings like ["B..", "...", "..W"]; `unsure` gives
    (label, confidence, alternative label, alternative confidence) for some cells."""
    unsure = unsure or {}
    cells = []
    for r, text in enumerate(rows):
        row = []
        for c, ch in enumerate(text):
            if (r, c) in unsure:
                label, conf, alt, alt_conf = unsure[(r, c)]
                row.append(CellReading(label, conf, {}, ((alt, {}, alt_conf),)))
            else:
                row.append(CellReading(ch, confidence))
        cells.append(tuple(row))
    return {"grid": Observation("grid", len(rows), len(rows[0]), tuple(cells))}


def wait_until(condition, seconds: float = 10.0) -> bool:
    """Poll `condition` every 10 ms until it holds (True) or `seconds` pass (False)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return False
