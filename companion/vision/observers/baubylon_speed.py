"""The Baubylon read's per-frame arithmetic done in fewer, larger numpy calls.

Each function here gives the very numbers of the plainer code it replaces (the same elementwise
operations in the same order, on the same dtypes): a read spends most of its time in numpy's
per-call overhead on small arrays (~1 400 calls), not in arithmetic, so several small arrays are
laid side by side and passed through each step once. tests/vision/test_baubylon_speed_fused.py
checks each against the plain formulation.
"""

from __future__ import annotations

import numpy as np

from ..boards import BAUBYLON
from .stack_sampling import Outline, along_side

_STEP_SCALE = 10.0  # Outline.evidence's and seam_evidence's defaults
_LIKE_SCALE = 15.0
_SHARPNESS_PX = 1.2
_NOISE = 3.0


def block_outline_terms(lines: Outline, expected: np.ndarray, alike_scale: float = 15.0):
    """From the block tops' outlines (S, levels − 1, 4, P) and where this camera's outlines
    cross (S, levels − 1, 4): per (rows, cols, levels, 4), zeros on the table level,
    - evidence: lines.evidence(expected),
    - seams: seam_evidence(lines),
    - alike: along_side(exp(−(inside / alike_scale)² − (outside / alike_scale)²)),
    - inside: along_side(lines.inside_like(alike_scale)),
    as four views of one array: one along_side and one level padding for all four."""
    inside, outside = lines.inside, lines.outside
    fields = (lines.crossing, lines.step, inside, outside, lines.middle)
    single = all(field.dtype == np.float32 for field in fields)  # as outline() makes them (result_type is slow)
    dtype = np.float32 if single else np.result_type(*fields, np.float32)
    scores = np.empty((4, *lines.crossing.shape), dtype)
    # Outline.evidence: (clipped step · inside_like) · exp(−(off / sharpness)²)
    off = lines.crossing - np.asarray(expected, np.float32)[..., None]
    np.multiply(np.minimum(np.maximum(lines.step - _NOISE, 0.0) * (1.0 / _STEP_SCALE), 1.0),
                lines.inside_like(_LIKE_SCALE), out=scores[0])
    scores[0] *= np.exp(-((off / _SHARPNESS_PX) ** 2))
    # seam_evidence: clipped (middle − both − noise) · exp(−(both / like)²)
    both = np.maximum(inside, outside)
    np.multiply(np.minimum(np.maximum(lines.middle - both - _NOISE, 0.0) * (1.0 / _STEP_SCALE), 1.0),
                np.exp(-((both / _LIKE_SCALE) ** 2)), out=scores[1])
    np.exp(-((inside / alike_scale) ** 2) - (outside / alike_scale) ** 2, out=scores[2])
    scores[3] = lines.inside_like(alike_scale)
    sides = along_side(scores)  # (4, S, levels − 1, 4)
    count, levels = sides.shape[1], sides.shape[2] + 1
    out = np.zeros((4, count, levels, 4), sides.dtype)
    out[:, :, 1:] = sides
    out = out.reshape(4, BAUBYLON.rows, BAUBYLON.cols, levels, 4)
    return out[0], out[1], out[2], out[3]
