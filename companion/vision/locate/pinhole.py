"""Could a real camera have made this homography? (Zhang's constraints on a plane's homography.)

A pinhole camera K [R | t] sees the plane z = 0 through H = λ K [r1 r2 t]: the columns
b1, b2 of K⁻¹ H are then perpendicular and equally long. A homography fitted to a few small,
bunched markers has 8 degrees of freedom and can bend to fit a misread marker; the bent ones
are (mostly) not of this form. With square pixels, no skew and the principal point at the image
centre, only the focal length is unknown: it is searched over the focal lengths of real lenses
(or taken from the calibration when there is one).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration.intrinsics import Intrinsics

# Focal length / image width of the lenses searched when the camera is not calibrated: from a
# 102° wide lens (0.4, the Pi Camera Module 3 Wide) to a 42° narrow one (1.3); the standard Pi
# camera modules are 0.77-0.83.
FOCAL_PER_WIDTH = np.geomspace(0.4, 1.3, 48)
CALIBRATED_FOCAL = np.geomspace(0.93, 1.075, 9)  # × a measured focal length (a calibration is off by a few %)


def pinhole_residual(homography: np.ndarray, image_size: tuple[int, int],
                     intrinsics: Intrinsics | None = None) -> float:
    """How far the homography is from one a pinhole camera can make: 0 for a perfect one.

    Per candidate focal length: hypot(cos of the angle between b1 and b2, log of their length
    ratio), i.e. roughly the skew angle in radians and the relative stretch between the board's
    two axes; the smallest over the candidates is returned. With measured intrinsics their own
    principal point and focal length (± 7 %) are tried (the homography must then be fitted in
    undistorted pixels).
    """
    h = np.asarray(homography, dtype=np.float64)
    b = np.linalg.inv(_matrices(image_size, intrinsics, FOCAL_PER_WIDTH)) @ h  # (n, 3, 3)
    b1, b2 = b[:, :, 0], b[:, :, 1]
    n1, n2 = np.linalg.norm(b1, axis=1), np.linalg.norm(b2, axis=1)
    cosine = np.sum(b1 * b2, axis=1) / (n1 * n2)
    return float(np.min(np.hypot(cosine, np.log(n1 / n2))))


def _matrices(image_size: tuple[int, int], intrinsics: Intrinsics | None, focal_per_width: np.ndarray) -> np.ndarray:
    """(n, 3, 3) the camera matrices tried: measured intrinsics with their focal length within a
    calibration's error, else square pixels, no skew, principal point at the centre and the
    focal lengths of real lenses."""
    width, height = image_size
    if intrinsics is not None and intrinsics.measured:
        matrices = intrinsics.for_size(width, height).matrix[None].repeat(len(CALIBRATED_FOCAL), axis=0)
        matrices[:, :2, :2] *= CALIBRATED_FOCAL[:, None, None]
        return matrices
    focals = focal_per_width * width
    matrices = np.zeros((len(focals), 3, 3))
    matrices[:, 0, 0] = matrices[:, 1, 1] = focals
    matrices[:, 0, 2], matrices[:, 1, 2], matrices[:, 2, 2] = width / 2.0, height / 2.0, 1.0
    return matrices


def camera_fit_px(points_mm: np.ndarray, points_px: np.ndarray, image_size: tuple[int, int],
                  intrinsics: Intrinsics | None = None) -> float:
    """The worst marker's RMS error (px) when a pinhole camera itself is fitted to the corners
    (4 per marker, in order): its pose by cv2.solvePnP, its focal length searched as in
    pinhole_residual. Three markers give a homography too little to be judged by: any three
    points fit one exactly, and its pinhole residual scatters (up to 0.056 on right sets of three
    on the twin), while a camera (6 or 7 degrees of freedom, not 8) cannot bend as far."""
    obj = np.column_stack([np.asarray(points_mm, np.float64).reshape(-1, 2), np.zeros(len(points_mm))])
    img = np.asarray(points_px, np.float64).reshape(-1, 2)
    matrices = _matrices(image_size, intrinsics, FOCAL_PER_WIDTH[::4])
    errors = [_camera_error(obj, img, k) for k in matrices]
    if intrinsics is None or not intrinsics.measured:
        # Then finer around the best focal length of that coarse search (steps of ~11 %).
        best = matrices[int(np.argmin(errors)), 0, 0] / image_size[0]
        fine = _matrices(image_size, None, best * np.geomspace(0.9, 1.11, 9))
        errors += [_camera_error(obj, img, k) for k in fine]
    return float(min(errors))


def _camera_error(obj: np.ndarray, img: np.ndarray, k: np.ndarray) -> float:
    ok, rvec, tvec = cv2.solvePnP(obj, img, k, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return float("inf")
    rvec, tvec = cv2.solvePnPRefineLM(obj, img, k, None, rvec, tvec)
    projected, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
    squared = np.sum((projected.reshape(-1, 2) - img) ** 2, axis=1).reshape(-1, 4)
    return float(np.sqrt(squared.mean(axis=1)).max())


@dataclass(frozen=True)
class CameraFit:
    """A pinhole camera fitted to markers' corners (4 per marker, in order), and how each marker
    disagrees with it, split by what the detector's noise affects.

    The detector places a marker's corners 0.3-0.5 px inside its square (more when blurred, the
    twin at 40-90 cm) and turns a small marker's edges by a few tenths of a pixel, but finds its
    centre within ~0.2 px (worst 0.75 px over 230 twin markers). A marker read off its place moves
    its centre by the misread. So `centre_px` judges where a marker is, and `shape_px` (its
    corners once its own shift and size are taken out) how it is turned and foreshortened."""

    matrix: np.ndarray  # 3×3 camera matrix (the focal length found)
    rvec: np.ndarray
    tvec: np.ndarray
    centre_px: np.ndarray  # per marker: detected centre to projected centre
    shape_px: np.ndarray  # per marker: RMS corner residual without its shift and scale
    corner_px: np.ndarray  # per marker: RMS corner residual

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Pixels (undistorted) of board points (N×2 mm, z = 0) seen by this camera."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        obj = np.column_stack([pts, np.zeros(len(pts))])
        projected, _ = cv2.projectPoints(obj, self.rvec, self.tvec, self.matrix, None)
        return projected.reshape(-1, 2)


def fit_camera(points_mm: np.ndarray, points_px: np.ndarray, image_size: tuple[int, int],
               intrinsics: Intrinsics | None = None) -> CameraFit | None:
    """The pinhole camera (pose by solvePnP, focal length searched as in camera_fit_px) that fits
    the corners best in the least-squares sense, with each marker's residuals; None if none fits."""
    obj = np.column_stack([np.asarray(points_mm, np.float64).reshape(-1, 2), np.zeros(len(points_mm))])
    img = np.asarray(points_px, np.float64).reshape(-1, 2)
    matrices = list(_matrices(image_size, intrinsics, FOCAL_PER_WIDTH[::4]))
    if intrinsics is None or not intrinsics.measured:
        # the coarse search's poses unrefined (IPPE alone is close), then finer around its best
        coarse = [_pose(obj, img, k, refine=False)[0] for k in matrices]
        focal = matrices[int(np.argmin(coarse))][0, 0] / image_size[0]
        matrices = list(_matrices(image_size, None, focal * np.geomspace(0.9, 1.11, 9)))
    squared, found = min((_pose(obj, img, k) for k in matrices), key=lambda f: f[0])
    if found is None:
        return None
    k, rvec, tvec, projected = found
    corners = projected.reshape(-1, 4, 2)
    detected = img.reshape(-1, 4, 2)
    residual = detected - corners
    shift = residual.mean(axis=1, keepdims=True)
    outward = corners - corners.mean(axis=1, keepdims=True)
    outward /= np.linalg.norm(outward, axis=2, keepdims=True)
    size = np.sum((residual - shift) * outward, axis=2).mean(axis=1)[:, None, None]  # along the diagonals
    rest = residual - shift - size * outward
    return CameraFit(k, rvec, tvec, np.linalg.norm(shift[:, 0], axis=1),
                     np.sqrt(np.mean(np.sum(rest ** 2, axis=2), axis=1)),
                     np.sqrt(np.mean(np.sum(residual ** 2, axis=2), axis=1)))


def _pose(obj: np.ndarray, img: np.ndarray, k: np.ndarray, refine: bool = True) -> tuple[float, tuple | None]:
    ok, rvec, tvec = cv2.solvePnP(obj, img, k, None, flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        return float("inf"), None
    if refine:
        rvec, tvec = cv2.solvePnPRefineLM(obj, img, k, None, rvec, tvec)
    projected, _ = cv2.projectPoints(obj, rvec, tvec, k, None)
    projected = projected.reshape(-1, 2)
    return float(np.sum((projected - img) ** 2)), (k, rvec, tvec, projected)
