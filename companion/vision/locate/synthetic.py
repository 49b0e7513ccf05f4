"""Synthetic camera views of boards for the locator's tests and benchmarks (not used at run time).

A scene is drawn top-down as a page (the board seen from above, boards.board_to_page: a game
board's row 0 along the bottom, markers upright), then seen through a pinhole camera at a given
tilt and turn: wood with grain, grid lines, stones with shading, mat markers, a lighting gradient
and sensor noise. The true pose is returned with the picture so tests can measure errors; points
are given in the board frame of boards.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .. import mat
from ..boards import BoardSpec, board_to_page


@dataclass(frozen=True)
class View:
    image: np.ndarray  # BGR
    homography: np.ndarray  # true board mm → px at level 0
    camera_matrix: np.ndarray
    rotation: np.ndarray  # page frame (x right, y down seen from above, z into the table) → camera
    translation: np.ndarray
    to_page: np.ndarray = field(default_factory=lambda: np.eye(3))  # board mm → page mm

    def project(self, points_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Image pixels of board points (board frame, N×2 mm) at a height above the board."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        pts = _apply(self.to_page, pts)
        world = np.column_stack([pts, np.full(len(pts), -height_mm)])
        cam = world @ self.rotation.T + self.translation
        uvw = cam @ self.camera_matrix.T
        return uvw[:, :2] / uvw[:, 2:3]

    def camera_xy(self) -> tuple[float, float]:
        """The board point straight below the camera (board frame, mm)."""
        centre = -self.rotation.T @ self.translation  # in the page frame
        x, y = _apply(np.linalg.inv(self.to_page), centre[None, :2])[0]
        return float(x), float(y)


def _apply(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    homog = np.column_stack([points, np.ones(len(points))]) @ h.T
    return homog[:, :2] / homog[:, 2:3]


def look_at_pose(
    centre_mm: tuple[float, float], distance_mm: float, tilt_deg: float, turn_deg: float
) -> tuple[np.ndarray, np.ndarray]:
    """A camera `distance_mm` from the board point `centre_mm`, tilted from straight-down by
    `tilt_deg` and turned about the vertical by `turn_deg`; returns (R, t) board → camera."""
    tilt, turn = np.radians(tilt_deg), np.radians(turn_deg)
    rz = np.array([[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    rotation = rx @ rz
    centre = np.array([centre_mm[0], centre_mm[1], 0.0])
    translation = np.array([0.0, 0.0, distance_mm]) - rotation @ centre
    return rotation, translation


def camera_matrix(width: int, height: int, focal_per_width: float = 0.8) -> np.ndarray:
    f = focal_per_width * width
    return np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]], dtype=np.float64)


def render_view(
    canvas: np.ndarray,
    canvas_origin_mm: tuple[float, float],
    px_per_mm: float,
    rotation: np.ndarray,
    translation: np.ndarray,
    k: np.ndarray,
    size: tuple[int, int],
    background: tuple[int, int, int] = (70, 75, 80),
) -> View:
    """Warp a top-down canvas (pixel = (x - x0, y - y0) · px_per_mm) into the camera image."""
    h_mm = k @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    h_mm = h_mm / h_mm[2, 2]
    x0, y0 = canvas_origin_mm
    canvas_to_mm = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]])
    image = cv2.warpPerspective(
        canvas, h_mm @ canvas_to_mm, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
        borderValue=background,
    )
    return View(image, h_mm, k, rotation, translation)


def wood_canvas(width_px: int, height_px: int, rng: np.random.Generator, tone=(95, 160, 205)) -> np.ndarray:
    """A light wood surface with grain streaks (BGR)."""
    grain = rng.normal(0, 1, (height_px // 4 + 1, 1)).repeat(width_px // 4 + 1, axis=1)
    grain = cv2.GaussianBlur(grain.astype(np.float32), (0, 0), 2.0)
    grain = cv2.resize(grain, (width_px, height_px))
    canvas = np.empty((height_px, width_px, 3), np.float32)
    for ch, value in enumerate(tone):
        canvas[..., ch] = value + 12 * grain
    return np.clip(canvas, 0, 255).astype(np.uint8)


def draw_go_board(
    spec: BoardSpec,
    stones: dict[tuple[int, int], str],
    rng: np.random.Generator,
    px_per_mm: float = 3.0,
    margin_mm: float = 15.0,
    with_markers: bool = False,
    wood: tuple[int, int, int] = (95, 160, 205),
) -> tuple[np.ndarray, tuple[float, float]]:
    """Top-down canvas of a line grid with stones ("B"/"W" at (row, col) points or cells).

    Returns the canvas and the page-mm position of its top-left pixel (the page: the board seen
    from above, boards.board_to_page).
    """
    to_page = board_to_page(spec)
    if with_markers:
        x0, y0, x1, y1 = mat.mat_extent_mm(spec)
        x0, y0, x1, y1 = x0 - 5, y0 - 5, x1 + 5, y1 + 5
    else:
        x0, y0 = -margin_mm, -margin_mm
        x1, y1 = spec.width_mm + margin_mm, spec.height_mm + margin_mm
    s = px_per_mm
    w_px, h_px = int(round((x1 - x0) * s)), int(round((y1 - y0) * s))
    canvas = wood_canvas(w_px, h_px, rng, wood)

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:
        return int(round((x_mm - x0) * s * 16)), int(round((y_mm - y0) * s * 16))  # 4 fractional bits

    n_vertical = spec.cols if spec.on_points else spec.cols + 1
    n_horizontal = spec.rows if spec.on_points else spec.rows + 1
    line_colour = (30, 40, 45)
    thickness = max(1, int(round(0.6 * s)))
    for i in range(n_vertical):
        x = i * spec.cell_mm
        cv2.line(canvas, px(x, 0), px(x, spec.height_mm), line_colour, thickness, cv2.LINE_AA, 4)
    for j in range(n_horizontal):
        y = j * spec.cell_mm
        cv2.line(canvas, px(0, y), px(spec.width_mm, y), line_colour, thickness, cv2.LINE_AA, 4)
    # A Go board's outer line is drawn heavier, and its star points are dots on the lines.
    cv2.rectangle(canvas, px(0, 0), px(spec.width_mm, spec.height_mm), line_colour, 2 * thickness, cv2.LINE_AA, 4)
    if spec.on_points:
        for row, col in star_points(spec.rows, spec.cols):
            cx, cy = _apply(to_page, np.array([spec.cell_centre(row, col)]))[0]
            cv2.circle(canvas, px(cx, cy), int(round(0.1 * spec.cell_mm * s * 16)), line_colour, -1, cv2.LINE_AA, 4)
    radius = 0.47 * spec.cell_mm
    for (row, col), colour in stones.items():
        cx, cy = _apply(to_page, np.array([spec.cell_centre(row, col)]))[0]
        _draw_stone(canvas, ((cx - x0) * s, (cy - y0) * s), radius * s, colour == "B")
    if with_markers:
        for placement in mat.marker_layout(spec):
            # Upright on the page, where the layout puts its centre.
            centre = _apply(to_page, np.array([placement.centre_mm]))[0]
            half = placement.size_mm / 2
            corners = (np.array([centre - half, centre + (half, -half), centre + half, centre + (-half, half)])
                       - (x0, y0)) * s
            qx0, qy0 = (corners[0] - mat.QUIET_MM * s).astype(int)
            qx1, qy1 = (corners[2] + mat.QUIET_MM * s).astype(int)
            cv2.rectangle(canvas, (qx0, qy0), (qx1, qy1), (245, 245, 245), -1)
            side = int(round(placement.size_mm * s))
            marker = cv2.cvtColor(mat.marker_image(placement.marker_id, side), cv2.COLOR_GRAY2BGR)
            ix, iy = int(round(corners[0][0])), int(round(corners[0][1]))
            canvas[iy : iy + side, ix : ix + side] = marker
    return canvas, (x0, y0)


def star_points(rows: int, cols: int) -> list[tuple[int, int]]:
    """The usual hoshi: 4-4 points (3-3 on boards under 13), the sides and the centre on 19×19."""
    if min(rows, cols) < 7:
        return []
    edge = 3 if min(rows, cols) >= 13 else 2
    rs, cs = [edge, rows - 1 - edge], [edge, cols - 1 - edge]
    if rows % 2 and cols % 2:
        mids_r, mids_c = ([rows // 2], [cols // 2])
        points = [(r, c) for r in rs for c in cs] + [(rows // 2, cols // 2)]
        if min(rows, cols) >= 19:
            points += [(r, c) for r in rs for c in mids_c] + [(r, c) for r in mids_r for c in cs]
        return points
    return [(r, c) for r in rs for c in cs]


def _draw_stone(canvas: np.ndarray, centre: tuple[float, float], radius: float, dark: bool) -> None:
    """A stone lit from the top left: a radial highlight, a darker rim and a soft shadow."""
    cx, cy = centre
    r = int(np.ceil(radius)) + 3
    x_lo, y_lo = max(int(cx) - r, 0), max(int(cy) - r, 0)
    x_hi, y_hi = min(int(cx) + r + 1, canvas.shape[1]), min(int(cy) + r + 1, canvas.shape[0])
    ys, xs = np.mgrid[y_lo:y_hi, x_lo:x_hi].astype(np.float32)
    dist = np.hypot(xs - cx, ys - cy)
    shadow = np.clip((radius + 2 - np.hypot(xs - cx - 1.5, ys - cy - 1.5)) / 2, 0, 1) * 0.35
    patch = canvas[y_lo:y_hi, x_lo:x_hi].astype(np.float32)
    patch *= (1 - shadow)[..., None]
    highlight = np.exp(-(((xs - cx + 0.35 * radius) ** 2 + (ys - cy + 0.35 * radius) ** 2) / (0.5 * radius) ** 2))
    rim = np.clip(dist / radius, 0, 1) ** 3
    if dark:
        tone = 28 + 70 * highlight - 10 * rim
        colour = np.stack([tone * 1.05, tone, tone * 0.95], axis=-1)
    else:
        tone = 222 + 30 * highlight - 45 * rim
        colour = np.stack([tone * 1.0, tone * 0.99, tone * 0.96], axis=-1)
    alpha = np.clip(radius + 0.5 - dist, 0, 1)[..., None]
    patch = patch * (1 - alpha) + colour * alpha
    canvas[y_lo:y_hi, x_lo:x_hi] = np.clip(patch, 0, 255).astype(np.uint8)


def photograph(view: View, rng: np.random.Generator, gradient: float = 0.35, noise: float = 4.0,
               blur: float = 0.0, jpeg_quality: int = 0) -> np.ndarray:
    """Uneven lighting (a linear gradient across the frame, ±gradient), Gaussian sensor noise,
    optionally defocus blur (σ in px) and JPEG compression."""
    h, w = view.image.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xs - w / 2) * np.cos(angle) + (ys - h / 2) * np.sin(angle)) / max(w, h)
    light = 1.0 + 2 * gradient * ramp
    image = view.image.astype(np.float32)
    if blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    image = image * light[..., None] + rng.normal(0, noise, view.image.shape)
    image = np.clip(image, 0, 255).astype(np.uint8)
    if jpeg_quality:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image


def random_position(spec: BoardSpec, rng: np.random.Generator, fill: float = 0.3) -> dict[tuple[int, int], str]:
    stones = {}
    for row in range(spec.rows):
        for col in range(spec.cols):
            if rng.random() < fill:
                stones[(row, col)] = "B" if rng.random() < 0.5 else "W"
    return stones


def go_board_photo(
    spec: BoardSpec,
    stones: dict[tuple[int, int], str],
    seed: int = 0,
    tilt_deg: float = 20.0,
    turn_deg: float = 5.0,
    size: tuple[int, int] = (1280, 960),
    with_markers: bool = False,
    fill_frame: float = 0.65,
    blur: float = 0.0,
    jpeg_quality: int = 0,
    wood: tuple[int, int, int] = (95, 160, 205),
) -> View:
    """A photo of a grid board from a camera at the given tilt/turn; the board fills ~fill_frame."""
    rng = np.random.default_rng(seed)
    canvas, origin = draw_go_board(spec, stones, rng, with_markers=with_markers, wood=wood)
    k = camera_matrix(*size)
    span = max(spec.width_mm, spec.height_mm) + (70 if with_markers else 30)
    distance = k[0, 0] * span / (fill_frame * min(size))
    centre = (spec.width_mm / 2, spec.height_mm / 2)
    rotation, translation = look_at_pose(centre, distance, tilt_deg, turn_deg)
    view = render_view(canvas, origin, 3.0, rotation, translation, k, size)
    to_page = board_to_page(spec)
    homography = view.homography @ to_page
    return View(photograph(view, rng, blur=blur, jpeg_quality=jpeg_quality), homography / homography[2, 2], k,
                rotation, translation, to_page)
