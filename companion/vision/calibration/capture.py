"""Few-shot appearance capture: learn a region's piece appearance from 1–3 frames of a known layout.

The player lays out the region's calibration layout (layouts.py; diagram in calibration/), the
camera takes a few frames, and each frame is checked before it is used:

- the board must lie inside the picture, neither too dark nor washed out;
- every kind of piece must be seen (the observer learns each class from where the layout puts it);
- read back with what was learned, the frame must show the layout: if more than a few places read
  otherwise, the pieces are not where the layout says and the frame is refused, naming a place.

`AppearanceCapture` is what the command line (`companion calibrate appearance`) and the
touchscreen's calibration wizard both drive:

    capture = AppearanceCapture("reclamation", geometry)      # geometry: a BoardLocation
    progress = capture.feed(frame_bgr)                        # → CaptureProgress, per frame
    progress.fraction, progress.step, progress.verdict, progress.ok
    saved = capture.save(state_dir)                           # → SavedProfile (path, previous, set_aside)

Texts are (msgid, params) pairs marked with companion.i18n.N_: the referee or the UI wraps them in
a Message to show them in the player's language (vision does not import games).
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ...errors import CompanionError, ErrorText, FormatError
from ...i18n import N_, NP_
from ..appearance import AppearanceProfile
from . import files
from .layouts import CalibrationLayout, layout_for

Text = tuple[str, dict[str, Any]]  # (msgid marked with N_, params)

DARK_BELOW = 45  # median grey (0-255) of the board area below which a frame is too dark
WASHED_OUT_SHARE = 0.25  # share of the board area at ≥ 250 grey beyond which it is too bright
# More places than this share (and more than two) reading otherwise than the layout: the pieces are
# misplaced. Not lower: the observers misread a few places of a correct layout too (babel, baubylon).
MISREAD_SHARE = 0.2


@dataclass(frozen=True)
class Misread:
    """A place that read otherwise than the layout asks for (row, col counted from 0)."""

    row: int
    col: int
    expected: tuple[str, dict[str, Any]]
    seen: tuple[str, dict[str, Any]]


@dataclass(frozen=True)
class CaptureProgress:
    fraction: float  # frames taken / frames wanted, 0..1
    step: Text  # what the player should do now
    verdict: Text | None  # what was made of the last frame (None before the first)
    ok: bool | None  # None: collecting; False: the last frame was refused; True: enough taken, save
    frames_used: int = 0
    misreads: tuple[Misread, ...] = ()  # places of the last frame that read otherwise


@dataclass(frozen=True)
class SavedProfile:
    path: Path
    previous: Path | None = None  # the valid profile it replaced, kept beside it
    set_aside: Path | None = None  # an unusable file (corrupt, another region) moved out of the way
    set_aside_reason: str = ""  # English, for logs
    set_aside_error: Any = None  # why, in the player's language (the error renders itself)


@dataclass
class AppearanceCapture:
    """Collects calibration frames of one region and learns its AppearanceProfile from them."""

    region: str
    geometry: Any  # RegionGeometry: a BoardLocation, or the twin's camera geometry in tests
    frames_wanted: int = 3
    observer_factory: Callable[..., Any] | None = None  # default: the region's observer class
    layout: CalibrationLayout = field(init=False)
    _samples: dict[str, list[np.ndarray]] = field(init=False, default_factory=dict)
    _used: int = field(init=False, default=0)
    _last: CaptureProgress = field(init=False)

    def __post_init__(self) -> None:
        if not 1 <= self.frames_wanted <= 10:
            raise ValueError(f"frames_wanted: expected 1 to 10, got {self.frames_wanted}")
        self.layout = layout_for(self.region)
        if self.observer_factory is None:
            from ..observers import observer_class

            self.observer_factory = observer_class(self.region)
            if self.observer_factory is None:
                raise CompanionError(message=ErrorText.of(N_("{region}: no observer for this region on this build"),
                                                          region=self.region))
        self._observer = self.observer_factory(self.geometry)
        self._last = CaptureProgress(0.0, self._step(), None, None)

    # --- the wizard's side ------------------------------------------------------------------------
    @property
    def progress(self) -> CaptureProgress:
        return self._last

    @property
    def frames_used(self) -> int:
        return self._used

    @property
    def ready(self) -> bool:
        """At least one good frame: a profile can be saved (more frames make it steadier)."""
        return self._used > 0

    def feed(self, image: np.ndarray) -> CaptureProgress:
        """Check one frame of the laid-out calibration layout and, if it is good, learn from it."""
        if self._used >= self.frames_wanted:
            return self._last
        verdict, misreads, samples = self._judge(image)
        if samples is None:
            self._last = CaptureProgress(self._fraction(), self._step(refused=True), verdict, False,
                                         self._used, misreads)
            return self._last
        for name, vectors in samples.items():
            self._samples.setdefault(name, []).extend(vectors)
        self._used += 1
        done = self._used >= self.frames_wanted
        self._last = CaptureProgress(self._fraction(), self._step(), verdict, True if done else None,
                                     self._used, misreads)
        return self._last

    def profile(self) -> AppearanceProfile:
        if not self._samples:
            raise CompanionError(message=ErrorText.of(N_("{region}: no good calibration frame yet, nothing to learn from"),
                                                      region=self.region))
        return AppearanceProfile.learn(self.region, self._samples)

    def save(self, state_dir: Path) -> SavedProfile:
        """Write <state_dir>/calibration/appearance-<region>.json (atomically).

        A valid profile of this region already there is kept as appearance-<region>.prev.json; a
        file there that cannot be used (corrupt, another region) is not overwritten silently: it is
        moved aside to appearance-<region>.unusable-<UTC time>.json and the result says so.
        """
        profile = self.profile()
        path = files.calibration_dir(state_dir) / f"appearance-{self.region}.json"
        return save_profile(profile, path)

    # --- judging a frame --------------------------------------------------------------------------
    def _judge(self, image: Any) -> tuple[Text, tuple[Misread, ...], dict[str, list] | None]:
        if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            shape = getattr(image, "shape", None)
            return (N_("This frame is not a colour camera picture (expected height × width × 3 bytes, "
                       "got {shape})."), {"shape": str(shape)}), (), None
        light = self._light_problem(image)
        if light is not None:
            return light, (), None
        truth = self.layout.truth()
        try:
            samples = self._observer.calibration_samples(image, truth)
        except (ValueError, IndexError) as exc:
            return (N_("The board could not be measured in this frame ({reason})."), {"reason": str(exc)}), (), None
        missing = sorted(set(self._needed()) - set(samples))
        if missing:
            return (N_("Some kinds of piece cannot be seen where the layout puts them: {missing}. Check the "
                       "layout against the diagram."), {"missing": ", ".join(missing)}), (), None
        try:
            misreads = self._read_back(image, samples)
        except (KeyError, IndexError, ValueError) as exc:
            # The observer needs a class this frame did not show, or what was learned is unusable.
            return (N_("Some kinds of piece cannot be seen where the layout puts them: {missing}. Check the "
                       "layout against the diagram."), {"missing": str(exc.args[0]) if exc.args else "?"}), (), None
        cells = len(truth) * len(truth[0])
        if misreads and len(misreads) > max(2, MISREAD_SHARE * cells):
            first = misreads[0]
            return (N_("The pieces are not where the layout puts them: {count} of {total} places read "
                       "differently, for example row {row}, column {col}: expected {expected}, seen {seen}."),
                    {"count": len(misreads), "total": cells, "row": first.row + 1, "col": first.col + 1,
                     "expected": _show(first.expected), "seen": _show(first.seen)}), misreads, None
        if misreads:
            first = misreads[0]
            return (NP_("Good frame, but {count} place reads differently (row {row}, column {col}: expected "
                        "{expected}, seen {seen}); check it.",
                        "Good frame, but {count} places read differently (row {row}, column {col}: expected "
                        "{expected}, seen {seen}); check them."),
                    {"count": len(misreads), "row": first.row + 1, "col": first.col + 1,
                     "expected": _show(first.expected), "seen": _show(first.seen)}), misreads, samples
        return (N_("Good frame: every place shows what the layout asks for."), {}), (), samples

    def _needed(self) -> set[str]:
        """The classes the first good frame taught: every later frame must show them too."""
        return set(self._samples)

    def _light_problem(self, image: np.ndarray) -> Text | None:
        mask = self._board_mask(image.shape[:2])
        if mask is None:
            return N_("The board is not wholly in the picture: move the camera or the board."), {}
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[mask]
        median = float(np.median(grey))
        if median < DARK_BELOW:
            return (N_("Too dark: the board is at {percent} % brightness. Turn on a light or open the "
                       "curtains."), {"percent": round(100 * median / 255)})
        washed = float(np.mean(grey >= 250))
        if washed > WASHED_OUT_SHARE:
            return (N_("Too bright: {percent} % of the board is washed out white. Dim the light or turn it "
                       "away from the board."), {"percent": round(100 * washed)})
        return None

    def _board_mask(self, shape: tuple[int, int]) -> np.ndarray | None:
        spec = self._observer_spec()
        corners = np.array([[0, 0, 0], [spec.width_mm, 0, 0], [spec.width_mm, spec.height_mm, 0],
                            [0, spec.height_mm, 0]], dtype=np.float64)
        px = np.asarray(self.geometry.to_pixels(corners), dtype=np.float64)
        height, width = shape
        if not np.all(np.isfinite(px)) or px[:, 0].min() < 0 or px[:, 1].min() < 0 \
                or px[:, 0].max() > width - 1 or px[:, 1].max() > height - 1:
            return None
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(px).astype(np.int32), 1)
        return mask.astype(bool)

    def _observer_spec(self):
        from ..boards import REGIONS

        return REGIONS[self.region]

    def _read_back(self, image: np.ndarray, samples: dict[str, list]) -> tuple[Misread, ...]:
        """Learn from what was taken so far plus this frame, read this frame, list the places that
        differ from the layout."""
        merged = {name: [*self._samples.get(name, []), *vectors] for name, vectors in samples.items()}
        self._observer.profile = AppearanceProfile.learn(self.region, merged)
        try:
            observation = self._observer.observe(image)
        finally:
            self._observer.profile = None
        expected = self.layout.expected()
        out = []
        for r, row in enumerate(expected):
            for c, want in enumerate(row):
                cell = observation.cell(r, c)
                if (cell.label, cell.attrs) != tuple(want):
                    out.append(Misread(r, c, tuple(want), (cell.label, dict(cell.attrs))))
        return tuple(out)

    # --- texts ------------------------------------------------------------------------------------
    def _fraction(self) -> float:
        return min(1.0, self._used / self.frames_wanted)

    def _step(self, refused: bool = False) -> Text:
        if self._used >= self.frames_wanted:
            return N_("Calibration frames taken: save the profile."), {}
        if refused:
            return N_("Put it right, then take frame {number} of {wanted}."), {
                "number": self._used + 1, "wanted": self.frames_wanted}
        if self._used == 0:
            return N_("Lay out the calibration pieces as the diagram shows, keep hands away, then take frame "
                      "1 of {wanted}."), {"wanted": self.frames_wanted}
        return N_("Take frame {number} of {wanted} (light may change a little: that helps)."), {
            "number": self._used + 1, "wanted": self.frames_wanted}


def _show(cell: tuple[str, dict[str, Any]]) -> str:
    label, attrs = cell
    details = ", ".join(f"{k} {v}" for k, v in attrs.items())
    return f"{label} ({details})" if details else label


def save_profile(profile: AppearanceProfile, path: Path) -> SavedProfile:
    """Save atomically; keep a valid older profile of the same region as .prev.json; move an
    unusable file aside (never overwrite it silently)."""
    path = Path(path)
    previous = set_aside = None
    reason, error = "", None
    if path.exists():
        try:
            old = AppearanceProfile.load(path)
            if old.region != profile.region:
                raise FormatError(str(path), "region", ErrorText.of(N_("a profile of {other}, expected {wanted}"),
                                                                    other=repr(old.region), wanted=repr(profile.region)))
        except CompanionError as exc:
            stamp = _dt.datetime.now(_dt.UTC).strftime("%Y%m%d-%H%M%S")
            set_aside = path.with_name(f"{path.stem}.unusable-{stamp}.json")
            reason, error = str(exc), exc
            os.replace(path, set_aside)
        else:
            previous = path.with_name(f"{path.stem}.prev.json")
            os.replace(path, previous)
    profile.save(path)
    return SavedProfile(path, previous, set_aside, reason, error)
