"""A located board region: its level-0 homography and, through the camera pose, every level."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from ...errors import CompanionError, ErrorText
from ...i18n import N_
from ..boards import BoardSpec
from ..calibration.intrinsics import Intrinsics, default_intrinsics

METHODS = ("markers", "gridlines", "corners")


class LocateError(CompanionError):
    """The board could not be found in the frame (the message says what was missing, in the
    player's language: `render(lang)`). `reason` is that without the board's name, for a line that
    names the board already; it is the whole message when the message does not name the board."""

    def __init__(self, *args: object, message=None, reason=None) -> None:
        super().__init__(*args, message=message)
        self.reason = reason if reason is not None else message


def located_nowhere(msgid: str, **params) -> LocateError:
    """A LocateError saying `msgid` (N_ or NP_) filled with `params`, shown in the player's language."""
    return LocateError(message=ErrorText.of(msgid, **params))


def board_not_located(region: str, msgid: str, **params) -> LocateError:
    """A LocateError about one board region: "<board>: <what was wrong>" (`reason`: the second part)."""
    reason = ErrorText.of(msgid, **params)
    return LocateError(message=ErrorText.of(N_("{region}: {reason}"), region=region, reason=reason), reason=reason)


@dataclass(frozen=True)
class BoardLocation:
    """Board millimetres (x along columns, y along rows, z up) → image pixels.

    `homography` maps the table/board plane z = 0 into the image. `intrinsics` (measured or the
    default guess) lets the pose be recovered so points on higher levels can be projected too.
    """

    spec: BoardSpec
    homography: np.ndarray  # 3×3, mm → px at level 0
    image_size: tuple[int, int]  # (width, height)
    method: str  # one of METHODS
    error_px: float = 0.0  # RMS reprojection error of the correspondences it was fitted to
    intrinsics: Intrinsics | None = None

    @property
    def camera(self) -> Intrinsics:
        return self.intrinsics or default_intrinsics(*self.image_size)

    def with_intrinsics(self, intrinsics: Intrinsics) -> BoardLocation:
        """The same homography with measured intrinsics for lifting to higher levels.

        Only for homographies fitted in the same (undistorted) pixels: the locators take the
        intrinsics themselves so they can undistort their reference points first.
        """
        return replace(self, intrinsics=intrinsics.for_size(*self.image_size))

    def pose(self) -> tuple[np.ndarray, np.ndarray]:
        """(R, t) of the board frame in the camera frame, from the homography and intrinsics.

        R's columns are the board's x and y axes and the board's normal pointing up, towards the
        camera, whichever way round x and y run seen from above (a printed page has y down, a
        right-handed frame with z up has it up): a height h above the board is t + h · R[:, 2].
        """
        k_inv = np.linalg.inv(self.camera.matrix)
        b = k_inv @ self.homography
        scale = 2.0 / (np.linalg.norm(b[:, 0]) + np.linalg.norm(b[:, 1]))
        b = b * scale
        if b[2, 2] < 0:  # the board must lie in front of the camera
            b = -b
        r1, r2, t = b[:, 0], b[:, 1], b[:, 2]
        normal = np.cross(r1, r2)
        if normal @ -t < 0:  # make it point from the board towards the camera (at the origin)
            normal = -normal
        axes = np.column_stack([r1, r2, normal])
        u, _, vt = np.linalg.svd(axes)  # nearest orthonormal axes with the same handedness
        sign = np.sign(np.linalg.det(axes)) or 1.0
        axes = u @ np.diag([1.0, 1.0, sign * np.sign(np.linalg.det(u @ vt))]) @ vt
        return axes, t

    def _columns(self) -> tuple[np.ndarray, np.ndarray]:
        """The level-0 homography and the column a height adds to it: H(z) = H0 + z · [0 0 c]."""
        k = self.camera.matrix
        rotation, t = self.pose()
        # Keep the fitted homography's own scale and error; only add the parallax of the height.
        h0 = self.homography / _scale_to(self.homography, k @ np.column_stack([rotation[:, :2], t]))
        return h0, k @ rotation[:, 2]

    def homography_at_height(self, height_mm: float) -> np.ndarray:
        """mm → px for the plane `height_mm` above the board (level 0 gives the fitted homography).

        Pixels are those of the undistorted image when the intrinsics carry lens distortion.
        """
        if height_mm == 0:
            return self.homography
        h0, z_column = self._columns()
        lifted = h0.copy()
        lifted[:, 2] = h0[:, 2] + height_mm * z_column
        return lifted / lifted[2, 2]

    def homography_at_level(self, level: float) -> np.ndarray:
        return self.homography_at_height(level * self.spec.level_mm)

    def to_pixels(self, xyz: np.ndarray) -> np.ndarray:
        """(N, 3) board points in mm (z = height above the board) → (N, 2) pixels of the raw frame.

        This is the RegionGeometry the observers sample their views with.
        """
        pts = np.asarray(xyz, dtype=np.float64).reshape(-1, 3)
        h0, z_column = self._columns()
        homog = pts[:, :2] @ h0[:, :2].T + h0[:, 2] + pts[:, 2:3] * z_column
        uv = homog[:, :2] / homog[:, 2:3]
        return distort(uv, self.intrinsics)

    def nadir_xy(self) -> tuple[float, float]:
        """The board point straight below the camera (mm): where parallax points away from."""
        rotation, t = self.pose()
        return float(-rotation[:, 0] @ t), float(-rotation[:, 1] @ t)

    def project(self, points_mm: np.ndarray, level: float = 0.0) -> np.ndarray:
        """Raw-frame pixels of board points (N×2 mm) on a level."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        z = np.full((len(pts), 1), level * self.spec.level_mm)
        return self.to_pixels(np.hstack([pts, z]))

    def cell_centres_px(self, level: float = 0.0) -> np.ndarray:
        """rows × cols × 2 image positions of every cell centre (or point) on a level."""
        spec = self.spec
        centres = np.array(
            [spec.cell_centre(r, c) for r in range(spec.rows) for c in range(spec.cols)], dtype=np.float64
        )
        return self.project(centres, level).reshape(spec.rows, spec.cols, 2)

    def rectify(
        self, image: np.ndarray, px_per_mm: float = 4.0, level: float = 0.0, margin_mm: float = 0.0
    ) -> np.ndarray:
        """A top-down view of the board at `level`: pixel (u, v) = ((x + margin) · s, (y + margin) · s)."""
        s = px_per_mm
        out_w = int(round((self.spec.width_mm + 2 * margin_mm) * s))
        out_h = int(round((self.spec.height_mm + 2 * margin_mm) * s))
        if self.intrinsics is None or not any(self.intrinsics.dist_coeffs):
            # No lens distortion: the whole view is one homography, warped in one call.
            to_mm = np.array([[1 / s, 0, -margin_mm], [0, 1 / s, -margin_mm], [0, 0, 1]])
            view_to_image = self.homography_at_level(level) @ to_mm
            return cv2.warpPerspective(image, view_to_image, (out_w, out_h),
                                       flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                       borderMode=cv2.BORDER_REPLICATE)
        ys, xs = np.mgrid[0:out_h, 0:out_w].astype(np.float64)
        xyz = np.column_stack([xs.ravel() / s - margin_mm, ys.ravel() / s - margin_mm,
                               np.full(xs.size, level * self.spec.level_mm)])
        maps = self.to_pixels(xyz).reshape(out_h, out_w, 2).astype(np.float32)
        return cv2.remap(image, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def distort(uv: np.ndarray, intrinsics: Intrinsics | None) -> np.ndarray:
    """Undistorted pixel positions → raw-frame positions (identity without measured distortion)."""
    if intrinsics is None or not any(intrinsics.dist_coeffs):
        return uv
    k = intrinsics.matrix
    normalised = np.column_stack([(uv[:, 0] - k[0, 2]) / k[0, 0], (uv[:, 1] - k[1, 2]) / k[1, 1], np.ones(len(uv))])
    out, _ = cv2.projectPoints(normalised.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), k, intrinsics.distortion)
    return out.reshape(-1, 2)


def undistort(points_px: np.ndarray, intrinsics: Intrinsics | None) -> np.ndarray:
    """Raw-frame pixel positions → undistorted ones (identity without measured distortion)."""
    pts = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    if intrinsics is None or not any(intrinsics.dist_coeffs):
        return pts
    k = intrinsics.matrix
    return cv2.undistortPoints(pts.reshape(-1, 1, 2), k, intrinsics.distortion, P=k).reshape(-1, 2)


def _scale_to(h: np.ndarray, reference: np.ndarray) -> float:
    """The factor s with h ≈ s · reference (homographies are defined up to scale)."""
    return float(np.sum(h * reference) / np.sum(reference * reference))


def fit_homography(points_mm: np.ndarray, points_px: np.ndarray, robust: bool = False) -> tuple[np.ndarray, float]:
    """Homography mm → px from ≥ 4 correspondences, and its RMS reprojection error in pixels."""
    src = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
    dst = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
    if len(src) < 4:
        raise located_nowhere(N_("need at least 4 reference points to place the board, found {count}"),
                              count=len(src))
    method = cv2.RANSAC if robust and len(src) > 4 else 0
    homography, _ = cv2.findHomography(src, dst, method, 3.0)
    if homography is None:
        raise located_nowhere(N_("the reference points are degenerate (collinear or repeated)"))
    projected = cv2.perspectiveTransform(src.reshape(-1, 1, 2), homography).reshape(-1, 2)
    error = float(np.sqrt(np.mean(np.sum((projected - dst) ** 2, axis=1))))
    return homography / homography[2, 2], error
