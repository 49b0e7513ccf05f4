"""One interface for every camera: open, read frames (iterate), close, and say what went wrong.

A source that fails or disappears raises SourceError (a CompanionError: one clear line) and keeps a
`status`; calling open() again retries. A frame that cannot be decoded is skipped with a log line,
never a crash.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator

import cv2
import numpy as np

from ...errors import CompanionError, ErrorText
from ..types import Frame

log = logging.getLogger("companion.vision.sources")


class SourceError(CompanionError):
    """A camera or file source cannot deliver frames (missing device, unreadable path, gone)."""


def source_error(msgid: str, **params) -> SourceError:
    """A SourceError saying `msgid` (marked N_) filled with `params`, shown in the player's language."""
    return SourceError(message=ErrorText.of(msgid, **params))


def failure(exc: BaseException) -> str:
    """A library's own words for a failure, kept as a detail after a translated reason."""
    return f"{type(exc).__name__}: {exc}"


class FrameSource(ABC):
    """Frames from somewhere. Use as `with source: for frame in source: ...`."""

    name: str = "source"

    def __init__(self) -> None:
        self.status = "closed"  # closed, open, ended, failed: <reason>
        self._index = 0

    @abstractmethod
    def _open(self) -> None: ...

    @abstractmethod
    def _read(self) -> np.ndarray | None:
        """The next BGR image, None at the end of the stream; raise SourceError on failure."""

    def _close(self) -> None:  # noqa: B027 - optional hook
        pass

    def open(self) -> FrameSource:
        """Open (or re-open after a failure) the source."""
        if self.status == "open":
            return self
        try:
            self._open()
        except SourceError as exc:
            self.status = f"failed: {exc}"
            raise
        self.status = "open"
        return self

    def close(self) -> None:
        if self.status != "closed":
            self._close()
        self.status = "closed"

    def read(self) -> Frame | None:
        if self.status != "open":
            self.open()
        try:
            image = self._read()
        except SourceError as exc:
            self.status = f"failed: {exc}"
            self._close()
            raise
        if image is None:
            self.status = "ended"
            return None
        frame = Frame(image, time.monotonic(), self.name, self._index)
        self._index += 1
        return frame

    def low_res_grey(self, frame: Frame, width: int = 160) -> np.ndarray:
        """A small grey copy for the motion gate (a camera with a low-res stream overrides this)."""
        h, w = frame.image.shape[:2]
        small = cv2.resize(frame.image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
        return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read()
            if frame is None:
                return
            yield frame

    def __enter__(self) -> FrameSource:
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()
