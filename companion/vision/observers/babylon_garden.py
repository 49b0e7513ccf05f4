"""Babylon player board: the top item of each of the 64 cells, its level, and tile footprints.

Every candidate reading of a cell is tested where it would have to be seen:
- a recess on the board plane; a pillar top, a tile space or a decoration at each level's height;
- the candidate's shape must fit there (fit.py: parallax makes a wrong height fail), and the colour
  inside must look like that kind of piece (appearance profile, learned, never hard-coded).
A tile space is recognised from its own share of the tile's outline: its two outer edges show the
tile's frame and gap, its two inner edges continue into the neighbouring spaces of the same tile.
Which corner of the tile a space is gives the footprint (the tile's top-left cell).

Tiles lie turned any way (a player lays a tile in any of 4 orientations): the flower dot is looked
for in all four corners of a space, and the tile's turn and flower are chosen from all its visible
spaces together (garden_tiles.py). Whether a space has an icon is the share of its middle unlike
the tile's own colour (measured beside it, so light and noise cancel); which icon, the colour of
that icon's core (glyph:* classes, learned at calibration).

Physical sense decides between readings that fit alike: a space belongs to the tile its siblings
also show; a decoration or a pillar off the board stands on a tile whose other spaces show beside
it (else it is a coincidence of parallax at another height, and the same piece at a height with
support beside it is tried first); a cell under a surely read tile shows nothing lower than that
tile (a pillar there stands on it as its colour says, single or double); a decoration fitting as
well as the recess under it hides it, and one standing on a surely read tile's space is what is
seen there. Once the neighbours are read, an icon is read again from the part of its space's middle
that no taller neighbour on the camera's side hides (garden_occlusion.py).

Every test reads only the points it needs (garden_points.py): the point → pixel maps are built once
per geometry, and a frame costs one remap of those points, one 8-bit Lab conversion and a few
array reductions.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from typing import NamedTuple

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BABYLON_GARDEN
from ..types import CellReading, Observation
from . import garden_history
from .common import need_profile
from .dimensions import GARDEN, GardenDimensions
from .fit import Rect, square_rects
from .garden_decide import FaceCentres, cap_hidden_twins
from .garden_flowers import SeenDots, seen_flowers
from .garden_history_view import FaceView, face_view
from .garden_kernels_decide import ClassSupport, glyph_stats
from .garden_kernels_decide import warm as warm_decide_kernels
from .garden_kernels_first import DECO as DECO_KIND
from .garden_kernels_first import PILLAR as PILLAR_KIND
from .garden_kernels_first import RECESS as RECESS_KIND
from .garden_kernels_first import TILE as TILE_KIND
from .garden_kernels_first import best_columns, first_readings
from .garden_kernels_first import warm as warm_first_kernels
from .garden_kernels_flowers import warm as warm_flower_kernels
from .garden_kernels_measure import best_span
from .garden_kernels_occlusion import warm as warm_occlusion_kernels
from .garden_occlusion import Occlusion
from .garden_points import GardenSampler, grid_points, with_level
from .garden_rules import stands_on, tile_fits
from .garden_tiles import (
    dot_corner,
    dot_models,
    dot_support,
    regroup_footprints,
    tile_support,
)
from .geometry import RegionGeometry
from .views import near_sides

DECOS = (labels.STAIRS, labels.FOUNTAIN, labels.BRIDGE, labels.STATUE, labels.BELVEDERE)
SINGLE_DECOS = (labels.STAIRS, labels.STATUE, labels.BELVEDERE)  # one block per space
SPAN_DECOS = (labels.FOUNTAIN, labels.BRIDGE)  # one block over two or three spaces
ICON_CLASSES = tuple(f"icon:{icon}" for icon in labels.ICONS)
GLYPH_CLASSES = tuple(f"glyph:{icon}" for icon in labels.ICONS if icon != "none")  # an icon's own pixels
FLOWER_CLASSES = ("flower0", "flower1", "flower2", "flower3")
TILE_BASE = "tile"
CENTRE_CLASSES = (labels.RECESS, labels.PILLAR1, labels.PILLAR2, *ICON_CLASSES, *DECOS)
MEDIAN_STEP = 2  # a face's majority colour from every other inside point (faster, same readings)
INSIDE_PITCH = 3.5  # mm along a tile space's inside bands between sampled points (across: px_per_cell's pitch)
RING_PITCH = 2.5  # mm along a face's ring bands between sampled points (across: px_per_cell's pitch)
LEVEL_PRIOR = 0.02  # per level: a reading one level higher counts this much less
DOT_WEIGHT = 0.6  # how much a tile space's score relies on a flower dot being seen in a corner
RECESS_TIE_FLOOR = 0.8  # a decoration fitting this well and as well as the recess is what is seen
COVER_SURE = 0.8  # a tile read at least this surely covers its whole footprint
COVER_FIT = 0.3  # and what is read there instead must fit at least this well
DECO_ON_TILE = 0.1  # a decoration fitting this well on a space of a surely read tile stands on it
GHOST_PX = 0.3  # two decoration tops this close in the frame (in cells) are one piece
DECO_TIE = 0.05  # decoration fits at two heights this close are a tie for the neighbours to break
UNSUPPORTED_FALLBACK = 0.25  # a piece with nothing to stand on gives way to a reading scoring this share of its own
GLYPH_DELTA_E = 15.0  # a pixel this far from the tile's colour belongs to a printed icon
MIN_VISIBLE_MIDDLE = 6  # points of a space's middle an icon is read again from when the rest is hidden
GLYPH_SHARE = 0.15  # an icon covers at least this share of a space's middle (all four do)
POSITIONS = ((0, 0), (0, 1), (1, 0), (1, 1))  # a space's (row, col) within its tile: TL, TR, BL, BR
BAND_SIDES = (0, 0, 2, 2)  # per position, the edge (top, right, bottom, left) its clean band runs along
TOP_CANDIDATES = 8  # the best readings of a cell kept for the decisions (of 36)
DOT_SURE = 0.5  # a space shows its tile's flower dot when that flower's dot support is at least this
DOT_BASE = 0.5  # and its clean band looks like a tile at least this surely
STEP_FIT = 0.6  # a stairs step's shape fits at least this well where its colour passes for a pillar's
STEP_COLOUR = 0.05  # and the step's own colour has at least this share of the look-alikes' support
UNCLEAR = 0.3  # a reading less sure than this may give way to what its neighbours allow
SURE = 0.5  # a reading at least this sure constrains its neighbours
NOTHING_FITS = 0.05  # a reading and a best candidate both below this: nothing fits there
PILLAR_GHOST_SHARE = 0.75  # a ghost pillar's tile reading fits at least this share as well
GHOST_CAP = 0.45  # the surest a pillar top read where a surer one shows in the frame can be
TWIN_SURE = 0.3  # a top read at least this surely makes a look-alike of it over a hidden floor doubtful
FLOOR_SHOWS = 0.4  # a cell's floor shows when its neighbours hide less than this share of it
CLAIM_SURE = UNCLEAR  # a tile read this surely on a space carries the pieces on its other spaces (_claimed)
HIGHER_FITS = DECO_ON_TILE  # a higher tile's space fitting this well over a lower tile's is what is seen
SIBLING_SURE = CLAIM_SURE  # a space or piece read this surely shows its tile (_shown_by_sibling)
SIBLINGS_SHOWN = 2  # of a tile's other three spaces, this many show it (_shown_by_sibling)
NO_PRINT = NOTHING_FITS  # a middle whose glyph supports sum below this shows no icon's print (_unprinted)
SLIVER_SHARE = 2 * GLYPH_SHARE  # and only a sliver of it (below this share) unlike the tile: a neighbour's side
MATE_SURE = SURE  # a fountain half read this surely, with no tie of heights (MATE_TIE), gives its other half's level
MATE_TIE = DECO_TIE
HALF_PIECE_SURE = SURE  # a piece read this surely shows the tile under it (_shifted_halves)
HALF_MATE_FITS = NOTHING_FITS  # a space read as a tile fitting at least this shows it (_shifted_halves)


class _Candidate(NamedTuple):  # a tuple: some 2 500 are made per frame
    score: float
    label: str
    level: int
    position: int = -1  # tile spaces: index into POSITIONS


class _CandidateColumns(NamedTuple):
    """What each column of the per-cell score rows is: the recess, then per level a pillar top,
    a one-space decoration, a spanning one and a tile space in each of the 4 positions."""

    label: list[str]
    level: np.ndarray
    position: np.ndarray
    level_l: list[int]
    position_l: list[int]
    tile: np.ndarray  # the tile columns
    meta: list[tuple[str, int, int]]  # per column: (label, level, position), a _Candidate's fields after its score
    kind: np.ndarray  # per column: garden_kernels_first's RECESS, PILLAR, DECO or TILE
    group: np.ndarray  # per column: one number per (label, level), as _reading tells a runner-up

    @classmethod
    def of(cls, levels: list[int]) -> _CandidateColumns:
        label, level, position = [labels.RECESS], [0], [-1]
        for k in levels:
            label += ["pillar", "deco", "deco", *([labels.TILE] * 4)]
            level += [k] * 7
            position += [-1, 0, 1, 0, 1, 2, 3]
        tile = np.array([i for i, name in enumerate(label) if name == labels.TILE])
        kinds = {labels.RECESS: RECESS_KIND, "pillar": PILLAR_KIND, "deco": DECO_KIND, labels.TILE: TILE_KIND}
        groups = list(dict.fromkeys(zip(label, level, strict=True)))
        return cls(label, np.array(level), np.array(position), level, position, tile,
                   list(zip(label, level, position, strict=True)), np.array([kinds[name] for name in label]),
                   np.array([groups.index(key) for key in zip(label, level, strict=True)]))


class _LazyCandidates(dict):
    """last_candidates: a cell's best candidates (at most 6) as _Candidate tuples, made the first
    time a rule looks at that cell (most cells' are never looked at); set like a plain dict."""

    def __init__(self, columns: list[list[int]], count: list[int], scores: list[list[float]],
                 meta: list[tuple[str, int, int]], arrays: tuple[np.ndarray, np.ndarray] | None = None):
        super().__init__()
        # Per cell: its candidates' columns best first, how many, their scores (plain values);
        # `arrays`: the columns and scores as arrays (-1 and anything past the last).
        self.columns, self.count, self.scores, self._meta = columns, count, scores, meta
        self._arrays = arrays

    def behind(self, label: str, floor: float) -> np.ndarray:
        """(64,) whether a candidate after the first of each cell, as made (at most 6), is a
        `label` scoring at least `floor`."""
        if self._arrays is None:
            self._arrays = (np.array([row + [-1] * (max(self.count) - len(row)) for row in self.columns]),
                            np.array([row + [0.0] * (max(self.count) - len(row)) for row in self.scores]))
        columns, scores = self._arrays
        is_label = _label_columns(self._meta, label)
        after = columns[:, 1:6]
        hit = (after >= 0) & is_label[after] & (scores[:, 1:6] >= floor)
        # Column by column, not hit.any(axis=1): numpy's reduction of 64 rows of 5 costs more.
        out = np.zeros(len(hit), bool)
        for k in range(hit.shape[1]):
            out |= hit[:, k]
        return out

    def __missing__(self, key: tuple[int, int]) -> list[_Candidate]:
        r, c = key
        if not (0 <= r < 8 and 0 <= c < 8):
            raise KeyError(key)
        i = 8 * r + c
        n = min(self.count[i], 6)
        new, meta = tuple.__new__, self._meta
        made = self[key] = [new(_Candidate, (score, *meta[j]))
                            for score, j in zip(self.scores[i][:n], self.columns[i][:n], strict=True)]
        return made


_LABEL_COLUMNS: dict[tuple[int, str], tuple[list, np.ndarray]] = {}  # per column table and label


def _label_columns(meta: list[tuple[str, int, int]], label: str) -> np.ndarray:
    """(columns,) whether each column of `meta` (_CandidateColumns.meta) is a `label` (read-only;
    made once per table and label)."""
    made = _LABEL_COLUMNS.get((id(meta), label))
    if made is None or made[0] is not meta:
        if len(_LABEL_COLUMNS) > 64:
            _LABEL_COLUMNS.clear()
        flags = np.array([name == label for name, _, _ in meta], bool)
        flags.setflags(write=False)
        made = _LABEL_COLUMNS[(id(meta), label)] = (meta, flags)
    return made[1]


def _first_score(candidates: dict[tuple[int, int], list[_Candidate]], r: int, c: int) -> float:
    """The score of a cell's first candidate, without making its candidates (_LazyCandidates)
    when no rule has looked at them yet."""
    if (r, c) in candidates or not isinstance(candidates, _LazyCandidates):
        return candidates[(r, c)][0].score
    i = 8 * r + c
    return candidates.scores[i][0] if candidates.count[i] else 0.0


def _any_behind(candidates: dict[tuple[int, int], list[_Candidate]], r: int, c: int, label: str, floor: float) -> bool:
    """Whether a candidate after the first of (r, c) is a `label` scoring at least `floor`; from the
    plain lists when the cell's _Candidate tuples were never made (the same candidates)."""
    if isinstance(candidates, _LazyCandidates) and (r, c) not in candidates:
        i = 8 * r + c
        n = min(candidates.count[i], 6)
        meta = candidates._meta
        return any(meta[j][0] == label and score >= floor
                   for j, score in zip(candidates.columns[i][1:n], candidates.scores[i][1:n], strict=True))
    return any(k.label == label and k.score >= floor for k in candidates[(r, c)][1:])


def _cells_behind(candidates: dict[tuple[int, int], list[_Candidate]], label: str, floor: float) -> set[tuple[int, int]]:
    """The cells (r, c) for which _any_behind(candidates, r, c, label, floor) holds, all at once."""
    if not isinstance(candidates, _LazyCandidates):
        return {(r, c) for r in range(8) for c in range(8) if _any_behind(candidates, r, c, label, floor)}
    cells = {divmod(i, 8) for i in np.flatnonzero(candidates.behind(label, floor)).tolist()}
    for key, cands in candidates.items():  # made, and perhaps reordered by a rule: their own order
        if any(k.label == label and k.score >= floor for k in cands[1:]):
            cells.add(key)
        else:
            cells.discard(key)
    return cells


class GardenObserver:
    region = BABYLON_GARDEN.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: GardenDimensions = GARDEN, px_per_cell: int = 20):
        self.dims = dims
        self.profile = profile
        self.levels = list(range(1, dims.max_level + 1))
        self.m = len(self.levels)
        s = BABYLON_GARDEN.cell_mm
        # Level views lie on the tile tops: a tile's outline, icon and dot are read where they are
        # printed (a pillar top, one tile thickness lower, still fits its wider ring there).
        level_z = [0.0, *(dims.tile_top(level) for level in self.levels)]
        deco_z = [dims.deco_top(level) for level in self.levels]
        pillar_z = [dims.pillar_top(level) for level in self.levels]
        self.near = near_sides(BABYLON_GARDEN, geometry.nadir_xy())
        # Every point the tests below read, sampled per frame in one remap (garden_points.py).
        sampler = self.sampler = GardenSampler(geometry, BABYLON_GARDEN, s / px_per_cell, self.near)
        sampler.set_downscale([*level_z, *deco_z, *pillar_z])
        # Insets are small: the far edge of a top face is where a too-high view shows it. A face's
        # inside is every MEDIAN_STEP-th point of its lattice: its majority colour and the share
        # like it come from the same points (twice the points for the share read no better).
        self._recess = sampler.face(level_z[:1], *square_rects(s, dims.recess_mm, 1.0, (0.8, 2.0)), MEDIAN_STEP,
                                    ring_pitch=RING_PITCH, median_only=True)
        self._pillar = sampler.face(pillar_z, *square_rects(s, dims.pillar_mm, 0.8, (0.8, 2.5)), MEDIAN_STEP,
                                    ring_pitch=RING_PITCH, median_only=True)
        self._deco = sampler.face(deco_z, *square_rects(s, dims.deco_mm, 0.8, (0.8, 2.5)), MEDIAN_STEP,
                                  ring_pitch=RING_PITCH, median_only=True)
        self._tiles, bands = [], []
        for position in POSITIONS:
            inside, ring, band = _space_rects(position, s, dims)
            self._tiles.append(sampler.face(level_z[1:], inside, ring, MEDIAN_STEP, INSIDE_PITCH, bands=True,
                                            ring_pitch=RING_PITCH, median_only=True))
            bands.append(band)
        self._tile_stack = sampler.stack(self._tiles)  # the four positions' tests judged as one
        # The middle 6 mm of a space: inside its icon however the tile is turned, clear of the flower dot.
        # Middles, clean bands, strips and flower corners are read on tile tops only (levels 1..m:
        # no tile lies on the board itself); _measure reports level 0 as zeros.
        centre = (s / 2 - 3, s / 2 - 3, s / 2 + 3, s / 2 + 3)
        self._centre, self._centre_shape = sampler.patch(level_z[1:], centre), sampler.patch_shape(centre)
        # Which points of each middle a taller neighbour on the camera's side would hide.
        self.occlusion = Occlusion(geometry, dims, s, self.levels, grid_points(centre, sampler.pitch))
        # A wider window for a middle that is all hidden: 10 mm, without the corners where a flower
        # dot can be (its centre 5 mm from the space's centre along both axes, 2.6 mm round).
        wide = (s / 2 - 5, s / 2 - 5, s / 2 + 5, s / 2 + 5)
        self._wide_points, self._wide_shape = grid_points(wide, sampler.pitch), sampler.patch_shape(wide)
        off = np.abs(self._wide_points - s / 2)
        self._wide_keep = ~((off[:, 0] > 2.0) & (off[:, 1] > 2.0))
        self.occlusion_wide = Occlusion(geometry, dims, s, self.levels, self._wide_points)
        # Strips along the middle of each edge of a space, clear of dots and icons: the tile's colour.
        strip_rects = _strip_rects(s, dims)
        # Which points of each strip a taller neighbour hides (_hidden_sides), as for the middles.
        self._make_edge_occlusion()
        # A tile space's clean band per position, then the four strips: (K, RC, 8, n) in one.
        # Measured once per distinct rect: a position's clean band is often one of the strips
        # (the top or bottom one), and then has the same points.
        rects = [tuple(round(v, 6) for v in rect) for rect in (*bands, *strip_rects)]
        distinct = list(dict.fromkeys(rects))
        self._bands_strips = sampler.patches(level_z[1:], distinct)
        self._bands_strips_of = np.array([distinct.index(rect) for rect in rects])
        self._band_rects, self._band_of = np.unique(self._bands_strips_of[:4], return_inverse=True)
        # The flower dot sits in one corner of each space; which one depends on how the tile was
        # turned (TL, TR, BR, BL for quarter turns 0..3), so all four corners are measured.
        self._flowers = sampler.patches(level_z[1:], [(fx - 1.6, fy - 1.6, fx + 1.6, fy + 1.6) for fx, fy in _flower_centres(s)])
        sampler.build()
        self._columns = _CandidateColumns.of(self.levels)
        # Where each cell's centre shows at each decoration top (ghost test), and a cell's size there.
        centres = np.stack(np.meshgrid((np.arange(8) + 0.5) * s, (np.arange(8) + 0.5) * s), axis=-1).reshape(-1, 2)
        self._deco_px = np.stack([geometry.to_pixels(np.column_stack([centres, np.full(64, z)])).reshape(8, 8, 2)
                                  for z in deco_z])
        self._cell_px = float(np.median(np.linalg.norm(np.diff(self._deco_px, axis=2), axis=-1)))
        tile_pos = self._columns.position[self._columns.tile]
        cells_r, cells_c = np.divmod(np.arange(64), 8)
        # Per cell and tile column: the top-left cell of that tile (clipped; unfitting ones never count).
        self._tile_r = np.clip(cells_r[:, None] - np.array(POSITIONS)[tile_pos, 0][None, :], 0, 6)
        self._tile_c = np.clip(cells_c[:, None] - np.array(POSITIONS)[tile_pos, 1][None, :], 0, 6)
        self._fits = np.array([[[_position_fits(pos, r, c) for pos in range(4)] for c in range(8)] for r in range(8)])
        self._tile_levels = self._columns.level[self._columns.tile][None, :]  # each tile column's level
        self._level_prior = (1.0 - LEVEL_PRIOR * np.arange(1, self.m + 1))[:, None, None]
        # One read of a blank frame now, not in the live loop's first: it compiles the measurement
        # kernels (or loads them from disk) and lets OpenCV build its Lab tables (~0.7 s). The
        # decisions' kernels and the faces' places in the frame (per geometry) likewise.
        blank = np.zeros((sampler.extent[1] * sampler.downscale, sampler.extent[0] * sampler.downscale, 3), np.uint8)
        self._measure(blank)
        warm_decide_kernels()
        warm_first_kernels()
        warm_flower_kernels()
        warm_occlusion_kernels()
        self._faces = FaceCentres(sampler.geometry, self.dims, BABYLON_GARDEN.cell_mm, self.levels)
        self._faces.near_table(GHOST_PX)  # which faces are twins, pair by pair (~30 ms per geometry)
        self._make_pillar_tops()  # and which pillar tops
        # The flower dots' points and which neighbours hide them (_seen_flowers: ~0.7 s per geometry).
        self._seen_dots = SeenDots(sampler.geometry, self.dims, BABYLON_GARDEN.cell_mm, self.levels)
        # History's view of each cell's face (per geometry, ~0.2 s): made now, not at the first
        # read given a previous one (observe(previous=...)), which would otherwise take that long.
        face_view(self)

    def _make_edge_occlusion(self) -> None:
        """The strips' points (per side, in order) and which of them the neighbours hide (Occlusion)."""
        s = BABYLON_GARDEN.cell_mm
        points = [grid_points(rect, self.sampler.pitch) for rect in _strip_rects(s, self.dims)]
        self._edge_side = np.concatenate([np.full(len(p), side) for side, p in enumerate(points)])
        self.occlusion_edges = Occlusion(self.sampler.geometry, self.dims, s, self.levels, np.concatenate(points))

    # --- measurements ----------------------------------------------------------------------------
    def _measure(self, image: np.ndarray) -> dict[str, np.ndarray]:
        sampler = self.sampler
        lab = sampler.sample(image)
        recess = sampler.fit(lab, self._recess)
        # Pillars and tiles are never at level 0: index 0 of their arrays stays empty (level = index).
        pillar = sampler.fit(lab, self._pillar)
        # A decoration may span two or three spaces in a row (fountain, bridge): also try it open
        # along a row or a column, and keep the best shape.
        deco = sampler.fit(lab, self._deco)
        centre = sampler.pixels(lab, self._centre, level_zero=True).reshape(self.m + 1, 8, 8, *self._centre_shape, 3)
        out = {
            "centre": sampler.features(lab, self._centre, level_zero=True),  # (K, 8, 8, F): the middle of a space (its icon)
            "centre_px": centre,  # (K, 8, 8, h, w, 3) its pixels
            "recess": recess.score[0],
            "recess_f": recess.features[0],
            "pillar": with_level(pillar.score, -1.0),
            "pillar_f": with_level(pillar.features, 0.0),
            # closed or open along a row or column, whichever fits better
            "deco": best_span(deco.inside.ravel(), deco.sides.reshape(-1, 4), deco.score.ravel()).reshape(deco.score.shape),
            "deco_closed": deco.score,  # a one-space piece: its ring closed all round
            "deco_f": deco.features,
        }
        tiles = sampler.scores(lab, self._tile_stack)  # (m, 8, 8, 4) per position: fit(...).score of each
        out["tile"] = with_level(tiles, -1.0)  # (m+1, 8, 8, 4); view 0 is never a tile
        distinct = sampler.features(lab, self._bands_strips, level_zero=True)
        bands_strips = distinct[..., self._bands_strips_of, :]
        out["tile_band"] = bands_strips[..., :4, :]  # (m+1, 8, 8, 4, F) per position
        out["band_rects"] = distinct[..., self._band_rects, :]  # the distinct rects among those 4
        out["strips"] = bands_strips[..., 4:, :]  # (m+1, 8, 8, 4, F) per edge
        out["flower"] = sampler.features(lab, self._flowers, level_zero=True)  # (m+1, 8, 8, 4, F) per corner
        return out

    # --- calibration -----------------------------------------------------------------------------
    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        """Feature vectors per class from a frame of a known layout: expected[row][col] = (label,
        attrs) as observe() reports it, except that a stairs space gives its own level."""
        meas = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        add = lambda name, vec: samples.setdefault(name, []).append(np.asarray(vec))  # noqa: E731
        visible = 0.5  # only cells whose shape fits where it should: not hidden by a taller neighbour
        turns: dict[tuple[str, int], int] = {}
        glyph_share, glyph_features = _glyphs(meas, self.near)
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                if label == labels.RECESS:
                    if meas["recess"][r, c] > visible:
                        add(label, meas["recess_f"][r, c])
                elif label in (labels.PILLAR1, labels.PILLAR2):
                    if meas["pillar"][attrs["level"], r, c] > visible:
                        add(label, meas["pillar_f"][attrs["level"], r, c])
                elif label == labels.TILE:
                    level = attrs["level"]
                    position = _position_of(attrs["tile"], r, c)
                    if meas["tile"][level, r, c, position] <= visible:
                        continue
                    add(f"icon:{attrs['icon']}", meas["centre"][level, r, c])
                    if attrs["icon"] != "none" and glyph_share[level, r, c] >= GLYPH_SHARE:
                        add(f"glyph:{attrs['icon']}", glyph_features[level, r, c])
                    add(TILE_BASE, meas["tile_band"][level, r, c, position])
                    corner = turns.get((attrs["tile"], level))
                    if corner is None:
                        corner = turns[(attrs["tile"], level)] = dot_corner(meas, expected, attrs["tile"], level)
                    add(attrs["flower"], meas["flower"][level, r, c, corner])
                elif label in DECOS:
                    level = attrs["level"]  # a stairs space gives its own level here
                    if meas["deco"][level - 1, r, c] > visible:
                        add(label, meas["deco_f"][level - 1, r, c])
        return samples

    # --- reading ---------------------------------------------------------------------------------
    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0,
                previous: Observation | None = None) -> Observation:
        """Read one still frame. With `previous` (the reading of the scene before), what this
        frame reads unsurely is read with what was seen there before (with_history)."""
        observation = self._observe(image, frame_index, timestamp)
        return with_history(observation, previous, face_view(self)) if previous is not None else observation

    def _observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        need_profile(self.profile, self.region)
        meas = self._measure(image)
        prof = self.profile
        names = prof.names
        idx = {n: i for i, n in enumerate(names)}
        # The four faces' supports over the same classes in one call (each row is judged alone).
        # Not level 0's pillar tops or tile middles: no pillar top or tile lies on the board itself
        # (their supports there stay 0 and are never read).
        post_pillar = np.zeros((*meas["pillar_f"].shape[:-1], len(names)))
        post_centre = np.zeros((*meas["centre"].shape[:-1], len(names)))
        faces = [meas["recess_f"], meas["pillar_f"][1:], meas["deco_f"], meas["centre"][1:]]
        if getattr(self, "_support_of", None) is not prof:  # made once per profile (never changed in place)
            self._support, self._support_of = ClassSupport(prof), prof
            self._name_index = idx  # where each class's support is in a row (for _reading and _icon)
        support = self._support  # prof.support's numbers, compiled
        joint = support(np.concatenate([f.reshape(-1, f.shape[-1]) for f in faces]), CENTRE_CLASSES)
        parts, start = [], 0  # each face's rows of `joint` (views, as np.split's)
        for f in faces:
            end = start + f.size // f.shape[-1]
            parts.append(joint[start:end].reshape(*f.shape[:-1], -1))
            start = end
        post_recess, post_pillar[1:], post_deco, post_centre[1:] = parts
        p_recess = post_recess[..., idx[labels.RECESS]]
        p_pillar = post_pillar[..., idx[labels.PILLAR1]] + post_pillar[..., idx[labels.PILLAR2]]
        # A double pillar adds two levels: its top is never at level 1.
        p_pillar[1] = post_pillar[1, ..., idx[labels.PILLAR1]]
        p_icon = sum(post_centre[..., idx[n]] for n in ICON_CLASSES)
        # A one-space piece must show its ring all round; only a piece spanning spaces (fountain,
        # bridge) may run on into the next space (else a shift along a row passes for a fit).
        p_single = sum(post_deco[..., idx[n]] for n in SINGLE_DECOS)
        p_span = sum(post_deco[..., idx[n]] for n in SPAN_DECOS)
        if getattr(self, "_dot_models_of", None) is not prof:  # made once per profile (never changed in place)
            self._dot_models, self._dot_models_of = dot_models(prof, FLOWER_CLASSES, TILE_BASE), prof
        # Level 0 (the board itself) carries no tile: its dots, icons and clean bands are never
        # read, and are left at 0 rather than judged.
        dots = np.zeros((self.m + 1, 8, 8, 4, len(FLOWER_CLASSES)))  # (m+1, 8, 8, corner, flower)
        dots[1:] = dot_support(prof, meas["flower"][1:], FLOWER_CLASSES, TILE_BASE, models=self._dot_models)
        post = {"pillar": post_pillar, "deco": post_deco, "centre": post_centre, "dots": dots}
        post["glyph_share"] = np.zeros((self.m + 1, 8, 8))
        post["glyph_share"][1:], glyph_features = _glyphs({"centre_px": meas["centre_px"][1:], "strips": meas["strips"][1:]},
                                                          self.near, prof.classes.get(TILE_BASE))
        # Profiles from before glyph classes were learned read icons from the middle's appearance.
        has_glyphs = all(name in names for name in GLYPH_CLASSES)
        post["glyph"] = None
        if has_glyphs:
            post["glyph"] = np.zeros((self.m + 1, 8, 8, len(names)))
            post["glyph"][1:] = support(glyph_features, GLYPH_CLASSES)
        # A position's clean band is one of a few distinct rects (two edge strips): judged once each.
        p_base = np.zeros((self.m + 1, 8, 8, 4))  # (m+1, 8, 8, position)
        band_post = support(meas["band_rects"][1:], (TILE_BASE, labels.RECESS, labels.PILLAR1, labels.PILLAR2, *DECOS))
        p_base[1:] = band_post[..., self._band_of, idx[TILE_BASE]]
        post["base"] = p_base
        # A tile space shows its tile's flower dot in one corner: a tile seen in a view at another
        # height (parallax coincidence) rarely has one where a dot should be.
        dotted = _corner_best(dots)  # (m+1, 8, 8): dots.sum(axis=-1).max(axis=-1)
        space = meas["tile"] * p_base * (0.5 + 0.5 * p_icon[: self.m + 1, ..., None])  # (m+1, 8, 8, 4) per position
        space = space * (1.0 - DOT_WEIGHT + DOT_WEIGHT * dotted[..., None])
        whole = tile_support(space)  # (m+1, 7, 7): each possible tile, from all of its spaces
        post["space"] = space
        # Every candidate's score, as plain floats per cell (one conversion, not one per number).
        # The recess is the bottom: nothing can stand below it, so its shape test only confirms.
        recess_score = (0.6 + 0.4 * np.clip(meas["recess"], 0.0, 1.0)) * p_recess
        # Higher readings are discounted a little: a high view sees everything lower displaced by
        # parallax (more chances of a look-alike), and high pieces are the rarer ones on a table.
        prior = self._level_prior
        per_level = np.stack([meas["pillar"][1:] * p_pillar[1:] * prior, meas["deco_closed"] * p_single * prior,
                              meas["deco"] * p_span * prior], axis=-1)  # (m, 8, 8, 3)
        tile_score = np.where(self._fits, space[1:] * prior[..., None], -np.inf)  # (m, 8, 8, 4)
        # Every candidate of every cell as one row of scores (columns: _CandidateColumns), sorted
        # at once; only the best few of each cell become _Candidate tuples.
        scores = np.concatenate([recess_score.reshape(64, 1),
                                 np.moveaxis(np.concatenate([per_level, tile_score], axis=-1), 0, 2).reshape(64, -1)],
                                axis=1)
        cols = self._columns
        order = np.empty((len(scores), TOP_CANDIDATES), np.int64)  # np.argsort(-scores, stable)[:, :TOP_CANDIDATES]
        best_columns(scores, order)
        # Which tile a space belongs to (footprint and level) is what its siblings say too: a tile
        # seen by parallax coincidence in one space lacks the others.
        tile_scores = scores[:, cols.tile]
        sibling = np.where(tile_scores > 0, whole[self._tile_levels, self._tile_r, self._tile_c] + tile_scores,
                           -np.inf)  # (64, tile columns)
        best_tile = cols.tile[np.argmax(sibling, axis=1)]
        rows = self._first_readings(scores, order, best_tile, meas, post)
        rows = self._deco_levels(rows, meas, post)
        rows = self._impossible_tiles(rows, meas, post)
        rows = self._decos_on_tiles(rows, meas, post)
        rows = self._unsupported(rows, meas, post)
        rows = self._stairs_lookalikes(rows, meas, post)
        rows = self._lone_steps(rows, meas, post)
        rows = self._ghosts(rows, meas, post)
        # A pillar's parallax twin is not sure enough to rule a tile out of a footprint.
        rows, _ = self._pillar_twins(rows)
        rows = regroup_footprints(rows, meas["tile"] * p_base, SURE, GHOST_CAP)
        rows = self._open_recesses(rows, space)
        rows = self._complete_footprints(rows, meas, post)
        rows = self._pillar_ghosts(rows, meas, post)
        rows = self._where_tiles_lie(rows, meas, post)
        rows = _shifted_halves(rows)
        rows = self._covered(rows, meas, post)
        rows = self._pillars_on_tiles(rows, meas, post)
        rows = self._tiles_under_pieces(rows, meas, post)
        rows = self._pieces_on_spaces(rows, meas, post)
        rows = self._dots_in_view(rows, meas, post)
        rows = self._seen_flowers(rows, dots)
        rows = self._occluded_icons(rows, meas, post)
        rows = _pair_stairs(rows)
        rows = self._hidden_twins(rows)
        extras = {"tiles": sorted({cell.attrs["tile"] for row in rows for cell in row if cell.label == labels.TILE})}
        return Observation(self.region, 8, 8, tuple(tuple(row) for row in rows), frame_index, timestamp, extras)

    def _seen_flowers(self, rows, dots):
        """One flower per tile (garden_tiles.pool_flowers), each dot judged on what the camera sees
        of it (garden_flowers.seen_flowers): a corner whose dot a taller neighbour read at least
        UNCLEAR hides in part is judged from the points of its disc still in view; a tile none of
        whose dots shows keeps its first reading, no surer than GHOST_CAP."""
        seen = getattr(self, "_seen_dots", None)
        if seen is None or seen.geometry is not self.sampler.geometry:
            seen = self._seen_dots = SeenDots(self.sampler.geometry, self.dims, BABYLON_GARDEN.cell_mm, self.levels)
        return seen_flowers(rows, lambda level, r, c: dots[level, r, c], seen, self.sampler.sample_points, self.profile,
                            FLOWER_CLASSES, TILE_BASE, self._dot_models, UNCLEAR, GHOST_CAP, self.sampler.sample_pixels)

    def _first_readings(self, scores: np.ndarray, order: np.ndarray, best_tile: np.ndarray, meas, post
                        ) -> list[list[CellReading]]:
        """Every cell's first reading: _reading of its candidates best first. The candidates' order
        and the numbers _reading works out are one compiled loop over the cells
        (garden_kernels_first.first_readings, the same float operations in the same order); what
        is left here builds the readings. The same readings as _reading, number for number
        (tests/vision/test_garden_speed_first.py compares them): a change to _reading belongs in
        the kernel too. Sets last_candidates (per cell, best first, made when first looked at)."""
        cols = self._columns
        at = self._name_index
        cells = len(scores)
        width = order.shape[1]
        columns, count, runner = np.empty((cells, width + 1), np.int64), np.empty(cells, np.int64), np.empty(cells, np.int64)
        confidence, choice, share = np.empty(cells), np.empty(cells, np.int64), np.empty(cells)
        first_readings(scores, np.ascontiguousarray(order), best_tile, cols.kind, cols.group, cols.level, cols.position, RECESS_TIE_FLOOR, 0.05,
                       np.ascontiguousarray(post["pillar"]), np.array([at[labels.PILLAR1], at[labels.PILLAR2]]),
                       np.ascontiguousarray(post["deco"]), np.array([at[n] for n in SINGLE_DECOS]),
                       np.array([at[n] for n in SPAN_DECOS]), np.ascontiguousarray(post["dots"]),
                       columns, count, runner, confidence, choice, share)
        # each column's score, in order (np.take_along_axis's gather, indexed directly)
        ranked = scores[np.arange(cells)[:, None], np.maximum(columns, 0)]
        self.last_candidates = _LazyCandidates(columns.tolist(), count.tolist(), ranked.tolist(), cols.meta,
                                               (columns, ranked))
        meta = cols.meta
        rows: list[list[CellReading]] = []
        for i, (cell_columns, n, conf, pick, flower_share, cell_scores) in enumerate(zip(
                self.last_candidates.columns, self.last_candidates.count, confidence.tolist(), choice.tolist(),
                share.tolist(), self.last_candidates.scores, strict=True)):
            r, c = divmod(i, 8)
            name, k, position = meta[cell_columns[0]]
            if name == labels.TILE:
                dr, dc = POSITIONS[position]
                icon, icon_share = self._icon(meas, post, k, r, c, position)
                label = labels.TILE
                attrs = {"level": k, "tile": f"r{r - dr}c{c - dc}", "flower": FLOWER_CLASSES[pick], "icon": icon}
                conf *= min(icon_share, flower_share)
            else:
                attrs = {"level": k}
                if name == "pillar":
                    label = (labels.PILLAR1, labels.PILLAR2)[pick]
                elif name == "deco":
                    label = (SPAN_DECOS if position == 1 else SINGLE_DECOS)[pick]
                else:
                    label = labels.RECESS
            # The next two candidates, as _reading gives them.
            if n >= 3:
                s1, s2 = cell_scores[1], cell_scores[2]
                alternatives = ((meta[cell_columns[1]][0], {"level": meta[cell_columns[1]][1]}, 0.0 if s1 < 0.0 else s1),
                                (meta[cell_columns[2]][0], {"level": meta[cell_columns[2]][1]}, 0.0 if s2 < 0.0 else s2))
            else:
                alternatives = tuple((meta[j][0], {"level": meta[j][1]}, float(max(s, 0.0)))
                                     for j, s in zip(cell_columns[1:n], cell_scores[1:n], strict=True))
            if c == 0:
                rows.append([])
            rows[-1].append(CellReading(label, conf, attrs, alternatives))
        return rows

    def _hidden_twins(self, rows):
        """A reading over a cell whose floor a taller neighbour hides, showing in the frame exactly
        where another read top of its kind shows at another height, may be that top's parallax
        look-alike (a hidden recess read as its neighbour): read no surer than GHOST_CAP
        (garden_decide.cap_hidden_twins). Readings are not changed."""
        faces = getattr(self, "_faces", None)
        if faces is None or faces.geometry is not self.sampler.geometry:
            faces = self._faces = FaceCentres(self.sampler.geometry, self.dims, BABYLON_GARDEN.cell_mm, self.levels)
        return cap_hidden_twins(rows, faces, GHOST_PX, TWIN_SURE, FLOOR_SHOWS, GHOST_CAP)

    def _deco_levels(self, rows, meas, post):
        """A decoration stands on a tile space: when it fits two heights alike (a piece close below
        the camera barely moves between views), the height more of its neighbours stand on wins
        (tile spaces of that level and pieces standing on one; not pieces of its own kind)."""
        out = [list(row) for row in rows]
        for r in range(8):
            for c in range(8):
                if rows[r][c].label not in DECOS:
                    continue
                cands = self.last_candidates[(r, c)]
                if cands[0].label != "deco":
                    continue
                rival = next((k for k in cands[1:] if k.label == "deco" and k.level != cands[0].level), None)
                if rival is None or rival.score < cands[0].score - DECO_TIE:
                    continue
                # A fountain joins two icons at one level (babylon.deco.fountain): the level of its
                # other half, read surely beside it in a row or column (never diagonally,
                # babylon.deco.icon) with no tie of its own, when that is one of the two. (Not a
                # bridge: its middle spans a gap, and its parts' heights are fitted alike more often.)
                mate = _fountain_mate_level(rows, r, c, self._tied_heights)
                if mate in (cands[0].level, rival.level):
                    if mate == rival.level:
                        cands = [rival, *(k for k in cands if k is not rival)]
                        self.last_candidates[(r, c)] = cands
                        out[r][c] = self._reading(cands, meas, post, r, c)
                    continue
                # What stands on each level round it (a pillar too), not counting pieces of its own
                # kind: a fountain's other half read unsurely shows the same height for the same reason.
                beside = Counter(k for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                                 if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c)
                                 and rows[rr][cc].label != rows[r][c].label for k in stands_on(rows[rr][cc]))
                if beside[rival.level] > beside[cands[0].level]:
                    cands = [rival, *(k for k in cands if k is not rival)]
                    self.last_candidates[(r, c)] = cands
                    out[r][c] = self._reading(cands, meas, post, r, c)
        return out

    def _tied_heights(self, r: int, c: int) -> bool:
        """Whether cell (r, c)'s best candidate is a decoration another height of which scores
        within MATE_TIE of it (a piece close below the camera fits every height alike)."""
        cands = self.last_candidates[(r, c)]
        return cands[0].label == "deco" and any(k.label == "deco" and k.level != cands[0].level
                                                and k.score >= cands[0].score - MATE_TIE for k in cands[1:])

    def _impossible_tiles(self, rows, meas, post):
        """A tile space read where no tile can lie, as cells read more surely say (one of its
        footprint shows something lower, or another tile at its level: garden_rules.tile_fits),
        gives way to its best reading that is not such a tile, when that fits at all."""
        out = [list(row) for row in rows]
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label != labels.TILE or cell.confidence < UNCLEAR:
                    continue
                surer = max(SURE, cell.confidence)
                level, position = cell.attrs["level"], _position_of(cell.attrs["tile"], r, c)
                if tile_fits(rows, r, c, level, position, surer)[0]:
                    continue
                cands = self.last_candidates[(r, c)]
                other = next((k for k in cands[1:] if k.label != labels.TILE
                              or tile_fits(rows, r, c, k.level, k.position, surer)[0]), None)
                if other is None or other.score < UNSUPPORTED_FALLBACK * cands[0].score:
                    continue
                self.last_candidates[(r, c)] = [other, *(k for k in cands if k is not other)]
                out[r][c] = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
        return out

    def _decos_on_tiles(self, rows, meas, post):
        """A decoration stands on a tile space (babylon.deco.icon; a belvedere on the space of a tile
        laid on 3 pillars, babylon.build.support): where one fits at a
        tile's level about as well as the best reading, and that reading cannot be what is there,
        the decoration is what is seen:
        - an unclear tile space (its siblings chose the tile; its own view fits poorly), the
          decoration standing at its level, or at the level of a tile read beside it when no tile
          can lie where the space was read (garden_rules.tile_fits: a parallax look-alike of a
          higher tile beyond the decoration);
        - a recess read unsurely on a cell that a tile read on at least two of its other spaces
          covers (babylon.build.covered_space: the decoration stands on that tile's space, and
          the board seen is beside it)."""
        out = [list(row) for row in rows]
        mates = None  # _tile_mates(rows), made when first needed
        behind = _cells_behind(self.last_candidates, "deco", RECESS_TIE_FLOOR)
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if (r, c) not in behind:
                    continue
                cands = self.last_candidates[(r, c)]
                if mates is None:
                    mates = _tile_mates(rows)
                if cell.label == labels.TILE and cell.confidence < UNCLEAR:
                    level, position = cell.attrs["level"], _position_of(cell.attrs["tile"], r, c)
                    levels = {level}  # on this very space (its siblings chose the tile, its own view fits poorly)
                    if not tile_fits(rows, r, c, level, position, SURE)[0]:
                        levels = {level for (_, level), n in mates.get((r, c), {}).items() if n >= 1}
                elif cell.label == labels.RECESS and cell.confidence < COVER_SURE:
                    levels = {level for (_, level), n in mates.get((r, c), {}).items() if n >= 2}
                else:
                    continue
                deco = next((k for k in cands[1:] if k.label == "deco" and k.level in levels
                             and k.score >= RECESS_TIE_FLOOR), None)
                if deco is None:
                    continue
                self.last_candidates[(r, c)] = [deco, *(k for k in cands if k is not deco)]
                # Chosen by what can stand there over a reading that fits as well or better: not sure.
                reading = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
                out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
        return out

    @staticmethod
    def _tile_under(rows, r: int, c: int, level: int, tile: str) -> bool:
        """Whether `tile` (read at `level` on one of its other spaces) lies under (r, c): at least
        two of its other spaces show it or something standing on its level (garden_rules.tile_fits)."""
        fits, support = tile_fits(rows, r, c, level, _position_of(tile, r, c), SURE)
        return fits and support >= 2

    def _ghosts(self, rows, meas, post):
        """One decoration top per place in the frame: a decoration read at a height where its top
        would show exactly where another decoration of its kind shows at another height (its
        parallax ghost, a cell away) is that other piece, when the other stands on something of
        another kind beside it and the ghost does not (or, both alike, the lower one is kept)."""
        found = [(r, c, cell) for r, row in enumerate(rows) for c, cell in enumerate(row)
                 if cell.label in DECOS and cell.label != labels.STAIRS]
        if len(found) < 2:
            return rows
        def supported(r, c, cell):
            level = cell.attrs["level"]
            return any((rows[rr][cc].label == labels.TILE or rows[rr][cc].label in DECOS)
                       and rows[rr][cc].label != cell.label and rows[rr][cc].attrs.get("level") == level
                       for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                       if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c))
        out = [list(row) for row in rows]
        for r, c, cell in found:
            here = self._deco_px[cell.attrs["level"] - 1, r, c]
            for r2, c2, other in found:
                if other.label != cell.label or other.attrs["level"] == cell.attrs["level"]:
                    continue
                # (few pairs pass the test above: np.hypot per pair is cheaper than all at once)
                there = self._deco_px[other.attrs["level"] - 1, r2, c2]
                if np.hypot(*(here - there)) > GHOST_PX * self._cell_px:
                    continue
                mine, theirs = supported(r, c, cell), supported(r2, c2, other)
                # Both alike: the lower is kept, unless only this one is read surely and the
                # other unclearly (a hidden cell's look-alike of it, babylon.deco.icon: one
                # piece, one place).
                plain = cell.confidence >= SURE and other.confidence < UNCLEAR
                ghost = (theirs and not mine) or (mine == theirs and cell.attrs["level"] > other.attrs["level"] and not plain)
                if not ghost:
                    continue
                cands = self.last_candidates[(r, c)]
                rest = [k for k in cands if not (k.label == "deco" and k.level == cell.attrs["level"])]
                if rest:
                    self.last_candidates[(r, c)] = rest + [k for k in cands if k not in rest]
                    out[r][c] = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
                break
        return out

    def _open_recesses(self, rows, space):
        """A tile cannot lie over a recess that is surely seen: a space whose footprint would cover
        one belongs to the tile in the best position (as its own outline says) that covers none."""
        out = [list(row) for row in rows]
        if not any(cell.label == labels.RECESS and cell.confidence >= COVER_SURE for row in rows for cell in row):
            return out  # no recess surely seen: no footprint covers one
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                if cell.label != labels.TILE:
                    continue
                level = cell.attrs["level"]

                def open_recess(tile_id: str, r=r, c=c) -> bool:
                    return any(0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c) and rows[rr][cc].label == labels.RECESS
                               and rows[rr][cc].confidence >= COVER_SURE for rr, cc, _ in _footprint_cells(tile_id))

                if not open_recess(cell.attrs["tile"]):
                    continue
                options = [(float(space[level, r, c, pos]), pos) for pos in range(4) if _position_fits(pos, r, c)
                           and not open_recess(f"r{r - POSITIONS[pos][0]}c{c - POSITIONS[pos][1]}")]
                if not options:
                    continue
                score, pos = max(options)
                if score <= 0:
                    continue
                dr, dc = POSITIONS[pos]
                out[r][c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "tile": f"r{r - dr}c{c - dc}"},
                                        cell.alternatives)
        return out

    def _unsupported(self, rows, meas, post):
        """Pieces stand on something, and what they stand on shows beside them:
        - a decoration stands on a tile space, and the tile's other spaces (or what stands on
          them) are beside it at the same level; a stairs piece spans two neighbouring spaces one
          level apart;
        - a pillar not on the board stands on a tile space, and the tile's other spaces (or what
          stands on them) are beside it at that level.
        A piece read with no such neighbour is more likely the next reading of another kind (a
        pillar top of a decoration's colour, a piece seen by a coincidence of parallax at another
        height), when that reading fits at all and is not a piece with nothing to stand on
        either (_stands_beside); else it stays, no surer than GHOST_CAP."""
        out = [list(row) for row in rows]
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label in DECOS:
                    kind = "deco"
                elif cell.label in (labels.PILLAR1, labels.PILLAR2):
                    kind = "pillar"
                else:
                    continue
                level = cell.attrs["level"]
                beside = [rows[rr][cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= rr < 8 and 0 <= cc < 8]
                around = [rows[rr][cc] for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                          if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c)]
                if cell.label == labels.STAIRS:
                    if any(b.label == labels.STAIRS and abs(b.attrs["level"] - level) == 1 for b in beside):
                        continue
                elif kind == "deco":
                    # A tile space of its level, or a piece standing on one (a pillar too: the
                    # tile's other spaces may all carry pillars).
                    if any(level in stands_on(b) for b in around):
                        continue
                else:
                    base = level - (1 if cell.label == labels.PILLAR1 else 2)
                    if base <= 0 or any(_base_level(b) == base for b in around):
                        continue
                cands = self.last_candidates[(r, c)]
                if kind == "deco" and cell.label != labels.STAIRS:
                    # The same piece at a height where it has something to stand on beside it
                    # (two pieces of one colour side by side fit as one at a wrong height).
                    beside_levels = {b.attrs["level"] for b in around if b.label == labels.TILE or b.label in SINGLE_DECOS}
                    same = next((k for k in cands if k.label == "deco" and k.level in beside_levels
                                 and k.score > DECO_ON_TILE), None)
                    if same is not None:
                        out[r][c] = self._reading([same, *(k for k in cands if k is not same)], meas, post, r, c)
                        continue
                if kind == "pillar":
                    # A pillar top close below the camera fits two heights nearly alike: the one
                    # with something to stand on in view (babylon.build.pillars) first.
                    same = self._supported_pillar(cands, around, meas, post, r, c)
                    if same is not None:
                        out[r][c] = same
                        continue
                other = next((k for k in cands if k.label != kind), None)
                if other is None or other.score < UNSUPPORTED_FALLBACK * cands[0].score:
                    continue
                cands = [other, *(k for k in cands if k is not other)]
                reading = self._reading(cands, meas, post, r, c)
                if not _stands_beside(reading, around):
                    # No better: a piece with nothing to stand on either. What it stands on is
                    # not in view (a higher tile may hide it): not surely.
                    out[r][c] = replace(cell, confidence=min(cell.confidence, GHOST_CAP))
                    continue
                out[r][c] = reading
        return out

    def _supported_pillar(self, cands, around, meas, post, r: int, c: int) -> CellReading | None:
        """A pillar candidate of (r, c) at another height fitting at least PILLAR_GHOST_SHARE as
        well as its first whose reading has something to stand on among `around` (_stands_beside:
        the board, or a surface of its foot's level), as read; else None."""
        for k in cands[1:]:
            if k.label != "pillar" or k.level == cands[0].level or k.score < PILLAR_GHOST_SHARE * cands[0].score:
                continue
            order = [k, *(x for x in cands if x is not k)]
            reading = self._reading(order, meas, post, r, c)
            if _stands_beside(reading, around):
                self.last_candidates[(r, c)] = order
                return reading
        return None

    def _stairs_lookalikes(self, rows, meas, post):
        """A stairs piece is two steps on neighbouring spaces one level apart (babylon.deco.stairs),
        each a decoration's top at its own space's height; a step's colour can pass for a
        pillar's top (its look-alike under some lights), and a step then fits as a pillar one
        parallax shift higher, where its shape fits worse. Two neighbours read as pillars (or
        one as a pillar, the other as a stairs step) whose shapes fit as steps one level apart
        at least STEP_FIT, and better than as what they are read, with a colour a step's or a
        pillar's (the step's own at least STEP_COLOUR of it: side by side, double pillars one
        level apart look like steps too), are that stairs (not surely: the colour said
        otherwise)."""
        pillars = [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row)
                   if cell.label in (labels.PILLAR1, labels.PILLAR2)]
        if not pillars:
            return rows
        at = self._name_index
        lookalike = [at[labels.STAIRS], at[labels.PILLAR1], at[labels.PILLAR2]]
        fits = meas["deco_closed"].tolist()  # (m, 8, 8) as plain floats (the same numbers)

        def step_fit(r: int, c: int, level: int) -> float:
            """How well (r, c) shows a step's top at `level` (0 when it does not, or fits its
            reading better)."""
            if not 1 <= level <= self.m or fits[level - 1][r][c] < STEP_FIT:
                return 0.0
            cell = rows[r][c]
            fit = fits[level - 1][r][c]
            support = post["deco"][level - 1, r, c]
            alike = float(support[lookalike].sum())
            if fit < STEP_FIT or alike < SURE or float(support[lookalike[0]]) < STEP_COLOUR * alike:
                return 0.0
            if cell.label in (labels.PILLAR1, labels.PILLAR2) and fit <= float(meas["pillar"][cell.attrs["level"], r, c]):
                return 0.0
            return fit

        out = [list(row) for row in rows]
        for r, c in pillars:
            cell = rows[r][c]
            best = None
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= rr < 8 and 0 <= cc < 8):
                    continue
                other = rows[rr][cc]
                if other.label == labels.STAIRS:
                    pairs = [(other.attrs["level"] + d, other.attrs["level"]) for d in (-1, 1)]
                elif other.label in (labels.PILLAR1, labels.PILLAR2):
                    pairs = [(k, k + d) for k in self.levels for d in (-1, 1)]
                else:
                    continue
                for mine, theirs in pairs:
                    here = step_fit(r, c, mine)
                    there = 1.0 if other.label == labels.STAIRS else step_fit(rr, cc, theirs)
                    if here > 0 and there > 0 and (best is None or min(here, there) > best[0]):
                        best = (min(here, there), mine, rr, cc, theirs)
            if best is None:
                continue
            fit, mine, rr, cc, theirs = best
            support = post["deco"][mine - 1, r, c][lookalike]
            out[r][c] = CellReading(labels.STAIRS, min(fit * float(support[0] / max(support.sum(), 1e-9)), GHOST_CAP),
                                    {"level": mine}, cell.alternatives)
            if rows[rr][cc].label != labels.STAIRS:
                support = post["deco"][theirs - 1, rr, cc][lookalike]
                out[rr][cc] = CellReading(labels.STAIRS, min(fit * float(support[0] / max(support.sum(), 1e-9)), GHOST_CAP),
                                          {"level": theirs}, rows[rr][cc].alternatives)
        return out

    def _lone_steps(self, rows, meas, post):
        """A stairs piece is two steps on neighbouring spaces one level apart (babylon.deco.stairs):
        a step read with no step one level apart beside it has its other step on the neighbour
        read less than SURE whose candidates include a stairs step one level apart fitting at
        least NOTHING_FITS (the best such), read as that step no surer than GHOST_CAP."""
        steps = [(r, c) for r, row in enumerate(rows) for c, cell in enumerate(row) if cell.label == labels.STAIRS]
        if not steps:
            return rows
        out = [list(row) for row in rows]
        for r, c in steps:
            if _paired_stairs(out, r, c):
                continue
            level = out[r][c].attrs["level"]
            best = None
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if not (0 <= rr < 8 and 0 <= cc < 8) or out[rr][cc].label == labels.STAIRS or out[rr][cc].confidence >= SURE:
                    continue
                for k in self.last_candidates[(rr, cc)]:
                    if (k.label == "deco" and k.position == 0 and abs(k.level - level) == 1 and k.score >= NOTHING_FITS
                            and (best is None or k.score > best[0].score)):
                        best = (k, rr, cc)
            if best is None:
                continue
            k, rr, cc = best
            cands = self.last_candidates[(rr, cc)]
            order = [k, *(x for x in cands if x is not k)]
            reading = self._reading(order, meas, post, rr, cc)
            if reading.label != labels.STAIRS:
                continue  # its colour is another decoration's
            self.last_candidates[(rr, cc)] = order
            out[rr][cc] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
        return out

    def _covered(self, rows, meas, post):
        """babylon.build.covered_space from the camera's side: a cell under a tile read surely
        (its footprint, from the tile's visible spaces) shows that tile or something standing on
        it, never anything lower. A lower reading there gives way to the best candidate that is at
        least as high (a pillar standing on the tile, a decoration on it, a higher tile that can
        lie there: garden_rules.tile_fits); a tile space at the covering tile's own level is that
        tile's space. A piece so chosen that stands higher with nothing to stand on in view gives
        way to one standing on the covering tile (_on_floor)."""
        floor = np.zeros((8, 8), int)
        cover: dict[tuple[int, int], str] = {}  # the tile that sets each cell's floor
        for row in rows:
            for cell in row:
                if cell.label == labels.TILE and cell.confidence > COVER_SURE:
                    for r, c, _ in _footprint_cells(cell.attrs["tile"]):
                        if 0 <= r < 8 and 0 <= c < 8 and cell.attrs["level"] > floor[r, c]:
                            floor[r, c] = cell.attrs["level"]
                            cover[(r, c)] = cell.attrs["tile"]
        out = [list(row) for row in rows]
        if not floor.any():
            return out  # no tile read surely: nothing is known to be covered
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if floor[r, c] == 0 or _seen_level(cell) >= floor[r, c]:
                    continue
                cands = self.last_candidates[(r, c)]
                for above in cands:
                    if _candidate_level(above) < floor[r, c] or above.score <= COVER_FIT:
                        continue
                    if (above.label == labels.TILE and above.level > floor[r, c]
                            and not tile_fits(rows, r, c, above.level, above.position, SURE)[0]):
                        continue  # a higher tile that cannot lie there (surer cells show it lower)
                    rest = [k for k in cands if k is not above]
                    moved = (above.label == labels.TILE and above.level == floor[r, c]
                             and above.position != _position_of(cover[(r, c)], r, c))
                    if moved:
                        # At the covering tile's level only that tile lies there (two tiles at
                        # one level over one cell cannot): its space, not surely.
                        above = above._replace(position=_position_of(cover[(r, c)], r, c))
                    # A pillar candidate's top may be a single's or a double's: what its colour
                    # says must stand on the tile too (a double one level lower stands beneath it).
                    reading = self._reading([above, *rest], meas, post, r, c)
                    if _seen_level(reading) >= floor[r, c]:
                        out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP)) if moved else reading
                        on = self._on_floor(rows, meas, post, reading, r, c, int(floor[r, c]))
                        if on is not None:
                            out[r][c] = on
                        break
        return out

    def _on_floor(self, rows, meas, post, reading: CellReading, r: int, c: int, floor: int) -> CellReading | None:
        """For a piece _covered reads over a tile at `floor` that stands higher with nothing to stand
        on in view (_stands_beside): the piece standing on that tile itself (babylon.build.pillars,
        babylon.deco.icon: pieces stand on tile spaces), from a candidate fitting at least
        DECO_ON_TILE, no surer than GHOST_CAP; else None."""
        if reading.label not in DECOS and reading.label not in (labels.PILLAR1, labels.PILLAR2):
            return None
        around = [rows[rr][cc] for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                  if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c)]
        if floor in stands_on(reading) or _stands_beside(reading, around):
            return None
        cands = self.last_candidates[(r, c)]
        for k in cands:
            if k.label not in ("pillar", "deco") or k.score <= DECO_ON_TILE:
                continue
            order = [k, *(x for x in cands if x is not k)]
            found = self._reading(order, meas, post, r, c)
            if stands_on(found) == (floor,):
                self.last_candidates[(r, c)] = order
                return replace(found, confidence=min(found.confidence, GHOST_CAP))
        return None

    def _complete_footprints(self, rows, meas, post):
        """A tile is 2×2: a space read confidently tells its three siblings' footprint, level and
        flower. An unclear sibling whose own outline fits that tile there becomes that tile's space
        (its icon read at that level); a sibling read with another flower takes the majority's."""
        out = [list(row) for row in rows]
        confident = [(cell.confidence, cell.attrs) for row in rows for cell in row
                     if cell.label == labels.TILE and cell.confidence > 0.5]
        # Higher tiles first: where two sure tiles' footprints both take a cell, the higher one
        # covers the lower one's space there (babylon.build.covered_space, babylon.level), so a
        # cell a higher tile completed is not a lower tile's.
        completed: dict[tuple[int, int], int] = {}
        for conf, attrs in sorted(confident, key=lambda x: (-x[1]["level"], -x[0])):
            level = attrs["level"]
            for r, c, position in _footprint_cells(attrs["tile"]):
                if not (0 <= r < 8 and 0 <= c < 8) or completed.get((r, c), -1) > level:
                    continue
                cell = out[r][c]
                same_tile = cell.label == labels.TILE and cell.attrs.get("tile") == attrs["tile"] and cell.attrs.get("level") == level
                if same_tile and cell.attrs.get("flower") != attrs["flower"] and cell.confidence < conf:
                    out[r][c] = CellReading(cell.label, cell.confidence, {**cell.attrs, "flower": attrs["flower"]}, cell.alternatives)
                    continue
                # Unclear means nothing fits well there, not two heights of one thing fitting alike.
                unclear = cell.confidence < 0.3 and self.last_candidates[(r, c)][0].score < 0.5
                if not unclear or (cell.label in DECOS and level in stands_on(cell)) or _paired_stairs(out, r, c):
                    continue  # a decoration standing on the tile's level stands on this space; a stairs
                    # piece one level apart from its other half spans this tile's level and the next
                # A space of a higher tile fitting here better than this tile's own (at least
                # HIGHER_FITS), whose tile another of its spaces shows, is what is seen: that tile
                # covers this one's space (babylon.build.covered_space), no surer than GHOST_CAP.
                higher = self._higher_space(out, r, c, level, position)
                if higher is not None:
                    cands = self.last_candidates[(r, c)]
                    seen = self._reading([higher, *(k for k in cands if k is not higher)], meas, post, r, c)
                    out[r][c] = replace(seen, confidence=min(seen.confidence, GHOST_CAP))  # chosen over the first
                    completed[(r, c)] = higher.level
                    continue
                # The space's own outline fits that tile there; or, where it cannot show (a piece
                # standing on a sibling space covers the inner edges), the space shows the tile's
                # colour and its flower dot in the tile's corner, at the tile's height.
                outline = float(meas["tile"][level, r, c, position])
                dot = self._shows_dot(out, meas, post, attrs, r, c, position)
                if outline <= 0.3 and dot < DOT_SURE:
                    continue
                # A decoration standing on this very space hides its middle: with a decoration of
                # its level among the best readings (weak when a piece of its colour stands just
                # beyond it), the decoration is what is seen, the space under it is the tile's.
                deco = next((k for k in self.last_candidates[(r, c)][:3]
                             if k.label == "deco" and k.level == level and k.score > DECO_ON_TILE), None)
                if deco is not None:
                    cands = self.last_candidates[(r, c)]
                    out[r][c] = self._reading([deco, *(k for k in cands if k is not deco)], meas, post, r, c)
                    continue
                # So does a pillar standing on this space (babylon.build.pillars: pillars go on
                # spaces of tiles): one among the best readings whose colour (single or double)
                # puts its foot on the tile's level.
                pillar = self._pillar_on(r, c, level, meas, post)
                if pillar is not None:
                    out[r][c] = pillar
                    continue
                icon, _ = self._icon(meas, post, level, r, c, position)
                new = {"level": level, "tile": attrs["tile"], "flower": attrs["flower"], "icon": icon}
                # A dot alone is weaker evidence than the space's own outline: half as sure.
                sure = max(outline, 0.5 * dot if dot >= DOT_SURE else 0.0)
                out[r][c] = CellReading(labels.TILE, 0.5 * conf * sure, new, ((cell.label, cell.attrs, cell.confidence),))
                completed[(r, c)] = level
        return out

    def _higher_space(self, rows, r: int, c: int, level: int, position: int) -> _Candidate | None:
        """The best tile space candidate of cell (r, c) above `level` scoring at least HIGHER_FITS
        and more than the space of `level`'s tile in `position` does there, whose tile another of
        its spaces shows (None if none): see _shown_by_sibling."""
        cands = self.last_candidates[(r, c)]
        own = next((k.score for k in cands if k.label == labels.TILE and k.level == level and k.position == position), 0.0)
        higher = [k for k in cands if k.label == labels.TILE and k.level > level and k.score >= HIGHER_FITS
                  and k.score > own and _shown_by_sibling(rows, r, c, k.level, k.position)]
        return max(higher, key=lambda k: k.score) if higher else None

    def _tiles_under_pieces(self, rows, meas, post):
        """A tile whose other spaces all carry pieces shows little of itself to its siblings' vote,
        so a neighbouring tile's visible spaces may take its one open space. An unclear tile space
        whose own view fits another tile at least SURE well, a tile that can lie there and on
        whose other spaces at least two pieces stand at its level (babylon.build.pillars,
        babylon.deco.icon), is that tile's space (read at most GHOST_CAP sure: its siblings
        chose otherwise). So is a surer one whose own view does not fit its reading at all
        (under NOTHING_FITS: the siblings' vote chose it)."""
        out = [list(row) for row in rows]
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label != labels.TILE:
                    continue
                # Unclear, or made surer by its siblings (_complete_footprints) where its own view
                # fits its reading not at all (the siblings' vote put that reading first).
                if cell.confidence >= UNCLEAR and _first_score(self.last_candidates, r, c) >= NOTHING_FITS:
                    continue
                cands = self.last_candidates[(r, c)]
                own = max((k for k in cands if k.label == labels.TILE), key=lambda k: k.score, default=None)
                if own is None or own.score < SURE:
                    continue
                dr, dc = POSITIONS[own.position]
                tile = f"r{r - dr}c{c - dc}"
                if (own.level, tile) == (cell.attrs["level"], cell.attrs["tile"]):
                    continue
                if not tile_fits(rows, r, c, own.level, own.position, SURE)[0]:
                    continue
                pieces = sum(rows[rr][cc].label != labels.TILE and own.level in stands_on(rows[rr][cc])
                             for rr, cc, _ in _footprint_cells(tile) if (rr, cc) != (r, c))
                if pieces < 2:
                    continue
                self.last_candidates[(r, c)] = [own, *(k for k in cands if k is not own)]
                reading = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
                out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
        return out

    def _dots_in_view(self, rows, meas, post):
        """A piece standing on a tile space covers that space's flower dot (babylon.build.pillars,
        babylon.deco.icon: a pillar's 16 mm or a decoration's 17 mm footprint reaches past the dot,
        which lies within 7.6 mm of the space's centre). A pillar or a decoration read where a
        tile space fits nearly as well (at least PILLAR_GHOST_SHARE of the piece) and shows a dot
        at that tile's height is that tile's space, nothing standing on it:
        - a tile its other spaces show: its flower's dot in its corner (_shows_dot, DOT_SURE);
        - else a tile that can lie there (garden_rules.tile_fits) carrying something beside it on
          its level, whose space shows the tile's colour (DOT_BASE) and some flower's dot in a
          corner (DOT_SURE).
        Not surely (GHOST_CAP): it is chosen over a reading that fits better. So is an unclear
        piece where nothing fits well, on the space its foot would stand on (_bare_space), even
        when that space's own outline fits nothing."""
        out = [list(row) for row in rows]
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label not in (labels.PILLAR1, labels.PILLAR2) and cell.label not in DECOS:
                    continue
                cands = self.last_candidates[(r, c)]
                top = max(k.score for k in cands)
                for k in cands:
                    if k.label != labels.TILE or k.score < PILLAR_GHOST_SHARE * top:
                        continue
                    dr, dc = POSITIONS[k.position]
                    tile = f"r{r - dr}c{c - dc}"
                    mate = next((rows[rr][cc] for rr, cc, _ in _footprint_cells(tile) if (rr, cc) != (r, c)
                                 and 0 <= rr < 8 and 0 <= cc < 8 and rows[rr][cc].label == labels.TILE
                                 and rows[rr][cc].attrs.get("tile") == tile and rows[rr][cc].attrs.get("level") == k.level),
                                None)
                    if mate is None:
                        fits, support = tile_fits(rows, r, c, k.level, k.position, SURE)
                        if not fits or support < 1 or post["base"][k.level, r, c, k.position] < DOT_BASE:
                            continue
                        if float(post["dots"][k.level, r, c].max()) < DOT_SURE:
                            continue
                    elif self._shows_dot(rows, meas, post, mate.attrs, r, c, k.position) < DOT_SURE:
                        continue
                    order = [k, *(x for x in cands if x is not k)]
                    self.last_candidates[(r, c)] = order
                    reading = self._reading(order, meas, post, r, c)
                    out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
                    break
                else:
                    if cell.confidence < UNCLEAR and top < SURE:
                        space = self._bare_space(rows, post, cell, r, c)
                        if space is not None:
                            order = [space, *cands]
                            self.last_candidates[(r, c)] = order
                            out[r][c] = self._reading(order, meas, post, r, c)
        return out

    def _bare_space(self, rows, post, cell: CellReading, r: int, c: int) -> _Candidate | None:
        """For a piece read unclearly where nothing fits well: the space it would stand on, as a
        tile space candidate (scored 0: its outline runs into the pieces on its siblings), when a
        tile at that level can lie there carried by pieces on at least two of its other spaces
        and the space shows the tile's colour and a flower dot at that height (the piece would
        cover the dot: babylon.build.pillars, babylon.deco.icon); else None."""
        for level in stands_on(cell):
            if not 1 <= level <= self.m or float(post["dots"][level, r, c].max()) < DOT_SURE:
                continue
            for pos in range(4):
                if not _position_fits(pos, r, c) or post["base"][level, r, c, pos] < DOT_BASE:
                    continue
                fits, support = tile_fits(rows, r, c, level, pos, SURE)
                if fits and support >= 2:
                    return _Candidate(0.0, labels.TILE, level, pos)
        return None

    def _pillar_on(self, r: int, c: int, level: int, meas, post) -> CellReading | None:
        """The reading of a pillar standing on a `level` tile space at (r, c), from one of the cell's
        best three candidates fitting at least DECO_ON_TILE, or None."""
        cands = self.last_candidates[(r, c)]
        for k in cands[:3]:
            if k.label != "pillar" or k.score <= DECO_ON_TILE:
                continue
            reading = self._reading([k, *(x for x in cands if x is not k)], meas, post, r, c)
            if stands_on(reading) == (level,):
                self.last_candidates[(r, c)] = [k, *(x for x in cands if x is not k)]
                return reading
        return None

    def _pillars_on_tiles(self, rows, meas, post):
        """A pillar on a cell that a tile read on at least two of its other spaces covers stands on
        that tile's space (babylon.build.pillars, babylon.build.covered_space): its foot is on
        the tile's level. So does a pillar where no tile space is read round it, on a cell that a
        tile carried by pieces on two of its other spaces covers (_carried_levels). A pillar read with its foot elsewhere gives way to a pillar candidate
        whose foot is there, when that fits at least PILLAR_GHOST_SHARE as well, or at least
        DECO_ON_TILE when the pillar read has nothing to stand on in view (_stands_beside) or no
        tile can lie under it at the level its foot would be on (_tile_can_lie: a surface of that
        level beside it belongs to another tile) or its foot is below a tile seen over its cell (read
        on one of its own spaces: the pillar would pass through it); not surely: it is chosen over
        a reading that fits better. A pillar read on a tile seen over its cell, with its foot higher
        where no tile can lie (as the readings say that are not look-alikes over a hidden floor,
        _hidden_twins), and no pillar on that tile fitting, is the tile's own space (_space_of:
        a space's icon can pass for a pillar's top), at most GHOST_CAP."""
        out = [list(row) for row in rows]
        if not any(cell.label in (labels.PILLAR1, labels.PILLAR2) for row in rows for cell in row):
            return out  # no pillar read
        mates = _tile_mates(rows)
        doubtless = None  # the rows with look-alikes over hidden floors capped (_hidden_twins), when needed
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label not in (labels.PILLAR1, labels.PILLAR2):
                    continue
                if (r, c) in mates:
                    under = {level: tile for (tile, level) in mates[(r, c)] if self._tile_under(rows, r, c, level, tile)}
                    levels = sorted(under)
                else:
                    under = {}
                    levels = self._carried_levels(rows, r, c)
                # Of two tiles over the cell the higher covers the lower's space there
                # (babylon.build.covered_space): a pillar stands on the higher.
                if not levels or stands_on(cell) == (levels[-1],):
                    continue
                levels = levels[-1:]
                cands = self.last_candidates[(r, c)]
                top = max(k.score for k in cands)
                # A pillar read with nothing to stand on in view gives way to one on the tile that
                # fits at all (as _pillar_on): its own reading is no physical alternative.
                floor = PILLAR_GHOST_SHARE * top
                if (r, c) in mates and stands_on(cell)[0] < levels[0]:
                    # Its foot below a tile seen over its cell (on one of its own spaces, carried
                    # by two of them): it would pass through that tile, or stand under it out of
                    # sight. Its own reading is no physical alternative.
                    floor = DECO_ON_TILE
                elif floor < DECO_ON_TILE or any(k.label == "pillar" and DECO_ON_TILE <= k.score < floor for k in cands):
                    around = [rows[rr][cc] for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                              if 0 <= rr < 8 and 0 <= cc < 8 and (rr, cc) != (r, c)]
                    if not _stands_beside(cell, around) or not _tile_can_lie(rows, r, c, stands_on(cell)[0]):
                        floor = DECO_ON_TILE
                for k in cands:
                    if k.label != "pillar" or k.score < floor:
                        continue
                    order = [k, *(x for x in cands if x is not k)]
                    reading = self._reading(order, meas, post, r, c)
                    if stands_on(reading) == (levels[0],):
                        self.last_candidates[(r, c)] = order
                        out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
                        break
                else:
                    foot = stands_on(cell)[0]
                    if levels[0] in under and foot > levels[0] and not _tile_can_lie(rows, r, c, foot):
                        # No pillar stands on the tile seen over the cell, and the one read has
                        # nothing it can stand on there (no higher tile can lie over the cell, as
                        # the readings say that are not a look-alike over a hidden floor,
                        # _hidden_twins): the cell shows that tile's own space.
                        if doubtless is None:
                            doubtless = self._hidden_twins(rows)
                        if not _tile_can_lie(doubtless, r, c, foot):
                            out[r][c] = self._space_or_pillar(rows, meas, post, cell, r, c, under[levels[0]], levels[0])
        return out

    def _space_or_pillar(self, rows, meas, post, cell: CellReading, r: int, c: int, tile: str, level: int) -> CellReading:
        """A pillar read over `tile` (at `level`) with its foot where nothing can carry it: the tile's
        own space (_space_of) when that space shows itself there, an icon in its middle or the
        tile's colour on its clean band (a space's icon can pass for a pillar's top); else the
        pillar, of the kind its colour says, standing on that tile's space (babylon.build.pillars,
        babylon.build.covered_space: a pillar top close below the camera moves so little between
        heights that its shape fits one level too high), no surer than GHOST_CAP."""
        position = _position_of(tile, r, c)
        if post["glyph_share"][level, r, c] >= GLYPH_SHARE or post["base"][level, r, c, position] >= DOT_BASE:
            return self._space_of(rows, meas, post, cell, r, c, tile, level)
        top = level + (1 if cell.label == labels.PILLAR1 else 2)
        if top > self.m:
            return self._space_of(rows, meas, post, cell, r, c, tile, level)
        return replace(cell, confidence=min(cell.confidence, GHOST_CAP), attrs={"level": top})

    def _space_of(self, rows, meas, post, cell: CellReading, r: int, c: int, tile: str, level: int) -> CellReading:
        """(r, c) read as the space of `tile` at `level` (read on its other spaces): its icon read
        there, its flower as those spaces read it, no surer than `cell` nor GHOST_CAP."""
        position = _position_of(tile, r, c)
        icon, _ = self._icon(meas, post, level, r, c, position)
        flower = next(rows[rr][cc].attrs["flower"] for rr, cc, _ in _footprint_cells(tile) if 0 <= rr < 8 and 0 <= cc < 8
                      and rows[rr][cc].label == labels.TILE and rows[rr][cc].attrs.get("tile") == tile
                      and rows[rr][cc].attrs.get("level") == level)
        attrs = {"level": level, "tile": tile, "flower": flower, "icon": icon}
        return CellReading(labels.TILE, min(cell.confidence, GHOST_CAP), attrs, cell.alternatives)

    def _pieces_on_spaces(self, rows, meas, post):
        """A tile space read unclearly (below UNCLEAR) whose own outline fits nothing there (its
        candidate below NOTHING_FITS: it was chosen for where tiles lie, not for what shows) is
        covered by what stands on it, when a pillar standing on that space's level fits at least
        DECO_ON_TILE (babylon.build.pillars: pillars go on tile spaces; the pillar hides the
        space's outline). Read no surer than GHOST_CAP."""
        out = rows
        for r in range(8):
            for c in range(8):
                cell = rows[r][c]
                if cell.label != labels.TILE or cell.confidence >= UNCLEAR:
                    continue
                level, position = cell.attrs["level"], _position_of(cell.attrs["tile"], r, c)
                cands = self.last_candidates[(r, c)]
                own = max((k.score for k in cands if k.label == labels.TILE and k.level == level
                           and k.position == position), default=0.0)
                if own >= NOTHING_FITS:
                    continue
                for k in cands:
                    if k.label != "pillar" or k.score < DECO_ON_TILE:
                        continue
                    order = [k, *(x for x in cands if x is not k)]
                    reading = self._reading(order, meas, post, r, c)
                    if stands_on(reading) == (level,):
                        if out is rows:
                            out = [list(row) for row in rows]
                        self.last_candidates[(r, c)] = order
                        out[r][c] = replace(reading, confidence=min(reading.confidence, GHOST_CAP))
                        break
        return out

    def _carried_levels(self, rows, r: int, c: int) -> list[int]:
        """The levels of the tiles that can lie over (r, c) (garden_rules.tile_fits) and that pieces
        standing on at least two of their other spaces carry, when none of their spaces is read
        as a tile (a tile whose other spaces all carry pieces shows only what stands on it)."""
        on: dict[int, list[tuple[int, int]]] = {}  # level -> the neighbours with a piece standing on it
        for rr in range(max(r - 1, 0), min(r + 2, 8)):
            for cc in range(max(c - 1, 0), min(c + 2, 8)):
                if (rr, cc) != (r, c) and rows[rr][cc].label != labels.TILE:
                    for k in stands_on(rows[rr][cc]):
                        if k > 0:
                            on.setdefault(k, []).append((rr, cc))
        out = set()
        for k, cells in on.items():
            for pos in range(4):
                dr, dc = POSITIONS[pos]
                # Two of those pieces on the footprint's other spaces first (cheap), then the rule.
                if (_position_fits(pos, r, c) and sum(0 <= rr - r + dr <= 1 and 0 <= cc - c + dc <= 1 for rr, cc in cells) >= 2
                        and tile_fits(rows, r, c, k, pos, SURE)[1] >= 2):
                    out.add(k)
                    break
        return sorted(out)

    def _pillar_twins(self, rows):
        """A pillar top read where another pillar's top shows in the frame at another height, the
        other read more surely, is read no surer than GHOST_CAP: one top in the frame, two readings
        of it, the less sure may be the other's look-alike (a pillar's top seen over a cell whose
        own floor is hidden). Returns the rows and the pillars with such a twin (either surer)."""
        found = [(r, c, cell) for r, row in enumerate(rows) for c, cell in enumerate(row)
                 if cell.label in (labels.PILLAR1, labels.PILLAR2)]
        if len(found) < 2:
            return rows, []
        self._make_pillar_tops()
        out = [list(row) for row in rows]
        at = np.array([64 * cell.attrs["level"] + 8 * r + c for r, c, cell in found], np.int64)
        near = self._pillar_near[at[:, None], at[None, :]].tolist()
        twinned = []
        for i, (r, c, cell) in enumerate(found):
            twins = [o for j, (r2, c2, o) in enumerate(found) if (r2, c2) != (r, c)
                     and o.attrs["level"] != cell.attrs["level"] and near[i][j]]
            if not twins:
                continue
            twinned.append((r, c))
            if any(o.confidence > cell.confidence for o in twins) and cell.confidence > GHOST_CAP:
                out[r][c] = replace(cell, confidence=GHOST_CAP)
        return out, twinned

    def _make_pillar_tops(self) -> None:
        """Where each cell's pillar top shows at each level (_pillar_px), and whether each two tops
        (level, row, col: numbered level by level) show within GHOST_PX cells of each other in
        the frame (_pillar_near: np.hypot of each pair); made once per geometry."""
        if getattr(self, "_pillar_px_geometry", None) is self.sampler.geometry:
            return
        s = BABYLON_GARDEN.cell_mm
        centres = np.stack(np.meshgrid((np.arange(8) + 0.5) * s, (np.arange(8) + 0.5) * s), axis=-1).reshape(-1, 2)
        self._pillar_px = np.stack([self.sampler.geometry.to_pixels(np.column_stack(
            [centres, np.full(64, self.dims.pillar_top(k))])).reshape(8, 8, 2) for k in range(self.m + 1)])
        flat = self._pillar_px.reshape(-1, 2)
        apart = (flat[None, :, :] - flat[:, None, :]).transpose(2, 0, 1)
        self._pillar_near = np.hypot(apart[0], apart[1]) <= GHOST_PX * self._cell_px
        self._pillar_px_geometry = self.sampler.geometry

    def _pillar_ghosts(self, rows, meas, post):
        """A pillar top read where another pillar's top shows in the frame at another height (a
        parallax look-alike), on a space whose tile the neighbours surely show and whose own
        reading as that tile's space fits nearly as well, is that tile's space; else, when the
        other is read more surely, it is read no surer than GHOST_CAP (_pillar_twins)."""
        out, twinned = self._pillar_twins(rows)
        for r, c in twinned:
            cands = self.last_candidates[(r, c)]
            for k in cands[1:]:
                if k.label != labels.TILE or k.score < PILLAR_GHOST_SHARE * cands[0].score:
                    continue
                dr, dc = POSITIONS[k.position]
                tile = f"r{r - dr}c{c - dc}"
                if any(rows[rr][cc].label == labels.TILE and rows[rr][cc].attrs.get("tile") == tile
                       and rows[rr][cc].attrs.get("level") == k.level and rows[rr][cc].confidence >= SURE
                       for rr, cc, _ in _footprint_cells(tile) if (rr, cc) != (r, c) and 0 <= rr < 8 and 0 <= cc < 8):
                    self.last_candidates[(r, c)] = [k, *(x for x in cands if x is not k)]
                    out[r][c] = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
                    break
        return out

    def _where_tiles_lie(self, rows, meas, post):
        """An unclear tile space read where no tile can lie (a surely read cell of its footprint
        shows something lower, or another tile at its level: garden_rules.tile_fits) is the space
        of a tile that can lie there and that what stands beside it carries (a pillar, a decoration
        or the tile's own spaces on that level), and whose colour the space shows at that height:
        the best supported, then the best fitting. So is an unclear tile space whose tile can lie
        there, when another tile that can is carried by more of what stands beside it (its own
        spaces counted where read at least NOTHING_FITS; not the pieces another tile at that level,
        read on a space outside its footprint, carries: _claimed). An unclear tile space where no
        tile can lie and none of these is found gives way to its best other candidate
        (_no_tile_lies). So is a cell where nothing fits at all,
        when at least two of that tile's other cells carry something on its level. So is a
        clearer tile space (at least UNCLEAR) whose tile cannot lie there as cells read more surely
        say (babylon.build.covered_space), for a tile at its own level first, then at any level,
        read at most GHOST_CAP. So is an unclear recess under a tile that pieces on at least two
        of its other spaces carry, when that space fits there at all (NOTHING_FITS)."""
        out = [list(row) for row in rows]
        # How many spaces read each tile (id, level): a tile all four of whose spaces read it lies
        # there as far as its footprint can tell (most tiles; their clear spaces need no test).
        read = Counter((cell.attrs["tile"], cell.attrs["level"]) for row in rows for cell in row if cell.label == labels.TILE)
        for r in range(8):
            for c in range(8):
                cell = out[r][c]
                levels = self.levels
                claims, lies = False, True
                if cell.label == labels.TILE and cell.confidence >= UNCLEAR:
                    # A clearer space whose tile cannot lie there (cells of its footprint read
                    # more surely show something lower): a tile at its level is looked for first
                    # (its height fitted, its footprint may not have), then at any level.
                    level, position = cell.attrs["level"], _position_of(cell.attrs["tile"], r, c)
                    if read[(cell.attrs["tile"], level)] == 4 or tile_fits(out, r, c, level, position,
                                                                         max(SURE, cell.confidence))[0]:
                        continue
                    levels, needed, mate_sure = [level, *(k for k in self.levels if k != level)], 1, 0.0
                elif cell.label == labels.TILE:
                    level, position = cell.attrs["level"], _position_of(cell.attrs["tile"], r, c)
                    fits, own = tile_fits(out, r, c, level, position, SURE, NOTHING_FITS)
                    # Where its tile can lie too, another must be carried by more of what stands
                    # beside it (its own spaces count where anything fits them at all: a hidden
                    # cell's reading is often its neighbour's look-alike, fitting nothing).
                    needed, mate_sure = (own + 1, NOTHING_FITS) if fits else (1, 0.0)
                    claims, lies = True, fits  # pieces another tile at that level carries do not count (_claimed)
                elif cell.label == labels.RECESS and cell.confidence < UNCLEAR:
                    # An unclear recess under a tile that pieces on two of its other spaces
                    # carry is covered by it (babylon.build.covered_space): that tile's space,
                    # when the space fits there at all (a hidden recess's look-alike does not).
                    # Only levels two neighbours stand on can have that support (cheap first).
                    on = Counter(k for rr in range(max(r - 1, 0), min(r + 2, 8)) for cc in range(max(c - 1, 0), min(c + 2, 8))
                                 if (rr, cc) != (r, c) for k in stands_on(out[rr][cc]))
                    levels = [k for k in self.levels if on[k] >= 2]
                    if not levels:
                        continue
                    needed, mate_sure = 2, 0.0
                elif cell.confidence < NOTHING_FITS and self.last_candidates[(r, c)][0].score < NOTHING_FITS:
                    # Nothing fits there at all (the inner edges of a tile space whose siblings
                    # all carry pieces run into those pieces): a tile space, when what stands
                    # beside it on one level is most of a tile's other spaces.
                    needed, mate_sure = 2, 0.0
                else:
                    continue
                options = []
                base = post["base"][:, r, c].tolist()  # (m+1, 4) as plain floats (the same numbers)
                beside: dict[tuple[int, int], bool] = {}  # _shows_tile_beside per (level, band side)
                space = post["space"][:, r, c].tolist() if cell.label == labels.RECESS else None
                for k in levels:
                    for pos in range(4):
                        if space is not None and space[k][pos] < NOTHING_FITS:
                            continue  # a recess gives way only to a space that shows at all
                        if base[k][pos] < DOT_BASE:
                            key = (k, BAND_SIDES[pos])  # all _shows_tile_beside asks of the position
                            shows = beside.get(key)
                            if shows is None:
                                shows = beside[key] = self._shows_tile_beside(out, meas, k, r, c, pos)
                            if not shows:
                                continue
                        fits, support = tile_fits(out, r, c, k, pos, SURE, mate_sure)
                        if fits and support >= needed and claims:
                            support -= _claimed(out, r, c, k, pos)
                        if fits and support >= needed:
                            options.append((support, float(post["space"][k, r, c, pos]), k, pos))
                    if options and cell.confidence >= UNCLEAR:
                        break  # a clearer space: the first level with a tile that can lie there
                if not options:
                    if not lies:
                        out[r][c] = self._no_tile_lies(out, meas, post, r, c)
                    continue
                _, _, k, pos = max(options)
                dr, dc = POSITIONS[pos]
                icon, _ = self._icon(meas, post, k, r, c, pos)
                flower = cell.attrs.get("flower") or FLOWER_CLASSES[int(np.argmax(post["dots"][k, r, c].max(axis=0)))]
                attrs = {"level": k, "tile": f"r{r - dr}c{c - dc}", "flower": flower, "icon": icon}
                # Not surer than GHOST_CAP where the space's own outline chose another footprint.
                confidence = cell.confidence if cell.confidence < UNCLEAR else min(cell.confidence, GHOST_CAP)
                out[r][c] = CellReading(labels.TILE, confidence, attrs, cell.alternatives)
        return out

    def _no_tile_lies(self, rows, meas, post, r: int, c: int) -> CellReading:
        """An unclear tile space where no tile can lie (_where_tiles_lie: surer cells of its footprint
        show something lower, babylon.build.covered_space) and no other tile's space fits: its best
        candidate that is no such tile, when that scores at least UNSUPPORTED_FALLBACK of its first
        (as _impossible_tiles), no surer than GHOST_CAP; else its reading as it is."""
        cands = self.last_candidates[(r, c)]
        other = next((k for k in cands[1:] if k.label != labels.TILE
                      or tile_fits(rows, r, c, k.level, k.position, SURE)[0]), None)
        if other is None or other.score < UNSUPPORTED_FALLBACK * cands[0].score or other.score <= 0:
            return rows[r][c]
        self.last_candidates[(r, c)] = [other, *(k for k in cands if k is not other)]
        reading = self._reading(self.last_candidates[(r, c)], meas, post, r, c)
        return replace(reading, confidence=min(reading.confidence, GHOST_CAP))

    def _shows_tile_beside(self, rows, meas, level: int, r: int, c: int, position: int, slant: bool = False) -> bool:
        """Whether a space whose clean band (for `position`) does not show the tile's colour at
        `level`'s height shows it elsewhere because a neighbour hides that band: the band's edge
        faces the camera and the neighbour across it, as read, stands higher than the space; then
        the edge strips no such neighbour hides are judged instead (the best of them). With
        `slant`, any strip the neighbours hide counts (_hidden_sides), not only across the edge
        facing the camera most: for a space whose tile its other spaces show (_shows_dot), where
        the question is only whether it is that tile's; where a tile lies (_where_tiles_lie) asks
        the stricter test, since a looser one lets a lower tile pass beside every taller piece."""
        if slant:
            hidden = self._hidden_sides(rows, level, r, c)
        elif self._hidden_side(rows, level, r, c, BAND_SIDES[position]):
            hidden = [self._hidden_side(rows, level, r, c, k) for k in range(4)]
        else:
            return False
        if not hidden[BAND_SIDES[position]]:
            return False
        open_sides = [k for k in range(4) if not hidden[k]]
        if not open_sides:
            return False
        support = self._support(meas["strips"][level, r, c][open_sides],
                                (TILE_BASE, labels.RECESS, labels.PILLAR1, labels.PILLAR2, *DECOS))
        return float(support[:, self._name_index[TILE_BASE]].max()) >= DOT_BASE

    def _hidden_side(self, rows, level: int, r: int, c: int, side: int) -> bool:
        """Whether the edge `side` (top, right, bottom, left) of the space at (r, c) faces the
        camera and the neighbour across it, as read, stands higher than a `level` tile's top."""
        if not self.near[r, c, side]:
            return False
        dr, dc = ((-1, 0), (0, 1), (1, 0), (0, -1))[side]
        if not (0 <= r + dr < 8 and 0 <= c + dc < 8):
            return False
        return self.occlusion.occluder(rows[r + dr][c + dc])[0] > self.dims.tile_top(level)

    def _hidden_sides(self, rows, level: int, r: int, c: int) -> list[bool]:
        """Per edge strip (top, right, bottom, left) of a `level` space at (r, c), whether the
        neighbours, as read, hide at least half its points. Every camera-facing side counts, not
        only the one facing it most: seen at a slant, a higher tile beside the space hides the
        edge next to it too (garden_occlusion.Occlusion, on the strips' points)."""
        hidden = self.occlusion_edges.hidden(rows, [(r, c, level)])[0]
        return [bool(hidden[self._edge_side == side].mean() >= 0.5) for side in range(4)]

    def _shows_dot(self, rows, meas, post, attrs, r: int, c: int, position: int) -> float:
        """How surely the space at (r, c) shows, at the height of the tile `attrs` (read on other
        spaces), that tile's flower dot in the corner its spaces show it in (0 unless the space
        also shows the tile's own colour: on its band, or on the edges a taller neighbour leaves
        in view when it hides the band, _shows_tile_beside)."""
        level = attrs["level"]
        if post["base"][level, r, c, position] < DOT_BASE and not self._shows_tile_beside(rows, meas, level, r, c, position,
                                                                                        slant=True):
            return 0.0
        mates = [(rr, cc) for rr, cc, _ in _footprint_cells(attrs["tile"]) if (rr, cc) != (r, c) and 0 <= rr < 8
                 and 0 <= cc < 8 and rows[rr][cc].label == labels.TILE and rows[rr][cc].attrs.get("tile") == attrs["tile"]
                 and rows[rr][cc].attrs.get("level") == level]
        if not mates:
            return 0.0
        dots = post["dots"]  # (m+1, 8, 8, corner, flower)
        corner = int(np.argmax(sum(dots[level, rr, cc] for rr, cc in mates).sum(axis=-1)))
        return float(dots[level, r, c, corner, FLOWER_CLASSES.index(attrs["flower"])])

    def _occluded_icons(self, rows, meas, post):
        """A tile space whose middle is partly hidden by a taller neighbour on the camera's side
        (as the neighbours are now read) has its icon read again from the points left visible."""
        h, w = self._centre_shape
        tiles = [(r, c, cell.attrs["level"]) for r, row in enumerate(rows) for c, cell in enumerate(row)
                 if cell.label == labels.TILE]
        if not tiles:
            return rows
        standing = self.occlusion.standing(rows)  # what each cell stands up as (for the wide window too)
        masks = self.occlusion.hidden(rows, tiles, standing)  # (n, h·w)
        todo, todo_masks = [], []
        out = [list(row) for row in rows]
        # Per tile: whether any of its middle is hidden, and how many points show (as plain values).
        any_hidden, showing = masks.any(axis=1).tolist(), (~masks).sum(axis=1).tolist()
        for (r, c, level), mask, some, shows in zip(tiles, masks, any_hidden, showing, strict=True):
            if some and shows >= MIN_VISIBLE_MIDDLE:
                todo.append((r, c, level))
                todo_masks.append(mask)
            elif some and post["glyph_share"][level, r, c] >= GLYPH_SHARE:
                # The middle all hidden: what shows of the space around it. Only where the first
                # look saw something unlike the tile there (an icon, or the colour of what hides
                # it): a middle all of the tile's own colour holds no pixel to take back, and the
                # wider window reaches the space's dark frame, which passes for a bridge.
                cell = rows[r][c]
                wide = self._wide_icon(rows, meas, r, c, level, standing)
                if wide is not None and wide[0] != cell.attrs["icon"]:
                    out[r][c] = CellReading(cell.label, min(cell.confidence, wide[1]), {**cell.attrs, "icon": wide[0]},
                                            cell.alternatives)
        out = self._unprinted(out, post, [t for t, some in zip(tiles, any_hidden, strict=True) if not some])
        if not todo:
            return out
        # Only those spaces' icons are measured again (each space's numbers are its own): the
        # first look's arrays with their entries replaced.
        prof = self.profile
        rs, cs, ks = (np.array(v) for v in zip(*todo, strict=True))
        keep = _middle_keep(self.near, h, w)[rs, cs] & ~np.array(todo_masks).reshape(-1, h, w)
        share, features = _glyph_stats(meas["strips"][ks, rs, cs], meas["centre_px"][ks, rs, cs], keep,
                                       prof.classes.get(TILE_BASE))
        again = {**post, "glyph_share": post["glyph_share"].copy()}
        again["glyph_share"][ks, rs, cs] = share
        if post["glyph"] is not None:
            again["glyph"] = post["glyph"].copy()
            again["glyph"][ks, rs, cs] = self._support(features, GLYPH_CLASSES)
        ink = [self._name_index[name] for name in GLYPH_CLASSES] if again["glyph"] is not None else []
        for r, c, level in todo:
            cell = rows[r][c]
            icon, sure = self._icon(meas, again, level, r, c, _position_of(cell.attrs["tile"], r, c))
            if icon != "none" and ink and float(again["glyph"][level, r, c, ink].sum()) < NOTHING_FITS:
                # What is left in view unlike the tile looks like no icon's print: the blurred
                # edge of the neighbour in front, not an icon; whether one is there is not seen.
                icon, sure = "none", 0.0
            if icon != cell.attrs["icon"]:
                out[r][c] = CellReading(cell.label, min(cell.confidence, sure), {**cell.attrs, "icon": icon},
                                        cell.alternatives)
        return out

    def _unprinted(self, rows, post, spaces: list[tuple[int, int, int]]):
        """Of the tile spaces (row, col, level) read with an icon, those whose middle's pixels
        unlike the tile are a sliver of it (below SLIVER_SHARE) and look like no icon's print
        (glyph supports summing below NO_PRINT) show none: those pixels are the side or shadow of a neighbour (babylon: every icon is one
        of four prints), not an icon. Read 'none', with confidence 0 (whether one is there is not
        seen); as _occluded_icons reads a partly hidden middle."""
        spaces = [(r, c, level) for r, c, level in spaces if rows[r][c].attrs["icon"] != "none"
                  and post["glyph_share"][level, r, c] < SLIVER_SHARE]
        if post["glyph"] is None or not spaces:
            return rows
        rs, cs, ks = (np.array(v) for v in zip(*spaces, strict=True))
        ink = [self._name_index[name] for name in GLYPH_CLASSES]
        prints = post["glyph"][ks, rs, cs][:, ink].sum(axis=1).tolist()  # (spaces,) glyph supports summed
        for (r, c, _), total in zip(spaces, prints, strict=True):
            if total < NO_PRINT:
                cell = rows[r][c]
                rows[r][c] = CellReading(cell.label, 0.0, {**cell.attrs, "icon": "none"}, cell.alternatives)
        return rows

    def _icon(self, meas, post, level: int, r: int, c: int, position: int) -> tuple[str, float]:
        """The icon printed on a tile space, and how surely. Whether there is an icon at all is the
        share of the space's middle unlike the tile's own colour (measured on this very tile, so
        light and sensor noise do not matter); which icon, the learned appearance of the middle."""
        at = self._name_index
        glyph = float(post["glyph_share"][level, r, c])
        if glyph < GLYPH_SHARE:
            return "none", min(max(1.0 - glyph / GLYPH_SHARE, 0.0), 1.0)
        if post["glyph"] is not None:
            # The icon's own pixels: their colour does not depend on how much of the middle the
            # icon covers (which changes with the tile's turn).
            support = post["glyph"][level, r, c].tolist()
            icons = {icon: support[at[name]] for name, icon in _GLYPH_ICONS}
        else:  # a profile from before glyph classes were learned
            icons = {n.split(":", 1)[1]: float(post["centre"][level, r, c, at[n]])
                     for n in ICON_CLASSES if n != "icon:none"}
        return _icon_from(glyph, icons)

    def _wide_icon(self, rows, meas, r: int, c: int, level: int, standing=None) -> tuple[str, float] | None:
        """The icon of a space whose middle is all hidden, from the visible part of a wider window
        (clear of the corners a flower dot can be in); None when too little of it shows either.
        `standing`: Occlusion.standing(rows), when already made."""
        keep = self._wide_keep & ~self.occlusion_wide.hidden(rows, [(r, c, level)], standing)[0]
        if keep.sum() < MIN_VISIBLE_MIDDLE:
            return None
        s = BABYLON_GARDEN.cell_mm
        xyz = np.column_stack([self._wide_points + [c * s, r * s], np.full(len(self._wide_points), self.dims.tile_top(level))])
        h, w = self._wide_shape
        patch = self.sampler.sample_points(xyz).reshape(h, w, 3)
        share, features = _glyph_stats(meas["strips"][level, r, c], patch, keep.reshape(h, w),
                                       self.profile.classes.get(TILE_BASE))
        at = self._name_index
        if float(share) < GLYPH_SHARE:
            return _icon_from(float(share), {})
        if not all(name in at for name in GLYPH_CLASSES):
            return None
        support = self._support(features, GLYPH_CLASSES)
        return _icon_from(float(share), {icon: float(support[at[name]]) for name, icon in _GLYPH_ICONS})

    def _reading(self, cands, meas, post, r: int, c: int) -> CellReading:
        # Plain Python floats throughout (one .tolist() per cell's row of supports): some 70 calls
        # per read, where numpy's per-scalar calls cost more than the arithmetic. The same numbers:
        # math.exp and np.exp agree, and four supports add in the same order as numpy's sum.
        best = cands[0]
        runner = None  # the best reading of another kind or level
        for k in cands[1:]:
            if k.label != best.label or k.level != best.level:
                runner = k
                break
        margin = best.score - (runner.score if runner else 0.0)
        confidence = min(max(best.score, 0.0), 1.0) * (1.0 - math.exp(-max(margin, 0.0) / 0.15))
        at = self._name_index
        if best.label == labels.RECESS:
            label, attrs = labels.RECESS, {"level": 0}
        elif best.label == "pillar":
            k = best.level
            support = post["pillar"][k, r, c].tolist()
            p1, p2 = support[at[labels.PILLAR1]], support[at[labels.PILLAR2]]
            if k < 2:
                p2 = 0.0  # a double pillar's top is at level 2 at least
            label, attrs = (labels.PILLAR1 if p1 >= p2 else labels.PILLAR2), {"level": k}
            confidence *= max(p1, p2) / max(p1 + p2, 1e-9)
        elif best.label == "deco":
            k = best.level - 1
            kinds = SPAN_DECOS if best.position == 1 else SINGLE_DECOS
            support = post["deco"][k, r, c].tolist()
            scores = {n: support[at[n]] for n in kinds}
            label = max(scores, key=scores.get)
            confidence *= scores[label] / max(sum(scores.values()), 1e-9)
            attrs = {"level": best.level}
        else:
            k = best.level
            dr, dc = POSITIONS[best.position]
            icon, icon_share = self._icon(meas, post, k, r, c, best.position)
            dots = post["dots"][k, r, c].tolist()  # (corner, flower)
            totals = [sum(row) for row in dots]
            corner = max(range(len(totals)), key=totals.__getitem__)  # the first best, as np.argmax
            flower = max(range(len(dots[corner])), key=dots[corner].__getitem__)
            flower_share = dots[corner][flower] / max(totals[corner], 1e-9)
            label = labels.TILE
            attrs = {"level": k, "tile": f"r{r - dr}c{c - dc}", "flower": FLOWER_CLASSES[flower], "icon": icon}
            confidence *= min(icon_share, flower_share)
        alternatives = tuple(
            (("tile" if k.label == labels.TILE else k.label), {"level": k.level}, float(max(k.score, 0.0)))
            for k in cands[1:3]
        )
        return CellReading(label, confidence, attrs, alternatives)


_GLYPH_ICONS = tuple((name, name.split(":", 1)[1]) for name in GLYPH_CLASSES)  # (class, icon)


def with_history(current: Observation, previous: Observation, view: FaceView | None = None) -> Observation:
    """`current` read with what the reading of the scene before (`previous`, and the memory it
    carries) saw beneath the pieces: garden_history.with_history (what a frame reads unsurely,
    or surely with no view of its own (`view`: the observer's geometry), is read with the tops
    seen there before; a clear view wins)."""
    return garden_history.with_history(current, previous, view)


def _tile_mates(rows: list[list[CellReading]]) -> dict[tuple[int, int], dict[tuple[str, int], int]]:
    """Per cell: for each tile (id, level) whose footprint holds it, how many of that footprint's
    other cells read that tile."""
    mates: dict[tuple[int, int], dict[tuple[str, int], int]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label != labels.TILE:
                continue
            key = (cell.attrs["tile"], cell.attrs["level"])
            for rr, cc, _ in _footprint_cells(key[0]):
                if (rr, cc) != (r, c) and 0 <= rr < 8 and 0 <= cc < 8:
                    counts = mates.setdefault((rr, cc), {})
                    counts[key] = counts.get(key, 0) + 1
    return mates


def _stands_beside(cell: CellReading, around: list[CellReading]) -> bool:
    """Whether a pillar or a decoration (not stairs) read as `cell` has something to stand on among
    the readings `around` it (_unsupported's test): a pillar on the board, or on a surface whose
    level shows beside it; a decoration on a tile space of its level. Anything else: True."""
    if cell.label in (labels.PILLAR1, labels.PILLAR2):
        base = cell.attrs["level"] - (1 if cell.label == labels.PILLAR1 else 2)
        return base <= 0 or any(_base_level(b) == base for b in around)
    if cell.label in DECOS and cell.label != labels.STAIRS:
        return any(cell.attrs["level"] in stands_on(b) for b in around)
    return True


def _shown_by_sibling(rows: list[list[CellReading]], r: int, c: int, level: int, position: int) -> bool:
    """Whether at least SIBLINGS_SHOWN other spaces of the tile at `level` that has cell (r, c) in
    `position` are read at least SIBLING_SURE as that tile, or as a piece standing on its level (a
    tile seen in one space only may be a parallax look-alike of a tile at another height; one
    piece on that level may stand on another tile there)."""
    dr, dc = POSITIONS[position]
    tile = f"r{r - dr}c{c - dc}"
    shown = sum(_shows_tile(rows[rr][cc], tile, level, SIBLING_SURE, SIBLING_SURE)
                for rr, cc, _ in _footprint_cells(tile) if (rr, cc) != (r, c) and 0 <= rr < 8 and 0 <= cc < 8)
    return shown >= SIBLINGS_SHOWN


def _shows_tile(cell: CellReading, tile: str, level: int, tile_sure: float, piece_sure: float) -> bool:
    """Whether `cell` shows `tile` at `level`: read as that tile's space at least `tile_sure`, or
    as a piece standing on its level at least `piece_sure` (a tile covers its four spaces, each
    showing it or carrying a piece on its level: babylon.build.support)."""
    if cell.label == labels.TILE:
        return cell.confidence >= tile_sure and cell.attrs.get("tile") == tile and cell.attrs.get("level") == level
    return cell.confidence >= piece_sure and level in stands_on(cell)


def _fountain_mate_level(rows: list[list[CellReading]], r: int, c: int, tied) -> int | None:
    """The one level of the cells beside (r, c) in its row or column read at least MATE_SURE as a
    fountain, as (r, c) is read, with no tie of heights of their own (`tied(r, c)`); None when
    (r, c) is no fountain, or none or several levels are."""
    label = rows[r][c].label
    if label != labels.FOUNTAIN:
        return None
    levels = {rows[rr][cc].attrs["level"] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
              if 0 <= rr < 8 and 0 <= cc < 8 and rows[rr][cc].label == label and rows[rr][cc].confidence >= MATE_SURE
              and not tied(rr, cc)}
    return levels.pop() if len(levels) == 1 else None


def _claimed(rows: list[list[CellReading]], r: int, c: int, level: int, position: int) -> int:
    """How many pieces standing on `level` in the footprint of the `position` tile over (r, c) (what
    garden_rules.tile_fits counts as its support) stand where another tile at that level is read
    to lie, on one of its spaces outside that footprint (_reads_tile): two tiles at one level
    cannot both lie under a piece (babylon.build.covered_space), and that other tile carries it."""
    dr, dc = POSITIONS[position]
    top_r, top_c = r - dr, c - dc
    inside = {(top_r + er, top_c + ec) for er, ec in POSITIONS}
    claimed = 0
    for rr, cc in inside:
        if (rr, cc) == (r, c):
            continue
        piece = rows[rr][cc]
        if piece.label == labels.TILE or piece.confidence < SURE or level not in stands_on(piece):
            continue
        claimed += any(
            (tr, tc) != (top_r, top_c) and 0 <= tr <= 6 and 0 <= tc <= 6
            and any((tr + er, tc + ec) not in inside and _reads_tile(rows[tr + er][tc + ec], f"r{tr}c{tc}", level)
                    for er, ec in POSITIONS)
            for tr, tc in ((rr - er, cc - ec) for er, ec in POSITIONS))
    return claimed


def _shifted_halves(rows: list[list[CellReading]]) -> list[list[CellReading]]:
    """A tile read on exactly two side-by-side spaces, fewer of its other two cells showing it (a
    piece read at least HALF_PIECE_SURE standing on its level that another tile does not carry:
    _claimed), is the tile on the other side of that pair, at the same level, where that one can
    lie (garden_rules.tile_fits) and both its other cells show it (read as it fitting at least
    HALF_MATE_FITS, or a piece read at least HALF_PIECE_SURE standing on its level): a tile covers
    its four spaces, each showing it or carrying a piece on its level (babylon.build.support). A
    row of spaces beside hidden cells passes for the next tile's by parallax (s7 f160: a level-1
    tile's upper row read with the row above, whose cells carry a double pillar and another tile's
    space). Read no surer than GHOST_CAP."""
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell.label == labels.TILE:
                groups.setdefault((cell.attrs["tile"], cell.attrs["level"]), []).append((r, c))
    out = None
    for (tile, level), cells in groups.items():
        if len(cells) != 2:
            continue
        (r1, c1), (r2, c2) = cells
        if abs(r1 - r2) + abs(c1 - c2) != 1:
            continue
        tr, tc, _ = _footprint_cells(tile)[0]
        if r1 == r2:  # a row of the tile: the other tile has it as its other row
            ar, ac = (tr - 1 if r1 == tr else tr + 1), tc
        else:
            ar, ac = tr, (tc - 1 if c1 == tc else tc + 1)
        if not (0 <= ar <= 6 and 0 <= ac <= 6):
            continue
        pos = _position_of(tile, r1, c1)
        own = tile_fits(rows, r1, c1, level, pos, HALF_PIECE_SURE, 2.0)[1] - _claimed(rows, r1, c1, level, pos)
        other = f"r{ar}c{ac}"
        trial = [list(row) for row in rows]
        for r, c in cells:
            trial[r][c] = replace(rows[r][c], attrs={**rows[r][c].attrs, "tile": other})
        alt = _position_of(other, r1, c1)
        fits, _ = tile_fits(trial, r1, c1, level, alt, SURE)
        rest = [(rr, cc) for rr, cc, _ in _footprint_cells(other) if (rr, cc) not in cells]
        shown = sum(_shows_tile(trial[rr][cc], other, level, HALF_MATE_FITS, HALF_PIECE_SURE) for rr, cc in rest)
        shown -= _claimed(trial, r1, c1, level, alt) if shown else 0
        if not fits or shown < 2 or own >= shown:
            continue
        out = out or [list(row) for row in rows]
        flower = next((trial[rr][cc].attrs["flower"] for rr, cc in rest if trial[rr][cc].label == labels.TILE),
                      rows[r1][c1].attrs["flower"])
        for r, c in cells:
            cell = trial[r][c]
            out[r][c] = replace(cell, confidence=min(cell.confidence, GHOST_CAP), attrs={**cell.attrs, "flower": flower})
    return rows if out is None else out


def _reads_tile(cell: CellReading, tile: str, level: int) -> bool:
    """Whether `cell` reads `tile` at `level` at least CLAIM_SURE surely (a hidden cell's look-alike
    of its neighbour is read less surely)."""
    return (cell.label == labels.TILE and cell.confidence >= CLAIM_SURE and cell.attrs.get("tile") == tile
            and cell.attrs.get("level") == level)


def _tile_can_lie(rows: list[list[CellReading]], r: int, c: int, level: int) -> bool:
    """Whether a piece's foot on (r, c) can be on level `level`: the board (level 0), or a tile at
    that level that can lie over the cell in some position (garden_rules.tile_fits, surely read
    cells only)."""
    return level <= 0 or any(tile_fits(rows, r, c, level, pos, SURE)[0] for pos in range(4))


def _seen_level(cell: CellReading) -> int:
    """The level of the surface what is seen on a cell is or stands on (a recess 0)."""
    base = _base_level(cell)
    return 0 if base is None else base


def _candidate_level(k: _Candidate) -> int:
    """_seen_level of a candidate at its best (a pillar candidate's top may be a single's)."""
    return k.level - 1 if k.label == "pillar" else k.level


def _base_level(cell: CellReading) -> int | None:
    """The level of the tile space a cell's top shows or stands on (None for a recess)."""
    if cell.label == labels.RECESS:
        return None
    level = cell.attrs.get("level", 0)
    if isinstance(level, list):  # stairs, once paired
        level = max(level)
    if cell.label == labels.PILLAR1:
        return level - 1
    if cell.label == labels.PILLAR2:
        return level - 2
    return int(level)


def _icon_from(glyph: float, icons: dict[str, float]) -> tuple[str, float]:
    """An icon and how surely, from the share of a space's middle unlike the tile (`glyph`) and
    each icon's support (used only when there is an icon at all)."""
    if glyph < GLYPH_SHARE or not icons:
        return "none", min(max(1.0 - glyph / GLYPH_SHARE, 0.0), 1.0)
    icon = max(icons, key=icons.get)
    share = icons[icon] / max(sum(icons.values()), 1e-9)
    return icon, float(share * min(1.0, glyph / GLYPH_SHARE - 1.0 + 0.5))


def _glyphs(meas, near: np.ndarray, tile_model=None, hidden: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per level view and cell (K, 8, 8): the share of a space's middle unlike the tile's own colour
    (an icon's pixels), and (K, 8, 8, 6) the appearance features of those pixels. `near` (8, 8, 4):
    the sides of each cell facing the camera, where a taller neighbour may hide the middle's edge;
    `hidden` (K, 8, 8, h, w): points of the middle known to be hidden (left out too)."""
    patch = meas["centre_px"]  # (K, 8, 8, h, w, 3)
    keep = _middle_keep(near, *patch.shape[3:5])
    if hidden is not None:
        keep = keep & ~hidden
    return _glyph_stats(meas["strips"], patch, keep, tile_model)


_MIDDLE_KEEPS: dict[tuple[bytes, int, int], np.ndarray] = {}  # _middle_keep's, per camera side and shape


def _middle_keep(near: np.ndarray, h: int, w: int) -> np.ndarray:
    """(8, 8, h, w): the points of each space's middle an icon is read from, where no neighbour hides it
    (read-only: made once per `near` and shape)."""
    key = (np.asarray(near, bool).tobytes(), h, w)
    keep = _MIDDLE_KEEPS.get(key)
    if keep is None:
        if len(_MIDDLE_KEEPS) > 16:
            _MIDDLE_KEEPS.clear()
        keep = _MIDDLE_KEEPS[key] = _middle_keep_made(near, h, w)
        keep.setflags(write=False)
    return keep


def _middle_keep_made(near: np.ndarray, h: int, w: int) -> np.ndarray:
    """_middle_keep, made."""
    # Not the patch's corners: blur and parallax can bring a corner's flower dot into them.
    keep = np.ones((8, 8, h, w), bool)
    keep[:, :, [0, 0, -1, -1], [0, -1, 0, -1]] = False
    # Nor its edge on the camera's side, which a taller neighbour in front may hide.
    keep[near[..., 0], 0, :] = False
    keep[near[..., 1], :, -1] = False
    keep[near[..., 2], -1, :] = False
    keep[near[..., 3], :, 0] = False
    return keep


def _glyph_stats(strips: np.ndarray, patch: np.ndarray, keep: np.ndarray, tile_model=None):
    """_glyphs for any leading shape: strips (..., 4, F), patch (..., h, w, 3), keep (..., h, w)."""
    # The tile's own colour from the cleanest of four strips along the space's edges: the one
    # most like a tile's learned appearance, colour and spread alike (a neighbour in front may
    # cover a strip with a uniform colour of its own, or part of it with its darker side: a strip
    # half tile, half side passes for a tile's colour but not for its evenness), or before
    # learning, the least spread (an icon's blurred edge).
    # Then the share of the middle unlike it, and the icon's colour from its core (pixels at least
    # 70 % as distinct as the most distinct: not the blurred edges, which are half tile), relative
    # to the tile's colour beside it (the light on both is the same). Colour only: how much edge
    # the middle catches changes with the tile's turn and the icon's shape, not with which icon.
    # One compiled loop over the middles (garden_kernels_decide.glyph_stats); its sum over a
    # middle's points runs as numpy's did over this layout of `patch`.
    h, w = patch.shape[-3:-1]
    s_h, s_w, s_c = patch.strides[-3:]
    if s_w == patch.itemsize and s_h == w * s_w:
        pairwise = True  # the points innermost: numpy summed them pairwise
    elif s_c == patch.itemsize:
        pairwise = False  # the channels innermost: numpy ran one sum along the points
    else:
        return _glyph_stats_numpy(strips, patch, keep, tile_model)
    if patch.dtype != np.float32 or strips.dtype != np.float32:
        return _glyph_stats_numpy(strips, patch, keep, tile_model)
    lead = np.broadcast_shapes(strips.shape[:-2], patch.shape[:-3], keep.shape[:-2])
    flat_keep = np.ascontiguousarray(_flat(keep, lead, (h, w)).reshape(-1, h * w))
    share = np.empty(len(flat_keep))
    colour = np.empty((len(flat_keep), 3))
    if not len(flat_keep):
        return share.reshape(lead), np.zeros((*lead, 6))
    # The read's own middles and strips as views of the measurements (no copy of their points);
    # the loop is compiled for strided arrays only (one version: warm()).
    flat_strips = _strided(_flat(strips, lead, strips.shape[-2:]))
    flat_patch = _strided(_flat(patch, lead, (h, w, 3)).reshape(-1, h * w, 3))
    mean, inverse = _tile_colour_model(tile_model)
    glyph_stats(flat_strips, flat_patch, flat_keep, mean, inverse, tile_model is not None, GLYPH_DELTA_E, pairwise,
                share, colour)
    return share.reshape(lead), np.concatenate([colour, np.zeros_like(colour)], axis=-1).reshape(*lead, 6)


def _flat(a: np.ndarray, lead: tuple[int, ...], inner: tuple[int, ...]) -> np.ndarray:
    """`a` broadcast to (*lead, *inner) with the lead flattened: a view of `a` where its lead
    dimensions merge (a read's middles and strips: no copy of their points), else a contiguous copy.
    The compiled loops read either alike."""
    if a.shape == (*lead, *inner):
        try:
            return np.reshape(a, (-1, *inner), copy=False)
        except ValueError:
            pass
    return np.ascontiguousarray(np.broadcast_to(a, (*lead, *inner))).reshape(-1, *inner)


def _strided(a: np.ndarray) -> np.ndarray:
    """`a` (n, ..., k ≥ 2), not empty, as an array numba types as strided ('A' layout): itself when
    it is contiguous neither way, else a copy on every other element of a buffer twice as wide
    along the last axis (the same values)."""
    if not (a.flags.c_contiguous or a.flags.f_contiguous):
        return a
    wider = np.empty((*a.shape[:-1], 2 * a.shape[-1]), a.dtype)
    wider[..., ::2] = a
    return wider[..., ::2]


_TILE_COLOUR_MODELS: dict[int, tuple[object, np.ndarray, np.ndarray]] = {}  # id → (model, mean, inverse)


def _tile_colour_model(tile_model) -> tuple[np.ndarray, np.ndarray]:
    """The tile model's mean and inverse covariance of an edge strip's six features, colour and
    spread (float64, made once per model)."""
    if tile_model is None:
        return np.zeros(6), np.eye(6)
    made = _TILE_COLOUR_MODELS.get(id(tile_model))
    if made is None or made[0] is not tile_model:
        if len(_TILE_COLOUR_MODELS) > 16:
            _TILE_COLOUR_MODELS.clear()
        made = _TILE_COLOUR_MODELS[id(tile_model)] = (
            tile_model, np.ascontiguousarray(tile_model.mean[:6], dtype=np.float64),
            np.ascontiguousarray(np.linalg.inv(tile_model.cov[:6, :6]), dtype=np.float64))
    return made[1], made[2]


def _glyph_stats_numpy(strips: np.ndarray, patch: np.ndarray, keep: np.ndarray, tile_model=None):
    """_glyph_stats in numpy (for a layout or type the compiled loop does not take)."""
    # The tile's own colour from the cleanest of four strips along the space's edges (as _glyph_stats).
    if tile_model is not None:
        diff = strips[..., :6] - tile_model.mean[:6]
        unlike = np.einsum("...i,ij,...j->...", diff, np.linalg.inv(tile_model.cov[:6, :6]), diff)
    else:
        unlike = strips[..., 3:].sum(axis=-1)
    pick = np.argmin(unlike, axis=-1)[..., None, None]
    base = np.take_along_axis(strips[..., :3], pick, axis=-2)[..., 0, :]  # (..., 3)
    diff = patch - base[..., None, None, :]
    distance = np.sqrt(np.einsum("...c,...c->...", diff, diff))  # (..., h, w)
    distance = np.where(keep, distance, -1.0)
    unlike = distance > GLYPH_DELTA_E
    share = unlike.sum(axis=(-2, -1)) / np.maximum(keep.sum(axis=(-2, -1)), 1)
    # The icon's colour from its core (pixels at least 70 % as distinct as the most distinct: not
    # the blurred edges, which are half tile), relative to the tile's colour beside it (the light
    # on both is the same). Colour only: how much edge the middle catches changes with the tile's
    # turn and the icon's shape, not with which icon it is.
    core = (distance >= 0.7 * distance.max(axis=(-2, -1), keepdims=True)) & keep
    count = np.maximum(core.sum(axis=(-2, -1)), 1)[..., None]
    colour = (diff * core[..., None]).sum(axis=(-3, -2)) / count
    colour = np.where(share[..., None] > 0, colour, 0.0)
    return share, np.concatenate([colour, np.zeros_like(colour)], axis=-1)


def _corner_best(dots: np.ndarray) -> np.ndarray:
    """dots (..., corners, flowers) → (...): dots.sum(axis=-1).max(axis=-1), the same numbers.
    numpy sums a short last axis (under 8) left to right, and reducing many short rows costs far
    more than adding a few whole planes (~50 us a read)."""
    corners, flowers = dots.shape[-2:]
    if flowers >= 8 or corners == 0 or flowers == 0:
        return dots.sum(axis=-1).max(axis=-1)  # pairwise from 8 on: numpy's own order
    total = dots[..., 0].copy()
    for f in range(1, flowers):
        total += dots[..., f]
    best = total[..., 0].copy()
    for q in range(1, corners):
        np.maximum(best, total[..., q], out=best)  # NaN wins, as in max
    return best


_FOOTPRINTS: dict[str, tuple[tuple[int, int, int], ...]] = {}  # _footprint_cells' answers (~50 ids in all)


def _footprint_cells(tile_id: str) -> tuple[tuple[int, int, int], ...]:
    """(row, col, position) of the four spaces of a tile, by its id ("r{row}c{col}": its top-left
    cell). Parsed once per id: the rules ask some 80 times a read."""
    made = _FOOTPRINTS.get(tile_id)
    if made is None:
        tr, tc = (int(v) for v in tile_id[1:].split("c"))
        made = tuple((tr + dr, tc + dc, i) for i, (dr, dc) in enumerate(POSITIONS))
        if len(_FOOTPRINTS) < 4096:
            _FOOTPRINTS[tile_id] = made
    return made


def _position_of(tile_id: str, r: int, c: int) -> int:
    tr, tc, _ = _footprint_cells(tile_id)[0]
    return POSITIONS.index((r - tr, c - tc))


def _position_fits(pos: int, r: int, c: int) -> bool:
    dr, dc = POSITIONS[pos]
    return 0 <= r - dr <= 6 and 0 <= c - dc <= 6


def _strip_rects(s: float, d: GardenDimensions) -> tuple[Rect, Rect, Rect, Rect]:
    """Strips along the middle of each edge of a space (top, right, bottom, left), clear of dots
    and icons: where the tile's own colour shows."""
    e = d.tile_inset_mm + d.tile_border_mm + 1.3
    return ((10.6, e, 14.4, e + 2.4), (s - e - 2.4, 10.6, s - e, 14.4), (10.6, s - e - 2.4, 14.4, s - e),
            (e, 10.6, e + 2.4, 14.4))


def _flower_centres(s: float) -> list[tuple[float, float]]:
    """Where a space may show its tile's flower: 5 mm from the space's centre towards one corner,
    TL, TR, BR, BL (the printed top-left corner after 0, 1, 2, 3 clockwise quarter turns)."""
    return [(s / 2 + dx, s / 2 + dy) for dx, dy in ((-5.0, -5.0), (5.0, -5.0), (5.0, 5.0), (-5.0, 5.0))]


def _space_rects(position: tuple[int, int], s: float, d: GardenDimensions):
    """Inside bands, outline ring and a clean base band for a tile space at `position` in its tile.

    Drawn for the top-left space and mirrored: the outer edges are the top (y = inset) and the left
    (x = inset); the inner edges (x = s, y = s) continue into the tile's other spaces. Bands keep
    clear of the flower dot and the icon printed on each space.
    """
    e = d.tile_inset_mm
    inner = d.tile_border_mm + 1.3  # from the tile's edge: past the printed frame
    # Along the outer edges only where no flower dot can be, however the tile is turned (the dot
    # lies 2.4–7.6 mm from the space's centre along both axes) and short of the icon.
    bands = [
        ((10.6, e + inner, 14.4, e + inner + 2.4), 0),  # along the top outer edge
        ((e + inner, 10.6, e + inner + 2.4, 14.4), 3),  # along the left outer edge
        ((s - 3.5, 3.5, s + 3.5, s - 3.5), 1),  # across the right inner edge
        ((3.5, s - 3.5, s - 3.5, s + 3.5), 2),  # across the bottom inner edge
        ((20.6, e + inner, s - 1.5, e + inner + 2.4), 0),  # the top edge again, past the dot
        ((e + inner, 20.6, e + inner + 2.4, s - 1.5), 3),  # the left edge again, past the dot
    ]
    outline_top = ((3.0, e - 0.9, s - 2.0, e + 1.2), 0)
    outline_left = ((e - 0.9, 3.0, e + 1.2, s - 2.0), 3)
    dr, dc = position

    def mirror(tagged: tuple[Rect, int]) -> tuple[Rect, int]:
        (x0, y0, x1, y1), side = tagged
        if dc:
            x0, x1 = s - x1, s - x0
            side = {1: 3, 3: 1}.get(side, side)
        if dr:
            y0, y1 = s - y1, s - y0
            side = {0: 2, 2: 0}.get(side, side)
        return (x0, y0, x1, y1), side

    inside = [mirror(b) for b in bands]
    ring = [mirror(outline_top), mirror(outline_left)]
    return inside, ring, inside[0][0]


def _paired_stairs(rows: list[list[CellReading]], r: int, c: int) -> bool:
    """Whether (r, c) is read as stairs with a neighbour read as stairs one level apart."""
    cell = rows[r][c]
    if cell.label != labels.STAIRS:
        return False
    return any(0 <= rr < 8 and 0 <= cc < 8 and rows[rr][cc].label == labels.STAIRS
               and abs(max(stands_on(rows[rr][cc])) - max(stands_on(cell))) == 1
               for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))


def _pair_stairs(rows: list[list[CellReading]]) -> list[list[CellReading]]:
    """A stairs joins two spaces: report both spaces' levels on each (low, high). A step read with
    no step one level apart beside it (the other step hidden, or misread) at level 1 is the low
    step of a stairs whose other step is at level 2: both steps stand on tiles one level apart
    (babylon.deco.stairs), and no tile lies at level 0. A lone step higher up is reported at its
    own level alone (its other step may be a level lower or higher). Either way read half as
    surely as the step (the other step is not seen), and the completed pair no surer than
    GHOST_CAP."""
    out = [list(row) for row in rows]
    for r in range(8):
        for c in range(8):
            cell = rows[r][c]
            if cell.label != labels.STAIRS:
                continue
            mine = cell.attrs["level"]
            partner = None
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < 8 and 0 <= cc < 8 and rows[rr][cc].label == labels.STAIRS:
                    other = rows[rr][cc].attrs["level"]
                    if abs(other - mine) == 1:
                        partner = other
                        break
            confidence = cell.confidence if partner is not None else cell.confidence * 0.5
            if partner is None and mine == 1:
                partner, confidence = 2, min(confidence, GHOST_CAP)  # the other step, as the rule says
            pair = sorted([mine, partner]) if partner is not None else [mine]
            out[r][c] = CellReading(cell.label, confidence, {"level": pair}, cell.alternatives)
    return out
