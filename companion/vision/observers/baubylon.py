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

    def _measure(self, image: np.ndarray):
        lab = self.stack.sample_lab(image)
        s = BAUBYLON.cell_mm
        pawn = square_fit(self.stack, lab, self.dims.pawn_mm, 0.8, (0.8, 2.5), near=self.near)
        edge = (0.3, 0.3, s - 0.3, s - 0.3)
        # The block top's frame, between the space's edge and where a pawn would stand.
        frame = [(r, i) for i, r in enumerate(frame_rects(edge, 0.6, 3.2))]
        ring = [(r, i) for i, r in enumerate(ring_rects(edge, 0.9, 2.5))]
        block = fit(self.stack, lab, frame, ring, near=self.near)
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
        block_scores = np.zeros((rows, cols, max_h + 1))
        block_scores[..., 0] = 0.8 * ground[TABLE][0] * (0.5 + 0.5 * np.clip(block.score[0], 0, 1))
        # Blocks are 2 pawn heights lying and 4 standing (baubylon.units): a block top is always at
        # an even height, so odd heights are never candidates.
        for h in range(2, max_h + 1, 2):
            block_scores[..., h] = np.clip(block.score[h], 0, 1) * ground[BLOCK][h]
        heights = block_scores.argmax(axis=-1)
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
