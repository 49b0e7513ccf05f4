"""Board location from the play mat's (or stickers') ArUco markers (layout in vision/mat.py)."""

from __future__ import annotations

import cv2
import numpy as np

from .. import mat
from ..boards import BoardSpec
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, LocateError, fit_homography, undistort


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Every mat marker in the image: id → its 4 corners (TL, TR, BR, BL) in pixels, 4×2."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # Read each bit from 8×8 samples instead of 4×4: small, soft markers (a 20 mm marker is
    # 40-60 px at 720p from 50 cm) are then decoded without loosening the error correction.
    params.perspectiveRemovePixelPerCell = 8
    detector = cv2.aruco.ArucoDetector(mat.dictionary(), params)
    corners, ids, _ = detector.detectMarkers(grey)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2).astype(np.float64) for i, c in zip(ids.ravel(), corners, strict=True)}


def locate_from_markers(
    spec: BoardSpec, image: np.ndarray, detected: dict[int, np.ndarray] | None = None, min_markers: int = 2,
    intrinsics: Intrinsics | None = None, surface_mm: float = 0.0,
) -> BoardLocation:
    """Homography from every detected marker of this region (each gives 4 corner correspondences).

    Two markers are enough (8 points); three or four average out the detection noise and let
    one misread marker be rejected. `surface_mm`: how far the board's level 0 lies above the
    markers (a board standing on its mat: the board's thickness; stickers on the board: 0).
    """
    detected = detect_markers(image) if detected is None else detected
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
    # Which way a marker's own corners run depends on whether the board frame, seen from above,
    # has y down the page (a printed sheet) or up (a right-handed frame with z up, as the twin
    # draws it): both are fitted and the consistent one kept. Marker centres agree either way.
    fits = []
    for order in (PAGE_ORDER, MIRRORED_ORDER):
        points_mm = np.concatenate([p.corners_mm()[list(order)] for p in found])
        fits.append(fit_homography(points_mm, points_px, robust=len(found) > 2))
    homography, error = min(fits, key=lambda fit: fit[1])
    location = BoardLocation(spec, homography, (width, height), "markers", error, intrinsics)
    if surface_mm:
        location = BoardLocation(spec, location.homography_at_height(surface_mm), (width, height), "markers",
                                 error, intrinsics)
    return location


PAGE_ORDER = (0, 1, 2, 3)  # ArUco's TL, TR, BR, BL are corners_mm() as listed
MIRRORED_ORDER = (3, 2, 1, 0)  # the same marker seen with the frame's y axis reversed
