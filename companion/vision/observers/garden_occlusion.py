"""Which points of a tile space's middle a taller neighbour nearer the camera hides.

An icon is read from the middle of its space. Seen at a slant, a pillar, a decoration or a higher
tile standing on the camera's side of the space covers part of that middle with its own colours
(a pillar's orange side read as a brown bridge icon). The ray from each point of the middle to the
camera crosses a neighbour's footprint at some height: a piece there whose top is higher hides the
point. Those heights are computed once per geometry (per level, cell, point, neighbour and kind of
footprint); once the neighbours are read, hiding is a comparison.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..types import CellReading
from .dimensions import GardenDimensions
from .garden_kernels_occlusion import hidden_points

NEIGHBOURS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
PILLAR, DECO, TILE = 0, 1, 2  # footprints: a pillar's square, a decoration's, a whole tile space


def camera_height(geometry, nadir: tuple[float, float], probe_mm: float = 40.0) -> float:
    """The camera's height above the board (mm), from where a board point's ray meets a raised
    plane: that point lies on the line to the nadir, at a share of the way of probe_mm / height."""
    a = np.array([nadir[0] + 150.0, nadir[1] + 150.0])
    target = geometry.to_pixels(np.array([[a[0], a[1], 0.0]]))[0]
    b = a.copy()
    for _ in range(8):  # Newton steps on the point at probe_mm that shows where `a` shows
        here = geometry.to_pixels(np.array([[b[0], b[1], probe_mm]]))[0]
        jac = np.column_stack([(geometry.to_pixels(np.array([[b[0] + d[0], b[1] + d[1], probe_mm]]))[0] - here)
                               for d in ((0.5, 0.0), (0.0, 0.5))]) / 0.5
        b = b - np.linalg.solve(jac, here - target)
    share = np.linalg.norm(b - a) / max(np.linalg.norm(np.asarray(nadir) - a), 1e-9)
    return probe_mm / max(share, 1e-6)


class Occlusion:
    """hide_heights[level, cell, point, neighbour, footprint]: the top height (mm) above which a
    piece of that footprint on that neighbour hides the point (inf: never)."""

    def __init__(self, geometry, dims: GardenDimensions, cell_mm: float, levels: list[int], points: np.ndarray,
                 heights: list[float] | None = None):
        """`points` (P, 2): x, y within a cell; they lie at each level's tile top, or at `heights`
        (one per level, mm) when given (a recess floor at 0)."""
        self.dims, self.levels = dims, levels
        heights = [dims.tile_top(level) for level in levels] if heights is None else list(heights)
        nadir = np.asarray(geometry.nadir_xy(), float)
        height = camera_height(geometry, tuple(nadir))
        rows = cols = 8
        sides = np.array([dims.pillar_mm, dims.deco_mm, cell_mm])
        rr, cc = np.divmod(np.arange(rows * cols), cols)
        corner = np.stack([cc, rr], axis=-1) * cell_mm  # (64, 2) x, y
        p = corner[:, None, :] + points[None, :, :]  # (64, P, 2)
        offsets = np.array([(dc, dr) for dr, dc in NEIGHBOURS], float)  # (8, 2) x, y
        centres = corner[:, None, :] + (offsets + 0.5) * cell_mm  # (64, 8, 2) neighbour centres
        out = np.full((len(levels) + 1, rows * cols, len(points), len(NEIGHBOURS), len(sides)), np.inf)
        for k, z in enumerate(heights, start=1):
            towards = (nadir - p)  # per unit t the ray moves this much in x, y ...
            rise = height - z  # ... and this much up
            for f, side in enumerate(sides):
                lo = centres[:, None, :, :] - side / 2.0 - p[:, :, None, :]  # (64, P, 8, 2)
                hi = lo + side
                d = towards[:, :, None, :]
                with np.errstate(divide="ignore", invalid="ignore"):
                    t1, t2 = lo / d, hi / d
                t_in = np.where(d == 0, np.where((lo <= 0) & (hi >= 0), -np.inf, np.inf), np.minimum(t1, t2))
                t_out = np.where(d == 0, np.where((lo <= 0) & (hi >= 0), np.inf, -np.inf), np.maximum(t1, t2))
                enter, leave = t_in.max(axis=-1), t_out.min(axis=-1)  # (64, P, 8)
                crosses = (enter < leave) & (leave > 0) & (enter < 1)
                out[k, :, :, :, f] = np.where(crosses, z + np.maximum(enter, 0.0) * rise, np.inf)
        # Stored point-last (level, cell, neighbour, footprint, point): the compiled test reads one
        # neighbour's heights over all points in a row; hide_heights is the same numbers as a view.
        self.heights_by_point = np.ascontiguousarray(np.moveaxis(out, 2, -1))
        self.hide_heights = np.moveaxis(self.heights_by_point, -1, 2)
        # Per cell and neighbour: the neighbour's cell index (or -1 off the board).
        nb = np.full((rows * cols, len(NEIGHBOURS)), -1)
        for i, (dr, dc) in enumerate(NEIGHBOURS):
            r2, c2 = rr + dr, cc + dc
            ok = (r2 >= 0) & (r2 < rows) & (c2 >= 0) & (c2 < cols)
            nb[ok, i] = (r2 * cols + c2)[ok]
        self.neighbour = nb.astype(np.int64)

    def occluder(self, cell: CellReading) -> tuple[float, int]:
        """(top height mm, footprint) of what a cell's reading stands up as (-inf for a recess)."""
        d = self.dims
        level = cell.attrs.get("level", 0)
        if isinstance(level, list):  # stairs, once paired
            level = max(level)
        if cell.label in (labels.PILLAR1, labels.PILLAR2):
            return d.pillar_top(level), PILLAR
        if cell.label == labels.TILE:
            return d.tile_top(level), TILE
        if cell.label in (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE):
            return d.deco_top(level), DECO
        return -np.inf, PILLAR

    def standing(self, rows: list[list[CellReading]]) -> tuple[np.ndarray, np.ndarray]:
        """(65,) top heights (mm) and (65,) footprints of what each cell's reading stands up as
        (occluder), cells numbered row by row; index 64: off the board (nothing)."""
        memo = self.__dict__.setdefault("_occluders", {})  # per (label, level): a reading's occluder
        tops, kinds = [], []
        for row in rows:
            for cell in row:
                level = cell.attrs.get("level", 0)
                key = (cell.label, tuple(level) if isinstance(level, list) else level)
                made = memo.get(key)
                if made is None:
                    made = memo[key] = self.occluder(cell)
                tops.append(made[0])
                kinds.append(made[1])
        tops.append(-np.inf)
        kinds.append(0)
        return np.array(tops), np.array(kinds)

    def hidden(self, rows: list[list[CellReading]], cells: list[tuple[int, int, int]],
               standing: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """(len(cells), P): for each (row, col, level) the middle's points that the neighbours, as
        read in `rows`, hide. `standing`: standing(rows), when already made (of an Occlusion of
        the same dimensions)."""
        tops, kinds = self.standing(rows) if standing is None else standing
        index = np.array([8 * r + c for r, c, _ in cells], np.int64)
        level = np.array([k for _, _, k in cells], np.int64)
        # One compiled loop (garden_kernels_occlusion): hidden_reference's booleans.
        out = np.empty((len(cells), self.hide_heights.shape[2]), bool)
        hidden_points(self.heights_by_point, self.neighbour, np.asarray(tops, np.float64), np.asarray(kinds, np.int64),
                      index, level, out)
        return out

    def hidden_reference(self, rows: list[list[CellReading]], cells: list[tuple[int, int, int]],
                         standing: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
        """hidden() in numpy: the heights of every (space, neighbour, point) gathered, then compared."""
        tops, kinds = self.standing(rows) if standing is None else standing
        index = np.array([8 * r + c for r, c, _ in cells])
        level = np.array([k for _, _, k in cells])
        nb = self.neighbour[index]  # (n, 8)
        nb = np.where(nb < 0, 64, nb)
        heights = self.hide_heights[level[:, None], index[:, None], :, np.arange(8)[None, :], kinds[nb]]  # (n, 8, P)
        return (tops[nb][..., None] > heights).any(axis=1)
