"""Baubylon: per space, the height of the block top (in pawn heights) and the pawn stack on it.

Heights are read by parallax, as in babel.py: each candidate height of a space's block top is
scored by where its outline crosses in the full-resolution frame against where that height puts it
(stack_sampling). Blocks are all one wood, so an outline shows only where something else lies
beyond a side: the table, this block's own side face above a lower neighbour on the camera's side,
or a taller neighbour's side face beyond the far side. Between two blocks of the same height (a
plateau) the joint between them shows instead, a thin line right where that height puts it, or
at least the top goes on block-like across the side (half as good: blur hides thin lines).
Neighbours' heights come from the previous pass.

A pawn stack's top is a small square whose outline gives block height + stack size; its colour
(learned) is the top pawn's. Pawns beneath are hidden from above: they read as None. Stacks are
read first: a first look at the colour in the middle of each space at every height a top can
have, the outline only where a pawn's colour shows (a pawn partly hidden behind a taller stand
is judged on the part of its top unlike table and blocks too; pawns are told apart by colour
alone, as the spread of a top is the camera's noise). A pawn's sides are its own colour, so the
sides facing the camera count only as far as they show an outline. The block under a stack is then
chosen among the levels the stack's top allows, on the sides the stack leaves in view.

What the camera sees must be possible (one frame, one scene):
- one top seen in the frame is one stack, and one block top (a square at another space and height
  seen along the same ray looks just the same): the one showing more of its outline keeps it;
- a stack shows below its top: along the space's middle every pawn under the top pawn, down to the
  block it stands on, is unlike table and blocks (a pawn alone on a block is not three pawns);
- no top is kept where a taller stand nearer the camera would hide it, when that stand's own top
  shows much less of its outline than the top it would hide.
- a bare block top is wood all across: one whose middle shows the table, where no taller stand
  nearer the camera may hide any of it, is not there (another edge matched its outline).

Start points are not pieces: the rules (baubylon.enter) let the players choose and mark them as
they like, so there is nothing on the table this observer could read for them.
"""

from __future__ import annotations

import cv2
import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BAUBYLON
from ..types import CellReading, Observation
from . import baubylon_kernels as kernels
from .baubylon_history import SpaceView, with_history
from .baubylon_light import margin_light
from .baubylon_light import warm as warm_light
from .baubylon_speed import block_outline_terms
from .class_support import ClassSupport
from .class_support import warm as warm_class_support
from .common import class_support, need_profile
from .dimensions import BAUBYLON as DIMS
from .dimensions import BaubylonDimensions
from .geometry import RegionGeometry
from .stack_sampling import (
    PointSampler,
    SquareProbes,
    along_side,
    facing_classes,
    gains_at,
    lab_to_bgr,
    offset_samples,
    offset_table,
    outline,
    outline_offsets,
    plane_design,
    rebalance_each,
    robust_features,
    surface_gain_field,
    unit_lab,
)

TABLE, BLOCK = "table", "block"
PAWNS = ("red", "blue", "green", "yellow", "black", "white", "purple")
PAWN_CLASSES = tuple(f"pawn:{c}" for c in PAWNS)
PAWN_OUTLINE = "outline:pawn"  # profile entries outline:pawn:near etc. (measurements, not pieces, as outline:*)
_SIDE_NORMALS = np.array([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])  # y−, x+, y+, x−
_TABLE_WEIGHT = 0.33  # a space on the table looks like the table (so may a block's shaded side: in bench frames 27 % of block spaces do)
_NO_OUTLINE = 0.3  # a block level's outline this weak is as good as none (confidence, stands)
# ...and the table level's score where the table's colour does not show (a taller neighbour
# hides it, a stack stands on it): a block whose outline shows only in part scores 0.25-0.3 and
# must still beat it; 0.2-0.27 read the same within 3 cells in 200 bench frames of seeds 0-2.
_TABLE_FLOOR = 0.24
_HIDDEN_SURE = 0.45  # at most this sure of a space with a taller neighbour in front
_MARGIN_MM = 2.0  # the table measured this far outside the field
_NO_PAWN = 0.35  # a pawn must show both its colour and its outline
_PAWN_UNLIKE = 15.0  # a first look: unlike the table and the blocks by this much (ΔE)...
_PAWN_COLOUR = 0.2  # ...then a pawn's colour worth a look at its outline there
_TALLER = 0.03  # a stack one pawn taller must fit this much better
_SHORTER = 0.05  # ...and in one space, a top one pawn height lower scoring this close is taken
# A stack top a taller stack of its colour nearer the camera would hide, that shows its own top
# (colour and outline) more than this times as well as that stack's top shows, is a stack of its
# own: in bench frames (seeds 0-5) the true tops so dropped showed 1.06-2.0 times their hider's
# (0.45-0.6 where the taller one hides them indeed), the tops that were its side 0.39-0.9 times;
# 0.5-1.5 read the same.
_SIDE_SHOWS = 1.0
_ALIKE = 15.0  # ΔE: block-like on both sides of a side...
_JOINT_ALIKE = 0.5  # ...counts this much as a joint that does not show
_TYPICAL_D2_COLOUR = 16.3  # chi-square(3) at 99.9 %: beyond this a colour is atypical of its class
_COLUMN_UNLIKE = 14.0  # ΔE: each pawn under a stack's top shows this unlike table and blocks
_BLOCK_ACROSS_PX = (-2.0, -1.0, 0.0, 1.0, 2.0)  # a block top's outline looked for within 2 px of where a level puts it
# A lower top farther from the camera, meeting a top in the frame, does not take its place when
# its sides not facing away show less than this times that top's outline: what it shows are its
# far sides, seen past the nearer, taller top (far_step).
_FAR_SHOWS = 0.5
_HIDDEN_SHOWS = 2.0  # a top a nearer stand would hide vetoes that stand when it shows this much more outline
_RING = 0.6  # under a stack, a level whose top shows block-like round the pawns scores at least this much of it
_STAND = 0.5  # of two stack tops seen in one place, the stand under each counts this much
_FOOT = 1.0  # ...and a stand whose middle shows something on it this much more (see _stand_bears)
# Under a stack's top, a block one level higher (two pawns fewer) is preferred by this much per
# pawn height: a block top two pawn heights lower shows an outline too (a joint between lying
# blocks, the pawns' own feet), and read from one frame the two fit within a few hundredths. In
# bench frames (seeds 0-3, 200 each) 0.015-0.1 read 4-9 such stacks right and none wrong; 0.2
# made 6 new errors.
_FEWER = 0.075
# A stack whose block shows less than this of its outline, and its top round the pawns less than
# _STANDLESS_RING, stands on nothing seen (in bench frames such stacks' blocks showed 0.004-0.015).
_STANDLESS = 0.05
_STANDLESS_RING = 0.1
# A bare top read one lying block high whose own outline shows less than this (support: edges and
# joint lines, no wood going on) is higher (baubylon_kernels.block_choice). In bench frames (seeds
# 0-5) such tops read right showed 0.26 and more, the wrong ones (standing blocks among lying
# ones: wood going on at a lying block's height, the joint term's 0.5) 0-0.16. 0.1 fixed 5 of
# them, 0.3 broke one read right (0.26).
_LYING_SHOWS = 0.2
_CORNER_REACH = 0.71  # half a square's diagonal, in sides: how far a block's image reaches from its axis
_PART_LEAST = 3  # points of a pawn top's interior grid that must show its colour when partly hidden
# A pawn top a taller stand nearer the camera hides in part (not its middle), read again on the
# sides that stand leaves in view: this much of its outline and colour makes it a pawn. In bench
# frames (seeds 0-3, 200 each) the same spaces without a pawn in view scored 0.00; the pawns 0-0.5.
# Lone pawns on the table, their colour plain (support 1.0) but most of their sides behind that
# stand, scored 0.05-0.12 (baubylon.stack: a pawn stands there, its top in view): in seeds 0-5,
# 0.04-0.06 read four more right than 0.15 did, none wrong; 0.03 read one phantom, 0.09 two fewer.
_PART_SHOWN = 0.06
# A space whose likeliest stack top another stack's top took (one top seen in the frame is one
# stack) has its next likeliest judged in its place, at most this many times.
_REPICKS = 2
_PART_SIDE_LEAST = 0.2  # a side that does not show the face inside still counts this much
_PARTIAL_PAWNS = 2  # stacks of up to this many pawns looked for behind a taller stand
# A stack read on the table where a lying block's top shows its outline round it (support at
# least _LYING_ROUND) and a top of its colour one pawn height up scores at least _LYING_TOP times
# its own: one pawn on that block (see _pawn_on_lying).
_LYING_ROUND = 0.3
_LYING_TOP = 0.4
# A stack read on a block whose next level up it allows (the same top, fewer pawns) shows that
# level's outline at least _UP_SHOWS and _UP_OUTSHOWS times its own: it stands on that level
# (see _higher_stand).
_UP_SHOWS = 0.5
_UP_OUTSHOWS = 2.0


class BaubylonObserver:
    region = BAUBYLON.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: BaubylonDimensions = DIMS):
        self.profile = profile
        self.dims = dims
        rows, cols, s, ph = BAUBYLON.rows, BAUBYLON.cols, BAUBYLON.cell_mm, dims.pawn_height_mm
        self.levels = np.arange(0, dims.max_block_height + 1, 2)  # blocks: 2 (lying) or 4 (standing) pawn heights
        self.top = dims.max_block_height + dims.max_pawns
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        squares = [(c * s, r * s, (c + 1) * s, (r + 1) * s) for r, c in cells]
        # Block tops at each level above the table (outlines and colour); the table: colour only.
        self.blocks = SquareProbes(geometry, squares, self.levels[1:] * ph, positions=4,
                                  interior_inset_mm=0.8, grid=3, across_px=_BLOCK_ACROSS_PX)
        self.ground = SquareProbes(geometry, squares, [0.0], positions=1, interior_inset_mm=1.5, grid=4)
        # The table just outside the field: the white reference for the light at read time (the
        # field's own blocks never stand on it, and its near side is never behind one).
        along = np.arange(3.0, BAUBYLON.width_mm, 6.0)
        out = -_MARGIN_MM
        far = BAUBYLON.width_mm + _MARGIN_MM
        ring = np.concatenate([np.column_stack([along, np.full_like(along, out)]),
                               np.column_stack([along, np.full_like(along, far)]),
                               np.column_stack([np.full_like(along, out), along]),
                               np.column_stack([np.full_like(along, far), along])])
        self.margin = PointSampler(geometry, np.column_stack([ring, np.zeros(len(ring))]))
        self.margin_unhidden = _unhidden(geometry, self.margin.pixels, self.top * ph)
        self._margin_design = plane_design(self.margin.pixels)  # the light plane's terms there
        h = dims.pawn_mm / 2.0
        self.pawns = SquareProbes(geometry, [((c + 0.5) * s - h, (r + 0.5) * s - h, (c + 0.5) * s + h, (r + 0.5) * s + h)
                                             for r, c in cells], np.arange(1, self.top + 1) * ph, positions=3)
        nadir = np.asarray(geometry.nadir_xy(), float)
        centres = (np.asarray(cells, float)[:, ::-1] + 0.5) * s
        self.cell_pixels = geometry.to_pixels(np.column_stack([centres, np.zeros(len(cells))]))
        self._cell_design = plane_design(self.cell_pixels)
        self.nadir_distance = np.linalg.norm(centres - nadir[None, :], axis=1)
        towards = nadir[None, :] - centres
        towards /= np.maximum(np.linalg.norm(towards, axis=1, keepdims=True), 1e-6)
        dots = towards @ _SIDE_NORMALS.T
        self.facing = np.where(dots > 0.2, 1, np.where(dots < -0.2, -1, 0)).reshape(rows, cols, 4)
        # How far each side's outline moves per block level (2 pawn heights), and per pawn.
        block_moves = np.abs(self.blocks.shift_px_per_mm) * 2 * ph
        weight = np.clip(block_moves / 3.0, 0.1, 1.0).reshape(rows, cols, len(self.levels) - 1, 4)
        self.weight = np.concatenate([np.zeros((rows, cols, 1, 4)), weight], axis=2)  # level 0: no outline
        self.pawn_weight = np.clip(np.abs(self.pawns.shift_px_per_mm) * ph / 3.0, 0.1, 1.0)  # (S, top, 4)
        # Where each candidate stack top lies in the frame, and how wide a pawn looks there.
        tops = np.concatenate([np.repeat(centres[:, None, :], self.top, axis=1),
                               np.broadcast_to(self.pawns.heights[None, :, None], (len(cells), self.top, 1))], axis=-1)
        self.pawn_pixels = geometry.to_pixels(tops.reshape(-1, 3)).reshape(len(cells), self.top, 2)
        self.pawn_px = self.pawns.px_per_mm.mean(axis=(2, 3)) * dims.pawn_mm  # (S, top)
        block_tops = np.concatenate([np.repeat(centres[:, None, :], len(self.levels), axis=1),
                                     np.broadcast_to((self.levels * ph)[None, :, None], (len(cells), len(self.levels), 1))],
                                    axis=-1)
        self.block_pixels = geometry.to_pixels(block_tops.reshape(-1, 3)).reshape(len(cells), len(self.levels), 2)
        self.block_px = np.concatenate([self.blocks.px_per_mm.mean(axis=(2, 3))[:, :1], self.blocks.px_per_mm.mean(axis=(2, 3))],
                                       axis=1) * s  # (S, levels)

        self._hiding_tables()
        # Which block tops (space, level; flat) land within a quarter of the other's width of each
        # other in the frame (for _one_top_per_place: the same comparison, once per geometry).
        self._tops_meet = (_apart(self.block_pixels.reshape(-1, 2))
                           < 0.25 * self.block_px.reshape(-1)[None, :])
        # The block passes' per-geometry terms, level and side first (see _block_terms).
        self._level_values = self.levels[:, None, None, None]
        self._near_first = _level_side_first(self.facing[:, :, None, :] > 0)
        self._far_first = _level_side_first(self.facing[:, :, None, :] < 0)
        self._weight_first = _level_side_first(self.weight)
        # Each space's neighbour beyond each side (SIDES' order), the spaces' count where off the field.
        r, c = np.divmod(np.arange(rows * cols), cols)
        self._beside_index = np.full((4, rows, cols), rows * cols)
        for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            inside = (r + dr >= 0) & (r + dr < rows) & (c + dc >= 0) & (c + dc < cols)
            self._beside_index[side].ravel()[inside] = ((r + dr) * cols + c + dc)[inside]
        # _stand_fit's weights of the sides not facing away from the camera, their sum (at least
        # 1e-6), and the block level just under each stack top: the fewest pawns (a taller stack
        # must show below its top, and the column check says whether it does).
        stand_open = (self.facing[:, :, None, :] >= 0) * self.weight
        self._stand_terms = (stand_open, np.maximum(_sum_sides(stand_open), 1e-6),
                             np.searchsorted(self.levels, np.arange(1, self.top + 1), side="left") - 1)
        # _ring's sides (those not facing away from the camera) and their count, at least 1.
        self._ring_open = self.facing[:, :, None, :] >= 0
        self._ring_sides = np.maximum(_sum_sides(self._ring_open.astype(float)), 1.0)
        # _taller_in_front's: each space's sides facing the camera, and its neighbours side first.
        self._near_sides = np.ascontiguousarray((self.facing > 0).reshape(rows * cols, 4))
        self._beside_flat = np.ascontiguousarray(self._beside_index.reshape(4, rows * cols))
        # _not_seen_on_columns': each space's neighbours side by side, the block level under each top.
        self._beside_rows = np.ascontiguousarray(self._beside_flat.T)
        self._under_levels = np.ascontiguousarray(self.levels[self._stand_terms[2]])
        self._under_height = np.maximum(self._under_levels - 1, 0)  # (_stand_bears: the probe under each top)
        # _stand_fit's and _ring's terms per space (compiled: baubylon_kernels.stand_fit, ring_means).
        self._stand_fit_terms = (np.ascontiguousarray(stand_open.reshape(rows * cols, len(self.levels), 4)),
                                 np.ascontiguousarray(self._stand_terms[1].reshape(rows * cols, len(self.levels))),
                                 np.ascontiguousarray(self._stand_terms[2], np.int64))
        self._ring_open_flat = np.ascontiguousarray(self._ring_open.reshape(rows * cols, 4))
        self._ring_sides_flat = np.ascontiguousarray(self._ring_sides.reshape(rows * cols))
        self._offsets_for: tuple[AppearanceProfile, tuple[np.ndarray, np.ndarray]] | None = None
        kernels.warm()  # the compiled loops ready before the first read (once per process)
        warm_light()  # ...and the light fit's (baubylon_light)
        warm_class_support()  # ...and the table support's (class_support)
        self._support_for: tuple[AppearanceProfile, ClassSupport] | None = None
        # (profile, the table's Lab, its BGR, the blocks' BGR) learned once per profile
        self._table_bgr_for: tuple[AppearanceProfile, np.ndarray, np.ndarray, np.ndarray] | None = None

    def _neighbours_first(self, heights: np.ndarray) -> np.ndarray:
        """_beside_first(heights) (4, rows, cols) by one take from the spaces' heights and a 0 for
        off the field, through an index made once per geometry (the same values)."""
        padded = np.zeros(heights.size + 1, heights.dtype)
        padded[:-1] = heights.ravel()
        return padded.take(self._beside_index)

    def _hiding_tables(self) -> None:
        """For _behind_taller, once per geometry: per space and each space up to two away
        (hiding_other, hiding_nearer: inside the field and nearer the camera), whether a stand
        there of each top hides the middle of this space's top at each height (hiding[S, 24,
        own top, other top]: within half a space of that stand's upright axis in the frame)."""
        rows, cols = BAUBYLON.rows, BAUBYLON.cols
        points = np.concatenate([self.block_pixels[:, :1], self.pawn_pixels], axis=1)  # (S, top + 1, 2) by pawn height
        r, c = np.divmod(np.arange(rows * cols), cols)
        steps = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3) if dr or dc]
        rr = r[:, None] + np.array([dr for dr, _ in steps])[None, :]
        cc = c[:, None] + np.array([dc for _, dc in steps])[None, :]
        inside = (rr >= 0) & (rr < rows) & (cc >= 0) & (cc < cols)
        other = np.where(inside, rr * cols + cc, 0)  # (S, K)
        self.hiding_other = other
        self.hiding_nearer = inside & (self.nadir_distance[other] < self.nadir_distance[:, None])
        here = points[:, None, :, None, :]  # (S, 1, own top, 1, 2)
        a = points[other, 0][:, :, None, None, :]  # (S, K, 1, 1, 2) the other's foot
        axis = points[other][:, :, None, :, :] - a  # (S, K, 1, other top, 2)
        t = np.clip(((here - a) * axis).sum(-1) / np.maximum((axis * axis).sum(-1), 1e-6), 0, 1)
        gap = np.linalg.norm(here - (a + t[..., None] * axis), axis=-1)  # (S, K, own top, other top)
        self.hiding = gap < 0.5 * self.block_px[other, 0][:, :, None, None]
        # Where each (space, other) pair's table starts in self.hiding's flat copy (for _hides).
        self._hiding_flat = self.hiding.ravel()
        # ...and whether such a stand may hide part of it: a block's corner reaches half the
        # square's diagonal from its axis (only a reading's confidence depends on this).
        self._hiding_part_flat = (gap < _CORNER_REACH * self.block_px[other, 0][:, :, None, None]).ravel()
        self._hiding_start = np.arange(other.size).reshape(other.shape) * (self.top + 1) ** 2
        # ...and whether a stack of pawns there hides it: within a pawn's half width and 3 mm.
        self.hiding_pawn = gap < ((self.dims.pawn_mm / 2 + 3.0) / BAUBYLON.cell_mm) * self.block_px[other, 0][:, :, None, None]

    def _hides(self, own: np.ndarray, other: np.ndarray, table: np.ndarray | None = None) -> np.ndarray:
        """(S, 24) self.hiding[space, k, own[space], other[space, k]]: one flat gather (from
        `table`, another such flat table, when given)."""
        flat = self._hiding_flat if table is None else table
        return flat[self._hiding_start + own[:, None] * (self.top + 1) + other]

    def _any_hides(self, own: np.ndarray, other: np.ndarray, pairs: np.ndarray,
                   table: np.ndarray | None = None) -> np.ndarray:
        """(S,) (pairs & self._hides(own, other, table)).any(axis=1), looked up for the (space, k)
        in `pairs` (S, 24) only: usually a few (the same answer)."""
        at = np.flatnonzero(pairs)
        out = np.zeros(len(own), bool)
        if len(at):
            space = at // pairs.shape[1]
            flat = self._hiding_flat if table is None else table
            out[space[flat[self._hiding_start.ravel()[at] + own[space] * (self.top + 1) + other.ravel()[at]]]] = True
        return out

    # --- measuring -------------------------------------------------------------------------------

    def _blocks(self, image: np.ndarray):
        """For calibration (no profile yet): features of the ground and every level (rows, cols,
        levels, 6), the block tops' outlines traced against their own colour, and unit gains."""
        ground = robust_features(self.ground.sample_interior(image))[:, 0]
        samples = self.blocks.sample(image)
        features = np.concatenate([ground[:, None], samples.interior_features()], axis=1)
        features = features.reshape(BAUBYLON.rows, BAUBYLON.cols, len(self.levels), 6)
        return features, outline(samples, samples.interior_colour()), np.ones((len(ground), 3), np.float32)

    def _measure_blocks(self, image: np.ndarray, profile: AppearanceProfile, expected: np.ndarray):
        """Features of the ground (rows, cols, 6: the table's colour, balanced to the calibration's
        light); the block tops' outline terms per level (block_outline_terms' four, against where
        this camera's outlines cross, `expected`); and the light's BGR gains (calibration → now)
        measured on the table. A profile without table or blocks: as calibration measures."""
        if BLOCK not in profile.names or TABLE not in profile.names:
            features, lines, gains = self._blocks(image)
            return features, block_outline_terms(lines, expected, _ALIKE), gains
        ground = kernels.robust_rows(self.ground.sample_interior(image)[:, 0])  # robust_features', compiled
        samples = self.blocks.sample_across(image)  # the tops' colour is the learned one
        gains = self._light_gains(image, profile)  # (S, 3)
        # The learned block colour as this frame's light shows it there: the outline's reference.
        # ...and the table's colour balanced to the calibration's light: both in one rebalance
        # (each colour converted on its own: the same numbers as two calls).
        count = len(gains)
        both = np.empty((2 * count, 3), np.float32)
        both[:count] = profile.classes[BLOCK].mean[:3]
        both[count:] = ground[:, :3]
        balanced = rebalance_each(both, np.concatenate([1.0 / gains, gains]))
        features = np.concatenate([balanced[count:], ground[:, 3:]], axis=-1)
        # outline() and block_outline_terms() compiled (baubylon_kernels: the same numbers)
        terms = kernels.block_outline_terms(samples.across, balanced[:count], samples.offsets, expected, _ALIKE,
                                            BAUBYLON.rows, BAUBYLON.cols)
        return features.reshape(BAUBYLON.rows, BAUBYLON.cols, 6), terms, gains

    def _light_gains(self, image: np.ndarray, profile: AppearanceProfile) -> np.ndarray:
        """(S, 3) BGR gains at each space that bring this frame's light back to the calibration's,
        measured on the table just outside the field. Where a block may stand in front of that
        table (not margin_unhidden: the far side), a block's face, shaded, can look like the lit
        table: places whose hue is the blocks' under this light are not taken for table."""
        cached = self._table_bgr_for
        if cached is None or cached[0] is not profile:  # the learned colours in BGR, once per profile
            known = np.asarray(profile.classes[TABLE].mean[:3], np.float32)
            block = np.asarray(profile.classes[BLOCK].mean[:3], np.float32)
            cached = self._table_bgr_for = (profile, known, lab_to_bgr(known).reshape(3),
                                            lab_to_bgr(block).reshape(3))
        # unit_lab of the margin's pixels: to_lab(bgr()) without its clip (a uint8 colour stays in range)
        seen = unit_lab(self.margin.raw(image))
        # The plane through the lit table (baubylon_light); where the ring shows too little of it,
        # the plane fitted to the whole ring, raised out of the shadows.
        field = margin_light(seen, cached[1], cached[2], cached[3], self._margin_design, self.margin_unhidden)
        if field is None:
            field = surface_gain_field(seen, self.margin.pixels, cached[1], unhidden=self.margin_unhidden,
                                       design=self._margin_design, known_bgr=cached[2], front_bgr=cached[3])
        return gains_at(field, self.cell_pixels, self._cell_design)

    def _table_support(self, profile: AppearanceProfile, features: np.ndarray) -> np.ndarray:
        """(rows, cols) the table's support among table and blocks of the ground's `features`
        (rows, cols, 6): common.class_support's numbers bit for bit, through class_support.
        ClassSupport (compiled; made once per profile: profiles are not changed in place)."""
        if TABLE not in profile.names:
            return class_support(profile, features, (TABLE, BLOCK))[TABLE]
        cached = self._support_for
        if cached is None or cached[0] is not profile:
            cached = self._support_for = (profile, ClassSupport(profile))
        return cached[1](features, (TABLE, BLOCK))[..., profile.index(TABLE)]

    def _per_level(self, values: np.ndarray) -> np.ndarray:
        """(S, levels − 1, 4) outline values for the levels above the table → (rows, cols, levels, 4)
        with zeros on the table level (a space on the table has no outline of its own)."""
        rows, cols = BAUBYLON.rows, BAUBYLON.cols
        return np.concatenate([np.zeros((len(values), 1, 4), values.dtype), values], axis=1).reshape(rows, cols, -1, 4)

    def _one_stack_per_top(self, scores: np.ndarray, stands: np.ndarray | None = None,
                           kinds: np.ndarray | None = None) -> np.ndarray:
        """One pawn top seen in the frame is one stack: a square at another space and height seen
        along the same ray looks just the same. Keep the likelier (a shorter stack when in doubt),
        judged with the stand under it (`stands`, (S, top): how well a block it could stand on
        shows its outline: the two stands stand elsewhere in the frame). `kinds` (S, top): each
        candidate's colour (index into PAWNS)."""
        best = scores.argmax(axis=-1)
        cells = np.arange(len(scores))
        found = np.flatnonzero(scores[cells, best] > _NO_PAWN)
        if len(found) < 2:
            return scores
        rank = scores[found, best[found]] - _TALLER * best[found]
        if stands is not None:
            rank = rank + _STAND * stands[found, best[found]]
        found = found[np.argsort(-rank)]
        # Where two tops meet in the frame (within half a pawn's width); nor can a stack stand
        # where a taller one nearer the camera would hide its top: what it showed was the taller
        # one (its side, its top's edges), so of its colour; a top of another colour there is a
        # stack of its own, in part in view; and so is one that shows its top better than the
        # taller one shows its own (more than _SIDE_SHOWS times: baubylon.stack, a pawn's side
        # is a flat face of its colour, with no top's outline on it). Likeliest first; a top
        # taken is not a second stack (compiled: baubylon_kernels.one_stack_kept).
        kept = kernels.one_stack_kept(found, best, self.pawn_pixels, self.pawn_px, self.hiding_other, self.hiding_nearer,
                                      self.hiding_pawn, kinds if kinds is not None else _NO_KINDS, kinds is not None,
                                      scores[cells, best], _SIDE_SHOWS)
        out = scores.copy()
        out[found[~kept]] = 0.0  # likeliest first; a top taken is not a second stack
        return out

    def _one_stack_per_space(self, scores: np.ndarray, stands: np.ndarray | None = None,
                             kinds: np.ndarray | None = None) -> np.ndarray:
        """_one_stack_per_top, then again for the spaces whose likeliest top it gave to another
        stack (one top seen in the frame is one stack): that top was the other stack's, not
        this space's, so this space's next likeliest top is judged in its place, among all the
        others in the same order (how well each shows), up to _REPICKS times. A space left with
        no top above _NO_PAWN reads bare, as before."""
        work = scores
        rows = np.arange(len(scores))
        for attempt in range(_REPICKS + 1):
            out = self._one_stack_per_top(work, stands, kinds)
            best = work.argmax(axis=-1)
            taken = np.flatnonzero((work[rows, best] > _NO_PAWN) & (out[rows, best] == 0.0))
            if not len(taken) or attempt == _REPICKS:
                return out
            work = work.copy()
            work[taken, best[taken]] = 0.0  # that top was another stack's
            if not (work[taken].max(axis=-1) > _NO_PAWN).any():
                return out
        return out

    def _not_seen_on_columns(self, scores: np.ndarray, kinds: np.ndarray) -> np.ndarray:
        """`scores` with the stack tops dropped that are a farther stack of their colour, one
        space away, seen on its column with its block's near edge (baubylon_columns)."""
        best = scores.argmax(axis=-1)
        found = scores[np.arange(len(scores)), best] > _NO_PAWN
        if np.count_nonzero(found) < 2:
            return scores
        # (seen_on_columns, compiled: baubylon_kernels.columns_drop, the same pairs)
        drop = np.zeros(len(best), np.bool_)
        kernels.columns_drop(best, found, kinds, self.hiding_other, self._beside_rows, self.nadir_distance,
                             self._under_levels, self.hiding_pawn, drop)
        if not drop.any():
            return scores
        out = scores.copy()
        out[drop] = 0.0
        return out

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        """Table, block and pawn colours, and where this camera draws a block top's outline on the
        near, far and oblique sides (next to the table)."""
        features, lines, _ = self._blocks(image)
        rows, cols = BAUBYLON.rows, BAUBYLON.cols
        heights = np.array([[attrs["height"] for _, attrs in row] for row in expected])
        index = np.searchsorted(self.levels, heights)
        crossing = self._per_level(np.median(lines.crossing, axis=-1))
        step = self._per_level(np.median(lines.step, axis=-1))
        kinds = facing_classes(self.facing)
        padded = np.pad(heights, 1)
        neighbours = np.stack([padded[:-2, 1:-1], padded[1:-1, 2:], padded[2:, 1:-1], padded[1:-1, :-2]], axis=-1)
        stacks = np.zeros((rows * cols, 1), int)  # the top pawn's height (probe index), where there is one
        samples: dict[str, list[np.ndarray]] = {}
        crossings: dict[int, list[float]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                h, pawns, k = attrs["height"], attrs["pawns"], index[r, c]
                samples.setdefault(BLOCK if h else TABLE, []).append(features[r, c, k])
                for side in range(4):
                    if h and neighbours[r, c, side] == 0 and step[r, c, k, side] > 10.0 and abs(crossing[r, c, k, side]) < 2.0:
                        crossings.setdefault(int(kinds[r, c, side]), []).append(float(crossing[r, c, k, side]))
                stacks[r * cols + c, 0] = max(h + len(pawns) - 1, 0)
        pawn_tops = self.pawns.sample_levels(image, stacks)
        tops = pawn_tops.interior_features()[:, 0]
        pawn_lines = outline(pawn_tops, pawn_tops.interior_colour())
        pawn_crossing = np.median(pawn_lines.crossing[:, 0], axis=-1).reshape(rows, cols, 4)
        pawn_step = np.median(pawn_lines.step[:, 0], axis=-1).reshape(rows, cols, 4)
        pawn_crossings: dict[int, list[float]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                if attrs["pawns"]:
                    samples.setdefault(f"pawn:{attrs['pawns'][-1]}", []).append(tops[r * cols + c])
                    for side in range(4):  # a pawn's outline: where it shows clearly
                        if pawn_step[r, c, side] > 10.0 and abs(pawn_crossing[r, c, side]) < 2.0:
                            pawn_crossings.setdefault(int(kinds[r, c, side]), []).append(float(pawn_crossing[r, c, side]))
        samples.update(offset_samples(crossings))
        samples.update(offset_samples(pawn_crossings, PAWN_OUTLINE))
        return samples

    # --- reading ---------------------------------------------------------------------------------

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0,
                previous: Observation | None = None) -> Observation:
        """Read one still frame. With `previous` (this observer's reading of the last still frame of
        this board), what the frame reads unsurely is read with what was seen before
        (baubylon_history); with None, the frame alone."""
        profile = need_profile(self.profile, self.region)
        rows, cols = BAUBYLON.rows, BAUBYLON.cols
        expected, pawn_offsets = self._learned_offsets(profile)
        # lines.evidence(expected) and seam_evidence(lines) per level; block-like on both sides of
        # where a level puts a side (no outline there, as on a plateau): `alike`; and how block-like
        # just inside each side (for _ring): one pass for all four (baubylon_speed, the same numbers).
        features, (evidence, seams, alike, inside), gains = self._measure_blocks(image, profile, expected)
        # The table's colour decides the table level; a block's top is judged by its outline, its
        # colour (the learned one) having been the outline's reference already.
        table = self._table_support(profile, features)
        # Pawns first: a stack's top is read well, and the block under it is then half hidden.
        stands = self._stand_fit(evidence)
        pawn_top, pawn_colour, pawn_score, pawn_sure, odd, unlike, look = self._read_pawns(image, profile, pawn_offsets,
                                                                                          gains, stands)
        stacked = (pawn_score > _NO_PAWN).reshape(rows, cols)
        top = pawn_top.reshape(rows, cols)
        allowed = self._stack_allowed(unlike, pawn_top, stacked)
        # A top whose stack would not show below it on any block is not a stack's (a pawn's top
        # elsewhere seen along the same ray, or a pawn alone on a block read as more pawns).
        lost = stacked & ~allowed.any(axis=-1)
        stacked &= ~lost
        allowed |= lost[..., None]
        read_score = pawn_score
        pawn_score = np.where(lost.ravel(), 0.0, pawn_score)
        joints = np.maximum(seams, _JOINT_ALIKE * alike)
        # Under a stack, the block's top shows round the pawns on the sides they do not lean
        # over (a pawn leans away from the camera): block-like just inside those sides at its
        # level; more pawns on a lower block would show their own colour there instead.
        ring = self._ring(inside)
        shown: dict = {}
        levels, scores, seen = self._read_blocks(table, evidence, seams, joints, stacked, allowed, ring, shown)
        # A stack dropped because its column did not show may stand behind a taller stand nearer
        # the camera, which hides the pawns under its top, or show a pawn of it on part of its
        # grid only (the mean mixed with what is round it): with those pawns excused, the blocks
        # read again (rare).
        restored = np.zeros((rows, cols), bool)
        if lost.any():
            column = _column_in_part(unlike, np.flatnonzero(lost.ravel()), look[0], gains, profile)
            under = self._column_behind(column, pawn_top, lost.ravel(), self.levels[levels].ravel())
            restored = under.any(axis=-1).reshape(rows, cols)
            if restored.any():
                stacked = stacked | restored
                allowed = np.where(restored[..., None], under.reshape(rows, cols, -1), allowed)
                pawn_score = np.where(restored.ravel(), read_score, pawn_score)
                levels, scores, seen = self._read_blocks(table, evidence, seams, joints, stacked, allowed, ring, shown)
        # A stack must stand on something: where no block it may stand on shows any of its outline
        # or its top round the pawns, and no taller stand nearer the camera may hide it, its top was
        # another space's seen along the same ray (baubylon.stack: a stack stands on a block or
        # the table; the table is ruled out where its column does not show). Blocks read again.
        phantom = self._standless(stacked, allowed, seen, ring, np.where(stacked, top, self.levels[levels]))
        if phantom.any():
            stacked, allowed, pawn_score = _without_stacks(phantom, stacked, allowed, pawn_score)
            levels, scores, seen = self._read_blocks(table, evidence, seams, joints, stacked, allowed, ring, shown)
        # ...nor where a block level below its top that the stack rules out (its pawns would not
        # show above that block) shows its outline much more than every level it allows, and the
        # stack cannot stand on the table: that block is there, bare, and the top was another
        # space's seen along the same ray (_outshown).
        phantom = self._outshown(stacked, allowed, shown, top)
        if phantom.any():
            stacked, allowed, pawn_score = _without_stacks(phantom, stacked, allowed, pawn_score)
            levels, scores, seen = self._read_blocks(table, evidence, seams, joints, stacked, allowed, ring)
        # A block top is the blocks' one wood all across (baubylon.units): where the middle of a
        # bare space's top read shows the table and no taller stand nearer the camera may hide
        # any of that top, another edge along the ray matched its outline. The levels whose
        # middle shows the table are ruled out there, and the blocks read again.
        foreign = self._table_in_middle(look[0], gains, profile, levels, stacked, top)
        if foreign is not None:
            allowed = allowed & ~foreign
            levels, scores, seen = self._read_blocks(table, evidence, seams, joints, stacked, allowed, ring)
        # A stack of one or two pawns on a block, partly behind a taller stand nearer the camera,
        # shows only part of its top and of its outline: read again where nothing else explains
        # its colour.
        partly = self._partly_hidden_pawns(image, profile, pawn_offsets, gains, self.levels[levels].ravel(),
                                           stacked.ravel(), top.ravel(), unlike, look)
        if partly is not None:
            spaces, found_colour, found_count = partly
            restored.ravel()[spaces] = True  # not sure: in part hidden
            stacked.ravel()[spaces] = True
            top = top.copy()
            top.ravel()[spaces] = self.levels[levels].ravel()[spaces] + found_count
            pawn_colour = pawn_colour.copy()
            pawn_colour[spaces] = found_colour
        higher = self._higher_stand(levels, stacked & ~restored, allowed, top, shown["support"])
        levels = np.where(higher, levels + 1, levels)
        on_lying = self._pawn_on_lying(levels, stacked & ~restored, top, pawn_score, shown["support"], look)
        if on_lying.any():
            levels = np.where(on_lying, 1, levels)
            top = np.where(on_lying, top + 1, top)
        on_next = self._pawn_on_next(levels, stacked & ~restored & ~higher & ~on_lying, top, pawn_score,
                                     shown["support"], look)
        if on_next.any():
            levels = np.where(on_next, levels + 1, levels)
            top = np.where(on_next, top + 1, top)
            on_lying = on_lying | on_next
        pawn_count = np.where(stacked, top - self.levels[levels], 0).ravel()
        no_pawn_sure = np.clip((_NO_PAWN - pawn_score) / _NO_PAWN * 2.0, 0.0, 1.0)
        no_pawn_sure = np.where(odd, np.minimum(no_pawn_sure, _HIDDEN_SURE), no_pawn_sure)
        block_sure = self._block_confidence(levels, scores, seen).ravel()  # (history's view takes both parts too)
        stack_sure = np.where(stacked.ravel(), pawn_sure, no_pawn_sure)
        sure = np.minimum(block_sure, stack_sure)
        tops = self.levels[levels] + pawn_count.reshape(rows, cols)
        hidden = self._behind_taller(tops) | restored | on_lying | higher  # (a restored stack's column is hidden; the others read late): not sure
        sure = np.where(hidden.ravel(), np.minimum(sure, _HIDDEN_SURE), sure).tolist()
        heights = self.levels[levels].ravel().tolist()
        count, colour, on = pawn_count.tolist(), pawn_colour.tolist(), stacked.ravel().tolist()
        cells = _readings(labels.FIELD, sure, [{"height": h, "pawns": [None] * (n - 1) + [PAWNS[k]] if o else []}
                                                for h, n, k, o in zip(heights, count, colour, on, strict=True)])
        out = tuple(tuple(cells[r * cols:(r + 1) * cols]) for r in range(rows))
        observation = Observation(self.region, rows, cols, out, frame_index, timestamp)
        if previous is None:
            return observation
        # History (baubylon_history): the field as seen in earlier still frames, where this one
        # reads a block height unsurely. The parts of the confidence it needs, apart.
        stands = np.ascontiguousarray(tops.ravel())
        view = SpaceView(block_sure, stack_sure, hidden.ravel(),
                         lambda own: self._taller_in_front(np.clip(own, 0, self.top).astype(stands.dtype), stands)[0],
                         allowed.reshape(rows * cols, -1), tuple(self.levels.tolist()))
        return with_history(observation, previous, view)

    def _learned_offsets(self, profile: AppearanceProfile) -> tuple[np.ndarray, np.ndarray]:
        """Where this camera's block outlines cross, per space and level above the table (S,
        levels − 1, 4), and its pawns' (rows, cols, 4): a pawn's outline is not a block's (its own
        side faces show beyond some of its sides). Once per profile (profiles are not changed in
        place): they depend on nothing else."""
        cached = self._offsets_for
        if cached is not None and cached[0] is profile:
            return cached[1]
        rows, cols, n_levels = BAUBYLON.rows, BAUBYLON.cols, len(self.levels)
        offsets = outline_offsets(profile, self.facing)  # (rows, cols, 4)
        expected = np.broadcast_to(offsets[:, :, None, :], (rows, cols, n_levels - 1, 4)).reshape(-1, n_levels - 1, 4)
        learned = (expected, _pawn_offsets(profile)[facing_classes(self.facing)])
        self._offsets_for = (profile, learned)
        return learned

    @staticmethod
    def _block_confidence(levels: np.ndarray, scores: np.ndarray, seen: np.ndarray) -> np.ndarray:
        """A block: how well its outline fits and beats the next level. The table: how far every
        block level stays from showing an outline at all (its own score is only a threshold),
        counting the outlines `seen` there that were given to another space's top on the same
        ray: which of the two it belongs to is not sure."""
        runner = seen[..., 1:].max(axis=-1)  # the highest (as the last of a sort: the same number)
        table = np.clip(1.0 - runner / _NO_OUTLINE, 0.0, 1.0)
        return np.where(levels == 0, table, _confidence(scores))

    def _behind_taller(self, tops: np.ndarray) -> np.ndarray:
        """(rows, cols) spaces whose top may be partly hidden by a taller stand nearer the camera:
        next to it on a side facing the camera, or up to two spaces away where, in the frame, the
        middle of the top lies within half a space's diagonal of that stand's upright axis (a
        block's corner reaches that far). No reading there is sure."""
        flat = np.ascontiguousarray(tops.ravel())
        return self._taller_in_front(flat, flat)[1].reshape(tops.shape)

    def _taller_in_front(self, own: np.ndarray, stands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(S,) whether a taller stand nearer the camera hides the middle of each space's top at
        height `own` (S, pawn heights), and (S,) whether one may hide part of it (or a taller
        neighbour beyond a side facing the camera), given the stands `stands` (S,): the tables'
        lookups (_any_hides) and the near sides' comparison (_beside) in one compiled loop
        (baubylon_kernels.taller_in_front, the same booleans)."""
        middle, part = np.empty(len(own), bool), np.empty(len(own), bool)
        kernels.taller_in_front(own, stands, self._near_sides, self._beside_flat, self.hiding_other, self.hiding_nearer,
                                self._hiding_flat, self._hiding_part_flat, self._hiding_start, self.top + 1, middle, part)
        return middle, part

    def _ring(self, like: np.ndarray) -> np.ndarray:
        """(rows, cols, levels) how block-like each level's top looks just inside its sides that
        do not face away from the camera (their mean; 0 on the table level), from `like` (rows,
        cols, levels, 4): along_side(lines.inside_like(_ALIKE)) per level (block_outline_terms)."""
        rows, cols, n_levels = like.shape[:3]
        out = np.empty((rows * cols, n_levels))
        kernels.ring_means(np.ascontiguousarray(like).reshape(rows * cols, n_levels, 4), self._ring_open_flat,
                           self._ring_sides_flat, out)  # (the same numbers, compiled)
        return out.reshape(rows, cols, n_levels)

    def _read_blocks(self, table, evidence, seams, joints, stacked, allowed,
                     ring: np.ndarray | None = None, shown: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Block level per space (index into self.levels), the scores (rows, cols, levels), and
        the scores before one top per place was kept (only the `allowed` levels). Where a pawn
        stack stands (`stacked`), only the levels its top `allowed` are candidates, a higher block
        (fewer pawns under the same top) preferred by _FEWER per pawn height."""
        rows, cols = table.shape[:2]
        count, n_levels = rows * cols, len(self.levels)
        terms = self._block_terms(table, evidence, seams, joints, stacked)
        floor = (np.zeros((0, n_levels)) if ring is None
                 else np.where(stacked[..., None], _RING * ring, 0.0).reshape(count, n_levels))
        fewer = np.where(stacked[..., None], _FEWER * self.levels[None, None, :], 0.0).reshape(count, n_levels)
        allowed_flat = np.ascontiguousarray(allowed.reshape(count, n_levels))
        # Each pass compiled (baubylon_kernels: _block_scores_given with the floor, then
        # _one_top_per_place and _hides_no_better_top and the choice, the same numbers); the
        # surest-first order of the raised tops taken by numpy's own argsort between the two.
        flat = {name: np.ascontiguousarray(terms[name].reshape(n_levels if name not in ("open",) else 1, 4, count))
                for name in ("edge", "evidence", "seams", "joints", "open")}
        near, far = self._near_first.reshape(4, count), self._far_first.reshape(4, count)
        beside = self._beside_index.reshape(4, count)
        table_flat = np.ascontiguousarray(terms["table"].reshape(count))
        weight = self._weight_first.reshape(n_levels, 4, count)
        seen = np.empty((count, n_levels))
        support = np.empty((count, n_levels))
        near_support = np.empty((count, n_levels))
        scores = np.empty((count, n_levels))
        levels = np.zeros(count, np.intp)
        new = np.empty(count, np.intp)
        best, raised, score = np.empty(count, np.intp), np.empty(count, np.intp), np.empty(count)
        known = False
        for _ in range(5):
            kernels.block_scores(flat["edge"], flat["evidence"], flat["seams"], flat["joints"], flat["open"][0], table_flat,
                                 self.levels, near, far, weight, beside, self.levels[levels], known, floor, seen, support,
                                 near_support)
            # seen.argmax(axis=-1), the spaces raised above the table and their ranking, compiled
            n_raised = kernels.raised_tops(seen, support, best, raised, score)
            kernels.block_choice(raised[:n_raised][np.argsort(-score[:n_raised])], best, seen, support, near_support,
                                 self.nadir_distance,
                                 _FAR_SHOWS, self._tops_meet, self.levels,
                                 self.hiding_other, self.hiding_nearer, self._hiding_flat, self._hiding_start,
                                 self.top + 1, _HIDDEN_SHOWS, allowed_flat, fewer, scores, new, _NO_OUTLINE,
                                 _STANDLESS, _LYING_SHOWS)
            kernels.stand_on_allowed(new, seen, fewer, allowed_flat)  # (_stand_on_allowed, compiled)
            if known and np.array_equal(new, levels):
                break
            levels, known = new.copy(), True
        shape = (rows, cols, n_levels)
        if shown is not None:  # (the last pass's scores and support at every level, allowed or not)
            shown["seen"], shown["support"] = seen.reshape(shape), support.reshape(shape)
        return (levels.reshape(rows, cols), np.maximum(scores, 0.0).reshape(shape),
                np.where(allowed, seen.reshape(shape), 0.0))

    def _hides_no_better_top(self, levels: np.ndarray, support: np.ndarray) -> np.ndarray:
        """(rows, cols, levels) False for a block top that, standing there, would hide another
        space's top read farther from the camera that shows much more of its outline (twice): the
        nearer stand would be in front of that top, so the outline it showed was not its own."""
        rows, cols = levels.shape
        flat = levels.ravel()
        tops = self.levels[flat]  # pawn heights
        shown = support.reshape(rows * cols, -1)[np.arange(rows * cols), flat]
        others = self.hiding_other  # (S, 24): stands that may hide each space's top
        beside = tops[others]
        # The few (space, stand) pairs where a taller stand nearer the camera stands, then whether
        # it hides that top and shows much less: the same pairs as one (S, 24) mask of all five.
        maybe = np.flatnonzero(self.hiding_nearer & (beside > tops[:, None]) & (tops[:, None] > 0))
        ok = np.ones((rows * cols, len(self.levels)), bool)
        if len(maybe):
            space = maybe // others.shape[1]
            other = others.ravel()[maybe]
            hides = self._hiding_flat[self._hiding_start.ravel()[maybe] + tops[space] * (self.top + 1) + tops[other]]
            hider = other[hides & (shown[space] > shown[other] * _HIDDEN_SHOWS)]
            ok[hider, flat[hider]] = False
        return ok.reshape(rows, cols, -1)

    def _one_top_per_place(self, levels: np.ndarray, scores: np.ndarray, support: np.ndarray,
                           near_support: np.ndarray | None = None) -> np.ndarray:
        """(rows, cols, levels) False for a block top that would land in the frame where another
        space's top is read: two tops seen in one place cannot both be there (the nearer would
        hide the other): the one showing more of its outline keeps it. Given `near_support`
        (_near_support_given): a lower top farther from the camera whose sides not facing away
        show less than _FAR_SHOWS times the nearer top's outline does not take its place (its far
        sides show past the nearer top: both stand)."""
        rows, cols = levels.shape
        flat = levels.ravel()
        raised = np.flatnonzero(flat > 0)
        ok = np.ones((rows * cols, len(self.levels)), bool)
        if len(raised) < 2:
            return ok.reshape(rows, cols, -1)
        score = scores.reshape(rows * cols, -1)[raised, flat[raised]]
        # The top that shows more of its outline keeps the place (the score is a mean, and a top
        # seen by one side only, which another top's side happens to match, would score as well).
        score = support.reshape(rows * cols, -1)[raised, flat[raised]] + 0.01 * score
        raised = raised[np.argsort(-score)]
        at = raised * len(self.levels) + flat[raised]  # which block tops, in _tops_meet's order
        near = self._tops_meet.take(at, axis=0).take(at, axis=1)  # (two takes: cheaper than a 2-D gather)
        if near_support is not None:
            mine = support.reshape(rows * cols, -1)[raised, flat[raised]]
            theirs = near_support.reshape(rows * cols, -1)[raised, flat[raised]]
            depth, height = self.nadir_distance[raised], self.levels[flat[raised]]
            # [n, m]: m, farther and lower, shows too little but its far sides to oust n
            excused = ((depth[None, :] > depth[:, None]) & (height[None, :] < height[:, None])
                       & (theirs[None, :] < mine[:, None] * _FAR_SHOWS))
            near = near & ~excused
        lost = raised[~_first_in_place(near)]  # better first; most tops meet no other
        ok[lost, flat[lost]] = False
        return ok.reshape(rows, cols, -1)

    def _block_scores(self, table, evidence, seams, joints, heights, known: bool, far_hidden: np.ndarray):
        """Scores (rows, cols, levels) given the neighbours' heights, and the support behind each
        (the weighted evidence summed, not averaged: how much of the outline shows). `far_hidden`
        (rows, cols): spaces where a pawn stack stands: seen from the camera, it may hide the far
        sides' outline, so those count only where they show it."""
        return self._block_scores_given(self._block_terms(table, evidence, seams, joints, far_hidden), heights, known)

    def _block_terms(self, table, evidence, seams, joints, far_hidden: np.ndarray) -> dict[str, np.ndarray]:
        """What _block_scores needs that does not depend on the neighbours' heights (once a read),
        laid out level and side first, (levels, 4, rows, cols): each pass's arithmetic then runs
        along the 144 spaces, not along 4 sides or 5 levels (numpy pays per short inner loop)."""
        facing = self.facing[:, :, None, :]
        # Behind a stack the far sides may be hidden: there they count only as far as they show.
        behind = far_hidden[:, :, None, None] & (facing < 0)
        # A joint showing right where this level puts a side says the neighbour there stands as
        # high, whatever it was read as in the pass before: as good as an outline.
        evidence = np.maximum(evidence, seams)
        return {"edge": _level_side_first(self.weight * np.where(behind, evidence, 1.0)),
                "evidence": _level_side_first(evidence), "seams": _level_side_first(seams),
                "joints": _level_side_first(joints), "open": _level_side_first(~behind),
                "table": np.maximum(_TABLE_WEIGHT * table, _TABLE_FLOOR)}

    def _block_scores_given(self, terms: dict[str, np.ndarray], heights: np.ndarray, known: bool):
        """_block_scores from _block_terms (the same numbers: sides summed in order), as (rows,
        cols, levels) arrays."""
        if not known and not heights.any():
            # The first pass: every neighbour on the table, so every side counts (`use` all True)
            # and no joint does (w_seam all 0: the sums below add +0.0 to non-negative numbers,
            # which leaves them as they are): the same numbers without those steps.
            total = _sum_sides_first(terms["edge"])
            shown = _sum_sides_first(terms["evidence"] * terms["edge"])
            scores = shown / np.maximum(total, 1e-6)
            scores[0] = terms["table"]
            return scores.transpose(1, 2, 0).copy(), shown.transpose(1, 2, 0).copy()
        value = self._level_values  # (levels, 1, 1, 1)
        beyond = self._neighbours_first(heights)[None]  # (1, 4, rows, cols)
        use = (beyond == 0) | (self._near_first & (beyond < value)) | (self._far_first & (beyond > value))
        w_edge = np.where(use, terms["edge"], 0.0)
        # Beside a neighbour as high, the joint shows (a thin line: blur may hide it), or at least
        # the top goes on, block-like, across the side: `joints`.
        joint = (beyond == value) & terms["open"] if known else np.zeros(use.shape, bool)
        w_seam = np.where(joint, self._weight_first, 0.0)
        total = _sum_sides_first(w_edge) + _sum_sides_first(w_seam)
        shown = _sum_sides_first(terms["evidence"] * w_edge)
        scores = (shown + _sum_sides_first(terms["joints"] * w_seam)) / np.maximum(total, 1e-6)
        scores[0] = terms["table"]
        # What a top shows of itself: outlines and joints that show, not a top going on unbroken.
        support = shown + _sum_sides_first(terms["seams"] * w_seam)
        return scores.transpose(1, 2, 0).copy(), support.transpose(1, 2, 0).copy()

    def _near_support_given(self, terms: dict[str, np.ndarray], heights: np.ndarray, known: bool) -> np.ndarray:
        """(rows, cols, levels) the support (_block_scores_given's) of the sides not facing away
        from the camera: what a nearer, taller top in front could not have shown."""
        value = self._level_values
        beyond = self._neighbours_first(heights)[None]
        use = (beyond == 0) | (self._near_first & (beyond < value)) | (self._far_first & (beyond > value))
        joint = (beyond == value) & terms["open"] if known else np.zeros(use.shape, bool)
        w_edge = np.where(use, terms["edge"], 0.0)
        w_seam = np.where(joint, self._weight_first, 0.0)
        mine = ~self._far_first
        part = np.where(mine, terms["evidence"] * w_edge + terms["seams"] * w_seam, 0.0)
        return _sum_sides_first(part).transpose(1, 2, 0).copy()

    def _stand_fit(self, evidence: np.ndarray) -> np.ndarray:
        """(S, top) how well a block that could stand under a stack top at each height (in pawn
        heights, 1..) shows its outline on the sides not facing away from the camera (a stack
        hides the far ones), of the highest level under the top; the table level counts as
        _NO_OUTLINE (it has no outline of its own)."""
        open_, sides, under = self._stand_fit_terms  # (once per geometry; see __init__)
        out = np.empty((len(open_), len(under)))
        kernels.stand_fit(np.ascontiguousarray(evidence).reshape(open_.shape), open_, sides, under, _NO_OUTLINE, out)
        return out  # (_sum_sides(evidence * open_) / sides at the level under each top: compiled)

    def _read_pawns(self, image: np.ndarray, profile: AppearanceProfile, offsets: np.ndarray, gains: np.ndarray,
                    stands: np.ndarray | None = None):
        """Per space (flat): the top of the likeliest pawn stack (in pawn heights), its colour
        index, score and confidence, and whether something unlike table and blocks showed there
        at all. A first look at the colour in the middle of each space at
        every height a stack's top can have; then the outline, only where a pawn's colour shows."""
        cells, tops = self.pawns.squares.shape[0], self.top
        planes = self.pawns.sample_interior(image, grid_first=True)  # (G, S, T, 3): each plane contiguous
        interiors = planes.transpose(1, 2, 0, 3)  # (S, T, G, 3), a view
        # First look: where the middle of a space is unlike both the table and the blocks.
        total = np.add.reduce(planes, axis=0)  # along the outer axis: summed plane by plane, in order (np.mean's numbers)
        seen = rebalance_each(total / len(planes), gains[:, None, :])
        unlike = _unlike_table_and_blocks(seen, profile)
        # Every height where it shows: under the camera a pawn's colour shows at all of them alike.
        squares, levels = np.nonzero(unlike > _PAWN_UNLIKE)
        colours = np.zeros((cells, tops, len(PAWN_CLASSES)))
        coloured = np.zeros((cells, tops))
        if len(squares):
            grids, square_gains = interiors[squares, levels], gains[squares]
            middle = kernels.median_rows(grids)  # small_median's (the grids' colour; the outline's reference below)
            colour, *looked = _balanced_grids(grids, square_gains, profile, middle)
            # A pawn partly hidden (behind a taller stand) or half in shadow mixes its colour with
            # what hides it: judged again on the part of its top unlike table and blocks alone
            # (both colours judged in one call: row by row, the same numbers).
            partial = self._pawn_part(grids, square_gains, profile, looked)
            if partial is not None:
                colour = np.concatenate([colour, partial[1].astype(colour.dtype)])
            every = _pawn_support(profile, colour)
            found = every[: len(squares)]
            if partial is not None:
                rows_ = partial[0]
                found[rows_] = np.maximum(found[rows_], every[len(squares):])
            colours[squares, levels] = found
            coloured[squares, levels] = found.max(axis=-1)
            keep = coloured[squares, levels] > _PAWN_COLOUR
            squares, levels, grids = squares[keep], levels[keep], grids[keep]
        scores = np.zeros((cells, tops))
        if len(squares):
            samples = self.pawns.sample_pairs(image, squares, levels, grids)  # their interiors seen already
            # outline(samples, samples.interior_colour()).evidence(the pawns' offsets), compiled
            evidence = kernels.outline_evidence(samples.across, middle[keep], samples.offsets,
                                                offsets.reshape(cells, 4)[squares][:, None, :])[:, 0]  # (N, 4)
            # A pawn's sides are its own colour: on a side facing the camera its top meets its own
            # side face and shows an outline only as far as that side is shaded darker: such a
            # side counts as far as it shows one (the far sides decide the height).
            near = self.facing.reshape(cells, 4)[squares] > 0
            weight = self.pawn_weight[squares, levels] * np.where(near, evidence, 1.0)
            shown = (evidence * weight).sum(axis=-1) / weight.sum(axis=-1)
            scores[squares, levels] = shown * coloured[squares, levels]
        # Each candidate's colour, where a score is (_one_stack_per_top asks nowhere else).
        kinds = np.zeros((cells, tops), np.intp)
        if len(squares):
            kinds[squares, levels] = colours[squares, levels].argmax(axis=-1)
        if stands is not None:
            stands = stands + _FOOT * self._stand_bears(unlike, stands)
        scores = self._not_seen_on_columns(self._one_stack_per_space(scores, stands, kinds), kinds)
        best = scores.argmax(axis=-1)
        rows = np.arange(cells)
        best = _shorter_when_alike(scores, best, rows)
        ordered = np.sort(scores, axis=-1)
        sure = _confidence_pair(ordered[:, -1], np.maximum(ordered[:, -2], _NO_PAWN))
        # Where something unlike the table and the blocks showed, a space read bare is not sure.
        odd = unlike.max(axis=1) > 2 * _PAWN_UNLIKE
        # (and the first look's interiors and the candidates' colour supports, for _partial_pawn_scores;
        # every candidate's score, for _pawn_on_lying)
        return best + 1, colours[rows, best].argmax(axis=-1), scores[rows, best], sure, odd, unlike, (interiors, colours,
                                                                                                      scores, kinds)

    def _higher_stand(self, levels: np.ndarray, stacked: np.ndarray, allowed: np.ndarray, top: np.ndarray,
                      support: np.ndarray) -> np.ndarray:
        """(rows, cols) stacks read (`stacked`, tops `top` in pawn heights, on `levels`) whose next
        level up, allowed (`allowed`) and below the top, shows its outline (`support`, _read_blocks'
        last pass) at least _UP_SHOWS and _UP_OUTSHOWS times the level read (baubylon.units: a
        block's top shows its edges; baubylon.stack: the same top on the higher block is one
        block's height fewer pawns, and pawns on the lower block would stand where that higher
        top's edges show)."""
        out = np.zeros(levels.shape, bool)
        cells = np.flatnonzero(stacked.ravel() & (levels.ravel() + 1 < len(self.levels)))  # (few)
        if not len(cells):
            return out
        own = levels.ravel()[cells]
        flat_support = support.reshape(levels.size, -1)[cells]
        at = np.arange(len(cells))
        up_support = flat_support[at, own + 1]
        found = (allowed.reshape(levels.size, -1)[cells, own + 1] & (self.levels[own + 1] < top.ravel()[cells])
                 & (up_support >= _UP_SHOWS) & (up_support >= _UP_OUTSHOWS * flat_support[at, own]))
        out.ravel()[cells] = found
        return out

    def _pawn_on_lying(self, levels: np.ndarray, stacked: np.ndarray, top: np.ndarray, score: np.ndarray,
                       support: np.ndarray, look) -> np.ndarray:
        """(rows, cols) stacks read on the table (`levels` 0, `stacked`, tops `top` in pawn heights,
        their `score` (S,) from _read_pawns, above _NO_PAWN) that are one pawn on a lying block:
        where that block's level shows its outline (`support`, _read_blocks' last pass, at least
        _LYING_ROUND) and a top of the same colour one pawn height up scores at least _LYING_TOP
        times the top read (baubylon.units: a lying block is 2 pawn heights high and its top's
        edges show round a pawn on it; seen from above, a pawn's colour shows at every height
        below its top, so its column does not tell a block under it from pawns)."""
        out = np.zeros(levels.shape, bool)
        cells = np.flatnonzero((levels.ravel() == 0) & stacked.ravel() & (score > _NO_PAWN))  # (few)
        if not len(cells):
            return out
        own = top.ravel()[cells] - 1
        found = (_colour_one_up(cells, own, score, look)
                 & (support.reshape(levels.size, -1)[cells, 1] >= _LYING_ROUND)
                 & (own + 2 - self.levels[1] <= self.dims.max_pawns))
        out.ravel()[cells] = found
        return out

    def _pawn_on_next(self, levels: np.ndarray, stacked: np.ndarray, top: np.ndarray, score: np.ndarray,
                      support: np.ndarray, look) -> np.ndarray:
        """(rows, cols) stacks read on a block (`levels` above 0, `stacked`, tops `top` in pawn
        heights, `score` (S,) above _NO_PAWN) whose top is the next level up's, where that level
        shows its outline (`support`) at least _LYING_ROUND and no less than the level read, and a
        top of the same colour one pawn height up scores at least _LYING_TOP times the top read:
        one pawn on that higher block (baubylon.units: a block's top shows its edges round a pawn
        on it, at the height the stack's top was read)."""
        out = np.zeros(levels.shape, bool)
        flat = levels.ravel()
        cells = np.flatnonzero((flat > 0) & (flat + 1 < len(self.levels)) & stacked.ravel() & (score > _NO_PAWN))
        if not len(cells):
            return out
        own = top.ravel()[cells] - 1
        nxt = flat[cells] + 1
        table = support.reshape(levels.size, -1)
        found = (_colour_one_up(cells, own, score, look) & (self.levels[nxt] == own + 1)
                 & (table[cells, nxt] >= _LYING_ROUND) & (table[cells, nxt] >= table[cells, flat[cells]]))
        out.ravel()[cells] = found
        return out

    def _table_in_middle(self, interiors: np.ndarray, gains: np.ndarray, profile: AppearanceProfile, levels: np.ndarray,
                  stacked: np.ndarray, top: np.ndarray) -> np.ndarray | None:
        """(rows, cols, levels) for the bare spaces (no stack read) whose block top read (`levels`,
        indices) shows the table in its middle, where no taller stand nearer the camera may hide
        any of the top: every level of theirs whose middle shows the table (so hidden by nothing).
        The table: nearer its learned colour than the blocks', and within _PAWN_UNLIKE of it (a
        pawn on the top, or in front of it, is unlike both). The middle is the first look's
        pawn-sized square (`interiors` (S, top, G, 3), as sampled; balanced with `gains`) at the
        level's height. None when no space's top read is such."""
        rows, cols, n_levels = BAUBYLON.rows, BAUBYLON.cols, len(self.levels)
        flat = levels.ravel()
        block = np.asarray(profile.classes[BLOCK].mean[:3], np.float64)
        table = np.asarray(profile.classes[TABLE].mean[:3], np.float64)

        def shows_table(spaces: np.ndarray, probes: np.ndarray) -> np.ndarray:
            middle = rebalance_each(interiors[spaces, probes].mean(axis=-2), gains[spaces])
            to_table = np.linalg.norm(middle - table, axis=-1)
            return (to_table < np.linalg.norm(middle - block, axis=-1)) & (to_table <= _PAWN_UNLIKE)

        # The tops read first (a few dozen bare raised spaces): most are wood, and nothing is done.
        bare = np.flatnonzero(~stacked.ravel() & (flat > 0))
        if not len(bare):  # (cvtColor takes no empty image)
            return None
        spaces = bare[shows_table(bare, self.levels[flat[bare]] - 1)]
        if not len(spaces):
            return None
        stands = np.ascontiguousarray(np.where(stacked, top, self.levels[levels]).ravel())
        spaces = spaces[~self._taller_in_front(self.levels[flat].astype(stands.dtype), stands)[1][spaces]]  # any part
        if not len(spaces):
            return None
        higher = self.levels[1:]
        table_like = shows_table(np.repeat(spaces, len(higher)), np.tile(higher - 1, len(spaces))).reshape(len(spaces), -1)
        out = np.zeros((rows * cols, n_levels), bool)
        for k, level in enumerate(higher):
            hidden = self._taller_in_front(np.full(len(flat), level, stands.dtype), stands)[1]
            out[spaces, k + 1] = table_like[:, k] & ~hidden[spaces]
        return out.reshape(rows, cols, n_levels)

    def _partly_hidden_pawns(self, image: np.ndarray, profile: AppearanceProfile, offsets: np.ndarray,
                             gains: np.ndarray, levels: np.ndarray, stacked: np.ndarray, top: np.ndarray,
                             unlike: np.ndarray, look=None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """(spaces, colour indices, pawn counts) of stacks of one or two pawns found on spaces read
        bare (`stacked` (S,) False; `levels` (S,) the blocks read, pawn heights) whose top a taller
        stand nearer the camera may hide in part but not in its middle (_partial_stacks); of the
        two, a stack of two where its top shows _TALLER better (as _one_stack_per_top). None when
        there is none."""
        found = self._partial_stacks(image, profile, offsets, gains, levels, stacked, top, unlike, look)
        if found is None:
            return None
        spaces, pawns, score, kind = found
        best = np.full(len(levels), -np.inf)
        colour = np.zeros(len(levels), np.intp)
        count = np.zeros(len(levels), np.intp)
        for n in range(1, _PARTIAL_PAWNS + 1):  # fewer pawns first: a taller stack must show better
            at = np.flatnonzero(pawns == n)
            rank = score[at] - _TALLER * (n - 1)
            better = at[rank > best[spaces[at]]]
            best[spaces[better]] = score[better] - _TALLER * (n - 1)
            colour[spaces[better]], count[spaces[better]] = kind[better], n
        spaces = np.flatnonzero(count)
        if not len(spaces):
            return None
        return spaces, colour[spaces], count[spaces]

    def _partial_stacks(self, image: np.ndarray, profile: AppearanceProfile, offsets: np.ndarray,
                        gains: np.ndarray, levels: np.ndarray, stacked: np.ndarray, top: np.ndarray,
                        unlike: np.ndarray, look) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """(spaces, pawn counts, scores, colour indices) of stacks of one to _PARTIAL_PAWNS pawns
        found on spaces read bare (`stacked` (S,) False; `levels` (S,) the blocks read, pawn
        heights) whose top a taller stand nearer the camera may hide in part but not in its middle
        (as _behind_taller, with the stands read: `top` where a stack is), where that top shows a
        pawn's colour and, on the sides left in view, its outline (_partial_pawn_scores), the pawns
        under it show along the middle unless hidden there too (baubylon.stack: a stack shows below
        its top), and no stack read already has its top there in the frame. Every count's
        candidates judged together. None when there is none."""
        stands = np.where(stacked, top, levels)
        rows = np.arange(len(levels))
        free = ~stacked
        pairs, firsts = [], []
        for pawns in range(1, _PARTIAL_PAWNS + 1):
            own = levels + pawns
            free = free & (own <= self.top)
            own = np.minimum(own, self.top)
            middle, part = self._taller_in_front(own, stands)  # (as _behind_taller: compiled)
            if pawns > 1:  # the pawn under the top: its colour along the middle, or hidden
                at = np.minimum(levels + pawns - 1, self.top)
                free = free & ((unlike[rows, at - 1] >= _COLUMN_UNLIKE) | self._taller_in_front(at, stands)[0])
            first = unlike[rows, own - 1] > _PAWN_UNLIKE  # the first look's mean
            where = np.flatnonzero(free & part & ~middle)
            pairs.append(np.column_stack([where, np.full(len(where), pawns), own[where] - 1]))
            firsts.append(first[where])
        pairs, first = np.concatenate(pairs), np.concatenate(firsts)
        read = np.flatnonzero(stacked)
        if len(read) and len(pairs):  # one top seen in the frame is one stack: not where a stack read has its top
            where = self.pawn_pixels[pairs[:, 0], pairs[:, 2]]
            tops = self.pawn_pixels[read, top[read] - 1]
            near = _apart(np.concatenate([where, tops]))[: len(where), len(where):]
            apart = ~(near < 0.5 * self.pawn_px[pairs[:, 0], pairs[:, 2]][:, None]).any(axis=1)
            pairs, first = pairs[apart], first[apart]
        spaces, heights = pairs[first, 0], pairs[first, 2]  # heights: probe index
        # ...or where the mean mixes the pawn's colour with what hides it (a black pawn's with a
        # shaded side: table-like), at least _PART_LEAST points of the first look's grid unlike
        # table and blocks (judged afresh: _read_pawns made no candidate there).
        more = np.flatnonzero(~first) if look is not None else np.zeros(0, np.intp)
        if len(more):  # (their grids balanced and compared once, for every step below)
            grids = look[0][pairs[more, 0], pairs[more, 2]]
            middle_colour, seen, far = _balanced_grids(grids, gains[pairs[more, 0]], profile)
            enough = far.sum(axis=-1) >= _PART_LEAST
            more, grids, seen, far = more[enough], grids[enough], seen[enough], far[enough]
            middle_colour = middle_colour[enough]
        # A top scores at most how like a pawn's its colour is: those that cannot pass are not
        # looked at again (the same spaces kept, for less).
        counts = pairs[first, 1]
        if look is not None and len(spaces):
            shows = look[1][spaces, heights].max(axis=-1) > _PART_SHOWN
            spaces, heights, counts = spaces[shows], heights[shows], counts[shows]
        judged = None  # the `more` tops' grids, their colours' support and _unlike_part's
        if len(more):
            support = self._grid_support(grids, gains[pairs[more, 0]], profile, (seen, far), middle_colour)
            shows = support.max(axis=-1) > _PART_SHOWN
            more = more[shows]
            judged = (grids[shows], support[shows], (seen[shows], far[shows]))
        if not len(spaces) and not len(more):
            return None
        score, colour = np.zeros(0), np.zeros(0, np.intp)
        if len(spaces):
            score, colour = self._partial_pawn_scores(image, profile, offsets, gains, spaces, heights, look)
        if len(more):
            extra = self._partial_pawn_scores(image, profile, offsets, gains, pairs[more, 0], pairs[more, 2],
                                              judged=judged)
            spaces, heights, counts = (np.concatenate([spaces, pairs[more, 0]]), np.concatenate([heights, pairs[more, 2]]),
                                       np.concatenate([counts, pairs[more, 1]]))
            score, colour = np.concatenate([score, extra[0]]), np.concatenate([colour, extra[1]])
        keep = score > _PART_SHOWN
        if not keep.any():
            return None
        return spaces[keep], counts[keep], score[keep], colour[keep]

    def _partial_pawn_scores(self, image: np.ndarray, profile: AppearanceProfile, offsets: np.ndarray,
                             gains: np.ndarray, squares: np.ndarray, heights: np.ndarray,
                             look: tuple[np.ndarray, np.ndarray] | None = None,
                             judged: tuple | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(N,) how well a pawn top at each (square, height probe index) shows, and (N,) its colour
        index, as _read_pawns judges one, except that a side not facing the camera counts only as
        far as its inside shows the face (at least _PART_SIDE_LEAST): a stand in front hides it.
        `look`: _read_pawns' first-look interiors (S, top, G, 3) and its candidates' colour
        supports (S, top, colours), when the (square, height) pairs are among its candidates.
        `judged`: those pairs' first-look grids (N, G, 3), their colours' support (N, colours) and
        _unlike_part of the grids, when made already (_partly_hidden_pawns)."""
        square_gains = gains[squares]
        if look is not None:
            # _read_pawns looked at these already (each is one of its candidates: unlike table and
            # blocks there): its first look's interiors are these points' colours, and it judged
            # their colour just as below. Only the points across the sides are sampled.
            grids = look[0][squares, heights]
            samples = self.pawns.sample_pairs(image, squares, heights, grids)
            support = look[1][squares, heights]
            looked = _unlike_part(grids, square_gains, profile)
        elif judged is not None:  # (the first look's interiors again: only the sides are sampled)
            grids, support, looked = judged
            samples = self.pawns.sample_pairs(image, squares, heights, grids)
        else:
            samples = self.pawns.sample_pairs(image, squares, heights)
            grids = samples.interior[:, 0]
            looked = _unlike_part(grids, square_gains, profile)  # (for _pawn_part and _part_reference alike)
            support = self._grid_support(grids, square_gains, profile, looked)
        lines = outline(samples, _part_reference(samples.interior_colour(), grids, square_gains, profile, looked[1]))
        evidence = lines.evidence(offsets.reshape(-1, 4)[squares][:, None, :])[:, 0]  # (N, 4)
        shows = along_side(lines.inside_like(_ALIKE))[:, 0]
        near = self.facing.reshape(-1, 4)[squares] > 0
        weight = self.pawn_weight[squares, heights] * np.where(near, evidence, np.maximum(shows, _PART_SIDE_LEAST))
        shown = (evidence * weight).sum(axis=-1) / np.maximum(weight.sum(axis=-1), 1e-6)
        return shown * support.max(axis=-1), support.argmax(axis=-1)

    def _grid_support(self, grids: np.ndarray, gains: np.ndarray, profile: AppearanceProfile,
                      looked: tuple[np.ndarray, np.ndarray] | None = None,
                      colour: np.ndarray | None = None) -> np.ndarray:
        """(N, colours) how like each pawn colour tops' interior grids (N, G, 3 Lab as seen,
        balanced with `gains` (N, 3)) are, as _read_pawns judges them: the grid's median, or the
        part of it unlike table and blocks where only part is (`looked`: _unlike_part's, and
        `colour`: the grids' median balanced, when made already: _balanced_grids)."""
        if looked is None:
            looked = _unlike_part(grids, gains, profile)
        if colour is None:
            colour = rebalance_each(kernels.median_rows(np.ascontiguousarray(grids)), gains)  # small_median's
        partial = self._pawn_part(grids, gains, profile, looked)
        if partial is not None:  # both colours judged in one call: row by row, the same numbers
            colour = np.concatenate([colour, partial[1].astype(colour.dtype)])
        every = _pawn_support(profile, colour)
        support = every[: len(grids)]
        if partial is not None:
            support[partial[0]] = np.maximum(support[partial[0]], every[len(grids):])
        return support

    def _column_behind(self, unlike: np.ndarray, top: np.ndarray, spaces: np.ndarray, stands: np.ndarray) -> np.ndarray:
        """(S, levels) for the `spaces` (S,) bool, where a stack with its top at `top` (S, pawn
        heights) may stand (as in observe: below its top, at most max_pawns under it), its column
        judged as _column_shows does, except the pawns of it that a taller stand nearer the camera
        hides (`stands` (S,): the tops read, in pawn heights: within half a space of that stand's
        upright axis in the frame). False elsewhere."""
        others = self.hiding_other  # (S, 24)
        nearer = self.hiding_nearer & spaces[:, None]
        hidden = np.zeros(unlike.shape, bool)
        for k in range(unlike.shape[1] - 1):  # the pawn whose top is at height k + 1
            at = np.full(len(unlike), k + 1)
            hidden[:, k] = (nearer & (stands[others] > k + 1) & self._hides(at, stands[others])).any(axis=1)
        on = (self.levels[None, :] < top[:, None]) & (top[:, None] - self.levels[None, :] <= self.dims.max_pawns)
        return self._column_shows(np.where(hidden, np.inf, unlike), top) & on & spaces[:, None]

    def _stack_allowed(self, unlike: np.ndarray, top: np.ndarray, stacked: np.ndarray) -> np.ndarray:
        """(rows, cols, levels) the block levels a stack read with its top at `top` (S,) may stand on
        (`stacked` (rows, cols); every level elsewhere): below its top, at most max_pawns under
        it, and its column shows (_stacks_column_shows). One compiled loop
        (baubylon_kernels.stack_allowed, the same booleans)."""
        out = np.empty((top.size, len(self.levels)), np.bool_)
        kernels.stack_allowed(np.ascontiguousarray(unlike), np.ascontiguousarray(top, np.int64),
                              np.ascontiguousarray(stacked.reshape(-1)), self.levels, self.dims.max_pawns,
                              _COLUMN_UNLIKE, out)
        return out.reshape(*stacked.shape, -1)

    def _stacks_column_shows(self, unlike: np.ndarray, top: np.ndarray, stacked: np.ndarray) -> np.ndarray:
        """(rows, cols, levels) _column_shows where a stack was read (`stacked` (S,)), True
        elsewhere (observe's `allowed` does not ask there): the same values, judged for those
        spaces only."""
        shows = np.ones((len(unlike), len(self.levels)), bool)
        spaces = np.flatnonzero(stacked)
        if len(spaces):
            shows[spaces] = self._column_shows(unlike[spaces], top[spaces])
        return shows.reshape(BAUBYLON.rows, BAUBYLON.cols, -1)

    def _standless(self, stacked: np.ndarray, allowed: np.ndarray, seen: np.ndarray, ring: np.ndarray,
                   tops: np.ndarray) -> np.ndarray:
        """(rows, cols) stacks read (`stacked`) that cannot stand on the table (not `allowed` at
        level 0) and on none of whose allowed blocks anything shows: the block's outline (`seen`,
        _read_blocks' scores before one top per place) under _STANDLESS and its top round the pawns
        (`ring`) under _STANDLESS_RING, where no taller stand nearer the camera (given the `tops`
        read, pawn heights) may hide it."""
        shown = np.where(allowed, seen, 0.0).max(axis=-1)
        round_ = np.where(allowed, ring, 0.0).max(axis=-1)
        lost = stacked & ~allowed[..., 0] & (shown < _STANDLESS) & (round_ < _STANDLESS_RING)
        if lost.any():
            lost &= ~self._behind_taller(tops)
        return lost

    def _outshown(self, stacked: np.ndarray, allowed: np.ndarray, shown: dict, top: np.ndarray) -> np.ndarray:
        """(rows, cols) stacks read (`stacked`, their tops `top` in pawn heights) that may not
        stand on the table and where a block level above the table and below the top that the
        stack does not allow (its column does not show) scores at least _NO_OUTLINE and shows
        more than _HIDDEN_SHOWS times the outline (`shown`: _read_blocks' last pass, support and
        scores at every level) of every raised level it allows, and at least _STANDLESS."""
        support, seen = shown["support"], shown["seen"]
        raised = np.zeros(allowed.shape[-1], bool)
        raised[1:] = True
        below = self.levels[None, None, :] < top[..., None]  # (ruled out by the column, not by the top)
        ruled_out = ~allowed & raised & below & (seen >= _NO_OUTLINE) & (support >= _STANDLESS)
        most = np.where(ruled_out, support, 0.0).max(axis=-1)
        kept = np.where(allowed & raised, support, 0.0).max(axis=-1)
        return stacked & ~allowed[..., 0] & ruled_out.any(axis=-1) & (most > _HIDDEN_SHOWS * kept)

    def _stand_bears(self, unlike: np.ndarray, stands: np.ndarray) -> np.ndarray:
        """(S, top) whether the block under each candidate stack top (the highest level below it,
        as _stand_fit) shows its outline (`stands` above _NO_OUTLINE) and, in its middle, something
        unlike table and blocks (`unlike` at that level's height): nothing farther from the camera
        can hide a block top's middle, so something stands on that block."""
        under = self._under_levels
        foot = np.where(under[None, :] > 0, unlike[:, self._under_height], 0.0)
        return (foot > _COLUMN_UNLIKE) & (stands > _NO_OUTLINE)

    def _column_shows(self, unlike: np.ndarray, top: np.ndarray) -> np.ndarray:
        """(S, levels) whether a stack with its top at `top` (S, pawn heights) could stand on a
        block of each level: below its top pawn, every pawn of the stack shows along the space's
        middle, unlike table and blocks (`unlike`, (S, heights 1..)), where a block would be."""
        k = np.arange(unlike.shape[1])[None, None, :]  # height k + 1
        inside = (k >= self.levels[None, :, None]) & (k <= top[:, None, None] - 2)
        lowest = np.where(inside, unlike[:, None, :], np.inf).min(axis=-1)
        return lowest >= _COLUMN_UNLIKE

    @staticmethod
    def _pawn_part(grid: np.ndarray, gains: np.ndarray, profile: AppearanceProfile,
                   looked: tuple[np.ndarray, np.ndarray] | None = None):
        """(rows, colours) for the candidates (N, G, 3 Lab) whose interior is partly unlike both
        table and blocks (at least _PART_LEAST points but not all): the median colour of that
        part alone, balanced to the calibration's light. None when there is none. `looked`:
        _unlike_part(grid, gains, profile), when made already."""
        seen, far = _unlike_part(grid, gains, profile) if looked is None else looked
        count = far.sum(axis=-1)
        rows = np.flatnonzero((count >= _PART_LEAST) & (count < grid.shape[1]))
        if not len(rows):
            return None
        return rows, kernels.part_median(seen, far, rows)  # (_nan_median of those points, compiled)


def _stand_on_allowed(chosen: np.ndarray, seen: np.ndarray, fewer: np.ndarray, allowed: np.ndarray) -> None:
    """Where a pass chose a level that is not `allowed` (S, levels) — every allowed level lost its
    place to another top in the frame, and the choice fell to the table — choose, in place, the
    allowed level that shows most (`seen` + `fewer`, as the pass ranks them). Only under a stack
    does this happen: its column rules the lower levels out (its pawns would show below its top),
    and a stack stands on something (baubylon.stack), so the table with more pawns is no reading.
    The level keeps a score of none (-1, its confidence 0): another top claims its place."""
    rows = np.arange(len(chosen))
    stuck = np.flatnonzero(~allowed[rows, chosen] & allowed.any(axis=-1))
    if len(stuck):
        chosen[stuck] = np.where(allowed[stuck], seen[stuck] + fewer[stuck], -np.inf).argmax(axis=-1)


def _colour_one_up(cells: np.ndarray, own: np.ndarray, score: np.ndarray, look) -> np.ndarray:
    """(len(cells),) whether a top of the same colour one pawn height above each stack's top (`own`:
    its candidate index in _read_pawns' `look`) scores at least _LYING_TOP times the top read
    (`score` (S,)): seen from above, a pawn's colour shows at every height below its top, so a
    pawn standing one pawn height higher (on a block) looks like this one (_pawn_on_lying,
    _pawn_on_next)."""
    scores, kinds = look[2], look[3]
    up = np.minimum(own + 1, scores.shape[1] - 1)
    above = np.where(own + 1 < scores.shape[1], scores[cells, up], 0.0)
    return (kinds[cells, up] == kinds[cells, own]) & (above >= _LYING_TOP * score[cells])


def _shorter_when_alike(scores: np.ndarray, best: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The best top per space (`best`), or the one a pawn height lower where that scores above
    _NO_PAWN and within _SHORTER of it (baubylon.stack: each pawn is one pawn height; seen from
    near above, a top one pawn higher looks just the same, so the shorter stack when in doubt;
    where a block's top shows round it, _pawn_on_lying and _pawn_on_next take the higher again)."""
    lower = np.maximum(best - 1, 0)
    alike = (best > 0) & (scores[rows, lower] > _NO_PAWN) & (scores[rows, lower] >= scores[rows, best] - _SHORTER)
    return np.where(alike, lower, best)


def _readings(label: str, confidences: list[float], attrs: list[dict]) -> list[CellReading]:
    """CellReading(label, confidence, attrs) for each space: the same objects (fields, equality,
    repr), made without the frozen dataclass's __init__, which sets every field through
    object.__setattr__ (144 a read cost ~0.15 ms more). CellReading has no __post_init__ to
    skip (tests/vision/test_baubylon_speed.py checks both)."""
    new = object.__new__
    out = [new(CellReading) for _ in confidences]
    for cell, confidence, attr in zip(out, confidences, attrs, strict=True):
        fields = cell.__dict__  # filled in the order update(label=..., ...) would (the same dict)
        fields["label"] = label
        fields["confidence"] = confidence
        fields["attrs"] = attr
        fields["alternatives"] = ()
    return out


def _unlike_part(grid: np.ndarray, gains: np.ndarray, profile: AppearanceProfile) -> tuple[np.ndarray, np.ndarray]:
    """(N, G, 3) Lab grids balanced with `gains` (N, 3), and (N, G) which of their points are
    unlike both table and blocks (by _PAWN_UNLIKE)."""
    seen = rebalance_each(grid, gains[:, None, :])
    return seen, _unlike_table_and_blocks(seen, profile) > _PAWN_UNLIKE


def _balanced_grids(grids: np.ndarray, gains: np.ndarray, profile: AppearanceProfile,
                    middle: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rebalance_each(middle, gains) (N, 3) (`middle`: the grids' median, small_median's, made
    here when not given) and _unlike_part(grids, gains, profile) of the grids (N, G, 3) in one
    rebalance (each colour converted on its own: the same numbers as two calls)."""
    grids = np.ascontiguousarray(grids)
    if middle is None:
        middle = kernels.median_rows(grids)
    count, points = grids.shape[:2]
    both = np.empty((count, points + 1, 3), np.result_type(grids, middle))
    both[:, 0] = middle
    both[:, 1:] = grids
    balanced = rebalance_each(both, gains[:, None, :])
    seen = np.ascontiguousarray(balanced[:, 1:])
    return balanced[:, 0], seen, _unlike_table_and_blocks(seen, profile) > _PAWN_UNLIKE


def _without_stacks(phantom: np.ndarray, stacked: np.ndarray, allowed: np.ndarray,
                    pawn_score: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The stacks read at `phantom` (rows, cols) dropped: those spaces are bare blocks of any level,
    their tops another space's seen along the same ray (stacked, allowed, pawn_score as new arrays)."""
    return stacked & ~phantom, allowed | phantom[..., None], np.where(phantom.ravel(), 0.0, pawn_score)


def _column_in_part(unlike: np.ndarray, spaces: np.ndarray, interiors: np.ndarray, gains: np.ndarray,
                    profile: AppearanceProfile) -> np.ndarray:
    """`unlike` (S, heights) with inf at the `spaces`' heights where at least _PART_LEAST points
    of the first look's grid (`interiors` (S, heights, G, 3), balanced with `gains` (S, 3)) are
    unlike table and blocks: a pawn of the column shows there on part of the grid."""
    grids = interiors[spaces]  # (n, heights, G, 3)
    n, heights, points = grids.shape[:3]
    balance = np.repeat(gains[spaces][:, None, :], heights, axis=1).reshape(-1, 3)
    far = _unlike_part(grids.reshape(-1, points, 3), balance, profile)[1].reshape(n, heights, points)
    out = unlike.copy()
    out[spaces] = np.where(far.sum(axis=-1) >= _PART_LEAST, np.inf, unlike[spaces])
    return out


def _part_reference(whole: np.ndarray, grids: np.ndarray, gains: np.ndarray, profile: AppearanceProfile,
                    far: np.ndarray | None = None) -> np.ndarray:
    """(N, 1, 3) the colour a top's outline is traced against: the median of its interior grid
    (`whole`, (N, 1, 3); `grids` (N, G, 3) Lab as seen), or, where only part of the grid (at least
    _PART_LEAST points) is unlike table and blocks once balanced with `gains` (N, 3), the median of
    that part as seen: a top partly hidden mixes its colour with what hides it, and traced against
    the mix its own outline is lost."""
    if far is None:  # (given: _unlike_part(grids, gains, profile)[1], made already)
        far = _unlike_part(grids, gains, profile)[1]
    count = far.sum(axis=-1)
    rows = np.flatnonzero((count >= _PART_LEAST) & (count < grids.shape[1]))
    if not len(rows):
        return whole
    out = whole.copy()
    out[rows, 0] = kernels.part_median(np.ascontiguousarray(grids), far, rows)  # (_nan_median's, compiled)
    return out


def _pawn_offsets(profile: AppearanceProfile) -> np.ndarray:
    """(3,) where a pawn's outline crosses per side facing (FACINGS), learned at calibration; a
    facing the calibration's pawns did not show takes the mean of those they did (a profile
    from before pawns' outlines were learned: the blocks')."""
    blocks = offset_table(profile, "outline", np.zeros(3, np.float32))
    learned = offset_table(profile, PAWN_OUTLINE, np.full(3, np.nan, np.float32))
    if np.isnan(learned).all():
        return blocks
    return np.where(np.isnan(learned), np.nanmean(learned), learned).astype(np.float32)


def _unhidden(geometry: RegionGeometry, pixels: np.ndarray, tallest_mm: float, clear_px: float = 3.0) -> np.ndarray:
    """(N,) whether table points outside the field (at image `pixels`) are sure to be seen: out
    of the field's image up to the tallest stand (the convex hull of the field's corners on the
    table and at that height), by `clear_px` at least. Nothing on the field stands in front of
    them, so they show the table or its shadows, nothing brighter."""
    w = BAUBYLON.width_mm
    corners = np.array([(x, y, z) for z in (0.0, tallest_mm) for x, y in ((0, 0), (w, 0), (w, w), (0, w))], float)
    hull = cv2.convexHull(geometry.to_pixels(corners).astype(np.float32))
    return np.array([cv2.pointPolygonTest(hull, (float(x), float(y)), True) < -clear_px for x, y in pixels])


def _unlike_table_and_blocks(seen: np.ndarray, profile: AppearanceProfile) -> np.ndarray:
    """(..., 3) Lab → (...) ΔE to the nearer of the table's and the blocks' learned colours,
    channel by channel in float64 (as np.linalg.norm: the squares summed in order, the same
    numbers; compiled: baubylon_kernels.unlike_table_and_blocks)."""
    table = np.asarray(profile.classes[TABLE].mean[:3], np.float64)
    blocks = np.asarray(profile.classes[BLOCK].mean[:3], np.float64)
    flat = np.ascontiguousarray(seen).reshape(-1, 3)
    return kernels.unlike_table_and_blocks(flat, table, blocks).reshape(np.shape(seen)[:-1])


def colour_support(profile: AppearanceProfile, lab: np.ndarray, classes,
                   table: bool = False) -> dict[str, np.ndarray] | np.ndarray:
    """Like common.class_support, from the colour (Lab centre, (N, 3)) alone: a pawn's spread is
    the camera's noise (sensor, JPEG: several ΔE in a and b on a saturated colour), not the pawn's,
    and differs from the calibration's frames; the colours tell the pawns apart. `table`: as one
    (N, classes) array, the profile's classes in the order asked, instead of a dict."""
    names, means, whiten, logdet = _colour_model(profile, tuple(classes))
    # d·W and |d·W|² per colour and class, the posterior among the classes, and the penalty for
    # an atypical colour: compiled, in the order numpy took them (baubylon_kernels.colour_support).
    lab = np.ascontiguousarray(lab, np.float64).reshape(-1, 3)
    support = kernels.colour_support(lab, means, whiten, logdet, _TYPICAL_D2_COLOUR)
    if table:  # (N, classes the profile has, in the order asked)
        return support
    return {name: support[:, k] for k, name in enumerate(names)}


def _pawn_support(profile: AppearanceProfile, lab: np.ndarray) -> np.ndarray:
    """(N, pawn colours) colour_support for PAWN_CLASSES among table, blocks and pawns, as one
    array (0 for a pawn colour the profile lacks): the same numbers, without a dict and a stack."""
    support = colour_support(profile, lab, (TABLE, BLOCK, *PAWN_CLASSES), table=True)
    names = _colour_model(profile, (TABLE, BLOCK, *PAWN_CLASSES))[0]
    out = np.zeros((len(lab), len(PAWN_CLASSES)))
    for k, name in enumerate(PAWN_CLASSES):
        if name in names:
            out[:, k] = support[:, names.index(name)]
    return out


_COLOUR_MODELS: dict = {}


def _colour_model(profile: AppearanceProfile, classes: tuple[str, ...]):
    """The classes' colour means (C, 3), whitening (C, 3, 3: d·W has unit covariance) and half
    log-determinant of the inverse covariance, once per profile (profiles are not changed in place)."""
    key = (id(profile), classes)
    cached = _COLOUR_MODELS.get(key)
    if cached is not None and cached[0] is profile:
        return cached[1]
    names = [name for name in classes if name in profile.names]
    means = np.ascontiguousarray(np.stack([profile.classes[name].mean[:3] for name in names]), np.float64)
    inverse = np.linalg.inv(np.stack([profile.classes[name].cov[:3, :3] for name in names]))
    whiten = np.ascontiguousarray(np.linalg.cholesky(inverse), np.float64)  # inverse = W Wᵀ: dᵀ·inverse·d = |d·W|²
    model = (names, means, whiten, np.ascontiguousarray(0.5 * np.linalg.slogdet(inverse)[1], np.float64))
    if len(_COLOUR_MODELS) > 32:
        _COLOUR_MODELS.clear()
    _COLOUR_MODELS[key] = (profile, model)
    return model


def _nan_median(values: np.ndarray, count: np.ndarray) -> np.ndarray:
    """(N, G, C) with NaN where not counted, `count` (N,) values counted per row → (N, C) their
    median (as np.nanmedian along G; NaN sorts last, so the counted values come first)."""
    rows, size, channels = values.shape
    # Each (row, channel) sorted in place in a contiguous copy, the two middle values taken from
    # its flat copy (the same elements as take_along_axis on a sort along G, at less cost).
    ordered = np.ascontiguousarray(np.swapaxes(values, 1, 2))  # (N, C, G)
    ordered.sort(axis=-1)
    flat = ordered.ravel()
    start = np.arange(0, flat.size, size)
    lo = flat.take(start + np.repeat((count - 1) // 2, channels))
    hi = flat.take(start + np.repeat(count // 2, channels))
    return (0.5 * (lo + hi)).reshape(rows, channels)


def _apart(points: np.ndarray) -> np.ndarray:
    """(N, 2) → (N, N) distances between them (as np.linalg.norm of the differences)."""
    dx = points[:, None, 0] - points[None, :, 0]
    dy = points[:, None, 1] - points[None, :, 1]
    return np.sqrt(dx * dx + dy * dy)


def _first_in_place(near: np.ndarray) -> np.ndarray:
    """(N, N) which of N things, best first, meet which (the diagonal aside) → (N,) those kept:
    each unless it meets a better one kept. The pairs (n, m < n) that meet, in order, in plain
    Python (a few dozen: numpy calls per pair cost more)."""
    count = len(near)
    n_of, m_of = np.nonzero(near & _lower(count))  # row by row, so every m < n is settled first
    kept = [True] * count
    for n, m in zip(n_of.tolist(), m_of.tolist(), strict=True):
        if kept[m]:
            kept[n] = False
    return np.array(kept, bool)


_LOWER = np.zeros((0, 0), bool)
_NO_KINDS = np.zeros((0, 0), np.intp)  # (one_stack_kept without colours)


def _lower(count: int) -> np.ndarray:
    """(count, count) True below the diagonal (np.tril(ones, -1)), a view of one kept table."""
    global _LOWER
    if len(_LOWER) < count:
        _LOWER = np.tril(np.ones((max(count, 2 * len(_LOWER), 64),) * 2, bool), -1)
    return _LOWER[:count, :count]


def _beside(heights: np.ndarray) -> np.ndarray:
    """(rows, cols) → (rows, cols, 4) each space's neighbour beyond each side (SIDES' order), 0
    off the field (as np.pad and np.stack, filled in place: the same numbers at a fraction of
    their cost)."""
    rows, cols = heights.shape
    padded = np.zeros((rows + 2, cols + 2), heights.dtype)
    padded[1:-1, 1:-1] = heights
    out = np.empty((rows, cols, 4), heights.dtype)
    out[..., 0] = padded[:-2, 1:-1]
    out[..., 1] = padded[1:-1, 2:]
    out[..., 2] = padded[2:, 1:-1]
    out[..., 3] = padded[1:-1, :-2]
    return out


def _level_side_first(values: np.ndarray) -> np.ndarray:
    """(rows, cols, levels, 4) → (levels, 4, rows, cols), contiguous."""
    return np.ascontiguousarray(values.transpose(2, 3, 0, 1))


def _beside_first(heights: np.ndarray) -> np.ndarray:
    """_beside(heights) laid out side first: (4, rows, cols)."""
    rows, cols = heights.shape
    padded = np.zeros((rows + 2, cols + 2), heights.dtype)
    padded[1:-1, 1:-1] = heights
    return np.stack([padded[:-2, 1:-1], padded[1:-1, 2:], padded[2:, 1:-1], padded[1:-1, :-2]])


def _sum_sides_first(values: np.ndarray) -> np.ndarray:
    """(levels, 4, ...) → (levels, ...) the sides summed in order (as _sum_sides)."""
    return ((values[:, 0] + values[:, 1]) + values[:, 2]) + values[:, 3]


def _sum_sides(values: np.ndarray) -> np.ndarray:
    """(..., 4) → (...) summed in order, as .sum(axis=-1) (a reduction over a short last axis costs
    more than the arithmetic)."""
    return ((values[..., 0] + values[..., 1]) + values[..., 2]) + values[..., 3]


def _confidence_pair(best: np.ndarray, runner: np.ndarray) -> np.ndarray:
    margin = np.maximum(best - runner, 0.0)
    return np.clip(best, 0.0, 1.0) * (1.0 - np.exp(-margin / 0.15))  # as common.confidence


def _confidence(scores: np.ndarray) -> np.ndarray:
    ordered = np.sort(scores, axis=-1)
    return _confidence_pair(ordered[..., -1], ordered[..., -2])
