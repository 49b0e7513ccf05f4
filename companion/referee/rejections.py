"""Readings the players rejected, remembered per cell so a persistent misread is not proposed again.

When the players take back a move the camera accepted, dismiss a question or a ruling, or correct
the camera, the readings of the cells that the rejected reading rested on were wrong. The camera
tends to misread the same cell the same way at every look (the same piece under the same light),
so each of those cells is remembered with its picture (the reading's label and attrs). While the
cell shows a rejected picture its reading carries no evidence: it neither pushes a move nor rules
one out. Another picture there is read as usual (the pieces there may have changed), though the
rejected ones stay remembered (a misread may alternate, e.g. a single and a double pillar), until
the cell surely shows what the game expects there (the misread is gone) or a move changes what the
cell should show (the move explains it).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from ..vision.types import CellReading, Observation
from .views.base import ExpectedView

Cell = tuple[str, int, int]
NO_EVIDENCE = CellReading("unread", 0.0)  # every expected cell is as likely (inference.cell_probability)
MAX_REMEMBERED = 48  # a bound: a camera misreading more than this needs calibrating, not patching


def picture(reading: CellReading) -> str:
    """What a reading says a cell shows (its confidence and alternatives vary from look to look)."""
    return json.dumps([reading.label, reading.attrs], sort_keys=True, default=str)


@dataclass
class RejectedReadings:
    cells: dict[Cell, set[str]] = field(default_factory=dict)  # insertion order = oldest first

    def remember(self, cells: Iterable[Cell], latest: Mapping[str, Observation]) -> int:
        """Remember the current reading of each cell (in `latest`, the newest look per region)."""
        added = 0
        for region, r, c in cells:
            obs = latest.get(region)
            if obs is None or not (0 <= r < obs.rows and 0 <= c < obs.cols):
                continue
            reading = obs.cell(r, c)
            if reading is NO_EVIDENCE or reading.label == NO_EVIDENCE.label:
                continue
            seen = self.cells.pop((region, r, c), set())
            self.cells[(region, r, c)] = seen | {picture(reading)}
            added += 1
        while len(self.cells) > MAX_REMEMBERED:
            self.cells.pop(next(iter(self.cells)))
        return added

    def forget(self, cells: Iterable[Cell]) -> None:
        for cell in cells:
            self.cells.pop(cell, None)

    def clear(self) -> None:
        self.cells.clear()

    def mask(self, observations: Mapping[str, Observation], expected: ExpectedView | None = None,
             sure: float = 0.75) -> tuple[dict[str, Observation], frozenset[Cell]]:
        """The observations with every remembered cell that shows a rejected picture made neutral,
        and those cells. A cell read surely as `expected` (the confirmed game) is forgotten."""
        out = dict(observations)
        masked: set[Cell] = set()
        by_region: dict[str, list[tuple[int, int]]] = {}
        for (region, r, c), rejected in list(self.cells.items()):
            obs = observations.get(region)
            if obs is None:
                continue  # not looked at this time: still remembered
            reading = obs.cell(r, c)
            if picture(reading) not in rejected:
                grid = (expected or {}).get(region)
                if grid is not None and reading.confidence >= sure and reading.label == grid[r][c].label \
                        and all(reading.attrs.get(k, v) == v for k, v in grid[r][c].attrs):
                    del self.cells[(region, r, c)]  # the misread is gone
                continue
            by_region.setdefault(region, []).append((r, c))
        for region, where in by_region.items():
            obs = observations[region]
            rows = [list(row) for row in obs.cells]
            for r, c in where:
                rows[r][c] = NO_EVIDENCE
                masked.add((region, r, c))
            out[region] = replace(obs, cells=tuple(tuple(row) for row in rows))
        return out, frozenset(masked)
