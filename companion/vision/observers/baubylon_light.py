"""The light at read time round the Baubylon field: a plane through the lit table.

The table just outside the field is the white reference (how much brighter each channel looks
now than at calibration), measured on a ring of places round the field. Those places show three
things besides the lit table:
- shadows of the blocks, darker by 15-40 % and of the light's own hue (shadows only darken);
- on the sides the blocks may stand in front of (not `unhidden`), the blocks' faces: a lit face
  is brighter than the table, a shaded one may be as bright as it, and their hue differs from the
  table's by a few hundredths, no more;
- nothing brighter than the lit table at the unhidden places (the near side: nothing on the field
  stands in front of them).

A least-squares plane through all that is pulled down by the shadows and up by the faces, and
its tilt (which way the light falls off) can take the wrong sign: the far spaces were then read
~15-25 % off, and blocks there as bare table. So the plane is pinned where the light surely is,
at the brightest unhidden places, and tilted the way the most places agree with to within
`TOLERANCE`: the lit table lies on one plane, while shadows and faces scatter round it. The
places compared are of the light's hue within `HUE` (the unhidden places' median hue): most
block faces differ from it by more than that, most lit table does not.
"""

from __future__ import annotations

import numpy as np

from .baubylon_light_kernels import best_tilt, light_pin, ring_places, tilt_scores
from .stack_sampling import distance_to, lab_to_bgr, not_in_front

HUE = 0.03  # a place's hue (each channel over the three's mean) within this of the light's
PIN_BAND = 0.06  # the brightest unhidden places: within this of the second brightest
TOLERANCE = 0.04  # a place agrees with a plane within this (relative)
ABOVE = 0.06  # an unhidden place this much brighter than the plane says it is wrong
ABOVE_PENALTY = 3.0  # ...and counts against it as much as this many places agreeing
MOST_TILT = 0.3  # the light changes by at most this share per 640 px (the plane's x, y units)
COARSE, FINE = 0.06, 0.01  # the tilt's steps, first over the whole range, then round the best
_FINE_STEPS = np.arange(-COARSE, COARSE + 1e-9, FINE)  # (times the level: the fine steps)
_FRONT_LEAST = 5  # not_in_front's `least`


def margin_light(seen_lab: np.ndarray, known_lab: np.ndarray, known_bgr: np.ndarray, front_bgr: np.ndarray,
                 design: np.ndarray, unhidden: np.ndarray, near: float = 25.0) -> np.ndarray | None:
    """lit_table_plane of the ring's places (Lab (n, 3), 0..100 L), the table's calibrated colour
    `known_lab` (3,) (`known_bgr`: the same in BGR) and the blocks' `front_bgr` (3,) (what may stand
    in front of the places not `unhidden`): the places that may show the table are those within
    `near` ΔE of its colour, less the block faces stack_sampling's light fit drops too (compiled:
    baubylon_light_kernels.ring_places, stack_sampling.not_in_front's numbers)."""
    seen = np.ascontiguousarray(np.asarray(seen_lab, np.float32).reshape(-1, 3))
    known = np.ascontiguousarray(known_lab, np.float32)
    seen_bgr = lab_to_bgr(seen)
    unhidden = np.ascontiguousarray(unhidden, np.bool_)
    ratio = np.empty((len(seen), 3))
    like = ring_places(seen, seen_bgr, known, np.ascontiguousarray(known_bgr, np.float32),
                       np.ascontiguousarray(front_bgr, np.float32), unhidden, float(near), _FRONT_LEAST, ratio)
    return lit_table_plane(ratio, design, like, unhidden)


def margin_light_numpy(seen_lab: np.ndarray, known_lab: np.ndarray, known_bgr: np.ndarray, front_bgr: np.ndarray,
                       design: np.ndarray, unhidden: np.ndarray, near: float = 25.0) -> np.ndarray | None:
    """margin_light as numpy calls (the compiled one's reference: tests/vision/test_baubylon_speed_light_fit.py)."""
    seen = np.asarray(seen_lab, np.float32).reshape(-1, 3)
    known = np.asarray(known_lab, np.float32)
    seen_bgr = lab_to_bgr(seen)
    unhidden = np.asarray(unhidden, bool)
    like = not_in_front(seen, seen_bgr, known, known_bgr, front_bgr, unhidden, near) & (distance_to(seen, known) < near)
    return lit_table_plane_numpy(seen_bgr / np.maximum(known_bgr, 1e-3), design, like, unhidden)


def lit_table_plane(ratio: np.ndarray, design: np.ndarray, like: np.ndarray, unhidden: np.ndarray,
                    least: int = 12, least_unhidden: int = 5) -> np.ndarray | None:
    """lit_table_plane_numpy's plane, its numbers bit for bit: the places' brightness, hue, pin and
    level and the tilt search compiled (baubylon_light_kernels.light_pin, best_tilt: a few hundred
    tilts over ~150 places, and a few dozen numpy calls on them before), the plane's products and
    least-squares fits numpy's own (BLAS and LAPACK, whose order of operations a loop would not
    keep)."""
    ok, level, pin, b, rows, ratios, open_ = light_pin(
        np.ascontiguousarray(ratio, np.float64), np.ascontiguousarray(design, np.float64),
        np.ascontiguousarray(like, np.bool_), np.ascontiguousarray(unhidden, np.bool_), HUE, PIN_BAND, least,
        least_unhidden)
    if not ok:
        return None
    reach = MOST_TILT * level
    x, y = best_tilt(b, rows, pin, open_, level, np.arange(-reach, reach + 1e-9, COARSE * level), 0.0, 0.0, reach,
                     False, TOLERANCE, ABOVE, ABOVE_PENALTY)
    x, y = best_tilt(b, rows, pin, open_, level, _FINE_STEPS * level, x, y, reach, True, TOLERANCE, ABOVE,
                     ABOVE_PENALTY)
    tilt = np.array([x, y])
    plane = np.array([level - tilt @ pin, tilt[0], tilt[1]])
    agree = np.abs(b / np.maximum(rows @ plane, 1e-3) - 1.0) < TOLERANCE
    if np.count_nonzero(agree) < least:
        return None
    plane = np.linalg.lstsq(rows[agree], b[agree], rcond=None)[0]
    agree = np.abs(b / np.maximum(rows @ plane, 1e-3) - 1.0) < TOLERANCE
    if np.count_nonzero(agree) < least:
        return None
    return np.linalg.lstsq(rows[agree], ratios[agree], rcond=None)[0]


def lit_table_plane_numpy(ratio: np.ndarray, design: np.ndarray, like: np.ndarray, unhidden: np.ndarray,
                          least: int = 12, least_unhidden: int = 5) -> np.ndarray | None:
    """(3, 3) plane coefficients (as stack_sampling.surface_gain_field's: per channel a + b·x + c·y
    over plane_design's terms) of how much brighter the lit table looks now than at calibration,
    or None when the ring does not show enough lit table (fewer than `least` places of the
    light's hue, or `least_unhidden` of them unhidden).

    `ratio` (n, 3): each place's BGR over the table's calibrated BGR; `design` (n, 3):
    plane_design of the places' pixels; `like` (n,): the places that may show the table (near
    its colour, not a block's face); `unhidden` (n,): the places nothing can stand in front of."""
    ratio = np.asarray(ratio, np.float64)
    design = np.asarray(design, np.float64)
    like = np.asarray(like, bool)
    unhidden = np.asarray(unhidden, bool)
    brightness = ratio.sum(axis=1) / 3.0
    shape = ratio / np.maximum(brightness, 1e-6)[:, None]
    reference = like & unhidden
    if np.count_nonzero(reference) < least_unhidden:
        return None
    light_hue = _median(shape[reference])
    same = like & (np.abs(shape - light_hue).max(axis=1) < HUE)
    near = same & unhidden
    if np.count_nonzero(same) < least or np.count_nonzero(near) < least_unhidden:
        return None
    near_brightness = brightness[near]
    top = np.partition(near_brightness, -2)[-2]  # the second brightest: one odd place is not the light
    lit = np.abs(near_brightness / top - 1.0) < PIN_BAND
    lit_places = design[near][lit, 1:]
    pin = np.add.reduce(lit_places, axis=0) / len(lit_places)  # .mean(axis=0)'s numbers (its sum, then / count)
    level = float(_median(near_brightness[lit]))
    b, offsets, open_ = brightness[same], design[same, 1:] - pin, unhidden[same]
    reach = MOST_TILT * level
    tilt = _best_tilt(b, offsets, open_, level, np.arange(-reach, reach + 1e-9, COARSE * level))
    steps = np.arange(-COARSE, COARSE + 1e-9, FINE) * level
    tilt = _best_tilt(b, offsets, open_, level, steps, centre=tilt, reach=reach)
    plane = np.array([level - tilt @ pin, tilt[0], tilt[1]])
    agree = np.abs(b / np.maximum(design[same] @ plane, 1e-3) - 1.0) < TOLERANCE
    if np.count_nonzero(agree) < least:
        return None
    # The plane through the places that agree, then per channel through those that still do.
    plane = np.linalg.lstsq(design[same][agree], b[agree], rcond=None)[0]
    agree = np.abs(b / np.maximum(design[same] @ plane, 1e-3) - 1.0) < TOLERANCE
    if np.count_nonzero(agree) < least:
        return None
    return np.linalg.lstsq(design[same][agree], ratio[same][agree], rcond=None)[0]


def _best_tilt(brightness: np.ndarray, offsets: np.ndarray, unhidden: np.ndarray, level: float,
               steps: np.ndarray, centre: np.ndarray | None = None, reach: float | None = None) -> np.ndarray:
    """(2,) the plane's x, y tilt, among `centre` + every pair of `steps` (within ±`reach`), with
    which the most places agree (an unhidden place well above the plane counts against it).
    The plane is `level` at the pin; `offsets` (n, 2): the places' x, y from the pin."""
    centre = np.zeros(2) if centre is None else centre
    xs, ys = centre[0] + steps, centre[1] + steps
    if reach is not None:
        xs, ys = xs[np.abs(xs) <= reach + 1e-9], ys[np.abs(ys) <= reach + 1e-9]
    tx, ty = np.repeat(xs, len(ys)), np.tile(ys, len(xs))  # meshgrid(xs, ys, indexing="ij"), raveled
    score = tilt_scores(np.ascontiguousarray(brightness, np.float64), np.ascontiguousarray(offsets[:, 0]),
                        np.ascontiguousarray(offsets[:, 1]), np.ascontiguousarray(unhidden, np.bool_), float(level),
                        tx, ty, TOLERANCE, ABOVE, ABOVE_PENALTY)
    best = int(np.argmax(score))  # the first of the best, as numpy's
    return np.array([tx[best], ty[best]])


def _median(values: np.ndarray) -> np.ndarray:
    """np.median(values, axis=0)'s numbers (the middle value, or the middle two's sum halved; NaN
    where a column has one), without its Python layers, which cost more than the few values."""
    count = len(values)
    if count == 0:
        return np.median(values, axis=0)
    half = count // 2
    kth = [half - 1, half, count - 1] if count % 2 == 0 else [half, count - 1]
    part = np.partition(values, kth, axis=0)  # (NaN sorts last: the last says whether there is one)
    middle = part[half] if count % 2 else (part[half - 1] + part[half]) / 2
    return np.where(np.isnan(part[-1]), np.nan, middle)


_WARM = False


def warm() -> None:
    """Compile (or load from the disk cache) the light fit's loop on tiny inputs of the types a
    read passes, so the live loop's first read does not pay it. Once per process."""
    global _WARM
    if not _WARM:
        one = np.ones(1)
        tilt_scores(one, one, one, np.ones(1, np.bool_), 1.0, one, one, TOLERANCE, ABOVE, ABOVE_PENALTY)
        f32 = np.ones((1, 3), np.float32)
        ring_places(f32, f32, f32[0], f32[0], f32[0], np.ones(1, np.bool_), 25.0, _FRONT_LEAST, np.empty((1, 3)))
        ok, level, pin, b, rows, ratios, open_ = light_pin(np.ones((1, 3)), np.ones((1, 3)), np.ones(1, np.bool_),
                                                           np.ones(1, np.bool_), HUE, PIN_BAND, 12, 5)
        best_tilt(one, np.ones((1, 3)), np.zeros(2), np.ones(1, np.bool_), 1.0, one, 0.0, 0.0, 1.0, True,
                  TOLERANCE, ABOVE, ABOVE_PENALTY)
        _WARM = True
