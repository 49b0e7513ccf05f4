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

Every change of the memory is also kept in `changes` until the tracker writes it to the journal,
with what caused it, and `replayed` rebuilds the memory from the journal's changes after a restart.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from ..vision.types import CellReading, Observation
from .views.base import ExpectedView

Cell = tuple[str, int, int]
Change = tuple[str, Cell, str | None]  # ('remember', cell, picture) or ('forget', cell, None)
NO_EVIDENCE = CellReading("unread", 0.0)  # every expected cell is as likely (inference.cell_probability)
MAX_REMEMBERED = 48  # a bound: a camera misreading more than this needs calibrating, not patching


def picture(reading: CellReading) -> str:
    """What a reading says a cell shows (its confidence and alternatives vary from look to look)."""
    return json.dumps([reading.label, reading.attrs], sort_keys=True, default=str)


@dataclass
class RejectedReadings:
    cells: dict[Cell, set[str]] = field(default_factory=dict)  # insertion order = oldest first
    changes: list[Change] = field(default_factory=list)  # not yet journaled, oldest first

    @classmethod
    def replayed(cls, changes: Iterable[Change]) -> RejectedReadings:
        """The memory as the journaled changes left it (the same bound, the same order)."""
        memory = cls()
        for action, cell, shown in changes:
            if action == "remember" and shown is not None:
                memory._add(cell, shown)
            else:
                memory.cells.pop(cell, None)
        return memory

    def copy(self) -> RejectedReadings:
        return RejectedReadings({cell: set(shown) for cell, shown in self.cells.items()}, list(self.changes))

    def drain(self) -> list[Change]:
        """The changes made since the last drain (for the journal)."""
        out, self.changes = self.changes, []
        return out

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
            shown = picture(reading)
            self._add((region, r, c), shown)
            self.changes.append(("remember", (region, r, c), shown))
            added += 1
        return added

    def _add(self, cell: Cell, shown: str) -> None:
        seen = self.cells.pop(cell, set())
        self.cells[cell] = seen | {shown}
        while len(self.cells) > MAX_REMEMBERED:  # one at a time: replaying gives the same memory
            self.cells.pop(next(iter(self.cells)))

    def forget(self, cells: Iterable[Cell]) -> None:
        for cell in cells:
            if self.cells.pop(cell, None) is not None:
                self.changes.append(("forget", cell, None))

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
                    self.forget([(region, r, c)])  # the misread is gone
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
