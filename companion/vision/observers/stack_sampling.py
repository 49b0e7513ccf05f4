"""Edge probes for square top faces at candidate heights, sampled straight from the camera frame.

A top face standing at height z lands where the plane-z mapping puts it; at a wrong height its
outline is shifted by the parallax (a few pixels per level). Rectified views at board resolution
blur that shift away, so the probes sample the full-resolution frame only where it matters: a small
grid inside each candidate face (its colour) and, along each of its four sides, points a pixel or
three inside and outside the outline (ACROSS_PX), where the outline is located to a fraction of a
pixel. Offsets are set in image pixels (from the local scale), so a
probe is as sharp as the camera allows at every distance. All points are projected once per
geometry; a frame costs one remap of a few tens of thousands of points and one Lab conversion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .geometry import RegionGeometry

SIDES = 4  # y−, x+, y+, x− (as in fit.py)
_ROW = 1024
ACROSS_PX = (-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0)  # across a side, outward positive
_NORMALS = np.array([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)])


@dataclass(frozen=True)
class ProbeSamples:
    """Lab colours (L 0..100) of one frame at the probes of S squares at K heights."""

    interior: np.ndarray  # (S, K, G, 3) grid inside the face
    across: np.ndarray  # (S, K, 4, P, O, 3) across each side, per position along it, at `offsets`
    offsets: tuple[float, ...] = ACROSS_PX  # px across a side, outward positive

    def interior_features(self) -> np.ndarray:
        """(S, K, 6) centre and spread of the interior's Lab (appearance.FEATURES)."""
        return robust_features(self.interior)

    def interior_colour(self) -> np.ndarray:
        """(S, K, 3) the face's majority colour (median: robust to a corner hidden or shadowed)."""
        return small_median(self.interior)


def robust_features(grid: np.ndarray) -> np.ndarray:
    """(..., G, 3) Lab samples → (..., 6) centre and spread (appearance.FEATURES), robust ones
    (median, scaled median deviation): a corner hidden by a taller neighbour does not count."""
    centre = small_median(grid)
    spread = 1.4826 * small_median(np.abs(grid - centre[..., None, :]))
    return np.concatenate([centre, spread], axis=-1)


def small_median(grid: np.ndarray) -> np.ndarray:
    """(..., G, 3) finite samples → (..., 3) their median along G: np.median(grid, axis=-2)'s
    numbers (the middle sample, or the mean of the middle two), at about half its cost on a few
    samples per face."""
    count = grid.shape[-2]
    if count == 0:
        return np.median(grid, axis=-2)
    middle = count // 2
    # Sorted in place in a contiguous copy (np.sort of the swapped view copies each row in and out)
    ordered = np.ascontiguousarray(np.swapaxes(grid, -1, -2))
    ordered.sort(axis=-1)
    if count % 2:
        return ordered[..., middle]
    return 0.5 * (ordered[..., middle - 1] + ordered[..., middle])


class SquareProbes:
    """Probe points of squares (x0, y0, x1, y1 mm, region frame) at heights (mm)."""

    def __init__(self, geometry: RegionGeometry, squares: Sequence[tuple[float, float, float, float]],
                 heights_mm: Sequence[float], positions: int = 5,
                 interior_inset_mm: float = 2.0, grid: int = 3, along: tuple[float, float] = (0.15, 0.85),
                 across_px: Sequence[float] = ACROSS_PX):
        sq = np.asarray(squares, float).reshape(-1, 4)
        zs = np.asarray(heights_mm, float)
        self.squares, self.heights = sq, zs
        s_count, k_count = len(sq), len(zs)
        self.grid, self.positions = grid, positions
        # Interior grid.
        t = (np.arange(grid) + 0.5) / grid
        x0 = sq[:, 0] + interior_inset_mm
        y0 = sq[:, 1] + interior_inset_mm
        w = np.maximum(sq[:, 2] - sq[:, 0] - 2 * interior_inset_mm, 0.5)
        h = np.maximum(sq[:, 3] - sq[:, 1] - 2 * interior_inset_mm, 0.5)
        gx = x0[:, None, None] + w[:, None, None] * t[None, None, :]
        gy = y0[:, None, None] + h[:, None, None] * t[None, :, None]
        gx, gy = np.broadcast_arrays(gx, gy)
        interior = np.zeros((s_count, k_count, grid * grid, 3))
        interior[..., 0] = gx.reshape(s_count, 1, -1)
        interior[..., 1] = gy.reshape(s_count, 1, -1)
        interior[..., 2] = zs[None, :, None]
        # Edge points on each side, then the local scale (px per mm along the outward normal).
        u = along[0] + (along[1] - along[0]) * (np.arange(positions) + 0.5) / positions
        edge = np.zeros((s_count, k_count, SIDES, positions, 3))
        for side in range(SIDES):
            nx, ny = _NORMALS[side]
            if nx == 0:
                xs = sq[:, 0:1] + (sq[:, 2:3] - sq[:, 0:1]) * u[None, :]
                ys = np.where(ny < 0, sq[:, 1:2], sq[:, 3:4]) + 0 * u[None, :]
            else:
                ys = sq[:, 1:2] + (sq[:, 3:4] - sq[:, 1:2]) * u[None, :]
                xs = np.where(nx < 0, sq[:, 0:1], sq[:, 2:3]) + 0 * u[None, :]
            edge[:, :, side, :, 0] = xs[:, None, :]
            edge[:, :, side, :, 1] = ys[:, None, :]
        edge[..., 2] = zs[None, :, None, None]
        normal3 = np.zeros((SIDES, 3))
        normal3[:, :2] = _NORMALS
        flat = edge.reshape(-1, 3)
        p0 = geometry.to_pixels(flat)
        p1 = geometry.to_pixels((edge + normal3[None, None, :, None, :]).reshape(-1, 3))
        px_per_mm = np.maximum(np.linalg.norm(p1 - p0, axis=1), 1e-3).reshape(edge.shape[:-1])
        self.px_per_mm = px_per_mm  # (S, K, 4, P)
        self.across_px = tuple(float(o) for o in across_px)
        offs = np.asarray(self.across_px, float)
        step_mm = offs[None, None, None, None, :] / px_per_mm[..., None]  # (S, K, 4, P, O)
        across = edge[..., None, :] + step_mm[..., None] * normal3[None, None, :, None, None, :]
        # How far the outline moves per mm of height, across each side (px): a side along the
        # parallax direction says nothing about the height.
        lifted = geometry.to_pixels((edge + np.array([0.0, 0.0, 1.0])).reshape(-1, 3))
        image_normal = (p1 - p0) / np.maximum(np.linalg.norm(p1 - p0, axis=1, keepdims=True), 1e-6)
        shift = np.einsum("nc,nc->n", lifted - p0, image_normal).reshape(edge.shape[:-1])
        self.shift_px_per_mm = shift.mean(axis=-1)  # (S, K, 4), signed: > 0 moves outward
        self._interior_count = interior.size // 3
        points = np.concatenate([interior.reshape(-1, 3), across.reshape(-1, 3)])
        self._points = PointSampler(geometry, points)
        self._shapes = ((s_count, k_count, grid * grid, 3), (s_count, k_count, SIDES, positions, len(offs), 3))
        pixels = self._points.pixels
        self._interior_px = pixels[: self._interior_count].reshape(*self._shapes[0][:-1], 2)
        self._across_px = pixels[self._interior_count :].reshape(*self._shapes[1][:-1], 2)
        self._across_points: PointSampler | None = None
        self._interior_maps: tuple[np.ndarray, np.ndarray, int] | None = None
        self._grid_first_maps: tuple[np.ndarray, np.ndarray, int] | None = None

    def sample_interior(self, image: np.ndarray, grid_first: bool = False) -> np.ndarray:
        """(S, K, G, 3) Lab of the interior grids only (a cheap first look); `grid_first`: laid
        out (G, S, K, 3) instead (the same colours), so that each grid point's plane is contiguous."""
        if self._interior_maps is None:  # the float maps sample_pixels makes, kept (same numbers)
            self._interior_maps = _float_maps(self._interior_px.reshape(-1, 2))
            self._grid_first_maps = _float_maps(np.moveaxis(self._interior_px, 2, 0).reshape(-1, 2))
        map_x, map_y, count = self._grid_first_maps if grid_first else self._interior_maps
        picked = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        s_count, k_count, g_count, _ = self._shapes[0]
        shape = (g_count, s_count, k_count, 3) if grid_first else self._shapes[0]
        return unit_lab(picked.reshape(-1, 3)[:count]).reshape(shape)

    def sample_pairs(self, image: np.ndarray, squares: np.ndarray, levels: np.ndarray,
                     interior_lab: np.ndarray | None = None) -> ProbeSamples:
        """Like sample(), for chosen (square, height) pairs only: shape (N, 1, ...). `interior_lab`
        (N, G, 3): those pairs' interiors as sample_interior() gave them (the same points, so the
        same numbers), when looked at already: then only the points across the sides are sampled."""
        across = self._across_px[squares, levels][:, None]
        if interior_lab is not None:
            lab = unit_lab(sample_pixels(image, across.reshape(-1, 2)))
            return ProbeSamples(interior_lab[:, None], lab.reshape(*across.shape[:-1], 3), self.across_px)
        interior = self._interior_px[squares, levels][:, None]
        raw = sample_pixels(image, np.concatenate([interior.reshape(-1, 2), across.reshape(-1, 2)]))
        n = interior.size // 2
        return ProbeSamples(unit_lab(raw[:n]).reshape(*interior.shape[:-1], 3),
                            unit_lab(raw[n:]).reshape(*across.shape[:-1], 3), self.across_px)

    def sample_levels(self, image: np.ndarray, levels: np.ndarray) -> ProbeSamples:
        """Like sample(), for a few heights per square only: `levels` (S, M) indexes the heights;
        the result has M in place of K (a frame then costs only what it needs)."""
        rows = np.arange(len(levels))[:, None]
        interior = self._interior_px[rows, levels]
        across = self._across_px[rows, levels]
        raw = sample_pixels(image, np.concatenate([interior.reshape(-1, 2), across.reshape(-1, 2)]))
        n = interior.size // 2
        return ProbeSamples(unit_lab(raw[:n]).reshape(*interior.shape[:-1], 3),
                            unit_lab(raw[n:]).reshape(*across.shape[:-1], 3), self.across_px)

    def sample_across(self, image: np.ndarray) -> ProbeSamples:
        """Like sample(), the points across the sides only (the interiors come back empty): what an
        outline needs when the face's colour is known already."""
        if self._across_points is None:  # built on first use: most users sample everything
            self._across_points = PointSampler.from_pixels(self._across_px.reshape(-1, 2), few_rows=True)
        raw = self._across_points.raw(image)
        s_count, k_count = self._shapes[0][:2]
        across = unit_lab(raw).reshape(self._shapes[1])
        return ProbeSamples(np.zeros((s_count, k_count, 0, 3), np.float32), across, self.across_px)

    def sample(self, image: np.ndarray, gains: np.ndarray | None = None) -> ProbeSamples:
        """Lab at every probe; `gains` (S, 3) multiplies each square's BGR first (white balance)."""
        raw = self._points.raw(image)
        n = self._interior_count
        s_count = self._shapes[0][0]
        scale = np.full((s_count, 1, 3), 1.0 / 255.0, np.float32)
        if gains is not None:
            scale = scale * gains[:, None, :].astype(np.float32)
        interior = raw[:n].reshape(s_count, -1, 3) * scale
        across = raw[n:].reshape(s_count, -1, 3) * scale
        return ProbeSamples(to_lab(interior).reshape(self._shapes[0]), to_lab(across).reshape(self._shapes[1]),
                            self.across_px)


class PointSampler:
    """Colours of a frame at fixed region points (x, y, z mm): projected once, one remap a frame."""

    def __init__(self, geometry: RegionGeometry | None, points: np.ndarray, pixels: np.ndarray | None = None,
                 few_rows: bool = False):
        if pixels is None:
            pixels = geometry.to_pixels(np.asarray(points, float).reshape(-1, 3))
        pixels = np.asarray(pixels, np.float32).reshape(-1, 2)
        # remap wants maps under 32767 px on a side: fold the point list into rows (`few_rows`:
        # as few as that allows: OpenCV splits a remap of many rows over threads, which on a busy
        # machine costs more CPU than it saves; each point's colour does not depend on the layout).
        self.count = len(pixels)
        rows = -(-self.count // _ROW)
        width = _ROW
        if few_rows:
            rows = max(1, -(-self.count // _FLOAT_ROW))
            width = max(1, -(-self.count // rows))
        padded = np.zeros((rows * width, 2), np.float32)
        padded[: self.count] = pixels
        padded = padded.reshape(rows, width, 2)
        self.pixels = pixels
        self.map_x, self.map_y = cv2.convertMaps(padded[..., 0].copy(), padded[..., 1].copy(), cv2.CV_16SC2)

    @classmethod
    def from_pixels(cls, pixels: np.ndarray, few_rows: bool = False) -> PointSampler:
        """A sampler of image points (N, 2) already projected."""
        return cls(None, np.zeros((0, 3)), pixels, few_rows)

    def raw(self, image: np.ndarray) -> np.ndarray:
        """(N, 3) the frame's pixels (uint8 BGR), interpolated at the points."""
        picked = cv2.remap(image, self.map_x, self.map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return picked.reshape(-1, 3)[: self.count]

    def bgr(self, image: np.ndarray) -> np.ndarray:
        """(N, 3) float32 BGR in 0..1."""
        return self.raw(image).astype(np.float32) * np.float32(1.0 / 255.0)


def sample_pixels(image: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """(N, 3) uint8 BGR of the frame at (N, 2) pixel positions (bilinear), in one remap."""
    map_x, map_y, count = _float_maps(pixels)
    picked = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return picked.reshape(-1, 3)[:count]


_FLOAT_ROW = 32000  # remap wants maps under 32767 px on a side


def _float_maps(pixels: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """remap's float maps (x, y) for (N, 2) pixels: as few rows as its size limit allows (one for
    a few thousand points): OpenCV splits a remap of many rows over threads, which on a busy
    machine costs more CPU than it saves. Each point's colour does not depend on the layout."""
    count = len(pixels)
    rows = max(1, -(-count // _FLOAT_ROW))
    width = max(1, -(-count // rows))
    padded = np.zeros((rows * width, 2), np.float32)
    padded[:count] = pixels
    padded = padded.reshape(rows, width, 2)
    return padded[..., 0].copy(), padded[..., 1].copy(), count


def unit_lab(raw: np.ndarray) -> np.ndarray:
    """(..., 3) uint8 BGR → Lab (L 0..100) as to_lab(raw / 255 in float32), with one temporary
    fewer and no clipping (a uint8 colour never leaves the colour space): the same numbers."""
    scaled = np.asarray(raw).astype(np.float32)
    scaled *= np.float32(1.0 / 255.0)
    return cv2.cvtColor(scaled.reshape(1, -1, 3), cv2.COLOR_BGR2Lab).reshape(np.shape(raw))


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """float BGR 0..1 (..., 3) → Lab (L 0..100), any shape."""
    flat = np.ascontiguousarray(bgr, dtype=np.float32).reshape(1, -1, 3)
    np.minimum(flat, 1.0, out=flat)  # a balanced highlight must not leave the colour space
    return cv2.cvtColor(flat, cv2.COLOR_BGR2Lab).reshape(bgr.shape)


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(np.asarray(lab, np.float32).reshape(1, -1, 3))
    return cv2.cvtColor(flat, cv2.COLOR_Lab2BGR).reshape(np.shape(lab))


def balance_gains(known_lab: np.ndarray, seen_bgr: np.ndarray, limit: float = 2.0) -> np.ndarray:
    """Per-channel BGR gains (..., 3) that bring a surface seen as `seen_bgr` (..., 3, 0..1) back to
    its calibrated colour `known_lab` (3,): the board's own surface is the white reference, so a
    change of light after calibration (brightness, gradient, colour temperature) is undone locally."""
    known = lab_to_bgr(known_lab).reshape(3)
    return _clip(known / np.maximum(seen_bgr, 1e-3), 1.0 / limit, limit)


def rebalance(lab: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Lab colours (..., 3) as they look with BGR gains (3,) applied."""
    return to_lab(lab_to_bgr(lab) * np.asarray(gains, np.float32))


def rebalance_each(lab: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Lab colours (..., 3) as they look with BGR gains (..., 3) (broadcast) applied."""
    bgr = lab_to_bgr(lab)
    gains = np.asarray(gains, np.float32)
    try:
        np.multiply(bgr, gains, out=bgr)  # in place: one temporary fewer (same numbers)
    except ValueError:  # the gains broadcast the colours to a larger shape
        return to_lab(bgr * gains)
    return to_lab(bgr)


def surface_gains(seen_lab: np.ndarray, known_lab: np.ndarray, near: float = 25.0, least: int = 5,
                  rounds: int = 3, tight: float = 8.0, seen_bgr: np.ndarray | None = None,
                  known_bgr: np.ndarray | None = None, distance: np.ndarray | None = None) -> np.ndarray:
    """Global BGR gains (3,) that bring the light of this frame back to the calibration's, from
    the places that show a known surface (e.g. the table between the pieces): first those within
    `near` (ΔE) of it, then, light balanced with the gains so far, those within `tight` of it
    (other things of a similar colour drop out). No change when too few show it. Given, when made
    already: `seen_bgr` lab_to_bgr(seen_lab), `known_bgr` lab_to_bgr(known_lab) (3,) and
    `distance` the ΔE of seen_lab to known_lab (the same numbers)."""
    seen = np.asarray(seen_lab, np.float32).reshape(-1, 3)
    known = np.asarray(known_lab, np.float32)
    if seen_bgr is None:
        seen_bgr = lab_to_bgr(seen)
    if known_bgr is None:
        known_bgr = lab_to_bgr(known).reshape(3)
    gains = np.ones(3, np.float32)
    balanced_on = None  # the places the gains so far were balanced on (after the first round)
    for round_ in range(rounds):
        if round_ == 0:
            close = (distance_to(seen, known) if distance is None else distance) < near
        else:
            close = distance_to(to_lab(seen_bgr * gains), known) < tight
        if np.count_nonzero(close) < least:
            break
        if balanced_on is not None and np.array_equal(close, balanced_on):
            break  # the same places: the same gains again (and every round after it)
        if round_ > 0:
            balanced_on = close
        # balance_gains(known, median), with the known surface's BGR made once
        gains = _clip(known_bgr / np.maximum(small_median(seen_bgr[close]), 1e-3), 0.5, 2.0)
    return gains


def surface_gain_field(seen_lab: np.ndarray, pixels: np.ndarray, known_lab: np.ndarray, tight: float = 8.0,
                       least: int = 12, rounds: int = 2, unhidden: np.ndarray | None = None,
                       near: float = 25.0, shade: float = 0.06, hue: float = 0.06,
                       lit_share: float = 0.25, design: np.ndarray | None = None,
                       known_bgr: np.ndarray | None = None,
                       front_bgr: np.ndarray | None = None) -> np.ndarray:
    """Light that drifted since calibration, as a field over the frame: per channel, how much
    brighter a known surface looks now, fitted as a plane over the image (a + b·x + c·y) to the
    places that show that surface: those within `tight` ΔE of it once balanced with one gain for
    the whole frame (surface_gains), then with the plane so far. Returns the (3, 3) plane
    coefficients; gains_at() evaluates them. A lamp to one side or a window makes one end of the
    field brighter: one gain for the whole frame is not enough.

    Pieces cast shadows on the surface, and shadows only darken: where many places are shaded,
    that plane may be the shadows' (and every colour balanced with it far too bright). Given the
    places nothing can stand in front of (`unhidden`, (N,) bool: nothing brighter can be seen
    there instead of the surface), when a good share of those (`lit_share` of the ones within
    `near` ΔE of the surface) looks more than `shade` brighter than the plane with the same hue
    (each channel's change within `hue` of the plane's: shadows and a brighter light keep the
    hue), the plane was the shadows': it is raised to those places, then to the places within
    `shade` of it (the lit surface). `design`: plane_design(pixels), when made already (fixed
    places: once per geometry); `known_bgr`: lab_to_bgr(known_lab) (3,), when made already.

    `front_bgr` (3,), with `unhidden`: the colour (BGR) of what may stand in front of the places
    not unhidden (e.g. the blocks): a block's face, shaded, can be as bright as the lit surface
    and pass for it. Those places are dropped where their hue, taken as that colour, is nearer
    the light's hue (seen at the unhidden places) than taken as the surface (not_in_front)."""
    seen = np.asarray(seen_lab, np.float32).reshape(-1, 3)
    known = np.asarray(known_lab, np.float32)
    known_bgr = lab_to_bgr(known).reshape(3) if known_bgr is None else known_bgr
    seen_bgr = lab_to_bgr(seen)
    design = plane_design(pixels) if design is None else design
    if front_bgr is not None and unhidden is not None:
        unhidden = np.asarray(unhidden, bool)
        keep = not_in_front(seen, seen_bgr, known, known_bgr, np.asarray(front_bgr, np.float32),
                             unhidden, near)
        if not keep.all():
            seen, seen_bgr, design, unhidden = seen[keep], seen_bgr[keep], design[keep], unhidden[keep]
    distance = distance_to(seen, known)  # (surface_gains' first round and the shadows' check ask it)
    coeffs = np.zeros((3, 3))
    coeffs[0] = 1.0 / surface_gains(seen, known, tight=tight, seen_bgr=seen_bgr, known_bgr=known_bgr,
                                    distance=distance)
    ratio = seen_bgr / np.maximum(known_bgr, 1e-3)  # (n, 3) how much brighter, per channel
    fitted = None  # the places the plane so far was fitted to
    for _ in range(rounds):
        balanced = to_lab(seen_bgr * _plane_gains(design, coeffs))
        close = distance_to(balanced, known) < tight
        if np.count_nonzero(close) < least:
            break
        if fitted is not None and np.array_equal(close, fitted):
            break  # the same places: the same fit again (and every round after it)
        coeffs = np.linalg.lstsq(design[close], ratio[close], rcond=None)[0]
        fitted = close
    if unhidden is None:
        return coeffs
    return _out_of_shadows(coeffs, design, ratio, distance < near, np.asarray(unhidden, bool),
                           least, rounds, shade, hue, lit_share)


def not_in_front(seen, seen_bgr, known, known_bgr, front_bgr, unhidden, near, least=5):
    """(N,) bool: the places that are unhidden or whose hue is nearer the light's taken as the
    surface than taken as `front_bgr` (what may stand in front of them). The light's hue is the
    median hue of the unhidden places within `near` ΔE of the surface (all kept when fewer than
    `least` show it). Hue: each channel's change over the three's mean (light and shade keep it)."""
    reference = unhidden & (distance_to(seen, known) < near)
    if np.count_nonzero(reference) < least:
        return np.ones(len(seen), bool)
    as_surface = seen_bgr / np.maximum(known_bgr, 1e-3)
    as_surface /= np.maximum(_mean_of_3(as_surface), 1e-6)[:, None]
    as_front = seen_bgr / np.maximum(front_bgr, 1e-3)
    as_front /= np.maximum(_mean_of_3(as_front), 1e-6)[:, None]
    light = small_median(as_surface[reference])
    as_surface -= light
    as_front -= light
    np.abs(as_surface, out=as_surface)
    np.abs(as_front, out=as_front)
    return unhidden | (as_surface.max(axis=1) < as_front.max(axis=1))


def _out_of_shadows(coeffs, design, ratio, like, unhidden, least, rounds, shade, hue, lit_share):
    """surface_gain_field's plane raised out of the shadows, when the unhidden places show it
    there (else `coeffs` as they are)."""
    brightness = _mean_of_3(ratio)
    shape = ratio / np.maximum(brightness, 1e-6)[:, None]
    open_like = like & unhidden
    for _ in range(2):  # lit above shaded above shaded twice: rare, but each step is the same
        plane = design @ coeffs
        level = _mean_of_3(plane)
        same_hue = np.abs(shape - plane / level[:, None]).max(axis=-1) < hue
        above = open_like & same_hue & (brightness > level * (1.0 + shade))
        if np.count_nonzero(above) < max(least, lit_share * np.count_nonzero(open_like)):
            return coeffs
        lit = coeffs * float(np.median(brightness[above] / level[above]))
        for _ in range(rounds):
            plane = design @ lit
            level = _mean_of_3(plane)
            close = (like & (np.abs(shape - plane / level[:, None]).max(axis=-1) < hue)
                     & (np.abs(brightness / level - 1.0) < shade))
            if np.count_nonzero(close) < least:
                return coeffs
            # The lit places may all lie along one edge, which says little about the tilt
            # across it: the tilt so far weighs as much as `_TILT_PRIOR` places.
            lit = _fit_near(design[close], ratio[close], lit * float(np.median(brightness[close] / level[close])))
        coeffs = lit
    return coeffs


_TILT_PRIOR = 10.0


def _fit_near(design: np.ndarray, ratio: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """Plane coefficients (3, 3) fitted to (n, 3) ratios, the tilt held towards `prior`'s."""
    weight = np.sqrt(_TILT_PRIOR)
    rows = np.vstack([design, weight * np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])])
    targets = np.vstack([ratio, weight * prior[1:]])
    return np.linalg.lstsq(rows, targets, rcond=None)[0]


_CENTRE = np.array([640.0, 360.0])  # scale of the plane's x, y (pixels of a 1280×720 frame)


def gains_at(coeffs: np.ndarray, pixels: np.ndarray, design: np.ndarray | None = None) -> np.ndarray:
    """(N, 3) BGR gains at image pixels (N, 2) from surface_gain_field's plane (`design`:
    plane_design(pixels), when made already)."""
    return _plane_gains(plane_design(pixels) if design is None else design, coeffs)


def plane_design(pixels: np.ndarray) -> np.ndarray:
    """(N, 3) the light plane's terms at image pixels (N, 2): 1, x, y (scaled)."""
    return np.column_stack([np.ones(len(pixels)), (np.asarray(pixels, float) - _CENTRE) / _CENTRE[0]])


_plane_design = plane_design


def _plane_gains(design: np.ndarray, coeffs: np.ndarray) -> np.ndarray:
    return _clip(1.0 / np.maximum(design @ coeffs, 1e-3), 0.5, 2.0).astype(np.float32)


def _clip(values: np.ndarray, low: float, high: float) -> np.ndarray:
    """np.clip's numbers for the light's few hundred values, without its Python wrappers (which
    cost more than the arithmetic there; on large arrays np.clip is the faster)."""
    return np.minimum(np.maximum(values, low), high)


def _mean_of_3(values: np.ndarray) -> np.ndarray:
    """(N, 3) → (N,) values.mean(axis=-1): the same numbers (numpy adds the three in order, then
    divides), without np.mean's Python wrappers."""
    return ((values[:, 0] + values[:, 1]) + values[:, 2]) / 3


def distance_to(lab: np.ndarray, known: np.ndarray) -> np.ndarray:
    """(N, 3) float32 Lab → (N,) ΔE to `known` (3,), channel by channel: np.linalg.norm's numbers."""
    d = lab - known
    d *= d
    return np.sqrt((d[:, 0] + d[:, 1]) + d[:, 2])


def surface_colour(bgr: np.ndarray, known_lab: np.ndarray, share: float = 0.5) -> np.ndarray:
    """(..., N, 3) samples of a surface that pieces, lines or shadows may cover in part → (..., 3)
    its colour: among the `share` of samples whose chromaticity is nearest the surface's calibrated
    one (a change of brightness keeps chromaticity; another piece's colour does not), the brighter
    half (shadows only darken)."""
    known = lab_to_bgr(known_lab).reshape(3)
    chroma = bgr / np.maximum(bgr.sum(axis=-1, keepdims=True), 1e-3)
    target = known / max(float(known.sum()), 1e-3)
    distance = np.linalg.norm(chroma - target, axis=-1)
    keep = max(1, int(round(bgr.shape[-2] * share)))
    nearest = np.take_along_axis(bgr, np.argsort(distance, axis=-1)[..., :keep, None], axis=-2)
    luma = nearest.sum(axis=-1)
    bright = max(1, keep // 2)
    top = np.take_along_axis(nearest, np.argsort(-luma, axis=-1)[..., :bright, None], axis=-2)
    return top.mean(axis=-2)


@dataclass(frozen=True)
class Outline:
    """Per probe position across a side (S, K, 4, P): where the outline of a face of a given
    colour crosses (px from where the height puts it, outward positive), how clearly (the change
    of colour distance from inside to outside) and how like the face the inside is."""

    crossing: np.ndarray
    step: np.ndarray
    inside: np.ndarray  # colour distance of the inside to the face
    outside: np.ndarray  # ... and of the outside
    middle: np.ndarray  # the largest distance within a pixel of the outline (a seam shows there)
    _alike: dict = field(default_factory=dict, compare=False, repr=False)  # inside_like's, by scale

    def inside_like(self, scale: float = 15.0) -> np.ndarray:
        """exp(-(inside / scale)²): how like the face the inside is (made once per scale: the
        evidence and an observer's own checks both ask it)."""
        like = self._alike.get(scale)
        if like is None:
            like = self._alike[scale] = np.exp(-((self.inside / scale) ** 2))
        return like

    def evidence(self, expected: np.ndarray | float = 0.0, step_scale: float = 10.0, like_scale: float = 15.0,
                 sharpness_px: float = 1.2, noise: float = 3.0) -> np.ndarray:
        """(S, K, 4) how well each side shows the outline right where the height puts it (plus the
        `expected` offset of this camera's outlines, (S, K, 4) or a number: see outline_offsets).
        A height one level off puts it 2 to 12 px away, so the score falls off with that distance
        (`sharpness_px`), not with how strong the edge is. Per position, then along the side
        (along_side)."""
        off = self.crossing - np.asarray(expected, np.float32)[..., None] if np.ndim(expected) else self.crossing - expected
        score = (np.minimum(np.maximum(self.step - noise, 0.0) * (1.0 / step_scale), 1.0)
                 * self.inside_like(like_scale) * np.exp(-((off / sharpness_px) ** 2)))
        return along_side(score)


def along_side(score: np.ndarray) -> np.ndarray:
    """(..., P) per position → (...): the mean without the best and the worst position (the
    median for 3 or 4 positions, nearly for 5; much cheaper): one position hidden by something
    else, or crossing a seam, does not decide."""
    count = score.shape[-1]
    if count < 3:
        return score.mean(axis=-1)
    # Position by position (a reduction over a short last axis costs more than the arithmetic;
    # the sum taken in the same order, so the same numbers).
    total, high, low = score[..., 0], score[..., 0], score[..., 0]
    for k in range(1, count):
        column = score[..., k]
        total = total + column
        high = np.maximum(high, column)
        low = np.minimum(low, column)
    return (total - high - low) / (count - 2)


def seam_evidence(lines: Outline, step_scale: float = 10.0, like_scale: float = 15.0,
                  noise: float = 3.0) -> np.ndarray:
    """(S, K, 4) where a face meets another face of the same colour at the same height (blocks of
    a plateau), no outline shows, but the joint does: a thin line unlike both faces, right where
    the height puts the side. Median along the side."""
    both = np.maximum(lines.inside, lines.outside)
    score = (np.minimum(np.maximum(lines.middle - both - noise, 0.0) * (1.0 / step_scale), 1.0)
             * np.exp(-((both / like_scale) ** 2)))
    return along_side(score)


def outline(samples: ProbeSamples, reference: np.ndarray) -> Outline:
    """Locate the outline of a face of colour `reference` (S, K, 3) across every side: the colour
    distance to the face goes from low (inside) to high (outside); where it crosses halfway is the
    outline, to a fraction of a pixel."""
    p = colour_distance(samples.across, reference)  # (S, K, 4, P, O)
    count = p.shape[-1]
    flat = p.reshape(-1, count)
    lo, hi = flat[:, 0], flat[:, -1]
    half = 0.5 * (lo + hi)
    first = np.argmax(flat >= half[:, None], axis=-1)  # first offset past halfway...
    np.maximum(first, 1, out=first)  # ...at least the second (argmax stays below count)
    below = first - 1
    at = np.arange(0, flat.size, count)  # flat.ravel()'s rows: take() is cheaper than a 2-D gather
    values = flat.ravel()
    before, after = values.take(at + below), values.take(at + first)
    frac = _clip((half - before) / np.maximum(after - before, 1e-6), 0.0, 1.0)
    offsets = np.asarray(samples.offsets, np.float32)
    start = offsets.take(below)  # (take: the same values as offsets[below], without a fancy index)
    crossing = start + frac * (offsets.take(first) - start)
    centre = count // 2
    middle = np.maximum(np.maximum(flat[:, centre - 1], flat[:, centre]), flat[:, centre + 1])
    shape = p.shape[:-1]
    return Outline(crossing.reshape(shape), (hi - lo).reshape(shape), lo.reshape(shape), hi.reshape(shape),
                   middle.reshape(shape))


def colour_distance(across: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """(S, K, ..., 3) Lab samples, (S, K, 3) reference → (S, K, ...) their ΔE, channel by channel
    (numpy's broadcast over a last axis of 3 costs more than the arithmetic; same numbers as the
    sum over the channels in order)."""
    reference = np.asarray(reference, np.float32)
    # As (S·K, points, 3) against (S·K, 1, 3): numpy then loops along each face's points, not
    # along the last few axes of the samples (it pays per inner loop). The same elementwise numbers.
    s_count, k_count = across.shape[:2]
    if not s_count * k_count:
        return np.zeros(across.shape[:-1], np.result_type(across, reference))
    samples = across.reshape(s_count * k_count, -1, 3)
    faces = np.broadcast_to(reference, (s_count, k_count, 3)).reshape(s_count * k_count, 1, 3)
    squared = None
    for channel in range(3):
        d = samples[:, :, channel] - faces[:, :, channel]
        d *= d
        squared = d if squared is None else squared + d
    return np.sqrt(squared, out=squared).reshape(across.shape[:-1])


FACINGS = ("near", "far", "oblique")


def facing_classes(facing: np.ndarray) -> np.ndarray:
    """Side facing (+1 towards the camera, −1 away, 0 neither) → index into FACINGS."""
    return np.where(facing > 0, 0, np.where(facing < 0, 1, 2))


def offset_samples(crossings: dict[int, list[float]], kind: str = "outline") -> dict[str, list[np.ndarray]]:
    """Calibration samples of where outlines cross, per facing class, as profile classes
    "outline:near" etc. (first feature; the others zero). An outline is not drawn exactly on the
    geometry's edge: a bevel, blur or a face painted over its neighbour's edge moves it by a pixel
    or so, the same way for every piece seen from the same side; the profile keeps that offset with
    the colours, so it follows the calibration wherever the profile goes. Another `kind` of face
    (e.g. "outline:pawn" for pawns, whose own side faces show beyond some sides) keeps its own."""
    out: dict[str, list[np.ndarray]] = {}
    for index, values in crossings.items():
        for v in values:
            out.setdefault(f"{kind}:{FACINGS[index]}", []).append(np.array([v, 0.0, 0.0, 0.0, 0.0, 0.0]))
    return out


def outline_offsets(profile, facing: np.ndarray, kind: str = "outline") -> np.ndarray:
    """Expected outline offsets (px) for sides of the given facing, from the profile (0 where the
    profile has none)."""
    return offset_table(profile, kind, np.zeros(3, np.float32))[facing_classes(facing)]


def offset_table(profile, kind: str, missing: np.ndarray) -> np.ndarray:
    """(3,) the profile's outline offsets of a kind per FACINGS, `missing`'s where it has none."""
    table = np.array(missing, np.float32)
    for index, name in enumerate(FACINGS):
        if profile is not None and f"{kind}:{name}" in profile.names:
            table[index] = float(profile.classes[f"{kind}:{name}"].mean[0])
    return table
