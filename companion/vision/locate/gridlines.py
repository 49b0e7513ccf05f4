"""Marker-free board location from the board's own grid lines (as camera chess/Go readers do).

Thin dark lines are brought out with a black-hat filter and an oriented, two-sided line filter,
found with the Hough transform (keeping lines whose evidence runs along them), split into two
families by direction, and intersected. Every pair of neighbouring lines of each family
proposes a unit cell; the proposals whose homographies put the most intersections on an integer
lattice are refitted on their inliers (RANSAC over lattice hypotheses) and the one whose lines
lie on lines in the picture wins; it is turned so the lattice reads left→right and top→bottom as
the image shows it, subdivided where Hough missed lines, slid to the window of exactly as many
lines as the board has (the one with the strongest line evidence), and refused if no real board
would look like it. Details: docs/calibration.md.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...i18n import N_
from ..boards import BoardSpec, board_to_page
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, LocateError, located_nowhere

WORK_SIZE = 1000  # longest side the search runs at (the result is scaled back)
INLIER_TOLERANCE = 0.15  # lattice units: how close an intersection must fall to a lattice point


@dataclass(frozen=True)
class LatticeFit:
    """Lattice (u, v) in line units → image pixels, and which line window is the board."""

    homography: np.ndarray  # 3×3, lattice units → px (full-resolution image)
    inliers: int
    error_px: float
    lines: np.ndarray  # the Hough lines found, (rho, theta) at full resolution, for overlays


def line_counts(spec: BoardSpec) -> tuple[int, int]:
    """(vertical lines, horizontal lines) a board shows: points boards one per point, cell
    boards one more than cells."""
    extra = 0 if spec.on_points else 1
    return spec.cols + extra, spec.rows + extra


def locate_from_grid_lines(spec: BoardSpec, image: np.ndarray, intrinsics: Intrinsics | None = None) -> BoardLocation:
    """Lens distortion bends the lines: with measured intrinsics the frame is undistorted first."""
    height, width = image.shape[:2]
    intrinsics = intrinsics.for_size(width, height) if intrinsics else None
    if intrinsics is not None and any(intrinsics.dist_coeffs):
        image = cv2.undistort(image, intrinsics.matrix, intrinsics.distortion)
    fit = fit_lattice(image, *line_counts(spec))
    to_lattice = np.diag([1.0 / spec.cell_mm, 1.0 / spec.cell_mm, 1.0])
    # The lattice reads left→right and top→bottom as the picture shows it, i.e. as a page seen from
    # above: the board frame's convention (boards.py) puts a game board's row 0 at that page's bottom.
    homography = fit.homography @ to_lattice @ board_to_page(spec)
    return BoardLocation(spec, homography / homography[2, 2], (width, height), "gridlines", fit.error_px, intrinsics)


def line_evidence_image(grey: np.ndarray, light_lines: bool = False) -> np.ndarray:
    """Thin dark structures (or light ones) bright, everything else (wood, big pieces, shading)
    near zero: a black-hat (or top-hat) filter a little wider than a line."""
    size = max(5, int(round(min(grey.shape) / 70)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    return cv2.morphologyEx(grey, cv2.MORPH_TOPHAT if light_lines else cv2.MORPH_BLACKHAT, kernel)


def fit_lattice(image: np.ndarray, n_u: int, n_v: int) -> LatticeFit:
    """Find an n_u × n_v line grid; raises LocateError when no such grid is visible.

    Dark lines on a light board (Go, most printed boards) are tried first, then light lines or
    gaps on a dark board (e.g. the ridges between a player board's recesses).
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = min(1.0, WORK_SIZE / max(grey.shape))
    small = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else grey
    try:
        return _fit_lattice_checked(small, scale, n_u, n_v, light_lines=False)
    except LocateError as dark_error:
        try:
            return _fit_lattice_checked(small, scale, n_u, n_v, light_lines=True)
        except LocateError:
            raise dark_error from None


def _fit_lattice_checked(small: np.ndarray, scale: float, n_u: int, n_v: int, light_lines: bool) -> LatticeFit:
    try:
        return _fit_lattice(small, scale, n_u, n_v, light_lines)
    except (np.linalg.LinAlgError, cv2.error):  # a degenerate set of lines, not a board
        raise located_nowhere(N_("no regular {grid} line grid found in the image"), grid=f"{n_u}×{n_v}") from None


def _fit_lattice(small: np.ndarray, scale: float, n_u: int, n_v: int, light_lines: bool) -> LatticeFit:
    evidence = line_evidence_image(small, light_lines)
    lines = _hough_lines(evidence, max(n_u, n_v), small)
    fam_a, fam_b = _split_families(lines)
    if len(fam_a) < 3 or len(fam_b) < 3:
        raise located_nowhere(N_("no line grid found: {first} and {second} lines in the two directions "
                                 "(is the whole board in view, in focus and lit?)"), first=len(fam_a), second=len(fam_b))
    fam_a, fam_b = _order(fam_a, fam_b), _order(fam_b, fam_a)
    points, _ = _intersections(fam_a, fam_b, small.shape)
    # Lines are sampled at rounded positions that can fall beside a 1-px line: use 3×3 maxima.
    evidence = cv2.dilate(evidence, np.ones((3, 3), np.uint8))
    best = _ransac_lattice(fam_a, fam_b, points, evidence)
    if best is None:
        raise located_nowhere(N_("no regular line grid found in the image"))
    lattice_h, inlier_uv, inlier_px = best
    lattice_h = _orient(lattice_h, inlier_uv)
    lattice_h = _subdivide(evidence, lattice_h, _to_lattice(lattice_h, inlier_px))
    uv = _to_lattice(lattice_h, inlier_px)
    u0 = _best_window(evidence, lattice_h, np.round(uv[:, 0]).astype(int), n_u, axis=0, other=uv[:, 1])
    v0 = _best_window(evidence, lattice_h, np.round(uv[:, 1]).astype(int), n_v, axis=1, other=uv[:, 0])
    lattice_h = lattice_h @ np.array([[1, 0, u0], [0, 1, v0], [0, 0, 1]], dtype=np.float64)
    uv = np.round(_to_lattice(lattice_h, inlier_px))
    keep = (uv[:, 0] >= 0) & (uv[:, 0] < n_u) & (uv[:, 1] >= 0) & (uv[:, 1] < n_v)
    if keep.sum() < 8:
        raise located_nowhere(N_("found a line grid but not a {grid} one (too few crossings on it)"), grid=f"{n_u}×{n_v}")
    lattice_h, _ = cv2.findHomography(uv[keep], inlier_px[keep], 0)
    if lattice_h is None:
        raise located_nowhere(N_("found a line grid but not a {grid} one (its crossings are degenerate)"),
                              grid=f"{n_u}×{n_v}")
    _check_plausible(lattice_h, n_u, n_v, small.shape, evidence)
    projected = cv2.perspectiveTransform(uv[keep].reshape(-1, 1, 2), lattice_h).reshape(-1, 2)
    error = float(np.sqrt(np.mean(np.sum((projected - inlier_px[keep]) ** 2, axis=1))))
    unscale = np.diag([1 / scale, 1 / scale, 1.0])
    full_h = unscale @ lattice_h
    full_lines = np.column_stack([lines[:, 0] / scale, lines[:, 1]]) if len(lines) else lines
    return LatticeFit(full_h / full_h[2, 2], int(keep.sum()), error / scale, full_lines)


MIN_PITCH_PX = 6.0  # at WORK_SIZE: closer lines cannot be told apart from noise
MAX_CELL_ASPECT = 4.0  # a cell seen more elongated than this is a misfit, not a steep view


def _check_plausible(h: np.ndarray, n_u: int, n_v: int, shape: tuple[int, ...], evidence: np.ndarray) -> None:
    """Refuse a lattice no real board would give, rather than read stones off the wrong places:
    a folded or tiny outline, cells far from square-ish, or lines with no more line evidence
    than the places half-way between them."""
    outline = cv2.perspectiveTransform(
        np.array([[0, 0], [n_u - 1, 0], [n_u - 1, n_v - 1], [0, n_v - 1]], np.float64).reshape(-1, 1, 2), h
    ).reshape(-1, 2)
    crosses = [np.cross(np.append(outline[(i + 1) % 4] - outline[i], 0),
                        np.append(outline[(i + 2) % 4] - outline[(i + 1) % 4], 0))[2] for i in range(4)]
    if not (all(c > 0 for c in crosses) or all(c < 0 for c in crosses)):
        raise located_nowhere(N_("the line grid found folds over itself: not a board seen from above"))
    centre = np.array([(n_u - 1) / 2, (n_v - 1) / 2])
    probe = cv2.perspectiveTransform(np.array([centre, centre + (1, 0), centre + (0, 1)]).reshape(-1, 1, 2), h)
    du, dv = (probe[1] - probe[0]).ravel(), (probe[2] - probe[0]).ravel()
    pitch_u, pitch_v = float(np.linalg.norm(du)), float(np.linalg.norm(dv))
    if min(pitch_u, pitch_v) < MIN_PITCH_PX:
        raise located_nowhere(N_("the line grid found is too fine ({pitch} px between lines): "
                                 "bring the camera closer or use a higher resolution"), pitch=f"{min(pitch_u, pitch_v):.1f}")
    if max(pitch_u, pitch_v) / min(pitch_u, pitch_v) > MAX_CELL_ASPECT:
        raise located_nowhere(N_("the line grid found has cells far from square: not this board (too many "
                                 "lines hidden by stones?); place it by markers or corners instead"))
    uv = np.array([[u, v] for u in range(n_u) for v in range(n_v)], np.float64)
    if _lattice_contrast(evidence, h, uv) <= 0 or _share_of_lines_on_lines(evidence, h, n_u, n_v) < MIN_LINES_ON_LINES:
        raise located_nowhere(N_("the line grid found does not lie on the board's lines; place it by markers "
                                 "or corners instead"))


MIN_LINES_ON_LINES = 0.8  # share of the grid's lines that must each lie on a line in the picture


def _share_of_lines_on_lines(evidence: np.ndarray, h: np.ndarray, n_u: int, n_v: int) -> float:
    """Share of the board's lines with more line evidence on them than half a pitch to either
    side: a grid stretched or shifted off the picture's lines fails many of them."""
    good = total = 0
    for axis, count, other in ((0, n_u, n_v), (1, n_v, n_u)):
        for k in range(count):
            on = _line_strength(evidence, h, k, axis, 0, other - 1)
            beside = max(_line_strength(evidence, h, k - 0.5, axis, 0, other - 1),
                         _line_strength(evidence, h, k + 0.5, axis, 0, other - 1))
            good += on > beside
            total += 1
    return good / total


ORIENTATIONS = 12  # directions the oriented line filter tries (every 15°)


def _oriented_evidence(evidence: np.ndarray, expected: int, grey: np.ndarray | None = None
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the strongest mean black-hat response along a short straight segment, and
    which of the ORIENTATIONS gave it.

    A board line is straight over a good part of a pitch around every empty point; stone rims
    curve away, and the crossings of a "+" respond to its two true directions only, so diagonals
    through rows of crossings or stones get no support. With `grey`, a response also needs the
    same brightness on both sides: a printed line has board on both sides, the shadow valley
    beside a light stone has the stone on one side and the board on the other.
    """
    # At most 11 taps: OpenCV filters small kernels directly, larger ones through a slower DFT.
    length = int(np.clip(round(0.35 * min(evidence.shape) / max(expected, 2)), 9, 11)) | 1
    centre = length // 2
    src = evidence.astype(np.float32)
    side = max(2.0, min(evidence.shape) / 140)  # just beyond the line's half width
    grey_f = grey.astype(np.float32) if grey is not None else None
    h, w = evidence.shape
    responses = []
    for i in range(ORIENTATIONS):
        phi = np.pi * i / ORIENTATIONS  # direction along the line
        kernel = np.zeros((length, length), np.float32)
        dx, dy = np.cos(phi) * centre, np.sin(phi) * centre
        cv2.line(kernel, (int(round(centre - dx)), int(round(centre - dy))),
                 (int(round(centre + dx)), int(round(centre + dy))), 1.0, 1, cv2.LINE_AA)
        kernel /= kernel.sum()
        response = cv2.filter2D(src, -1, kernel, borderType=cv2.BORDER_CONSTANT)
        if grey_f is not None:
            nx, ny = -np.sin(phi) * side, np.cos(phi) * side
            plus = cv2.warpAffine(grey_f, np.float32([[1, 0, -nx], [0, 1, -ny]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
            minus = cv2.warpAffine(grey_f, np.float32([[1, 0, nx], [0, 1, ny]]), (w, h), borderMode=cv2.BORDER_REPLICATE)
            asymmetry = cv2.filter2D(np.abs(plus - minus), -1, kernel, borderType=cv2.BORDER_CONSTANT)
            response = np.maximum(response - asymmetry, 0)
        responses.append(response)
    stack = np.stack(responses)
    return stack.max(axis=0), stack.argmax(axis=0)


def _hough_lines(evidence: np.ndarray, expected: int, grey: np.ndarray | None = None) -> np.ndarray:
    """(rho, theta) lines, strongest first, with near-duplicates suppressed."""
    strength, best = _oriented_evidence(evidence, expected, grey)
    scaled = cv2.normalize(strength, None, 0, 255, cv2.NORM_MINMAX).astype(np.uint8)
    _, binary = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # A board line spans a good part of the frame, but stones may hide most of it: try a strict
    # vote threshold first and relax it while too few distinct board-like lines turn up.
    # Lines closer than a third of the smallest plausible pitch are one line seen twice.
    min_gap = 0.3 * (0.4 * min(binary.shape) / max(expected - 1, 1))
    kept: list[np.ndarray] = []
    for fraction in (0.25, 0.15, 0.1, 0.06):
        found = cv2.HoughLines(binary, 1, np.pi / 720, int(fraction * min(binary.shape)))
        if found is None:
            continue
        lines = _orientation_consistent(found[:, 0, :].astype(np.float64)[: 60 * expected], strength, best)
        kept = []
        for line in lines:  # strongest first
            if len(kept) >= 6 * expected:
                break
            if all(not _same_line(line, other, min_gap, binary.shape) for other in kept):
                kept.append(line)
        if len(kept) >= 2 * expected:  # both directions' lines, most of them
            break
    return np.array(kept) if kept else np.empty((0, 2))


def _orientation_consistent(lines: np.ndarray, strength: np.ndarray, best: np.ndarray) -> np.ndarray:
    """Keep lines whose evidence mostly runs along them.

    Diagonals through rows of crossings or stones collect Hough votes from pixels whose own
    direction is across them (the arms of each "+", stone rims); a board line's pixels point
    along it. A line is kept when at least half its strong pixels agree within one step.
    """
    if not len(lines):
        return lines
    h, w = strength.shape
    floor = np.percentile(strength, 90)
    keep = []
    for rho, theta in lines:
        direction = (theta - np.pi / 2) % np.pi
        index = int(round(direction / (np.pi / ORIENTATIONS))) % ORIENTATIONS
        foot = np.array([np.cos(theta) * rho, np.sin(theta) * rho])
        along = np.array([-np.sin(theta), np.cos(theta)])
        t = np.linspace(-np.hypot(h, w), np.hypot(h, w), 1000)  # covers the image, ~2.5 px apart
        pts = foot + t[:, None] * along
        xs, ys = np.round(pts[:, 0]).astype(int), np.round(pts[:, 1]).astype(int)
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        xs, ys = xs[inside], ys[inside]
        on = strength[ys, xs] >= floor
        if on.sum() < 5:
            keep.append(False)
            continue
        diff = np.abs(((best[ys[on], xs[on]] - index + ORIENTATIONS // 2) % ORIENTATIONS) - ORIENTATIONS // 2)
        keep.append(bool(np.mean(diff <= 1) >= 0.5))
    return lines[np.array(keep, dtype=bool)]


def _same_line(a: np.ndarray, b: np.ndarray, gap: float, shape: tuple[int, ...]) -> bool:
    """Lines closer than `gap` pixels over the whole image (checked at the image's edges)."""
    angle = abs(a[1] - b[1])
    if min(angle, np.pi - angle) > np.radians(8):
        return False
    h, w = shape[:2]
    samples = _SAMPLES * (w, h)
    # Distance from each sample point's foot on line a to line b.
    feet = _project_to_line(samples, a)
    return bool(np.max(np.abs(_signed_distance(feet, b))) < gap)


_SAMPLES = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [0.5, 0.5]], dtype=np.float64)


def _project_to_line(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    rho, theta = line
    n = np.array([np.cos(theta), np.sin(theta)])
    return points - np.outer(points @ n - rho, n)


def _signed_distance(points: np.ndarray, line: np.ndarray) -> np.ndarray:
    rho, theta = line
    return points @ np.array([np.cos(theta), np.sin(theta)]) - rho


def _split_families(lines: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two direction families by 2-means on the doubled angle (so θ and θ+π agree)."""
    if len(lines) < 2:
        return lines, np.empty((0, 2))
    # Deterministic 2-means: start from the strongest line's direction and the line least like it.
    doubled = np.column_stack([np.cos(2 * lines[:, 1]), np.sin(2 * lines[:, 1])])
    centres = np.array([doubled[0], doubled[np.argmax(np.linalg.norm(doubled - doubled[0], axis=1))]])
    for _ in range(20):
        labels = np.argmin(np.linalg.norm(doubled[:, None, :] - centres[None], axis=2), axis=1)
        new = np.array([doubled[labels == k].mean(axis=0) if np.any(labels == k) else centres[k] for k in (0, 1)])
        if np.allclose(new, centres):
            break
        centres = new
    # Drop lines that sit between the two directions (diagonals, stone tangents at odd angles).
    spread = np.linalg.norm(doubled - centres[labels], axis=1)
    ok = spread < 0.5
    return lines[(labels == 0) & ok], lines[(labels == 1) & ok]


def _intersect(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersections of every line of a with every line of b: len(a) × len(b) × 2."""
    ca, sa = np.cos(a[:, 1])[:, None], np.sin(a[:, 1])[:, None]
    cb, sb = np.cos(b[:, 1])[None, :], np.sin(b[:, 1])[None, :]
    det = ca * sb - sa * cb
    det = np.where(np.abs(det) < 1e-9, 1e-9, det)
    x = (a[:, 0][:, None] * sb - b[:, 0][None, :] * sa) / det
    y = (ca * b[:, 0][None, :] - cb * a[:, 0][:, None]) / det
    return np.stack([x, y], axis=-1)


def _order(family: np.ndarray, other: np.ndarray) -> np.ndarray:
    """Sort a family across the image: by where its lines cross the other family's median line."""
    reference = other[np.argsort(other[:, 0])[len(other) // 2]][None, :]
    crossing = _intersect(family, reference)[:, 0, :]
    direction = np.array([-np.sin(reference[0, 1]), np.cos(reference[0, 1])])
    return family[np.argsort(crossing @ direction)]


def _intersections(fam_a: np.ndarray, fam_b: np.ndarray, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    grid = _intersect(fam_a, fam_b)
    ia, ib = np.meshgrid(np.arange(len(fam_a)), np.arange(len(fam_b)), indexing="ij")
    points = grid.reshape(-1, 2)
    index = np.column_stack([ia.ravel(), ib.ravel()])
    h, w = shape[:2]
    inside = (points[:, 0] > -0.05 * w) & (points[:, 0] < 1.05 * w) & (points[:, 1] > -0.05 * h) & (points[:, 1] < 1.05 * h)
    return points[inside], index[inside]


def _to_lattice(h_lattice_to_px: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    inverse = np.linalg.inv(h_lattice_to_px)
    return cv2.perspectiveTransform(points_px.reshape(-1, 1, 2).astype(np.float64), inverse).reshape(-1, 2)


def _lattice_inliers(h: np.ndarray, points: np.ndarray, tolerance: float) -> tuple[np.ndarray, np.ndarray]:
    uv = _to_lattice(h, points)
    near = np.all(np.abs(uv - np.round(uv)) < tolerance, axis=1) & np.all(np.abs(uv) < 60, axis=1)
    return near, np.round(uv)


def _support(near: np.ndarray, uv: np.ndarray) -> int:
    """Distinct lattice points hit, zero for a degenerate lattice (all on one line)."""
    if near.sum() < 4:
        return 0
    hit = uv[near]
    if len(np.unique(hit[:, 0])) < 2 or len(np.unique(hit[:, 1])) < 2:
        return 0
    keys = (hit[:, 0].astype(np.int64) + 100) * 1000 + (hit[:, 1].astype(np.int64) + 100)
    return len(np.unique(keys))


def _ransac_lattice(fam_a: np.ndarray, fam_b: np.ndarray, points: np.ndarray, evidence: np.ndarray):
    """Every neighbouring-line cell as a unit-square hypothesis; refine the most supported ones.

    Diagonals through rows of stones also cross on lattice points, so a sheared lattice can be
    supported nearly as well as the true one: among the well-supported lattices, the one whose
    lines lie on dark lines in the picture (and whose half-way lines do not) wins.
    """
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=np.float64)
    hypotheses = []
    for i in range(len(fam_a) - 1):
        for j in range(len(fam_b) - 1):
            quad = _intersect(fam_a[[i, i + 1]], fam_b[[j, j + 1]])
            corners = np.array([quad[0, 0], quad[1, 0], quad[1, 1], quad[0, 1]])
            if not np.all(np.isfinite(corners)):
                continue
            sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
            if sides.min() < MIN_PITCH_PX:  # two sightings of one line, not neighbouring lines
                continue
            h = cv2.getPerspectiveTransform(unit.astype(np.float32), corners.astype(np.float32)).astype(np.float64)
            try:
                near, uv = _lattice_inliers(h, points, INLIER_TOLERANCE)
            except np.linalg.LinAlgError:
                continue
            hypotheses.append((_support(near, uv), h))
    hypotheses.sort(key=lambda item: -item[0])
    refined = []
    for _, h in hypotheses[:15]:
        try:
            refined_h = _grow(h, points)
            near, uv = _lattice_inliers(refined_h, points, INLIER_TOLERANCE)
        except np.linalg.LinAlgError:  # collapsed onto a line: not a lattice
            continue
        support = _support(near, uv)
        if support >= 8 and _pitch_px(refined_h, np.median(uv[near], axis=0)) >= MIN_PITCH_PX:
            refined.append((support, refined_h, uv[near], points[near]))
    if not refined:
        return None
    top = max(r[0] for r in refined)
    contenders = [r for r in refined if r[0] >= 0.6 * top]
    best = max(contenders, key=lambda r: (_lattice_contrast(evidence, r[1], r[2]), r[0]))
    return best[1], best[2], best[3]


def _pitch_px(h: np.ndarray, at: np.ndarray) -> float:
    """The smaller of the two lattice steps in pixels at lattice point `at`."""
    probe = np.array([at, at + (1, 0), at + (0, 1)], dtype=np.float64).reshape(-1, 1, 2)
    px = cv2.perspectiveTransform(probe, h).reshape(-1, 2)
    return float(min(np.linalg.norm(px[1] - px[0]), np.linalg.norm(px[2] - px[0])))


def _grow(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Refit on all inliers, then look again (a few rounds): the lattice spreads from one cell."""
    for _ in range(4):
        near, uv = _lattice_inliers(h, points, INLIER_TOLERANCE)
        if _support(near, uv) < 8:
            break
        refit, _ = cv2.findHomography(uv[near], points[near], 0)
        if refit is None:
            break
        h = refit
    return h


def _lattice_contrast(evidence: np.ndarray, h: np.ndarray, uv: np.ndarray) -> float:
    """How much darker-line evidence lies on the lattice's lines than half-way between them
    (the weaker of the two directions)."""
    contrasts = []
    for axis in (0, 1):
        lo, hi = uv[:, axis].min(), uv[:, axis].max()
        o_lo, o_hi = uv[:, 1 - axis].min(), uv[:, 1 - axis].max()
        ks = np.arange(lo, hi + 1)
        on = np.mean([_line_strength(evidence, h, k, axis, o_lo, o_hi) for k in ks])
        off = np.mean([_line_strength(evidence, h, k + 0.5, axis, o_lo, o_hi) for k in ks[:-1]]) if len(ks) > 1 else 0.0
        contrasts.append(on - off)
    return float(min(contrasts))


def _orient(h: np.ndarray, inlier_uv: np.ndarray) -> np.ndarray:
    """Relabel the lattice so u grows rightwards and v downwards in the image."""
    centre = np.median(inlier_uv, axis=0)
    probe = np.array([centre, centre + (1, 0), centre + (0, 1)], dtype=np.float64)
    px = cv2.perspectiveTransform(probe.reshape(-1, 1, 2), h).reshape(-1, 2)
    du, dv = px[1] - px[0], px[2] - px[0]
    swap = np.eye(3)
    if abs(du[0]) < abs(dv[0]):  # u runs more up/down than across: exchange the axes
        swap = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], dtype=np.float64)
        du, dv = dv, du
    flip = np.diag([1.0 if du[0] > 0 else -1.0, 1.0 if dv[1] > 0 else -1.0, 1.0])
    return h @ swap @ flip


def _subdivide(evidence: np.ndarray, h: np.ndarray, uv: np.ndarray) -> np.ndarray:
    """Halve or third the lattice unit along an axis while lines show up between its lines.

    Hough can miss lines hidden under rows of stones; a lattice found on every second line fits
    the intersections as well as the true one, but the evidence image still shows the lines
    in between.
    """
    for axis in (0, 1):
        for _ in range(2):
            lo, hi = np.floor(uv[:, axis].min()), np.ceil(uv[:, axis].max())
            o_lo, o_hi = uv[:, 1 - axis].min(), uv[:, 1 - axis].max()

            def strength(offsets, lo=lo, hi=hi, o_lo=o_lo, o_hi=o_hi, axis=axis, h=h):
                return float(np.mean([
                    _line_strength(evidence, h, k + f, axis, o_lo, o_hi) for k in np.arange(lo, hi) for f in offsets
                ]))

            whole = strength([0.0])
            split = None
            for parts, gaps in ((2, [0.25, 0.75]), (3, [1 / 6, 0.5, 5 / 6])):
                background = strength(gaps)  # where neither lattice has a line
                between = strength([f / parts for f in range(1, parts)])
                if whole - background > 1.0 and between - background > 0.5 * (whole - background):
                    split = parts
                    break
            if split is None:
                break
            shrink = np.diag([1.0 / split if axis == 0 else 1.0, 1.0 / split if axis == 1 else 1.0, 1.0])
            h = h @ shrink
            uv = uv.copy()
            uv[:, axis] *= split
    return h


def _best_window(evidence: np.ndarray, h: np.ndarray, indices: np.ndarray, count: int, axis: int, other: np.ndarray) -> int:
    """First line index of the `count` consecutive lattice lines that stand out most.

    Each line scores its evidence minus the stronger of the two places half a pitch beside it:
    a real line partly hidden by stones still stands out from its surroundings, a lattice line
    past the board's edge (background, or the board's rim) does not.
    """
    lo, hi = int(indices.min()), int(indices.max())
    span_lo, span_hi = float(np.min(other)), float(np.max(other))
    candidates = range(lo - count + 1 if hi - lo + 1 < count else lo, max(lo, hi - count + 1) + 1)
    stand_out = {}
    for k in range(min(candidates), max(candidates) + count):
        on = _line_strength(evidence, h, k, axis, span_lo, span_hi)
        beside = max(_line_strength(evidence, h, k - 0.5, axis, span_lo, span_hi),
                     _line_strength(evidence, h, k + 0.5, axis, span_lo, span_hi))
        stand_out[k] = on - beside
    scores = {start: sum(stand_out[k] for k in range(start, start + count)) for start in candidates}
    return max(scores, key=lambda start: (scores[start], -abs(start - lo)))


def _line_strength(evidence: np.ndarray, h: np.ndarray, k: float, axis: int, lo: float, hi: float) -> float:
    """Mean black-hat response along lattice line k (u = k for axis 0, v = k for axis 1)."""
    t = np.linspace(lo, hi, 64)
    pts = np.column_stack([np.full_like(t, k), t]) if axis == 0 else np.column_stack([t, np.full_like(t, k)])
    px = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h).reshape(-1, 2)
    xs, ys = np.round(px[:, 0]).astype(int), np.round(px[:, 1]).astype(int)
    inside = (xs >= 0) & (xs < evidence.shape[1]) & (ys >= 0) & (ys < evidence.shape[0])
    if not inside.any():
        return 0.0
    return float(evidence[ys[inside], xs[inside]].sum()) / len(t)
