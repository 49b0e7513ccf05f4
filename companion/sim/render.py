"""Render a TableScene as the camera sees it.

Flat things on the table (the table, the mat, board surfaces and what is printed on them) are drawn
first, then the shadows they receive, then every visible face of every box, far to near (painter's
order by the distance of the face's centre from the camera), then the hand. The drawing is done with
an ideal pinhole; lens distortion, light, blur, sensor noise and JPEG follow as image operations.
Deterministic: the same scene, camera and seed give the same pixels.

Edges are anti-aliased by supersampling: polygons are filled without anti-aliasing on a canvas
SUPERSAMPLE times finer and averaged down (pixel area coverage). OpenCV's own LINE_AA fill paints
about 0.75 px beyond every outline, and its plain fill takes every pixel an outline touches (half a
pixel beyond); a convex face is therefore inset by half a fine pixel before it is filled, so every
face covers its true area.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .camera import CameraModel, region_to_world
from .scene import BGR, Box, Hand, Mark, RegionScene, TableScene

_SHIFT = 4  # sub-pixel bits for the fill functions
_SCALE = 1 << _SHIFT
SUPERSAMPLE = 4  # fine canvas pixels per image pixel, on each axis
_SIDES = (  # (corner indices of the side quad at z0/z1, outward normal in the region frame)
    ((0, 1), (0.0, -1.0)),
    ((1, 2), (1.0, 0.0)),
    ((2, 3), (0.0, 1.0)),
    ((3, 0), (-1.0, 0.0)),
)


def render(scene: TableScene, camera: CameraModel, seed: int = 0) -> np.ndarray:
    """The camera image (BGR uint8, camera.height × camera.width) of a scene."""
    rng = np.random.default_rng(seed)
    size = (camera.width, camera.height)
    canvas = _blank(camera.height * SUPERSAMPLE, camera.width * SUPERSAMPLE, scene.table_colour)
    for mark in scene.table_marks:
        _fill(canvas, camera, _mark_points(mark, 0.0, 0.0, 0.0, (0.0, 0.0), 0.0), mark.colour)
    for region in scene.regions:
        _draw_surface(canvas, camera, region)
    for mark in scene.mat_marks:
        _fill(canvas, camera, _mark_points(mark, 0.0, 0.0, 0.0, (0.0, 0.0), 0.0), mark.colour)
    # Shadows are soft (blurred by several pixels): they are laid on the flat picture at image
    # resolution, which is then brought back to the fine canvas for the pieces to be drawn over.
    flat = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA)
    if _draw_shadows(flat, camera, scene):
        canvas = cv2.resize(flat, canvas.shape[1::-1], interpolation=cv2.INTER_NEAREST)
    for region, box in _occlusion_order(scene, camera):
        for polygon, colour, marks in _box_faces(box, region, camera, scene.lighting):
            _fill(canvas, camera, polygon, colour)
            for mark_polygon, mark_colour in marks:
                _fill(canvas, camera, mark_polygon, mark_colour, convex=False)
    if scene.hand is not None:
        _draw_hand(canvas, camera, scene.hand)
    return _finish(cv2.resize(canvas, size, interpolation=cv2.INTER_AREA), camera, scene, rng)


# --- geometry helpers ---------------------------------------------------------------------------

def _blank(height: int, width: int, colour: BGR) -> np.ndarray:
    canvas = np.empty((height, width, 3), np.uint8)
    # Row by row: numpy broadcasts a 3-vector over a large image about thirty times slower.
    canvas.reshape(height, width * 3)[:] = np.tile(np.asarray(colour, np.uint8), width)
    return canvas


def _fill(canvas: np.ndarray, camera: CameraModel, world: np.ndarray, colour: BGR, convex: bool = True) -> None:
    """Fill a world polygon on the fine canvas."""
    # Fine pixel k of image pixel i has its centre at i - 1/2 + (k + 1/2) / SUPERSAMPLE.
    fine = (camera.project_ideal(world) + 0.5) * SUPERSAMPLE - 0.5
    colour = tuple(int(c) for c in colour)
    if convex:
        fine = _inset_half_pixel(fine)
        cv2.fillConvexPoly(canvas, np.round(fine * _SCALE).astype(np.int32), colour, shift=_SHIFT)
    else:
        cv2.fillPoly(canvas, [np.round(fine * _SCALE).astype(np.int32)], colour, shift=_SHIFT)


def _inset_half_pixel(points: np.ndarray) -> np.ndarray:
    """A convex polygon moved half a fine pixel inwards on every side (the plain fill takes every
    pixel its outline touches). A sliver too thin for it, or a corner too sharp, is left as it was."""
    pts = points[np.any(np.diff(points, axis=0, append=points[:1]) != 0.0, axis=1)]
    if len(pts) < 3:
        return points
    edges = np.roll(pts, -1, axis=0) - pts
    area2 = float(np.sum(pts[:, 0] * np.roll(pts[:, 1], -1) - np.roll(pts[:, 0], -1) * pts[:, 1]))
    if area2 == 0.0:
        return points
    lengths = np.linalg.norm(edges, axis=1)
    # Inward normal of each edge: the polygon's interior lies on its left when area2 > 0.
    normals = np.column_stack([-edges[:, 1], edges[:, 0]]) / lengths[:, None] * np.sign(area2)
    prev_n, next_n = np.roll(normals, 1, axis=0), normals
    # Vertex i lies on edges i-1 and i; moving it by v with v·n = 1/2 for both keeps both offsets.
    cos = np.sum(prev_n * next_n, axis=1)
    if np.any(cos < -0.5):
        return points
    shift = 0.5 * (prev_n + next_n) / (1.0 + cos)[:, None]
    inset = pts + shift
    new_area2 = float(np.sum(inset[:, 0] * np.roll(inset[:, 1], -1) - np.roll(inset[:, 0], -1) * inset[:, 1]))
    return inset if new_area2 * area2 > 0.0 and abs(new_area2) < abs(area2) else points


def _mark_points(mark: Mark, x0: float, y0: float, z: float, origin, rotation: float) -> np.ndarray:
    pts = np.array([(x0 + x, y0 + y, z) for x, y in mark.polygon], dtype=np.float64)
    return region_to_world(pts, origin, rotation)


def _draw_surface(canvas: np.ndarray, camera: CameraModel, region: RegionScene) -> None:
    m, spec = region.margin_mm, region.spec
    corners = np.array(
        [(-m, -m, 0.0), (spec.width_mm + m, -m, 0.0), (spec.width_mm + m, spec.height_mm + m, 0.0),
         (-m, spec.height_mm + m, 0.0)]
    )
    _fill(canvas, camera, region_to_world(corners, region.origin_mm, region.rotation_deg), region.surface)
    for mark in region.surface_marks:
        pts = _mark_points(mark, 0.0, 0.0, 0.0, region.origin_mm, region.rotation_deg)
        _fill(canvas, camera, pts, mark.colour, convex=False)


def _corners(box: Box, z: float) -> np.ndarray:
    return np.array([(box.x0, box.y0, z), (box.x1, box.y0, z), (box.x1, box.y1, z), (box.x0, box.y1, z)])


def _box_faces(box: Box, region: RegionScene, camera: CameraModel, light):
    """Visible faces of a box as (world polygon, colour, marks); they never overlap each other."""
    to_world = lambda pts: region_to_world(pts, region.origin_mm, region.rotation_deg)  # noqa: E731
    eye = camera.position
    faces = []
    top = to_world(_corners(box, box.z1))
    if eye[2] > box.z1:
        marks = [
            (_mark_points(m, box.x0, box.y0, box.z1, region.origin_mm, region.rotation_deg), m.colour)
            for m in box.marks
        ]
        faces.append((top, box.top, marks))
    if box.z1 <= box.z0:
        return faces
    bottom = to_world(_corners(box, box.z0))
    rot = math.radians(region.rotation_deg)
    light_dir = np.array(light.shadow_direction, dtype=np.float64)
    light_norm = light_dir / (np.linalg.norm(light_dir) or 1.0)
    for (a, b), (nx, ny) in _SIDES:
        normal = np.array([math.cos(rot) * nx - math.sin(rot) * ny, math.sin(rot) * nx + math.cos(rot) * ny])
        quad = np.array([bottom[a], bottom[b], top[b], top[a]])
        centre = quad.mean(axis=0)
        if float(normal @ (eye[:2] - centre[:2])) <= 0.0:
            continue  # facing away from the camera
        # Sides facing away from the light's direction of travel are lit; the others darker.
        shade = light.side_shading * (1.0 - 0.2 * float(normal @ light_norm))
        colour = tuple(min(255, int(c * shade)) for c in box.side)
        faces.append((quad, colour, []))
    return faces


def _occlusion_order(scene: TableScene, camera: CameraModel) -> list[tuple[RegionScene, Box]]:
    """Boxes far to near. Two disjoint boxes always have an axis plane between them; the one on the
    camera's side of that plane can never be hidden by the other, so it is drawn later. That is
    exact for boxes, where sorting faces by their centres' distance is not (a tall pillar's front
    would be drawn over the tile it carries)."""
    items = [(region, box) for region in scene.regions for box in region.boxes]
    n = len(items)
    eyes = {}
    for region in scene.regions:
        a = math.radians(region.rotation_deg)
        rel = camera.position[:2] - np.asarray(region.origin_mm)
        eyes[id(region)] = (math.cos(a) * rel[0] + math.sin(a) * rel[1],
                            -math.sin(a) * rel[0] + math.cos(a) * rel[1], camera.position[2])
    centres = [region_to_world(np.array([[(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2, (b.z0 + b.z1) / 2]]),
                               r.origin_mm, r.rotation_deg)[0] for r, b in items]
    distance = [float(np.linalg.norm(c - camera.position)) for c in centres]
    bounds, outlines = [], []
    for region, box in items:
        corners = np.vstack([_corners(box, box.z0), _corners(box, box.z1)])
        uv = camera.project_ideal(region_to_world(corners, region.origin_mm, region.rotation_deg))
        bounds.append((*uv.min(axis=0), *uv.max(axis=0)))
        outlines.append(cv2.convexHull(uv.astype(np.float32)))  # a box's whole image
    later: list[set[int]] = [set() for _ in range(n)]  # later[i]: boxes to draw after i
    indegree = [0] * n
    for i in range(n):
        for j in range(i + 1, n):
            bi, bj = bounds[i], bounds[j]
            if bi[2] < bj[0] or bj[2] < bi[0] or bi[3] < bj[1] or bj[3] < bi[1]:
                continue  # apart in the image: their order does not matter (and must not make cycles)
            if cv2.intersectConvexConvex(outlines[i], outlines[j])[0] <= 1e-6:
                # Only their bounding rectangles meet: an order between them is not needed, and
                # one chosen anyway can close a cycle that puts a piece under its own tile.
                continue
            order = _pair_order(items[i], items[j], eyes, distance[i], distance[j])
            first, second = (i, j) if order else (j, i)
            later[first].add(second)
            indegree[second] += 1
    remaining = set(range(n))
    result = []
    while remaining:
        ready = [k for k in remaining if indegree[k] == 0]
        # Farthest first among the free ones; a cycle (never seen with boxes on a grid) is broken
        # by the same rule.
        pick = max(ready or remaining, key=lambda k: distance[k])
        remaining.discard(pick)
        result.append(items[pick])
        for k in later[pick]:
            indegree[k] -= 1
    return result


def _pair_order(a, b, eyes, dist_a: float, dist_b: float) -> bool:
    """True when box a must be drawn before box b."""
    (ra, ba), (rb, bb) = a, b
    if ra is not rb:
        return dist_a >= dist_b
    ex, ey, ez = eyes[id(ra)]
    for lo_a, hi_a, lo_b, hi_b, eye in (
        (ba.z0, ba.z1, bb.z0, bb.z1, ez),
        (ba.x0, ba.x1, bb.x0, bb.x1, ex),
        (ba.y0, ba.y1, bb.y0, bb.y1, ey),
    ):
        if hi_a <= lo_b:  # a on the low side of the plane at hi_a
            return eye >= hi_a
        if hi_b <= lo_a:
            return eye < hi_b
    return dist_a >= dist_b


def _draw_shadows(canvas: np.ndarray, camera: CameraModel, scene: TableScene) -> bool:
    """Darken the (image-resolution) canvas where pieces and the hand cast shadows; True if any."""
    light = scene.lighting
    if light.shadow_strength <= 0.0:
        return False
    mask = np.zeros(canvas.shape[:2], np.uint8)
    dx, dy = light.shadow_direction
    for region in scene.regions:
        for box in region.boxes:
            if not box.casts_shadow or box.z1 <= 0.0:
                continue
            foot = region_to_world(_corners(box, 0.0), region.origin_mm, region.rotation_deg)
            cast = foot + np.array([dx * box.z1, dy * box.z1, 0.0])
            hull = cv2.convexHull(np.round(camera.project_ideal(np.vstack([foot, cast])) * _SCALE).astype(np.int32))
            cv2.fillConvexPoly(mask, hull, 255, lineType=cv2.LINE_AA, shift=_SHIFT)
    if scene.hand is not None:
        outline = _hand_outline(scene.hand)
        cast = outline + np.column_stack([dx * outline[:, 2], dy * outline[:, 2], -outline[:, 2]])
        hull = cv2.convexHull(np.round(camera.project_ideal(cast) * _SCALE).astype(np.int32))
        cv2.fillConvexPoly(mask, hull, 255, lineType=cv2.LINE_AA, shift=_SHIFT)
    if not mask.any():
        return False
    soft = cv2.GaussianBlur(mask, (0, 0), 3.0).astype(np.float32) / 255.0
    factor = 1.0 - light.shadow_strength * soft
    canvas[:] = np.clip(canvas.astype(np.float32) * factor[..., None], 0, 255).astype(np.uint8)
    return True


def _hand_outline(hand: Hand) -> np.ndarray:
    """The arm as a 3-D polygon: a forearm band from the entry point ending in a rounded palm."""
    tip, entry = np.asarray(hand.tip, float), np.asarray(hand.entry, float)
    axis = tip[:2] - entry[:2]
    axis /= np.linalg.norm(axis) or 1.0
    across = np.array([-axis[1], axis[0]])
    half = hand.width_mm / 2.0
    pts = [np.r_[entry[:2] + across * half * 0.8, entry[2]]]
    # Palm: a half disc around the tip, a little wider than the forearm.
    for angle in np.linspace(-math.pi / 2, math.pi / 2, 9):
        direction = axis * math.cos(angle) + across * math.sin(angle)
        pts.append(np.r_[tip[:2] + direction * half * 1.1, tip[2]])
    pts.append(np.r_[entry[:2] - across * half * 0.8, entry[2]])
    return np.array(pts[::-1])


def _draw_hand(canvas: np.ndarray, camera: CameraModel, hand: Hand) -> None:
    _fill(canvas, camera, _hand_outline(hand), hand.colour, convex=False)


def _finish(canvas: np.ndarray, camera: CameraModel, scene: TableScene, rng) -> np.ndarray:
    light, imaging = scene.lighting, scene.imaging
    h, w = canvas.shape[:2]
    gx, gy = light.gradient
    ramp_x = np.linspace(-1.0, 1.0, w, dtype=np.float32) * gx
    ramp_y = np.linspace(-1.0, 1.0, h, dtype=np.float32) * gy
    gain = light.gain * (1.0 + ramp_y[:, None] + ramp_x[None, :])
    image = canvas.astype(np.float32) * gain[..., None] * np.asarray(light.colour_gains, np.float32)
    map_x, map_y = camera.distortion_maps
    image = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if imaging.blur_sigma > 0.0:
        image = cv2.GaussianBlur(image, (0, 0), imaging.blur_sigma)
    if imaging.noise_sigma > 0.0:
        image += rng.normal(0.0, imaging.noise_sigma, image.shape).astype(np.float32)
    out = np.clip(image, 0, 255).astype(np.uint8)
    if imaging.jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(imaging.jpeg_quality)])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out
