"""The Reclamation: per square, the height of the stone stack (0-3) and the face on top.

A stack of h stones has its top face at h stone heights. Each candidate height is tested where a
top at that height would lie (parallax): the stone's square must fit there (area test: one colour
inside, something else in a ring just outside) and its visible edges must lie on its outline
(edge test, to a fraction of a pixel: below a camera looking nearly straight down one stone
moves a top by well under a millimetre, which the area test cannot see). The face is read on the
chosen height. Only the points these tests look at are sampled from the frame (square_tops), in
one remap, so a full read costs about as much as decoding the frame.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import RECLAMATION
from ..types import Observation
from .common import class_support, need_profile
from .dimensions import STONES, StoneDimensions
from .geometry import RegionGeometry
from .square_tops import EdgeProfiles, PointSampler, SquareLayout, SquareTops, TopFit, readings
from .views import ViewStack

FACES = (labels.FLOWER, labels.VINE)
CLASSES = (labels.EMPTY, *FACES)
EDGE_CONTRAST = 10.0  # ΔE across a side below which it shows no edge (weight ramps up over as much again)
EDGE_SIGMA_MM = 0.4  # spread of a visible edge's measured position at the right height
EDGE_BIAS_MIN = 6  # sides needed to learn the edge bias on one frame
# The edge bias measured on the calibration capture, kept in the appearance profile beside the piece
# classes (as Babel's and Baubylon's outline offsets: "outline:*" entries are measurements, not
# pieces), one edge offset in mm per side seen: for sides the camera sees (True) and the others.
EDGE_BIAS_CLASSES = {True: "outline:towards", False: "outline:away"}


def _inner_sides(rows: int, cols: int) -> np.ndarray:
    """(rows, cols, 4) True for the sides (y−, x+, y+, x−) of each cell that have a cell beyond."""
    r, c = np.mgrid[0:rows, 0:cols]
    return np.stack([r > 0, c < cols - 1, r < rows - 1, c > 0], axis=-1)


class ReclamationObserver:
    region = RECLAMATION.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: StoneDimensions = STONES, px_per_cell: int = 30):
        self.profile = profile
        self.dims = dims
        # The view stack only says which sides of each cell face the camera; the faces themselves are
        # sampled sparsely (square_tops), px_per_cell is kept for callers that pass it.
        self.stack = ViewStack(geometry, RECLAMATION, [0.0], 6)
        # A near side hides nothing where no stack can stand beyond it (the board's edge).
        self.near = self.stack.near_sides() & _inner_sides(RECLAMATION.rows, RECLAMATION.cols)
        self.facing = self.stack.facing_sides()
        self.towards = self.stack.facing_sides(threshold=0.0)  # sides the camera sees at all
        self._levels = np.arange(1, dims.max_stack + 1)[:, None, None, None]
        cell = RECLAMATION.cell_mm
        stone_heights = [h * dims.stone_height_mm for h in range(1, dims.max_stack + 1)]
        self.stones = SquareTops(geometry, RECLAMATION, stone_heights,
                                 SquareLayout.square(cell, dims.stone_mm, 0.3, (0.6, 2.2), 2.0, 3.0), self.near)
        self.edges = EdgeProfiles(geometry, RECLAMATION, stone_heights, dims.stone_mm, step_mm=0.625)
        # An empty square: the board between the grid lines, seen on the board plane.
        self.squares = SquareTops(geometry, RECLAMATION, [0.0],
                                  SquareLayout.square(cell, cell - 4.0, 4.0, (0.5, 1.5), 3.0, 3.0), self.near)
        # Every point of the three tests is read from the frame at once.
        self.sampler = PointSampler([self.stones.pixels, self.squares.pixels, self.edges.pixels])

    def _measure_all(self, image: np.ndarray) -> tuple[TopFit, TopFit, tuple[np.ndarray, np.ndarray]]:
        """The stone and square tests and the stones' edge offsets and contrasts."""
        stones, squares, edges = self.sampler.sample_lab(image)
        stone = self.stones.fit(lab=self.stones.shape_lab(stones))
        square = self.squares.fit(lab=self.squares.shape_lab(squares))
        return stone, square, self.edges.offsets(None, stone.colour, lab=edges)

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        """Appearance samples per class; with the capture's known heights, also the edge offsets of
        every stack's clear sides (EDGE_BIAS_CLASSES): the profile keeps their mean, the edge bias
        assumed on a frame with too few stacks to learn its own (see _edge_bias)."""
        stone, square, (offsets, contrast) = self._measure_all(image)
        heights = np.array([[attrs["height"] for _, attrs in row] for row in expected])
        visible = np.clip((contrast.max(axis=0) - EDGE_CONTRAST) / EDGE_CONTRAST, 0.0, 1.0)
        samples: dict[str, list[np.ndarray]] = {}
        for towards, values in self._bias_samples(offsets, visible, heights).items():
            for value in values:
                samples.setdefault(EDGE_BIAS_CLASSES[towards], []).append(np.array([value, 0.0, 0.0, 0.0, 0.0, 0.0]))
        for r, row in enumerate(expected):
            for c, (label, attrs) in enumerate(row):
                h = attrs["height"]
                vec = square.features[0, r, c] if h == 0 else stone.features[h - 1, r, c]
                samples.setdefault(label, []).append(vec)
        return samples

    def _stone_fits(self, stone: TopFit, edges: tuple[np.ndarray, np.ndarray] | None,
                    heights: np.ndarray) -> np.ndarray:
        """(K, 6, 6) fit of a stack top at each height 1..K. Stone faces share two colours: an edge
        shows only towards an empty square, on a camera-facing side above a lower neighbour (this
        stack's own side is seen there), or on a far side below a higher neighbour (its side is
        seen); sides towards an equal neighbour or a lower one on the far side are no evidence.
        Neighbours' heights come from the previous pass.

        The area test cannot see a shift smaller than its ring gap; the edges' positions can: with
        `edges` (offsets (K, 6, 6, 4) in mm, visibility weights (6, 6, 4)) the fit is weighed by how
        far the visible sides lie from where each height puts them."""
        neighbour = _neighbours(heights)[None]  # (1, 6, 6, 4)
        levels = self._levels
        use = (neighbour == 0) | (self.facing & (neighbour < levels)) | (~self.facing & (neighbour > levels))
        ring = np.where(use, stone.sides, 0.0).max(axis=-1)
        fits = np.clip(stone.inside - ring, 0.0, 1.0)
        if edges is not None:
            offsets, visible = edges
            # A taller neighbour on a camera-facing side may hide that side's edge.
            weight = np.where(self.towards & (neighbour > levels), 0.0, visible)
            total = weight.sum(axis=-1)
            spread2 = (weight * offsets**2).sum(axis=-1) / np.maximum(total, 1e-6)
            fits = fits * np.where(total >= 0.5, np.exp(-0.5 * spread2 / EDGE_SIGMA_MM**2), 1.0)
        return fits

    def _bias_samples(self, offsets: np.ndarray, visible: np.ndarray, heights: np.ndarray) -> dict[bool, np.ndarray]:
        """Edge offsets of every stack at `heights` on the sides that show a clear, unhidden edge,
        apart for the sides the camera sees (True) and the others (False)."""
        neighbour = _neighbours(heights)
        rows, cols = np.indices(heights.shape)
        at_height = offsets[np.clip(heights - 1, 0, None), rows, cols]  # (6, 6, 4)
        hidden = self.towards & (neighbour > heights[..., None])
        usable = (heights > 0)[..., None] & ~hidden & (visible > 0.5)
        return {towards: at_height[usable & (self.towards == towards)] for towards in (True, False)}

    def _edge_bias(self, offsets: np.ndarray, visible: np.ndarray, heights: np.ndarray,
                   profile: AppearanceProfile) -> np.ndarray:
        """(6, 6, 4) the systematic offset of edges at their right height.

        Where an edge appears can be biased a little by how the picture was made (a face's own side
        drawn or seen over its near edge, a bright face spreading over a dark gap): the same for
        every stack, so it is measured on all stacks at the heights the area test gives (right for
        nearly all; the median ignores the rest), separately for sides the camera sees and the
        others, and taken off before the edges judge heights. With too few stacks on the board, the
        bias measured on the calibration capture is used, kept in the profile (none if the profile
        has none: one learned before it was kept)."""
        bias = np.zeros(self.towards.shape, np.float32)
        for towards, values in self._bias_samples(offsets, visible, heights).items():
            name = EDGE_BIAS_CLASSES[towards]
            if len(values) >= EDGE_BIAS_MIN:
                bias[self.towards == towards] = float(np.median(values))
            elif name in profile.names:
                bias[self.towards == towards] = float(profile.classes[name].mean[0])
        return bias

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0,
                previous: Observation | None = None) -> Observation:
        """Read one still frame. `previous` (the last reading, given to every observer alike) is
        not used: this board is read from the frame alone."""
        profile = need_profile(self.profile, self.region)
        stone, square, (offsets, contrast) = self._measure_all(image)
        empty = class_support(profile, square.features[0], CLASSES)[labels.EMPTY]
        empty = empty * (0.6 + 0.4 * np.clip(square.score[0], 0, 1))
        faces = class_support(profile, stone.features, CLASSES)
        face_best = np.maximum(faces[labels.FLOWER], faces[labels.VINE])  # (K, 6, 6)
        heights = np.zeros((6, 6), int)
        fits = stone.inside
        # Heights by the area test first, then again with the edges' positions (bias taken off).
        edges = None
        for with_edges in (False, True):
            if with_edges:
                # How clearly each side shows an edge at its best height; a side with a clear edge
                # at some height but none at another: there the edge lies beyond the profile's
                # reach (far off), which is no "nothing to see".
                visible = np.clip((contrast.max(axis=0) - EDGE_CONTRAST) / EDGE_CONTRAST, 0.0, 1.0)
                offsets = offsets - self._edge_bias(offsets, visible, heights, profile)[None]
                edges = (np.where(contrast < EDGE_CONTRAST, self.edges.t[-1], offsets), visible)
            for _ in range(3):
                fits = self._stone_fits(stone, edges, heights)
                new = np.concatenate([empty[None], fits * face_best], axis=0).argmax(axis=0)
                if np.array_equal(new, heights):
                    break
                heights = new
        # Candidates per cell: empty, then (height, face) for every height.
        stack_scores = [fits[h - 1] * faces[face][h - 1] for h in range(1, self.dims.max_stack + 1) for face in FACES]
        candidates = [(labels.EMPTY, {"height": 0, "gardener": False})] + [
            (face, {"height": h, "gardener": h == 3}) for h in range(1, self.dims.max_stack + 1) for face in FACES]
        rows = readings(np.stack([empty, *stack_scores], axis=-1), candidates)
        return Observation(self.region, 6, 6, tuple(rows), frame_index, timestamp)


def _neighbours(heights: np.ndarray) -> np.ndarray:
    """(rows, cols, 4) the heights beyond each side (y−, x+, y+, x−); 0 off the board."""
    out = np.zeros((*heights.shape, 4), heights.dtype)
    out[1:, :, 0] = heights[:-1]
    out[:, :-1, 1] = heights[:, 1:]
    out[:-1, :, 2] = heights[1:]
    out[:, 1:, 3] = heights[:, :-1]
    return out
