"""Does a top face of a given shape stand at a given height? A parallax test on rectified views.

In the view at the right height a top face lies exactly on its footprint: its inside is one
colour and a thin ring just outside it is something else (the gap, the side, what lies below). In a
view at a wrong height it is shifted, so part of the inside is something else and one side of the
ring is the face itself. score = share of the inside like its own mean colour − the largest share
of any ring side like it. 1 is a perfect fit; ≤ 0 means "not here".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .views import ViewStack

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm from the cell's corner


@dataclass(frozen=True)
class Fit:
    score: np.ndarray  # (K, R, C)
    inside: np.ndarray  # (K, R, C) share of the inside like its mean
    ring: np.ndarray  # (K, R, C) the largest share of a ring side like the inside
    colour: np.ndarray  # (K, R, C, 3) mean Lab of the inside
    features: np.ndarray  # (K, R, C, 6) mean and spread of the inside's Lab (appearance.FEATURES)
    sides: np.ndarray  # (K, R, C, 4) per side (y−, x+, y+, x−) the largest ring share like the inside


def _block(stack: ViewStack, lab: np.ndarray, rect: Rect, span: int) -> np.ndarray:
    x0, y0, x1, y1 = rect
    return stack.blocks(lab, y0, x0, y1 - y0, x1 - x0, span)


def _close(block: np.ndarray, ref: np.ndarray, tau: np.ndarray) -> np.ndarray:
    diff = block - ref[..., None, None, :]
    return (np.einsum("...c,...c->...", diff, diff) < (tau * tau)[..., None, None]).mean(axis=(-2, -1))


def ring_rects(rect: Rect, near: float, far: float) -> tuple[Rect, Rect, Rect, Rect]:
    """Bands outside a rect: above (y−), right (x+), below (y+), left (x−)."""
    x0, y0, x1, y1 = rect
    return (
        (x0, y0 - far, x1, y0 - near),
        (x1 + near, y0, x1 + far, y1),
        (x0, y1 + near, x1, y1 + far),
        (x0 - far, y0, x0 - near, y1),
    )


def frame_rects(rect: Rect, near: float, far: float) -> tuple[Rect, Rect, Rect, Rect]:
    """Bands inside a rect along its edges (a frame between `near` and `far` mm from the edge)."""
    x0, y0, x1, y1 = rect
    return (
        (x0 + near, y0 + near, x1 - near, y0 + far),
        (x1 - far, y0 + far, x1 - near, y1 - far),
        (x0 + near, y1 - far, x1 - near, y1 - near),
        (x0 + near, y0 + far, x0 + far, y1 - far),
    )


Tagged = tuple[Rect, int]  # a rect and the side it belongs to (0 y−, 1 x+, 2 y+, 3 x−; −1 none)


def fit(stack: ViewStack, lab: np.ndarray, inside: Sequence[Tagged], ring: Sequence[Tagged], span: int = 1,
        tau: tuple[float, float] = (5.0, 12.0), near: np.ndarray | None = None,
        centre: tuple[float, float] | None = None, median_step: int = 1) -> Fit:
    """Fit of a face whose inside is the union of `inside` rects and whose ring sides are `ring`.

    "Like" means within a colour distance (ΔE) of the inside's mean that adapts to the inside's own
    spread (noise, texture), between tau[0] and tau[1]: low-contrast pieces still separate from
    their surroundings, noisy ones are not split.

    A taller neighbour between the camera and a cell can hide the cell's near part. With `near`
    (per cell: which sides face the camera) only the far half of the cell is used: the far side
    still shows whether the face is shifted (wrong height) either way.

    `median_step` > 1 takes the face's majority colour from every n-th inside pixel only (faster;
    the median of a uniform face hardly changes).
    """
    rows, cols = stack.spec.rows - span + 1, stack.spec.cols - span + 1
    if near is None:
        near = np.zeros((rows, cols, 4), bool)
    codes = (near * np.array([1, 2, 4, 8])).sum(axis=-1)
    if centre is None:
        centre = (span * stack.spec.cell_mm / 2.0,) * 2
    unique = np.unique(codes)
    if len(unique) == 1:
        sides = [i for i in range(4) if unique[0] & (1 << i)]
        return _fit_plain(stack, lab, _clip_far(inside, sides, centre), _clip_far(ring, sides, centre), span, tau,
                          median_step=median_step)
    # Each group of cells with the same near sides is measured on its own cells only (the same
    # numbers as measuring every cell per group and keeping the group's, at a fraction of the work).
    k = lab.shape[0]
    score = np.zeros((k, rows, cols), np.float32)
    inside_like = np.zeros((k, rows, cols), np.float32)
    ring_max = np.zeros((k, rows, cols), np.float32)
    colour = np.zeros((k, rows, cols, 3), np.float32)
    features = np.zeros((k, rows, cols, 6), np.float32)
    side_share = np.zeros((k, rows, cols, 4), np.float32)
    for code in unique:
        sides = [i for i in range(4) if code & (1 << i)]
        cells = np.nonzero(codes == code)
        part = _fit_plain(stack, lab, _clip_far(inside, sides, centre), _clip_far(ring, sides, centre), span, tau,
                          cells, median_step)
        score[:, cells[0], cells[1]] = part.score
        inside_like[:, cells[0], cells[1]] = part.inside
        ring_max[:, cells[0], cells[1]] = part.ring
        colour[:, cells[0], cells[1]] = part.colour
        features[:, cells[0], cells[1]] = part.features
        side_share[:, cells[0], cells[1]] = part.sides
    return Fit(score, inside_like, ring_max, colour, features, side_share)


def _clip_far(rects: Sequence[Tagged], near_sides: Sequence[int], centre: tuple[float, float]) -> list[Tagged]:
    """Keep the parts of rects on the far side of the face's centre from each near side."""
    cx, cy = centre
    out = []
    for (x0, y0, x1, y1), side in rects:
        if side in near_sides:
            continue
        for near in near_sides:
            if near == 0:
                y0 = max(y0, cy)
            elif near == 2:
                y1 = min(y1, cy)
            elif near == 1:
                x1 = min(x1, cx)
            else:
                x0 = max(x0, cx)
        if x1 - x0 >= 0.5 and y1 - y0 >= 0.5:
            out.append(((x0, y0, x1, y1), side))
    return out


def _fit_plain(stack: ViewStack, lab: np.ndarray, inside: Sequence[Tagged], ring: Sequence[Tagged], span: int,
               tau: tuple[float, float], cells: tuple[np.ndarray, np.ndarray] | None = None,
               median_step: int = 1) -> Fit:
    """The fit of every cell, or with `cells` (row and column indices) of those cells only, shaped
    (K, len(cells[0]), ...)."""
    def block(rect: Rect) -> np.ndarray:
        b = _block(stack, lab, rect, span)
        return b if cells is None else b[:, cells[0], cells[1]][:, None]  # (K, 1, G, h, w, 3)

    blocks = [block(r) for r, _ in inside]
    pixels = np.concatenate([b.reshape(*b.shape[:3], -1, 3) for b in blocks], axis=3)  # (K, R, C, P, 3)
    # The face's colour is the majority colour (median), and "like" is a fixed distance from it,
    # scaled with brightness: a patch half top, half side must not pass as one uniform face.
    colour = np.median(pixels[..., ::median_step, :], axis=3)
    tau_cell = np.clip(0.12 * colour[..., 0] + 3.0, *tau)
    diff = pixels - colour[..., None, :]
    like = np.einsum("...c,...c->...", diff, diff) < (tau_cell * tau_cell)[..., None]  # (K, R, C, P)
    inside_like = like.mean(axis=3)
    # Appearance features from the face's own pixels only: a corner hidden by a neighbour (or a
    # shadow edge) must not change what the face looks like.
    weight = like[..., None].astype(np.float32)
    count = np.maximum(weight.sum(axis=3), 1.0)
    mean = (pixels * weight).sum(axis=3) / count
    var = np.maximum(((pixels * pixels) * weight).sum(axis=3) / count - mean * mean, 0.0)
    sides = np.zeros((*inside_like.shape, 4), np.float32)
    for r, side in ring:
        like = _close(block(r), colour, tau_cell)
        index = side if side >= 0 else slice(None)
        sides[..., index] = np.maximum(sides[..., index], like[..., None] if side < 0 else like)
    ring_max = sides.max(axis=-1)
    features = np.concatenate([mean, np.sqrt(var)], axis=-1)
    if cells is not None:  # (K, 1, G, ...) → (K, G, ...)
        inside_like, ring_max, colour, features, sides = (a[:, 0] for a in (inside_like, ring_max, colour, features, sides))
    return Fit(inside_like - ring_max, inside_like, ring_max, colour, features, sides)


def square_fit(stack: ViewStack, lab: np.ndarray, side_mm: float, inset_mm: float, ring_mm: tuple[float, float],
               tau: tuple[float, float] = (5.0, 12.0), near: np.ndarray | None = None,
               ring_sides: tuple[int, ...] = (0, 1, 2, 3), median_step: int = 1) -> Fit:
    """A square top of `side_mm` centred in each cell; `ring_sides` leaves out the sides where the
    top may continue into the next cell (a piece spanning several cells)."""
    inside, ring = square_rects(stack.spec.cell_mm, side_mm, inset_mm, ring_mm, ring_sides)
    return fit(stack, lab, inside, ring, 1, tau, near, median_step=median_step)


def square_rects(cell_mm: float, side_mm: float, inset_mm: float, ring_mm: tuple[float, float],
                 ring_sides: tuple[int, ...] = (0, 1, 2, 3)) -> tuple[list[Tagged], list[Tagged]]:
    """The inside rects (a frame along the edges and the middle) and ring rects of square_fit."""
    c = cell_mm / 2.0
    h = side_mm / 2.0
    rect = (c - h, c - h, c + h, c + h)
    core = (c - h + inset_mm, c - h + inset_mm, c + h - inset_mm, c + h - inset_mm)
    band = max(1.0, (core[2] - core[0]) / 4.0)
    inside = [(r, i) for i, r in enumerate(frame_rects(core, 0.0, band))]
    inside.append(((core[0] + band, core[1] + band, core[2] - band, core[3] - band), -1))
    ring = [(r, i) for i, r in enumerate(ring_rects(rect, *ring_mm)) if i in ring_sides]
    return inside, ring
