"""The motion and hand gate: read the board only when the scene has been still for N frames and
no hand is over it, and only once per still period.

Works on a small grey copy (a camera's low-res stream or a downscale): cheap enough to run on every
frame, so an unchanged frame costs a tiny fraction of a full read.
- Motion: the share of pixels that changed since the previous frame.
- Hand: a player's arm always enters the view from its edge. A large changed region, compared with
  the last still scene, that touches the border of the view is an arm, even if it is holding still.
  Pieces that moved lie inside the view, so they never count as a hand. No colour is assumed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np


class Gate(Enum):
    MOVING = "moving"  # something moved since the previous frame
    HAND = "hand"  # still, but an arm reaches in from the edge
    SETTLING = "settling"  # still, waiting for N still frames
    READ = "read"  # still for N frames and different from the last read: read the board now
    UNCHANGED = "unchanged"  # still and the same as the last read: nothing to do


@dataclass
class GateDecision:
    gate: Gate
    moving_share: float  # share of pixels changed since the previous frame
    still_frames: int
    hand_share: float = 0.0  # share of the view covered by an arm from the edge

    @property
    def read(self) -> bool:
        return self.gate is Gate.READ


class MotionGate:
    def __init__(self, still_frames: int = 3, pixel_threshold: float = 12.0, moving_share: float = 0.002,
                 hand_share: float = 0.01, changed_share: float = 0.0005, width: int = 160):
        self.still_needed = still_frames
        self.pixel_threshold = pixel_threshold  # grey levels for a pixel to count as changed
        self.moving_limit = moving_share
        self.hand_limit = hand_share
        self.changed_limit = changed_share
        self.width = width
        self._previous: np.ndarray | None = None
        self._last_read: np.ndarray | None = None
        self._still = 0
        self._read_this_period = False

    def prepare(self, image: np.ndarray) -> np.ndarray:
        """Downscale (if needed) and smooth a grey or BGR image so sensor noise does not count as
        motion.

        A full frame is decimated first and converted to grey after: bilinear resizing straight to
        the small size reads only a 2×2 neighbourhood per output pixel (0.05 ms on 1280×720,
        against 0.8 ms for a full-frame grey conversion plus an area average), and the blur below
        does the noise averaging on the small image. Motion and arms are large changes, so the
        lost detail does not matter; a camera's low-resolution stream skips this step entirely.
        """
        if image.shape[1] != self.width:
            h = max(1, round(image.shape[0] * self.width / image.shape[1]))
            shrink = image.shape[1] > self.width
            image = cv2.resize(image, (self.width, h), interpolation=cv2.INTER_LINEAR if shrink else cv2.INTER_AREA)
        if image.ndim == 3:
            image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(image, (5, 5), 1.0)

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(h, w) uint8: 1 where a pixel changed by more than pixel_threshold grey levels, else 0.
        OpenCV's threshold (integer levels: "> floor(t)" is "> t") rather than numpy's bool array
        and mean: the gate runs on every frame, and this halves its comparisons' cost."""
        return cv2.threshold(cv2.absdiff(a, b), self.pixel_threshold, 1, cv2.THRESH_BINARY)[1]

    def _changed_share(self, a: np.ndarray, b: np.ndarray) -> float:
        """The share of pixels _changed (numpy's mean of the mask: count / size, in float64)."""
        return cv2.countNonZero(self._changed(a, b)) / a.size

    def update(self, grey: np.ndarray) -> GateDecision:
        """Feed the next frame (grey or BGR, any size); say whether to read the board now."""
        small = self.prepare(grey)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            self._still = 0
            self._read_this_period = False
            return GateDecision(Gate.MOVING, 1.0, 0)
        moving = self._changed_share(small, previous)
        if moving > self.moving_limit:
            self._still = 0
            self._read_this_period = False
            return GateDecision(Gate.MOVING, moving, 0)
        self._still += 1
        hand = self._hand_share(small)
        if hand > self.hand_limit:
            self._still = 0
            return GateDecision(Gate.HAND, moving, 0, hand)
        if self._still < self.still_needed:
            return GateDecision(Gate.SETTLING, moving, self._still, hand)
        if self._read_this_period:
            return GateDecision(Gate.UNCHANGED, moving, self._still, hand)
        if self._last_read is not None and self._changed_share(small, self._last_read) <= self.changed_limit:
            self._read_this_period = True
            return GateDecision(Gate.UNCHANGED, moving, self._still, hand)
        self._read_this_period = True
        self._last_read = small
        return GateDecision(Gate.READ, moving, self._still, hand)

    def _hand_share(self, small: np.ndarray) -> float:
        """Share of the view covered by a changed region (since the last read) touching the edge."""
        if self._last_read is None:
            return 0.0
        changed = self._changed(small, self._last_read)
        if not cv2.countNonZero(changed):
            return 0.0
        changed = cv2.morphologyEx(changed, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(changed, connectivity=8)
        h, w = changed.shape
        share = 0.0
        for k in range(1, count):
            x, y, bw, bh, area = stats[k]
            if x == 0 or y == 0 or x + bw >= w or y + bh >= h:
                share += area / (h * w)
        return share

    def reset(self) -> None:
        """Forget everything (e.g. after the camera was moved)."""
        self.__init__(self.still_needed, self.pixel_threshold, self.moving_limit, self.hand_limit,
                      self.changed_limit, self.width)
