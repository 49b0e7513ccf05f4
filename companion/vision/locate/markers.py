"""Board location from the play mat's (or stickers') ArUco markers (layout in vision/mat.py)."""

from __future__ import annotations

import cv2
import numpy as np

from .. import mat
from ..boards import BoardSpec, frame_is_mirrored
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, LocateError, fit_homography, undistort


def detect_markers(image: np.ndarray, lenient: bool = False) -> dict[int, np.ndarray]:
    """Every mat marker in the image: id → its 4 corners (TL, TR, BR, BL) in pixels, 4×2.

    `lenient`: also accept a marker with one of its 16 bits misread. DICT_4X4_50 keeps its codes
    at least 3 bits apart, but the garden's tile pictures then read as markers now and then (the
    twin: 5 false ids in 60 frames), so lenient markers are only taken where the strict ones (or
    the mat itself) confirm them: see `locate_from_markers`.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = _LENIENT if lenient else _STRICT
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners, strict=True)}


def _detector(lenient: bool) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Read each bit from 8×8 samples instead of 4×4: small, soft markers (a 20 mm marker is
    # 25-60 px at 720p from 90 to 40 cm) are then decoded without loosening the error correction.
    params.perspectiveRemovePixelPerCell = 8
    # ...and from the middle 40 % of its cell only (default 74 %): from 60 cm on, the cells blur
    # into each other and their edges carry the neighbours' colour (bench locate --twin).
    params.perspectiveRemoveIgnoredMarginPerCell = 0.3
    params.errorCorrectionRate = 1.0 if lenient else 0.6  # 1 bit of DICT_4X4_50's 1, or none
    return cv2.aruco.ArucoDetector(mat.dictionary(), params)


_STRICT = _detector(lenient=False)
_LENIENT = _detector(lenient=True)


def detect_region_markers(spec: BoardSpec, image: np.ndarray) -> dict[int, np.ndarray]:
    """The strict markers, and when some of this region's four are missing, its lenient ones too
    (each is then checked against its place on the mat by `locate_from_markers`)."""
    detected = detect_markers(image)
    wanted = {p.marker_id for p in mat.marker_layout(spec)}
    if wanted <= set(detected):
        return detected
    extra = {i: c for i, c in detect_markers(image, lenient=True).items() if i in wanted and i not in detected}
    return {**detected, **extra}


def locate_from_markers(
    spec: BoardSpec, image: np.ndarray, detected: dict[int, np.ndarray] | None = None, min_markers: int = 2,
    intrinsics: Intrinsics | None = None, surface_mm: float = 0.0,
) -> BoardLocation:
    """Homography from every detected marker of this region (each gives 4 corner correspondences).

    Two markers are enough (8 points); three or four average out the detection noise and let
    one misread marker be rejected. `surface_mm`: how far the board's level 0 lies above the
    markers (a board standing on its mat: the board's thickness; stickers on the board: 0).
    """
    detected = detect_region_markers(spec, image) if detected is None else detected
    placements = mat.marker_layout(spec)
    found = [p for p in placements if p.marker_id in detected]
    if len(found) < min_markers:
        wanted = ", ".join(f"{p.marker_id} ({p.corner.replace('_', ' ')})" for p in placements)
        seen = ", ".join(str(i) for i in sorted(detected)) or "none"
        raise LocateError(
            f"{spec.region}: found {len(found)} of its markers, need at least {min_markers}; "
            f"its markers are {wanted}; markers seen: {seen}"
        )
    height, width = image.shape[:2]
    intrinsics = intrinsics.for_size(width, height) if intrinsics else None
    points_px = undistort(np.concatenate([detected[p.marker_id] for p in found]), intrinsics)
    # One order only: the board frame's convention (boards.py). The markers' centres alone would
    # fit its mirror image too; each marker's own corners tell the two apart.
    points_mm = np.concatenate([mat.detected_corners_mm(spec, p) for p in found])
    homography, error = fit_homography(points_mm, points_px, robust=len(found) > 2)
    mirrored_mm = np.concatenate([_mirrored_corners(spec, p) for p in found])
    _, mirrored_error = fit_homography(mirrored_mm, points_px, robust=len(found) > 2)
    sides = [np.linalg.norm(detected[p.marker_id][1] - detected[p.marker_id][0]) for p in found]
    limit = max(MAX_ERROR_PX, 0.06 * float(np.median(sides)))
    mirrored = frame_is_mirrored(spec, homography) or (mirrored_error < 0.5 * error and error > limit)
    within = _markers_within(homography, points_mm, points_px, len(found), limit)
    fitting = int(within.sum())
    if not mirrored and 2 <= fitting < len(found):
        # A marker misread or off its place (a lenient read, a curled corner): fitted without it.
        keep = np.repeat(within, 4)
        homography, error = fit_homography(points_mm[keep], points_px[keep], robust=fitting > 2)
    if not mirrored and fitting < 2:
        seen = ", ".join(str(p.marker_id) for p in found)
        raise LocateError(
            f"{spec.region}: markers {seen} are not where its mat puts them (fit error {error:.1f} px): "
            "is the mat flat and whole, and the camera picture not mirrored?"
        )
    if mirrored:
        raise LocateError(
            f"{spec.region}: its markers are where the mat puts them but the board would be the mirror "
            "image of itself: the mat was printed the other way round (row 1 must run along the page's "
            "bottom edge; print it again with `companion calibrate mat`) or the camera picture is "
            "mirrored (turn off the camera's mirror setting)"
        )
    location = BoardLocation(spec, homography, (width, height), "markers", error, intrinsics)
    if surface_mm:
        location = BoardLocation(spec, location.homography_at_height(surface_mm), (width, height), "markers",
                                 error, intrinsics)
    return location


MAX_ERROR_PX = 2.0  # a marker fitted worse than this (or 6 % of its side) does not fit the mat


def _markers_within(homography: np.ndarray, points_mm: np.ndarray, points_px: np.ndarray, markers: int,
                    limit: float) -> np.ndarray:
    """Per marker: does the homography place it within `limit` px (RMS over its 4 corners)?"""
    projected = cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
    per_marker = np.sqrt(np.mean(np.sum((projected - points_px) ** 2, axis=1).reshape(markers, 4), axis=1))
    return per_marker <= limit


def _mirrored_corners(spec, placement) -> np.ndarray:
    """The corners a marker would have in the mirrored frame (for telling a mirrored mat apart)."""
    return mat.detected_corners_mm(spec, placement)[[3, 2, 1, 0]]
