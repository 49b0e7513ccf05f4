"""Baubylon: per space, the height of the block top (in pawn heights) and the pawn stack on it.

- A pawn stack's top is a small square whose height gives block height + stack size; its colour
  (learned) is the top pawn's. Pawns beneath are hidden from above: they read as None.
- A block top fills its space. Neighbouring spaces at the same height form a flat plateau whose
  inner edges show nothing, so a space's height is first read where it has an edge, then spread
  across the plateau to the spaces that look the same and had no clear reading of their own.
"""

from __future__ import annotations

import numpy as np

from .. import labels
from ..appearance import AppearanceProfile
from ..boards import BAUBYLON
from ..types import CellReading, Observation
from .common import class_support, confidence, need_profile
from .dimensions import BAUBYLON as DIMS
from .dimensions import BaubylonDimensions
from .fit import fit, frame_rects, ring_rects, square_fit
from .geometry import RegionGeometry
from .views import ViewStack

TABLE, BLOCK = "table", "block"
PAWNS = ("red", "blue", "green", "yellow", "black", "white", "purple")
PAWN_CLASSES = tuple(f"pawn:{c}" for c in PAWNS)


class BaubylonObserver:
    region = BAUBYLON.region

    def __init__(self, geometry: RegionGeometry, profile: AppearanceProfile | None = None,
                 dims: BaubylonDimensions = DIMS, px_per_cell: int = 20):
        self.profile = profile
        self.dims = dims
        self.top = dims.max_block_height + dims.max_pawns
        heights = [k * dims.pawn_height_mm for k in range(self.top + 1)]
        self.stack = ViewStack(geometry, BAUBYLON, heights, px_per_cell)
        self.near = self.stack.near_sides()
        self.facing = self.stack.facing_sides()

    def _measure(self, image: np.ndarray):
        lab = self.stack.sample_lab(image)
        s = BAUBYLON.cell_mm
        pawn = square_fit(self.stack, lab, self.dims.pawn_mm, 0.8, (0.8, 2.5), near=self.near)
        edge = (0.3, 0.3, s - 0.3, s - 0.3)
        # The block top's frame, between the space's edge and where a pawn would stand.
        frame = [(r, i) for i, r in enumerate(frame_rects(edge, 0.6, 3.2))]
        ring = [(r, i) for i, r in enumerate(ring_rects(edge, 0.9, 2.5))]
        block = fit(self.stack, lab, frame, ring)
        return pawn, block

    def calibration_samples(self, image: np.ndarray, expected) -> dict[str, list[np.ndarray]]:
        pawn, block = self._measure(image)
        samples: dict[str, list[np.ndarray]] = {}
        for r, row in enumerate(expected):
            for c, (_, attrs) in enumerate(row):
                h, pawns = attrs["height"], attrs["pawns"]
                if block.score[h, r, c] > 0.3 or not pawns:
                    samples.setdefault(BLOCK if h else TABLE, []).append(block.features[h, r, c])
                if pawns:
                    samples.setdefault(f"pawn:{pawns[-1]}", []).append(pawn.features[h + len(pawns), r, c])
        return samples

    def observe(self, image: np.ndarray, frame_index: int = 0, timestamp: float = 0.0) -> Observation:
        profile = need_profile(self.profile, self.region)
        pawn, block = self._measure(image)
        rows, cols = BAUBYLON.rows, BAUBYLON.cols
        ground = class_support(profile, block.features, (TABLE, BLOCK, *PAWN_CLASSES))
        pawn_support = class_support(profile, pawn.features, (TABLE, BLOCK, *PAWN_CLASSES))
        max_h = self.dims.max_block_height
        table = 0.8 * ground[TABLE][0] * block.inside[0]  # the table runs on: no edge to test
        heights = np.zeros((rows, cols), int)
        block_scores = np.zeros((rows, cols, max_h + 1))
        for _ in range(3):
            block_scores = self._block_scores(block, ground[BLOCK], table, heights)
            new = block_scores.argmax(axis=-1)
            if np.array_equal(new, heights):
                break
            heights = new
        ordered = np.sort(block_scores, axis=-1)
        margin = ordered[..., -1] - ordered[..., -2]
        heights, margin = self._spread_plateaus(heights, margin, block)
        out = []
        for r in range(rows):
            row = []
            for c in range(cols):
                h = int(heights[r, c])
                best = (0.0, None, 0)
                for k in range(h + 1, min(h + self.dims.max_pawns, self.top) + 1):
                    fit_k = float(np.clip(pawn.score[k, r, c], 0, 1))
                    for name in PAWN_CLASSES:
                        score = fit_k * float(pawn_support[name][k, r, c])
                        if score > best[0]:
                            best = (score, name, k - h)
                pawns: list = []
                conf = confidence(float(block_scores[r, c].max()), float(block_scores[r, c].max() - margin[r, c]))
                if best[0] > 0.35:
                    pawns = [None] * (best[2] - 1) + [best[1].split(":", 1)[1]]
                    conf = min(conf, float(best[0]))
                row.append(CellReading(labels.FIELD, conf, {"height": h, "pawns": pawns}))
            out.append(tuple(row))
        return Observation(self.region, rows, cols, tuple(out), frame_index, timestamp)

    def _block_scores(self, block, support, table, heights) -> np.ndarray:
        """Scores per block height. Blocks are all one wood: an edge shows only where something
        else lies beyond it - the table, the camera-facing side of this block above a lower
        neighbour, or the camera-facing side of a higher neighbour beyond the far edge. Sides
        towards a neighbour of the same height, a lower one on the far side or a higher one on
        the near side (which hides this space) are left out. Neighbours' heights: previous pass."""
        rows, cols = heights.shape
        max_h = self.dims.max_block_height
        padded = np.pad(heights, 1, constant_values=0)
        neighbour = np.stack([padded[:-2, 1:-1], padded[1:-1, 2:], padded[2:, 1:-1], padded[1:-1, :-2]], axis=-1)
        scores = np.zeros((rows, cols, max_h + 1))
        scores[..., 0] = table
        for h in range(2, max_h + 1, 2):  # blocks are 2 (lying) or 4 (standing) pawn heights
            use = (neighbour == 0) | (self.facing & (neighbour < h)) | (~self.facing & (neighbour > h))
            ring = np.where(use, block.sides[h], 0.0).max(axis=-1)
            scores[..., h] = np.clip(block.inside[h] - ring, 0, 1) * support[h]
        return scores

    def _spread_plateaus(self, heights: np.ndarray, margin: np.ndarray, block) -> tuple[np.ndarray, np.ndarray]:
        """Give an unclear space the height of a clear neighbour whose top looks the same in the
        view at that height (same plateau)."""
        heights, margin = heights.copy(), margin.copy()
        rows, cols = heights.shape
        for _ in range(rows + cols):
            changed = False
            for r in range(rows):
                for c in range(cols):
                    if margin[r, c] >= 0.2:
                        continue
                    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                        if not (0 <= rr < rows and 0 <= cc < cols) or margin[rr, cc] < 0.2:
                            continue
                        h = heights[rr, cc]
                        colour_gap = np.linalg.norm(block.colour[h, r, c] - block.colour[h, rr, cc])
                        if block.inside[h, r, c] > 0.8 and colour_gap < 6.0:
                            heights[r, c], margin[r, c] = h, 0.2
                            changed = True
                            break
            if not changed:
                break
        return heights, margin
