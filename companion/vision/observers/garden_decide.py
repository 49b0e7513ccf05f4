"""Readings the camera cannot confirm: a piece's top read over a cell whose floor is hidden, exactly
where a neighbour's read top of the same kind shows in the frame at another height.

A recess (or a low tile) behind a taller neighbour is not in view: nothing fits on the board plane
there, and a view of the cell at some height lands on the neighbour's top instead (parallax: a
higher view of a cell shows what lies nearer the nadir, a lower view what lies beyond it), which
then fits as "that piece, on this cell, at that height". One top in the frame, two readings of it;
the one over a hidden floor may be the look-alike, so it is read no surer than a cap (the referee
asks rather than rules on it). Readings themselves are not changed here.

The geometry is made once per camera geometry (FaceCentres, the floor's Occlusion); per frame the
test is a comparison of pixel positions and, for the few cells with a twin, of heights.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import labels
from ..types import CellReading
from .dimensions import GardenDimensions
from .garden_occlusion import Occlusion

DECO_LABELS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)
PILLAR, DECO, TILE = 0, 1, 2  # kinds of top face (a twin is a face of the same kind)
FLOOR_POINTS = 5  # a FLOOR_POINTS × FLOOR_POINTS grid over a recess's floor


def face_of(cell: CellReading) -> tuple[int, int] | None:
    """(kind, level) of the top face a reading shows (None for a recess)."""
    level = cell.attrs.get("level", 0)
    if isinstance(level, list | tuple):  # stairs, once paired: its higher space
        level = max(level)
    if cell.label in (labels.PILLAR1, labels.PILLAR2):
        return PILLAR, int(level)
    if cell.label in DECO_LABELS:
        return DECO, int(level)
    if cell.label == labels.TILE:
        return TILE, int(level)
    return None


class FaceCentres:
    """Where each cell's top face centre shows in the frame, per kind of face and level, and how
    hidden each cell's floor is by its neighbours as read."""

    def __init__(self, geometry, dims: GardenDimensions, cell_mm: float, levels: list[int]):
        self.geometry = geometry
        m = len(levels)
        centres = np.stack(np.meshgrid((np.arange(8) + 0.5) * cell_mm, (np.arange(8) + 0.5) * cell_mm),
                           axis=-1).reshape(-1, 2)
        tops = (dims.pillar_top, dims.deco_top, dims.tile_top)
        px = np.zeros((3, m + 1, 64, 2))
        for kind, top in enumerate(tops):
            for level in range(1, m + 1):
                px[kind, level] = geometry.to_pixels(np.column_stack([centres, np.full(64, top(level))]))
        self.px = px  # (kind, level, cell, 2)
        self.cell_px = float(np.median(np.linalg.norm(np.diff(px[TILE, 1].reshape(8, 8, 2), axis=1), axis=-1)))
        # The floor: a grid over the recess (the board plane), hidden by a taller neighbour nearer the camera.
        half = dims.recess_mm / 2 - 1.0
        axis = cell_mm / 2 + np.linspace(-half, half, FLOOR_POINTS)
        points = np.stack(np.meshgrid(axis, axis), axis=-1).reshape(-1, 2)
        self.floor = Occlusion(geometry, dims, cell_mm, [0], points, heights=[0.0])

    def twins(self, rows: list[list[CellReading]], within: float) -> dict[tuple[int, int], list[tuple[int, int]]]:
        """Per cell: the other cells whose read top face of the same kind, at another level, shows
        within `within` cells of its own in the frame."""
        # (a recess shows no top face: face_of is not asked)
        faces = [(r, c, face) for r, row in enumerate(rows) for c, cell in enumerate(row)
                 if cell.label != labels.RECESS and (face := face_of(cell)) is not None]
        if len(faces) < 2:
            return {}
        levels = self.px.shape[1]
        ids = np.array([(f[0] * levels + f[1]) * 64 + 8 * r + c for r, c, f in faces], np.int64)
        near = self.near_table(within)[ids[:, None], ids[None, :]]
        out: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for i, j in zip(*np.nonzero(near), strict=True):
            out.setdefault(faces[i][:2], []).append(faces[j][:2])
        return out

    def near_table(self, within: float) -> np.ndarray:
        """(F, F), faces numbered (kind, level, cell) row by row: whether two faces of one kind at
        different levels show within `within` cells of each other in the frame (twins' test for
        every pair, made once per geometry and distance: the same numbers as pair by pair).
        Read-only."""
        made = self.__dict__.setdefault("_near", {}).get(within)
        if made is None:
            kinds, levels = self.px.shape[:2]
            flat = self.px.reshape(-1, 2)
            # np.linalg.norm(..., axis=-1)'s numbers (the root of x² + y²), without its reduction.
            dx = flat[:, None, 0] - flat[None, :, 0]
            dy = flat[:, None, 1] - flat[None, :, 1]
            made = np.sqrt(dx * dx + dy * dy) <= within * self.cell_px
            kind = np.repeat(np.arange(kinds), levels * 64)
            level = np.tile(np.repeat(np.arange(levels), 64), kinds)
            made &= (kind[:, None] == kind[None, :]) & (level[:, None] != level[None, :])
            made.setflags(write=False)
            self._near[within] = made
        return made

    def floor_hidden(self, rows: list[list[CellReading]], cells: list[tuple[int, int]],
                     standing: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """(len(cells),): the share of each cell's floor its neighbours, as read, hide (`standing`:
        self.floor.standing(rows), when already made)."""
        if not cells:
            return np.zeros(0)
        hidden = self.floor.hidden(rows, [(r, c, 1) for r, c in cells], standing)
        return hidden.mean(axis=1)


def cap_hidden_twins(rows: list[list[CellReading]], centres: FaceCentres, within: float, twin_sure: float,
                     floor_shows: float, cap: float) -> list[list[CellReading]]:
    """One top in the frame, two readings of it (FaceCentres.twins): a reading over a cell whose
    floor does not show (at least `floor_shows` of it hidden by the neighbours as read), whose
    twin is read at least `twin_sure` surely, is read no surer than `cap` when
    - the twin's own floor shows (less than `floor_shows` of it hidden, not counting this
      reading): had nothing stood on the twin's cell, the board would be seen there, so the twin
      is a piece and this reading may be its look-alike; or
    - the twin is read more surely (neither floor shows: the surer reading stands)."""
    twins = centres.twins(rows, within)
    doubtful = [cell for cell in twins if rows[cell[0]][cell[1]].confidence > cap]
    if not doubtful:
        return rows
    standing = centres.floor.standing(rows)
    hidden = centres.floor_hidden(rows, doubtful, standing).tolist()
    out = [list(row) for row in rows]
    for (r, c), share in zip(doubtful, hidden, strict=True):
        if share < floor_shows:
            continue
        cell = rows[r][c]
        for r2, c2 in twins[(r, c)]:
            twin = rows[r2][c2]
            if twin.confidence < twin_sure:
                continue
            if (twin.confidence > cell.confidence
                    or _floor_hidden_without(centres, standing, (r2, c2), (r, c)) < floor_shows):
                out[r][c] = replace(cell, confidence=cap)
                break
    return out


def _floor_hidden_without(centres: FaceCentres, standing: tuple[np.ndarray, np.ndarray], cell: tuple[int, int],
                          without: tuple[int, int]) -> float:
    """The share of `cell`'s floor hidden by its neighbours as read (`standing`: the floor's
    Occlusion.standing of the readings), `without` read as nothing (a recess stands up as nothing)."""
    tops, kinds = (a.copy() for a in standing)
    nothing = centres.floor.occluder(CellReading(labels.RECESS, 1.0, {"level": 0}))
    tops[8 * without[0] + without[1]], kinds[8 * without[0] + without[1]] = nothing
    return float(centres.floor_hidden([], [cell], (tops, kinds))[0])
