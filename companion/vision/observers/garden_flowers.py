"""A tile's flower from the part of its dots the camera can see.

Every space of a tile carries its flower's dot in the same corner (the tile's turn). Seen at a
slant, a taller neighbour on the camera's side may hide part of a dot: the fixed patch at the dot's
centre (babylon_garden's flower corners) then mixes the dot with the neighbour's side (a beige
pillar's side passes for a yellow flower, an orange one's for a red flower). Here each dot is read
again from the points of its disc that no neighbour, as read, hides (garden_occlusion.Occlusion):
a dot partly in view gives its own colour, a dot all hidden gives nothing (not a guess from the
colour of what hides it).

The points are made once per geometry; per read only the tile spaces with a hidden dot point are
sampled again (a few dozen points each).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import labels
from ..types import CellReading
from .dimensions import GardenDimensions
from .garden_kernels_flowers import corner_means
from .garden_occlusion import Occlusion
from .garden_tiles import dot_support, pool_flowers

DOT_RADIUS_MM = 2.6  # the printed dot (disc) round its centre
READ_RADIUS_MM = 2.0  # its points read: clear of the disc's blurred rim
DOT_OFFSET_MM = 5.0  # the dot's centre from the space's centre, along both axes
POINT_PITCH_MM = 0.5
MIN_SEEN_POINTS = 3  # a dot shows when at least this many of its points are in view
# A tile shows its flower at all when some corner of one of its spaces supports a flower at least
# this much. Below it the supports are the tile's colour or an occluder's read against the flowers
# (bench seeds 0-5: every tile below 1e-6 read a flower no better than chance, 19 of 72; from 1e-3
# up, 93 of 93 right).
DOT_SEEN = 1e-6
CORNERS = ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0))  # TL, TR, BR, BL (quarter turns 0..3)


def dot_points(cell_mm: float) -> tuple[np.ndarray, np.ndarray]:
    """(P, 2) x, y within a cell of the read points of the four corners' dots, and (P,) each
    point's corner (0..3)."""
    axis = np.arange(-READ_RADIUS_MM, READ_RADIUS_MM + 1e-9, POINT_PITCH_MM)
    grid = np.stack(np.meshgrid(axis, axis), axis=-1).reshape(-1, 2)
    disc = grid[np.hypot(grid[:, 0], grid[:, 1]) <= READ_RADIUS_MM + 1e-9]
    points, corner = [], []
    for k, (sx, sy) in enumerate(CORNERS):
        points.append(disc + [cell_mm / 2 + sx * DOT_OFFSET_MM, cell_mm / 2 + sy * DOT_OFFSET_MM])
        corner.append(np.full(len(disc), k))
    return np.concatenate(points), np.concatenate(corner)


class SeenDots:
    """Per geometry: the dots' points and which of them the neighbours as read hide."""

    def __init__(self, geometry, dims: GardenDimensions, cell_mm: float, levels: list[int]):
        self.geometry, self.dims, self.cell_mm = geometry, dims, cell_mm
        self.points, self.corner = dot_points(cell_mm)
        # Whether the points are the four corners' in turn, as many each (dot_points lays them so).
        self.corner_blocks = bool(len(self.corner) % 4 == 0 and (
            self.corner == np.repeat(np.arange(4), len(self.corner) // 4)).all())
        self.occlusion = Occlusion(geometry, dims, cell_mm, levels, self.points)
        # Where every dot point of every cell shows in the frame at each level's tile top (the
        # points colours() reads, projected once per geometry, not per read): (levels + 1, 64, P, 2).
        self.pixels = np.zeros((max(levels, default=0) + 1, 64, len(self.points), 2))
        for level in levels:
            self.pixels[level] = geometry.to_pixels(self._xyz([(r, c, level) for r in range(8) for c in range(8)])
                                                    ).reshape(64, len(self.points), 2)

    def _xyz(self, cells: list[tuple[int, int, int]]) -> np.ndarray:
        """(n, P, 3) the dot points of each (row, col, level) space, region mm."""
        n = len(cells)
        rc = np.array([(r, c) for r, c, _ in cells], float).reshape(n, 2) * self.cell_mm
        z = np.array([self.dims.tile_top(level) for _, _, level in cells], float)
        return np.concatenate([self.points[None] + rc[:, None, ::-1], np.broadcast_to(z[:, None, None], (n, len(self.points), 1))],
                              axis=-1)

    def hidden(self, rows: list[list[CellReading]], cells: list[tuple[int, int, int]], standing=None) -> np.ndarray:
        """(len(cells), P): the dots' points of each (row, col, level) tile space hidden as read."""
        return self.occlusion.hidden(rows, cells, standing)

    def colours(self, sample, cells: list[tuple[int, int, int]], hidden: np.ndarray,
                sample_pixels=None) -> tuple[np.ndarray, np.ndarray]:
        """Per space (n, 4 corners): the mean Lab of each dot's points in view (n, 4, 3) and how many
        there are (n, 4). `sample(xyz)` gives (m, 3) Lab of region points on the frame read; with
        `sample_pixels(px)` (the same of the points' geometry.to_pixels), the points' projections
        made once per geometry are read instead (the same numbers, less work per read)."""
        n = len(cells)
        means = np.zeros((n, 4, 3))
        counts = np.zeros((n, 4), int)
        seen = ~hidden
        if not seen.any():
            return means, counts
        # Every space's points in view, space after space (as one array: the same numbers).
        if sample_pixels is not None:
            index = np.array([(level, 8 * r + c) for r, c, level in cells], np.int64).reshape(n, 2)
            lab = np.ascontiguousarray(np.asarray(sample_pixels(self.pixels[index[:, 0], index[:, 1]][seen]), float))
        else:
            lab = np.ascontiguousarray(np.asarray(sample(self._xyz(cells)[seen]), float))
        counts = np.empty((n, 4), np.int64)
        corner_means(lab, np.ascontiguousarray(seen), self.corner, means, counts)
        return means, counts


def tile_spaces(rows: list[list[CellReading]]) -> list[tuple[int, int, int]]:
    """(row, col, level) of every cell read as a tile space."""
    return [(r, c, cell.attrs["level"]) for r, row in enumerate(rows) for c, cell in enumerate(row)
            if cell.label == labels.TILE]


def seen_dot_support(rows: list[list[CellReading]], seen: SeenDots, sample, profile, flowers: tuple[str, ...],
                     base: str, models=None, occluder_sure: float = 0.0, sample_pixels=None) -> dict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]]:
    """Per tile space (row, col, level) with a dot point hidden as read: (4 corners, flowers) dot
    support (garden_tiles.dot_support) of each corner's points in view (a corner with fewer than
    MIN_SEEN_POINTS in view supports nothing), and (4,) which corners have a point hidden (the
    others are all in view: the caller keeps their first reading). `sample(xyz)`: Lab of region
    points on the frame read. Only neighbours read at least `occluder_sure` hide anything (a
    reading the camera barely supports is no evidence that a dot is out of view). `sample_pixels`:
    as SeenDots.colours takes it."""
    cells = tile_spaces(rows)
    if not cells:
        return {}
    nothing = CellReading(labels.RECESS, 1.0, {"level": 0})
    occluders = [[cell if cell.confidence >= occluder_sure else nothing for cell in row] for row in rows]
    hidden = seen.hidden(occluders, cells)
    some = hidden.any(axis=1)
    if not some.any():
        return {}
    cells = [cell for cell, s in zip(cells, some, strict=True) if s]
    hidden = hidden[some]
    means, counts = seen.colours(sample, cells, hidden, sample_pixels)
    support = dot_support(profile, np.concatenate([means, np.zeros_like(means)], axis=-1), flowers, base, models=models)
    support = np.where(counts[..., None] >= MIN_SEEN_POINTS, support, 0.0)
    if seen.corner_blocks:  # each corner's points one block, in corner order: one reduction
        corner_hidden = hidden.reshape(len(cells), 4, -1).any(axis=-1)  # (n, 4)
    else:
        corner_hidden = np.stack([hidden[:, seen.corner == k].any(axis=1) for k in range(4)], axis=1)  # (n, 4)
    return {cell: (s, h) for cell, s, h in zip(cells, support, corner_hidden, strict=True)}


def seen_flowers(rows: list[list[CellReading]], first, seen: SeenDots, sample, profile, flowers: tuple[str, ...],
                 base: str, models, occluder_sure: float, cap: float, sample_pixels=None) -> list[list[CellReading]]:
    """garden_tiles.pool_flowers with each dot judged on what the camera sees of it: `first(level,
    r, c)` (4 corners, flowers) is a space's first dot support (fixed patches at the dots'
    centres); a corner with a point hidden by a neighbour read at least `occluder_sure` is judged
    again from its points in view (seen_dot_support). A tile none of whose dots shows at all (no
    support of DOT_SEEN anywhere) keeps the flower its supports give, read no surer than `cap` (the
    camera cannot show it). `sample_pixels`: as SeenDots.colours takes it."""
    again = seen_dot_support(rows, seen, sample, profile, flowers, base, models, occluder_sure, sample_pixels)
    if not again:
        return pool_flowers(rows, first, flowers)
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    support: dict[tuple[int, int, int], np.ndarray] = {}
    unseen: list[tuple[int, int]] = []
    for (_, level), cells in groups.items():
        if not any((r, c, level) in again for r, c in cells):
            continue
        mixed = {}
        for r, c in cells:
            mine = again.get((r, c, level))
            own = np.asarray(first(level, r, c))
            mixed[(r, c, level)] = own if mine is None else np.where(mine[1][:, None], mine[0], own)
        if sum(float(m.sum()) for m in mixed.values()) > 0.0:
            support.update(mixed)
        if max(float(m.max()) for m in mixed.values()) < DOT_SEEN:
            unseen.extend(cells)
    out = pool_flowers(rows, lambda level, r, c: support.get((r, c, level), first(level, r, c)), flowers)
    for r, c in unseen:
        if out[r][c].confidence > cap:
            out[r][c] = replace(out[r][c], confidence=cap)
    return out
