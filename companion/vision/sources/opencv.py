"""A USB webcam (or any device OpenCV can open) through cv2.VideoCapture."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from ...i18n import N_
from .base import FrameSource, source_error


class OpenCVSource(FrameSource):
    def __init__(self, device: int = 0, width: int = 1280, height: int = 720, failures_allowed: int = 5):
        super().__init__()
        self.device = device
        self.width, self.height = width, height
        self.failures_allowed = failures_allowed
        self.name = f"opencv:{device}"
        self._capture: cv2.VideoCapture | None = None
        self._failures = 0

    def _open(self) -> None:
        # On Linux a webcam is /dev/videoN: when that node is absent, say so without asking OpenCV,
        # whose backends print several lines of errors to stderr for a device that is not there.
        if sys.platform.startswith("linux") and not Path(f"/dev/video{self.device}").exists():
            raise source_error(N_("no camera at OpenCV device {device} (no {node}: check the cable, or set {setting})"),
                               device=self.device, node=f"/dev/video{self.device}", setting="[camera] device")
        capture = cv2.VideoCapture(self.device)
        if not capture.isOpened():
            capture.release()
            raise source_error(N_("no camera at OpenCV device {device} (check the cable, or set {setting})"),
                               device=self.device, setting="[camera] device")
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._capture = capture
        self._failures = 0

    def _read(self) -> np.ndarray | None:
        assert self._capture is not None
        ok, image = self._capture.read()
        if ok and image is not None:
            self._failures = 0
            return image
        self._failures += 1
        if self._failures > self.failures_allowed:
            raise source_error(N_("the camera at OpenCV device {device} stopped delivering frames (unplugged?)"),
                               device=self.device)
        return self._read()

    def _close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
