"""Compiled loop of the Baubylon light fit (baubylon_light): how well each tilt of the plane agrees
with the ring's places. A few hundred tilts × ~150 places a read: in numpy, (tilts, places)
temporaries for each step; compiled, one pass without them (the same numbers)."""

from __future__ import annotations

import numpy as np

from ..jit import kernel


@kernel
def tilt_scores(brightness, dx, dy, unhidden, level, tx, ty, tolerance, above, penalty):
    """(k,) per tilt (tx[i], ty[i]): the places (n,) whose `brightness` is within `tolerance` of the
    plane level + tx·dx + ty·dy (relative; the plane at least 1e-3), less `penalty` per unhidden
    place more than `above` brighter than it. float64 arrays (n,) and (k,); `unhidden` bool (n,)."""
    count = tx.shape[0]
    out = np.empty(count)
    for i in range(count):
        agree = 0
        over = 0
        for j in range(brightness.shape[0]):
            plane = level + tx[i] * dx[j] + ty[i] * dy[j]
            if plane < 1e-3:
                plane = 1e-3
            relative = brightness[j] / plane
            if abs(relative - 1.0) < tolerance:
                agree += 1
            if unhidden[j] and relative > 1.0 + above:
                over += 1
        out[i] = agree - penalty * over
    return out


_F32_TINY_BGR = np.float32(1e-3)  # np.maximum(float32 colours, 1e-3): the weak scalar as float32
_F32_TINY = np.float32(1e-6)
_F32_THREE = np.float32(3.0)
_F32_HALF = np.float32(0.5)


@kernel
def _nan_max3(a, b, c):
    """max of three (numpy's .max over a last axis of 3: NaN if any is)."""
    if a != a or b != b or c != c:
        return a + b + c  # (NaN)
    best = a if a >= b else b
    return best if best >= c else c


@kernel
def _sorted(values, count):
    """values[:count] sorted, NaN last (np.sort's values), by a bottom-up merge sort: a plain loop
    numba compiles in a fraction of the time its np.sort takes (a cold cache compiles it once
    per type)."""
    out = values[:count].copy()
    buffer = np.empty_like(out)
    width = 1
    while width < count:
        for start in range(0, count, 2 * width):
            middle = min(start + width, count)
            end = min(start + 2 * width, count)
            i, j, k = start, middle, start
            while i < middle and j < end:
                a, b = out[i], out[j]
                if b < a or (b == b and a != a):  # b first when smaller, or a is NaN and b is not
                    buffer[k] = b
                    j += 1
                else:
                    buffer[k] = a
                    i += 1
                k += 1
            while i < middle:
                buffer[k] = out[i]
                i += 1
                k += 1
            while j < end:
                buffer[k] = out[j]
                j += 1
                k += 1
        out, buffer = buffer, out
        width *= 2
    return out


@kernel
def _sorted_median(values, count, numpy_median):
    """The median of values[:count] (sorted: NaN last). `numpy_median`: np.median's (a NaN makes
    it NaN; the middle two's sum / 2; NaN for no values); else stack_sampling.small_median's (the
    middle value as sorted, or 0.5 · the middle two's sum, float32 when they are)."""
    if count == 0:
        return np.nan
    part = _sorted(values, count)
    if numpy_median and part[count - 1] != part[count - 1]:
        return part[count - 1]
    half = count // 2
    if count % 2:
        return part[half]
    if numpy_median:
        return (part[half - 1] + part[half]) / 2
    return _F32_HALF * (part[half - 1] + part[half])


@kernel
def ring_places(seen, seen_bgr, known, known_bgr, front_bgr, unhidden, near, least, ratio):
    """margin_light's places that may show the table (n,) bool: stack_sampling.not_in_front(seen,
    seen_bgr, known, known_bgr, front_bgr, unhidden, near, least) & (distance_to(seen, known) <
    near), float32 as numpy does it; and into `ratio` (n, 3) float64 each place's BGR over the
    table's (seen_bgr / np.maximum(known_bgr, 1e-3), a float32 quotient)."""
    n = seen.shape[0]
    near32 = np.float32(near)
    distance = np.empty(n, np.float32)
    reference = np.zeros(n, np.bool_)
    count = 0
    for j in range(n):
        d0 = seen[j, 0] - known[0]
        d1 = seen[j, 1] - known[1]
        d2 = seen[j, 2] - known[2]
        distance[j] = np.sqrt((d0 * d0 + d1 * d1) + d2 * d2)
        if unhidden[j] and distance[j] < near32:
            reference[j] = True
            count += 1
    surface_scale = np.empty(3, np.float32)
    front_scale = np.empty(3, np.float32)
    for c in range(3):
        surface_scale[c] = known_bgr[c] if known_bgr[c] >= _F32_TINY_BGR or known_bgr[c] != known_bgr[c] else _F32_TINY_BGR
        front_scale[c] = front_bgr[c] if front_bgr[c] >= _F32_TINY_BGR or front_bgr[c] != front_bgr[c] else _F32_TINY_BGR
    like = np.empty(n, np.bool_)
    for j in range(n):
        for c in range(3):
            ratio[j, c] = seen_bgr[j, c] / surface_scale[c]
    if count < least:  # not_in_front keeps every place
        for j in range(n):
            like[j] = distance[j] < near32
        return like
    as_surface = np.empty((n, 3), np.float32)
    as_front = np.empty((n, 3), np.float32)
    for j in range(n):
        for c in range(3):
            as_surface[j, c] = seen_bgr[j, c] / surface_scale[c]
            as_front[j, c] = seen_bgr[j, c] / front_scale[c]
        mean = ((as_surface[j, 0] + as_surface[j, 1]) + as_surface[j, 2]) / _F32_THREE
        if not (mean >= _F32_TINY or mean != mean):
            mean = _F32_TINY
        mean_front = ((as_front[j, 0] + as_front[j, 1]) + as_front[j, 2]) / _F32_THREE
        if not (mean_front >= _F32_TINY or mean_front != mean_front):
            mean_front = _F32_TINY
        for c in range(3):
            as_surface[j, c] = as_surface[j, c] / mean
            as_front[j, c] = as_front[j, c] / mean_front
    light = np.empty(3, np.float32)
    column = np.empty(count, np.float32)
    for c in range(3):
        k = 0
        for j in range(n):
            if reference[j]:
                column[k] = as_surface[j, c]
                k += 1
        light[c] = _sorted_median(column, count, False)
    for j in range(n):
        s = _nan_max3(abs(as_surface[j, 0] - light[0]), abs(as_surface[j, 1] - light[1]),
                      abs(as_surface[j, 2] - light[2]))
        f = _nan_max3(abs(as_front[j, 0] - light[0]), abs(as_front[j, 1] - light[1]),
                      abs(as_front[j, 2] - light[2]))
        like[j] = (unhidden[j] or s < f) and distance[j] < near32
    return like


@kernel
def light_pin(ratio, design, like, unhidden, hue, pin_band, least, least_unhidden):
    """baubylon_light.lit_table_plane up to its tilt search, float64 as numpy does it: each place's
    brightness (the three channels' sum / 3), the places of the light's hue (`same`), the pin (the
    mean x, y of the brightest unhidden places) and the level there. Returns (ok, level, pin (2,),
    same's brightness (m,), design rows (m, 3), ratio rows (m, 3), unhidden (m,)); ok False where
    lit_table_plane returns None before its tilt search."""
    n = ratio.shape[0]
    brightness = np.empty(n)
    shape = np.empty((n, 3))
    reference = 0
    for j in range(n):
        b = ((ratio[j, 0] + ratio[j, 1]) + ratio[j, 2]) / 3.0
        brightness[j] = b
        scale = b if b >= 1e-6 or b != b else 1e-6
        for c in range(3):
            shape[j, c] = ratio[j, c] / scale
        if like[j] and unhidden[j]:
            reference += 1
    nothing = np.zeros(0)
    if reference < least_unhidden:
        return False, 0.0, np.zeros(2), nothing, np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, np.bool_)
    light = np.empty(3)
    column = np.empty(reference)
    for c in range(3):
        k = 0
        for j in range(n):
            if like[j] and unhidden[j]:
                column[k] = shape[j, c]
                k += 1
        light[c] = _sorted_median(column, reference, True)
    same = np.zeros(n, np.bool_)
    count = 0
    near = 0
    for j in range(n):
        if like[j]:
            off = _nan_max3(abs(shape[j, 0] - light[0]), abs(shape[j, 1] - light[1]), abs(shape[j, 2] - light[2]))
            if off < hue:
                same[j] = True
                count += 1
                if unhidden[j]:
                    near += 1
    if count < least or near < least_unhidden:
        return False, 0.0, np.zeros(2), nothing, np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, np.bool_)
    near_brightness = np.empty(near)
    k = 0
    for j in range(n):
        if same[j] and unhidden[j]:
            near_brightness[k] = brightness[j]
            k += 1
    top = _sorted(near_brightness, near)[near - 2]  # np.partition(.., -2)[-2]: the second brightest
    pin = np.zeros(2)
    lit = np.empty(near)
    lit_count = 0
    k = 0
    for j in range(n):
        if same[j] and unhidden[j]:
            if abs(near_brightness[k] / top - 1.0) < pin_band:
                if lit_count == 0:  # np.add.reduce along the rows: the first, then the others in order
                    pin[0], pin[1] = design[j, 1], design[j, 2]
                else:
                    pin[0] += design[j, 1]
                    pin[1] += design[j, 2]
                lit[lit_count] = near_brightness[k]
                lit_count += 1
            k += 1
    pin[0] = pin[0] / lit_count
    pin[1] = pin[1] / lit_count
    level = _sorted_median(lit, lit_count, True)
    b_same = np.empty(count)
    rows = np.empty((count, 3))
    ratios = np.empty((count, 3))
    open_ = np.empty(count, np.bool_)
    k = 0
    for j in range(n):
        if same[j]:
            b_same[k] = brightness[j]
            for c in range(3):
                rows[k, c] = design[j, c]
                ratios[k, c] = ratio[j, c]
            open_[k] = unhidden[j]
            k += 1
    return True, level, pin, b_same, rows, ratios, open_


@kernel
def best_tilt(brightness, design, pin, unhidden, level, steps, centre_x, centre_y, reach, bounded,
              tolerance, above, penalty):
    """baubylon_light._best_tilt over the places (brightness (m,), design rows (m, 3) and the pin
    (2,): their x, y from the pin as design[:, 1:] - pin): every (x, y) of centre + `steps` (each
    within ±`reach` when `bounded`) in meshgrid(xs, ys, indexing="ij")'s raveled order, scored as
    tilt_scores does; the first best. Returns (x, y)."""
    m = brightness.shape[0]
    dx = np.empty(m)
    dy = np.empty(m)
    for j in range(m):
        dx[j] = design[j, 1] - pin[0]
        dy[j] = design[j, 2] - pin[1]
    limit = reach + 1e-9
    best = -np.inf
    best_x, best_y = np.nan, np.nan
    found = False
    for i in range(steps.shape[0]):
        tx = centre_x + steps[i]
        if bounded and not abs(tx) <= limit:
            continue
        for k in range(steps.shape[0]):
            ty = centre_y + steps[k]
            if bounded and not abs(ty) <= limit:
                continue
            agree = 0
            over = 0
            for j in range(m):
                plane = level + tx * dx[j] + ty * dy[j]
                if plane < 1e-3:
                    plane = 1e-3
                relative = brightness[j] / plane
                if abs(relative - 1.0) < tolerance:
                    agree += 1
                if unhidden[j] and relative > 1.0 + above:
                    over += 1
            score = agree - penalty * over
            if not found or score > best or (score != score and best == best):
                best, best_x, best_y, found = score, tx, ty, True
    return best_x, best_y
