"""Board location from the play mat's (or stickers') ArUco markers (layout in vision/mat.py)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import cv2
import numpy as np

from ...errors import ErrorText
from ...i18n import N_
from .. import mat
from ..boards import BoardSpec, frame_is_mirrored
from ..calibration.intrinsics import Intrinsics
from .location import BoardLocation, board_not_located, fit_homography, undistort
from .pinhole import camera_fit_px, fit_camera, pinhole_residual


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
    one misread marker be left out (`_consistent_fit`: the markers must agree with each other
    and with a real camera; when it is unclear which one is wrong the frame is refused).
    `surface_mm`: how far the board's level 0 lies above the markers (a board standing on its
    mat: the board's thickness; stickers on the board: 0).
    """
    detected = detect_region_markers(spec, image) if detected is None else detected
    placements = mat.marker_layout(spec)
    found = [p for p in placements if p.marker_id in detected]
    if len(found) < min_markers:
        wanted = tuple(ErrorText.of(N_("{marker} ({corner})"), marker=p.marker_id,
                                    corner=ErrorText.of(_CORNER_NAMES[p.corner])) for p in placements)
        seen = ", ".join(str(i) for i in sorted(detected))
        raise board_not_located(
            spec.region, N_("found {found} of its markers, need at least {need}; its markers are {wanted}; "
                            "markers seen: {seen}"),
            found=len(found), need=min_markers, wanted=wanted, seen=seen or ErrorText.of(N_("none")))
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
    if mirrored:
        raise board_not_located(
            spec.region, N_("its markers are where the mat puts them but the board would be the mirror image of "
                            "itself: the mat was printed the other way round (row 1 must run along the page's "
                            "bottom edge; print it again with {command}) or the camera picture is mirrored "
                            "(turn off the camera's mirror setting)"),
            command="`companion calibrate mat`")
    homography, error = _consistent_fit(spec, found, points_mm, points_px, limit, (width, height), intrinsics)
    location = BoardLocation(spec, homography, (width, height), "markers", error, intrinsics)
    if surface_mm:
        location = BoardLocation(spec, location.homography_at_height(surface_mm), (width, height), "markers",
                                 error, intrinsics)
    return location


# The mat's corners (mat.CORNERS) as a player names them, in a refusal listing the markers.
_CORNER_NAMES = {"top_left": N_("top left"), "top_right": N_("top right"), "bottom_right": N_("bottom right"),
                 "bottom_left": N_("bottom left")}

MAX_ERROR_PX = 2.0  # a marker fitted worse than this (or 6 % of its side) does not fit the mat

# How far from a pinhole camera's (pinhole.pinhole_residual: ~ skew in radians and relative
# stretch) a fit may be, by how many markers it rests on. Sets of 4 markers read right on the
# twin's frames (40-90 cm, its lens distortion left in): at most 0.004 (40 frames); bent by one
# read 5-60 px off its place: median 0.02-0.04. Fewer markers extrapolate further and scatter
# more: right sets of 3 up to 0.056 (168 sets, 90 % under 0.011), of 2 up to 0.15.
MAX_PINHOLE = {2: 0.2, 3: 0.06, 4: 0.01}
# A marker left out must be clear: the best set without one marker scores at least this much
# better than the runner-up (score: worst marker's fit error / limit + pinhole residual / 0.05).
CLEAR_MARGIN = 1.3
PINHOLE_WEIGHT = 0.05
# How far (px) a marker's centre may lie from where a pinhole camera fitted to the whole set (all
# its markers' corners, pinhole.fit_camera) puts it. A homography bends to fit any four small
# markers; a camera cannot quite: four centres give 8 equations and a camera has 7 unknowns (its
# pose and focal length), 6 when the intrinsics are calibrated, so a marker read off its place
# leaves its centre off the camera's, except for the part of the misread a camera's pose (and
# focal length) can take up, which no test on four markers can see. The detector finds a centre
# within ~0.2 px, while it shrinks a marker's corners by 0.3-0.5 px and turns them by tenths of a
# pixel: centres judge a set far more sharply than corners. Twin, 40-90 cm, right sets of 4: at
# most 0.37 px uncalibrated (its lens distortion unmodelled), 0.26 px with its intrinsics as a
# calibration; one marker read 10 px off: median 1.9 px, 15 px: 2.7 px. Three markers: their
# centres fit a camera exactly (6 equations), so the check rests on their shapes and catches a
# misread among three mostly with a calibration.
MAX_CENTRE_PX = 0.75  # uncalibrated: room for the lens distortion nobody measured
MAX_CENTRE_PX_CALIBRATED = 0.5
# Three markers: how far (px, RMS) a marker's corners may lie from the camera fitted to the three
# once its own shift and size are taken out (pinhole.CameraFit.shape_px): how it is turned and
# foreshortened, which a misread among three leaves wrong when the camera bends to its centre.
# Twin, right sets of 3: at most 0.86 px (uncalibrated), 0.82 (calibrated); one of them read 25 px
# off: median 1.3 px. The corners' own RMS (camera_fit_px, up to 2.8 px allowed for 47 px markers)
# carries the detector's shrinking of every marker and lets such misreads through.
MAX_SHAPE_PX = 1.2


def _consistent_fit(spec: BoardSpec, found: list, points_mm: np.ndarray, points_px: np.ndarray, limit: float,
                    image_size: tuple[int, int], intrinsics: Intrinsics | None) -> tuple[np.ndarray, float]:
    """The homography of the markers that agree with each other and with a real camera.

    Every found marker when all of them fit within `limit`, the homography is one a pinhole
    camera can make and every marker's centre lies where a camera fitted to them all puts it
    (three markers: and each marker is turned as that camera says); otherwise the best set
    without one marker, when it is plausible and clearly better than every other such set.
    Markers are the unit (not their corners): each is fitted with least squares, so a set cannot
    keep a misread marker by dropping some of its corners.

    Why the camera checks: four small markers are close to four points, which any homography
    (8 degrees of freedom) can map anywhere; a marker read off its place bends the board to fit
    it, and with three or four markers the bent fit may still place every marker within a pixel
    or two. A bent homography is mostly not one a camera can make (pinhole.py), and the part of
    a misread a camera can take up is the part no test on these markers can see.
    """
    markers = len(found)
    all_markers = _subset_fit(points_mm, points_px, tuple(range(markers)), limit, image_size, intrinsics)
    if all_markers.plausible:
        return all_markers.homography, all_markers.error
    seen = ", ".join(str(p.marker_id) for p in found)
    if markers < 3:
        raise board_not_located(
            spec.region, N_("markers {seen} are not where its mat puts them (fit error {error} px): "
                            "is the mat flat and whole, and the camera picture not mirrored?"),
            seen=seen, error=f"{all_markers.error:.1f}")
    ranked = sorted(
        (fit for keep in itertools.combinations(range(markers), markers - 1)
         for fit in [_subset_fit(points_mm, points_px, keep, limit, image_size, intrinsics)]
         if fit.plausible),
        key=lambda fit: fit.score,
    )
    if not ranked:
        raise board_not_located(
            spec.region, N_("markers {seen} are not where its mat puts them (fit error {error} px), and no marker "
                            "can be left out to make them agree: is the mat flat and whole, and the camera "
                            "picture not mirrored?"),
            seen=seen, error=f"{all_markers.error:.1f}")
    if len(ranked) > 1 and ranked[1].score < CLEAR_MARGIN * ranked[0].score:
        left_out = [str(found[i].marker_id) for fit in ranked[:2] for i in range(markers) if i not in fit.keep]
        raise board_not_located(
            spec.region, N_("markers {seen} do not agree and it is unclear which one is misread "
                            "(marker {first} or {second}): is one of them covered, curled or another picture?"),
            seen=seen, first=left_out[0], second=left_out[1])
    return ranked[0].homography, ranked[0].error


def _max_pinhole(markers: int) -> float:
    return MAX_PINHOLE[min(max(markers, 2), 4)]


@dataclass(frozen=True)
class _SubsetFit:
    keep: tuple[int, ...]  # indices into the found markers
    homography: np.ndarray
    error: float  # RMS over the kept corners, px
    worst: float  # the worst kept marker's RMS error / limit
    pinhole: float  # pinhole.pinhole_residual
    camera: float  # a set of 3 markers: the worst marker's error / limit with a camera fitted (else 0)
    centre: float = 0.0  # 3 markers or more: the worst marker centre off a fitted camera / its allowance
    shape: float = 0.0  # 3 markers: the worst marker's shape off the fitted camera / MAX_SHAPE_PX

    @property
    def score(self) -> float:
        return self.worst + self.pinhole / PINHOLE_WEIGHT + self.centre

    @property
    def plausible(self) -> bool:
        """Every marker within the limit, a homography (for 3 markers: a camera) a real camera can
        make, and every marker's centre where a camera fitted to them all puts it."""
        return (self.worst <= 1.0 and self.pinhole <= _max_pinhole(len(self.keep)) and self.camera <= 1.0
                and self.centre <= 1.0 and self.shape <= 1.0)


def _subset_fit(points_mm: np.ndarray, points_px: np.ndarray, keep: tuple[int, ...], limit: float,
                image_size: tuple[int, int], intrinsics: Intrinsics | None) -> _SubsetFit:
    rows = np.concatenate([np.arange(4 * i, 4 * i + 4) for i in keep])
    homography, error = fit_homography(points_mm[rows], points_px[rows])
    per_marker = _marker_errors(homography, points_mm[rows], points_px[rows], len(keep))
    pinhole = pinhole_residual(homography, image_size, intrinsics)
    # Three markers: a camera fitted to them (twin, right sets of 3: worst marker at most 1.4 px;
    # bent by a marker misread 30-45 px: 89 % over 2 px, where the pinhole residual caught 74 %).
    camera = camera_fit_px(points_mm[rows], points_px[rows], image_size, intrinsics) / limit if len(keep) == 3 else 0.0
    centre = shape = 0.0
    if len(keep) >= 3:
        fitted = fit_camera(points_mm[rows], points_px[rows], image_size, intrinsics)
        allowed = MAX_CENTRE_PX_CALIBRATED if intrinsics is not None and intrinsics.measured else MAX_CENTRE_PX
        centre = float(fitted.centre_px.max()) / allowed if fitted is not None else float("inf")
        if len(keep) == 3:
            shape = float(fitted.shape_px.max()) / MAX_SHAPE_PX if fitted is not None else float("inf")
    return _SubsetFit(keep, homography, error, float(per_marker.max() / limit), pinhole, camera, centre, shape)


def _marker_errors(homography: np.ndarray, points_mm: np.ndarray, points_px: np.ndarray, markers: int) -> np.ndarray:
    """Per marker: the RMS distance (px) between its 4 detected corners and where the homography puts them."""
    projected = cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)
    return np.sqrt(np.mean(np.sum((projected - points_px) ** 2, axis=1).reshape(markers, 4), axis=1))


def _mirrored_corners(spec, placement) -> np.ndarray:
    """The corners a marker would have in the mirrored frame (for telling a mirrored mat apart)."""
    return mat.detected_corners_mm(spec, placement)[[3, 2, 1, 0]]
