"""The ChArUco calibration sheets and camera calibration from views of one.

A ChArUco board is a chessboard whose white squares hold ArUco markers: every detected corner is
identified, so partial and tilted views still count. Intrinsics do not depend on the printed
scale, so a sheet printed with "fit to page" still calibrates the camera correctly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from ...errors import ErrorText
from ...i18n import N_, NP_
from .intrinsics import Intrinsics

DICTIONARY = cv2.aruco.DICT_5X5_100  # not the mat's 4×4 family: a sheet never reads as a mat
MIN_CORNERS = 8  # a view with fewer identified corners adds little and can mislead
COVERAGE_GRID = (6, 4)  # the frame is split into 6×4 zones; coverage = share of zones seen


@dataclass(frozen=True)
class Sheet:
    name: str
    paper_mm: tuple[float, float]  # portrait (width, height)
    squares: tuple[int, int]  # (columns, rows)
    square_mm: float
    marker_mm: float

    @property
    def board_mm(self) -> tuple[float, float]:
        return self.squares[0] * self.square_mm, self.squares[1] * self.square_mm

    def board(self) -> cv2.aruco.CharucoBoard:
        dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
        return cv2.aruco.CharucoBoard(self.squares, self.square_mm, self.marker_mm, dictionary)


SHEETS = {
    "a4": Sheet("a4", (210.0, 297.0), (7, 10), 25.0, 18.0),
    "a3": Sheet("a3", (297.0, 420.0), (10, 14), 28.0, 20.0),
}


@dataclass(frozen=True)
class ViewResult:
    accepted: bool
    corners: int
    reason: ErrorText | None = None  # why a view was not used (shown in the setup person's language)


@dataclass
class CameraCalibrator:
    """Collects views of a sheet, then solves for the intrinsics.

    Good enough when at least `min_views` views are used, the corners seen cover
    `min_coverage` of the frame and the reprojection error is at most `max_rms_px`.
    """

    sheet: Sheet
    min_views: int = 8
    min_coverage: float = 0.6
    max_rms_px: float = 1.0
    image_size: tuple[int, int] | None = None
    object_points: list[np.ndarray] = field(default_factory=list)
    image_points: list[np.ndarray] = field(default_factory=list)
    _zones: set[tuple[int, int]] = field(default_factory=set)
    _seen: list[tuple[float, float, float]] = field(default_factory=list)  # centroid x, y, spread

    def __post_init__(self) -> None:
        self._detector = cv2.aruco.CharucoDetector(self.sheet.board())

    def add_view(self, image: np.ndarray, distinct: bool = False) -> ViewResult:
        """Use a view if enough sheet corners are found. With `distinct`, a view too like one
        already used (the sheet within 5 % of the frame of an earlier place and at a similar
        apparent size) is passed over: a live camera otherwise collects the same pose many times."""
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        size = (grey.shape[1], grey.shape[0])
        if self.image_size is None:
            self.image_size = size
        elif size != self.image_size:
            w, h = self.image_size
            return ViewResult(False, 0, ErrorText.of(N_("image is {size}, the other views are {other}"),
                                                     size=f"{size[0]}×{size[1]}", other=f"{w}×{h}"))
        corners, ids, _, _ = self._detector.detectBoard(grey)
        count = 0 if ids is None else len(ids)
        if count < MIN_CORNERS:
            return ViewResult(False, count, ErrorText.of(
                NP_("only {count} sheet corner found (need {need})", "only {count} sheet corners found (need {need})"),
                count=count, need=MIN_CORNERS))
        obj, img = self.sheet.board().matchImagePoints(corners, ids)
        pts = img.reshape(-1, 2)
        signature = (float(pts[:, 0].mean()), float(pts[:, 1].mean()), float(pts.std(axis=0).sum()))
        if distinct:
            for number, (x, y, spread) in enumerate(self._seen, start=1):
                if (abs(x - signature[0]) < 0.05 * size[0] and abs(y - signature[1]) < 0.05 * size[1]
                        and abs(spread - signature[2]) < 0.1 * spread):
                    return ViewResult(False, count, ErrorText.of(
                        N_("too like view {number}: move or tilt the sheet"), number=number))
        self._seen.append(signature)
        self.object_points.append(obj.reshape(-1, 3).astype(np.float32))
        self.image_points.append(img.reshape(-1, 2).astype(np.float32))
        cols, rows = COVERAGE_GRID
        for x, y in img.reshape(-1, 2):
            self._zones.add((min(int(x / size[0] * cols), cols - 1), min(int(y / size[1] * rows), rows - 1)))
        return ViewResult(True, count)

    @property
    def views(self) -> int:
        return len(self.object_points)

    @property
    def coverage(self) -> float:
        return len(self._zones) / (COVERAGE_GRID[0] * COVERAGE_GRID[1])

    def calibrate(self) -> Intrinsics:
        """Solve with what was collected (needs at least 3 views)."""
        if self.views < 3 or self.image_size is None:
            raise ValueError(f"need at least 3 usable views of the sheet, have {self.views}")
        flags = cv2.CALIB_FIX_K3  # k3 is poorly constrained by a few flat views; k1, k2, p1, p2 suffice
        rms, k, dist, _, _ = cv2.calibrateCamera(
            self.object_points, self.image_points, self.image_size, None, None, flags=flags
        )
        return Intrinsics(
            self.image_size,
            tuple(tuple(float(v) for v in row) for row in k),
            tuple(float(v) for v in dist.ravel()),
            float(rms),
            self.views,
        )

    def shortcomings(self, intrinsics: Intrinsics | None) -> list[ErrorText]:
        """What is still missing for a trustworthy calibration (empty when good enough), each in
        words the setup person reads in their language (`render(lang)`)."""
        missing = []
        if self.views < self.min_views:
            missing.append(ErrorText.of(
                NP_("{count} view, want {want} (tilt the sheet differently each time)",
                    "{count} views, want {want} (tilt the sheet differently each time)"),
                count=self.views, want=self.min_views))
        if self.coverage < self.min_coverage:
            missing.append(ErrorText.of(
                N_("corners cover {coverage} of the frame, want {want} (show the sheet near the edges and corners too)"),
                coverage=f"{self.coverage:.0%}", want=f"{self.min_coverage:.0%}"))
        if intrinsics is not None and intrinsics.rms_px is not None and intrinsics.rms_px > self.max_rms_px:
            missing.append(ErrorText.of(
                N_("reprojection error {error} px, want ≤ {want} px (blurred or bent sheet? hold it flat and still)"),
                error=f"{intrinsics.rms_px:.2f}", want=f"{self.max_rms_px:.2f}"))
        return missing
