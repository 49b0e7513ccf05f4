"""A terrace tile is read as one thing: its four spaces share a footprint, a level, a flower and a turn.

Each space is first read on its own (babylon_garden.py). A single space's outline can mislead (a
neighbouring tile's edge, a shadow), and a single space's flower dot can be hidden or blurred; the
tile as a whole rarely is. So:
- footprints: every way of grouping the spaces read as tiles into 2×2 tiles is scored by the
  outline evidence of all the spaces it covers, and the best-supported tiles are taken first;
- flower: the printed dot sits in the same corner of every space of a tile (the tile's turn), so the
  corner and the flower are chosen from the evidence of all its visible spaces together.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .. import labels
from ..types import CellReading
from .garden_kernels_decide import dot_posterior
from .garden_rules import stands_on

POSITIONS = ((0, 0), (0, 1), (1, 0), (1, 1))  # a space's (row, col) within its tile: TL, TR, BL, BR


def tile_id(row: int, col: int) -> str:
    return f"r{row}c{col}"


def parse_tile_id(tile: str) -> tuple[int, int]:
    row, col = (int(v) for v in tile[1:].split("c"))
    return row, col


def dot_corner(meas: dict[str, np.ndarray], expected, tile: str, level: int) -> int:
    """Calibration: which corner (0..3) of its spaces a tile of known place shows its flower in.

    The dot is the same colour in every space and unlike the tile's own colour; a corner that
    catches part of an icon differs from space to space (the icons differ) or looks like the tile.
    """
    tr, tc = parse_tile_id(tile)
    cells = [(tr + dr, tc + dc, i) for i, (dr, dc) in enumerate(POSITIONS)
             if expected[tr + dr][tc + dc][0] == labels.TILE and expected[tr + dr][tc + dc][1].get("tile") == tile]
    if not cells:
        return 0
    colours = np.stack([meas["flower"][level, r, c, :, :3] for r, c, _ in cells])  # (n, 4 corners, Lab)
    base = np.stack([meas["tile_band"][level, r, c, i, :3] for r, c, i in cells]).mean(axis=0)
    unlike = np.linalg.norm(colours - base, axis=-1).mean(axis=0)  # (4,)
    spread = np.linalg.norm(colours - colours.mean(axis=0), axis=-1).mean(axis=0) if len(cells) > 1 else 0.0
    return int(np.argmax(unlike - 2.0 * spread))


def regroup_footprints(rows: list[list[CellReading]], space_score: np.ndarray,
                       sure: float | None = None, moved_floor: float = 0.0) -> list[list[CellReading]]:
    """Choose each tile space's footprint by the tiles that best explain all spaces read as tiles.

    space_score[level, r, c, position]: how well the space at (r, c) looks like the given position
    of a tile at that level (outline and colour). A candidate tile scores the sum over its spaces
    read as tiles at its level; tiles are taken best first, each space joining the first tile that
    claims it. A space keeps its own footprint if no better-supported tile claims it. With `sure`,
    a tile cannot lie where a cell of its footprint shows, at least that surely, a pillar or a
    decoration standing lower than the tile (garden_rules.stands_on): it claims nothing. (Not a
    recess: one seen beside a belvedere may be a neighbour's, by parallax.) A space moved to
    another footprint is read no surer than its score in its new position, or than `moved_floor`
    if that is higher (a cap for readings that were sure, not a new judgement of unsure ones).
    """
    at_level = {(r, c): cell.attrs["level"] for r, row in enumerate(rows) for c, cell in enumerate(row)
                if cell.label == labels.TILE}
    # The same as a grid (None: not read as a tile), looked up a few hundred times below.
    grid: list[list] = [[None] * len(row) for row in rows]
    for (r, c), level in at_level.items():
        grid[r][c] = level
    # Plain floats, read a few hundred times below: only the levels spaces were read at.
    space_score = np.asarray(space_score)
    scores = {level: space_score[level].tolist() for level in set(at_level.values())}
    candidates: dict[tuple[int, int, int], float] = {}
    # Per cell not read as a tile: the highest level what it surely shows stands on (None: it rules
    # out no tile); a tile cannot lie over a piece standing lower than itself (made when asked).
    tops: list[list] = [[_UNASKED] * len(row) for row in rows]
    for (r, c), level in at_level.items():
        level_scores = scores[level]
        for dr, dc in POSITIONS:
            tr, tc = r - dr, c - dc
            if not (0 <= tr <= 6 and 0 <= tc <= 6) or (tr, tc, level) in candidates:
                continue
            total = 0.0
            for i, (er, ec) in enumerate(POSITIONS):
                rr, cc = tr + er, tc + ec
                if grid[rr][cc] == level:
                    value = level_scores[rr][cc][i]
                    total += 0.0 if value < 0.0 else value  # max(value, 0.0): NaN and -0.0 kept
                elif sure is not None:
                    top = tops[rr][cc]
                    if top is _UNASKED:
                        top = tops[rr][cc] = _surely_stands_on(rows[rr][cc], sure)
                    if top is not None and top < level:
                        total = -1.0
                        break
            candidates[(tr, tc, level)] = total
    out = [list(row) for row in rows]
    claimed = [[False] * len(row) for row in rows]
    for (tr, tc, level), total in sorted(candidates.items(), key=lambda kv: -kv[1]):
        if total < 0:
            continue  # it cannot lie there
        for i, (er, ec) in enumerate(POSITIONS):
            r, c = tr + er, tc + ec
            if claimed[r][c] or grid[r][c] != level:
                continue
            if scores[level][r][c][i] <= 0.0:
                continue  # no outline evidence for this place in the tile at all
            claimed[r][c] = True
            cell = out[r][c]
            if cell.attrs["tile"] != tile_id(tr, tc):
                # Moved: its confidence was earned in its own footprint, so it is read no surer
                # than its outline evidence in the new one.
                out[r][c] = CellReading(cell.label, min(cell.confidence, max(scores[level][r][c][i], moved_floor)),
                                        {**cell.attrs, "tile": tile_id(tr, tc)}, cell.alternatives)
    return out


_UNASKED = object()  # regroup_footprints: a cell whose _surely_stands_on was not made yet


def _surely_stands_on(cell: CellReading, sure: float) -> int | None:
    """The highest level a pillar or a decoration read at least `sure` stands on (None for any
    other reading: a recess seen beside a belvedere may be a neighbour's, by parallax)."""
    if cell.confidence < sure or cell.label in (labels.RECESS, labels.TILE):
        return None
    return max(stands_on(cell))


def pool_flowers(rows: list[list[CellReading]], dot_support: Callable[[int, int, int], np.ndarray],
                 flowers: tuple[str, ...]) -> list[list[CellReading]]:
    """One flower per tile: dot_support(level, r, c) gives (4 corners, len(flowers)) support of each
    flower at each corner of that space; the corner (the tile's turn) and then the flower are chosen
    from the sums over the tile's spaces."""
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    out = [list(row) for row in rows]
    for (_, level), cells in groups.items():
        # Summed cell by cell from 0 (each corner's flowers apart), then as plain floats.
        total = np.zeros((4, len(flowers)))  # (4, F)
        for r, c in cells:
            total += dot_support(level, r, c)
        support = total.tolist()
        corner = _first_max([_running_sum(row) for row in support])
        flower = flowers[_first_max(support[corner])]
        for r, c in cells:
            cell = out[r][c]
            if cell.attrs["flower"] != flower:
                out[r][c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "flower": flower}, cell.alternatives)
    return out


def _first_max(values: list[float]) -> int:
    """np.argmax of plain floats: the first best (the first NaN, if any)."""
    best = 0
    for i, value in enumerate(values):
        if value != value:
            return i
        if value > values[best]:
            best = i
    return best


def _running_sum(values: list[float]) -> float:
    """numpy's sum of a few (under 8) values: one running sum from 0."""
    total = 0.0
    for value in values:
        total += value
    return total


def dot_support(profile, features: np.ndarray, flowers: tuple[str, ...], base: str, outlier_d2: float = 16.0,
                models: DotModels | None = None) -> np.ndarray:
    """Per flower (..., len(flowers)): how surely a corner patch shows that flower's dot.

    Judged on the patch's mean colour only (a dot patch and the tile's edge band differ in spread
    for reasons that say nothing of colour), against the flowers, the tile's own colour and an
    "anything else" class (part of an icon, a shadow edge) at a fixed distance. `models`: the
    classes' colour models made once (dot_models of the same profile), else made here. Each patch's
    posterior is one compiled loop (garden_kernels_decide.dot_posterior).
    """
    if models is None:
        models = dot_models(profile, flowers, base)
    features = np.asarray(features)
    lab = np.ascontiguousarray(features[..., :3].reshape(-1, 3), dtype=np.float64)
    out = np.empty((len(lab), len(flowers)))
    dot_posterior(lab, models.means, models.inverses, models.logdets, -0.5 * (outlier_d2 + models.typical), out)
    return out.reshape(*features.shape[:-1], len(flowers))


class DotModels(NamedTuple):
    """dot_support's per-profile constants: per class (flowers, then the base) the colour mean, the
    inverse colour covariance and its log-determinant; and the flowers' typical log-determinant.
    `means` (C, 3), `inverses` (C, 3, 3) and `logdets` (C,): the same, stacked for the kernel."""

    classes: list[tuple[np.ndarray, np.ndarray, float]]
    typical: float
    means: np.ndarray
    inverses: np.ndarray
    logdets: np.ndarray


def dot_models(profile, flowers: tuple[str, ...], base: str) -> DotModels:
    """The colour models dot_support judges by (they depend on the profile only)."""
    classes = []
    for name in (*flowers, base):
        model = profile.classes[name]
        cov = model.cov[:3, :3]
        classes.append((model.mean[:3], np.linalg.inv(cov), np.linalg.slogdet(cov)[1]))
    # The outlier class sits at the typical log-determinant of the flowers.
    typical = float(np.mean([np.linalg.slogdet(profile.classes[f].cov[:3, :3])[1] for f in flowers]))
    stacked = (np.ascontiguousarray(np.stack([np.asarray(c[0], np.float64) for c in classes])),
               np.ascontiguousarray(np.stack([c[1] for c in classes]), dtype=np.float64),
               np.array([c[2] for c in classes], np.float64))
    return DotModels(classes, typical, *stacked)


def tile_support(space: np.ndarray) -> np.ndarray:
    """(levels, 7, 7): for every possible tile (top-left row, col, level), the summed evidence of its
    four spaces, each for its own position in that tile (space: (levels, 8, 8, 4), ≤ 0 = none),
    counting a space only where that position is the one it fits best."""
    levels = space.shape[0]
    # A space supports a tile only in the position it looks most like at that level (a space of
    # the tile beside it must not also vote for this one).
    # (The best of the four positions as whole planes: the same as space.max(axis=-1), NaN
    # included, without numpy's costly reduction of many rows of 4.)
    best = space[..., 0].copy()
    for i in range(1, space.shape[-1]):
        np.maximum(best, space[..., i], out=best)
    agree = np.where(space >= best[..., None], np.maximum(space, 0.0), 0.0)
    total = np.zeros((levels, 7, 7))
    for i, (dr, dc) in enumerate(POSITIONS):
        total += agree[:, dr : dr + 7, dc : dc + 7, i]
    return total
