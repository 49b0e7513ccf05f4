"""From camera frames to the referee's scenes: motion gate → locator → observers.

Each board region of the game is located once (a saved board calibration, else the play mat's
markers) and read by its observer with the saved appearance profile. The motion gate decides when
a frame is read: only when the table has been still for a few frames with no hand over it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import CompanionError, ErrorText, FormatError, line_column
from ..games.api import GameSpec, Message
from ..i18n import N_
from ..vision.boards import REGIONS
from ..vision.observers import observer_class
from ..vision.observers.common import ProfileMissing
from ..vision.types import CellReading, Frame, Observation
from .session import Scene

log = logging.getLogger(__name__)


def regions_of_game(game: str) -> list[str]:
    return [r for r in REGIONS if r == game or r.startswith(game + ".")]


# Why a region is not read (Skipped.code): code acts on these, never on the English words.
NO_OBSERVER = "no_observer"  # this build has no observer for the region
NOT_LOCATED = "not_located"  # the board is not in the picture (no markers, or a saved place that does not load)
NOT_SET_UP = "not_set_up"  # its observer would not start with this calibration
UNREADABLE = "unreadable"  # its observer failed on a frame


@dataclass(frozen=True)
class Skipped:
    """Why a board region is not read: `code` (one of the four above) and the reason in the
    player's language (`render(lang)`; str() is English, for logs)."""

    code: str
    reason: ErrorText

    def render(self, lang: str | None = None) -> str:
        return self.reason.render(lang)

    def __str__(self) -> str:
        return self.render("en")


def _cause(exc: BaseException) -> Any:
    """An error as a text parameter: one carrying a translatable text renders in the text's
    language; another (a library's ValueError) keeps its own words."""
    if isinstance(exc, CompanionError):
        return exc
    return getattr(exc, "message", None) or str(exc) or type(exc).__name__


def _not_set_up(region: str, no_profile: bool, exc: BaseException) -> ErrorText:
    """Why an observer would not start. Without an appearance profile that is the reason (an
    observer that needs none does not fail for it): said in the player's words, the observer's
    own (English) text only logged."""
    if isinstance(exc, ProfileMissing):  # the observer's own text says how, in the player's words
        return exc.message
    if no_profile and not isinstance(exc, CompanionError):  # an observer of its own making (plain ValueError)
        log.info("observer of %s not started: %s", region, exc)
        return ErrorText.of(N_("its pieces' colours are not learned yet: calibrate them with {command}"),
                            command=f"companion calibrate appearance --region {region}")
    return ErrorText.of(N_("cannot be read with this calibration ({reason}); calibrate it with {command}"),
                        reason=_cause(exc), command="companion calibrate")


@dataclass
class BoardReader:
    """Reads every region of a game from a frame. Regions it cannot read are listed in `skipped`."""

    game: str
    state_dir: Path
    calibration: Path | None = None
    observers: dict[str, Any] = field(default_factory=dict)
    skipped: dict[str, Skipped] = field(default_factory=dict)
    # each region's last reading, given to its next read as history: what was seen beneath a
    # piece before it came (the garden's tile levels and flowers, Baubylon's field under pawns)
    last: dict[str, Observation] = field(default_factory=dict)
    # each region's observer keywords from the game in play (GameView.observer_keywords), and what
    # its observer was built from, so that a new game's keywords can rebuild it
    keywords: dict[str, dict[str, Any]] = field(default_factory=dict)
    built_from: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def _setup(self, image) -> None:
        from ..vision.appearance import AppearanceProfile
        from ..vision.calibration import files
        from ..vision.locate import LocateError
        from ..vision.locate.markers import locate_from_markers

        height, width = image.shape[:2]
        camera_file = files.camera_path(self.state_dir)
        camera = files.load_intrinsics(camera_file) if camera_file.exists() else None
        for region in regions_of_game(self.game):
            cls = observer_class(region)
            if cls is None:
                self.skipped[region] = Skipped(NO_OBSERVER, ErrorText.of(N_("no observer for this board on this build")))
                continue
            saved = self.calibration or files.board_path(self.state_dir, region)
            try:
                if saved.exists():
                    location = files.load_location(saved, region, (width, height), camera)
                else:
                    location = locate_from_markers(REGIONS[region], image, intrinsics=camera)
            except (LocateError, FormatError) as exc:
                # the reason without the board's name: the line showing it names the board already
                reason = getattr(exc, "reason", None) or _cause(exc)
                self.skipped[region] = Skipped(NOT_LOCATED, ErrorText.of(N_("not located ({reason})"), reason=reason))
                continue
            except CompanionError as exc:  # the calibration does not fit this camera (another aspect ratio)
                self.skipped[region] = Skipped(NOT_SET_UP, ErrorText.of(
                    N_("cannot be read with this calibration ({reason}); calibrate it with {command}"),
                    reason=exc, command="companion calibrate"))
                continue
            profile_path = files.calibration_dir(self.state_dir) / f"appearance-{region}.json"
            profile = AppearanceProfile.load(profile_path) if profile_path.exists() else None
            self._build(region, cls, location, profile)

    def _build(self, region: str, cls: type, location: Any, profile: Any) -> None:
        self.built_from[region] = (location, profile)
        try:
            self.observers[region] = cls(location, profile, **self.keywords.get(region, {}))
        except (ValueError, CompanionError) as exc:
            self.observers.pop(region, None)
            self.skipped[region] = Skipped(NOT_SET_UP, _not_set_up(region, profile is None, exc))

    def fit(self, keywords: dict[str, dict[str, Any]]) -> None:
        """Shape the observers to the game in play (GameView.observer_keywords of its state): an
        observer already built with other keywords is built again (its location and profile kept),
        the others are built with them when the first frame comes."""
        for region, kw in keywords.items():
            if self.keywords.get(region, {}) == kw:
                continue
            self.keywords[region] = dict(kw)
            if region in self.observers:
                location, profile = self.built_from[region]
                self._build(region, type(self.observers[region]), location, profile)

    def forget(self) -> None:
        """A new game starts on the same table: what was seen in the last one is not its history
        (a field taken down unseen must not stay remembered)."""
        self.last.clear()

    def read(self, frame: Frame) -> dict[str, Observation]:
        if not self.observers and not self.skipped:
            self._setup(frame.image)
        out = {}
        for region, observer in list(self.observers.items()):
            try:
                out[region] = self.last[region] = observer.observe(
                    frame.image, frame.index, frame.timestamp, previous=self.last.get(region))
            except ProfileMissing as exc:  # started without its pieces' colours: not set up yet
                self.skipped[region] = Skipped(NOT_SET_UP, _not_set_up(region, True, exc))
                del self.observers[region]
            except (ValueError, CompanionError) as exc:
                self.skipped[region] = Skipped(UNREADABLE, ErrorText.of(
                    N_("cannot be read ({reason}); calibrate it with {command}"),
                    reason=_cause(exc), command="companion calibrate"))
                del self.observers[region]
        return out


def frame_scenes(frames: Iterable[Frame | str], reader: BoardReader,
                 look_again: Callable[[], bool] = lambda: False) -> Iterator[Scene]:
    """Frames → scenes through the motion gate: busy while moving or a hand is in, one still scene
    per settled table, and another still frame whenever the referee wants a second look. A camera's
    markers between frames ("lost", "retrying", "ok") become source scenes at once."""
    from ..vision.motion import Gate, MotionGate

    gate = MotionGate()
    for frame in frames:
        if isinstance(frame, str):
            if frame == "ok":
                gate.reset()  # the view may have changed while the camera was away
            yield Scene(frame)
            continue
        decision = gate.update(frame.image)
        if decision.gate in (Gate.MOVING, Gate.HAND):
            yield Scene("busy", frame=frame, time=frame.timestamp)
        elif decision.read or (decision.gate is Gate.UNCHANGED and look_again()):
            observations = reader.read(frame)
            if observations:
                yield Scene("still", observations, frame=frame, time=frame.timestamp)


# --- recorded scenes (observation level): what `companion run --record` writes -------------------

SCENES_FILE = "scenes.jsonl"


def scene_to_json(scene: Scene) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": scene.kind}
    if scene.note:  # a recording keeps the script's words in English
        data["note"] = scene.note.render("en") if isinstance(scene.note, Message) else scene.note
    if scene.observations:
        data["observations"] = [observation_to_json(o) for o in scene.observations.values()]
    if scene.command is not None:
        name, arg = scene.command
        if isinstance(arg, tuple):  # ("play", (moves so far, move))
            arg = arg[1]
        data["command"] = [name, arg.to_json() if hasattr(arg, "to_json") else arg]
    return data


def observation_to_json(o: Observation) -> dict[str, Any]:
    return {"region": o.region, "rows": o.rows, "cols": o.cols, "cells": [
        [[c.label, round(c.confidence, 4), c.attrs, [list(a) for a in c.alternatives]] for c in row]
        for row in o.cells]}


def observation_from_json(data: Any, where: str) -> Observation:
    try:
        cells = tuple(
            tuple(CellReading(label, float(conf), dict(attrs), tuple((a[0], dict(a[1]), float(a[2])) for a in alts))
                  for label, conf, attrs, alts in row)
            for row in data["cells"]
        )
        return Observation(data["region"], int(data["rows"]), int(data["cols"]), cells)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise FormatError(where, "observations", ErrorText.of(
            N_("expected region, rows, cols and cells [[label, confidence, attrs, alternatives]...] ({detail})"),
            detail=repr(exc))) from None


def read_scenes(path: Path, spec: GameSpec) -> Iterator[Scene]:
    """Scenes recorded by `companion run --record DIR` (one JSON object per line)."""
    file = path / SCENES_FILE if path.is_dir() else path
    with file.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            where = f"{file}: line {number}"
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                raise FormatError(str(file), line_column(number, exc.colno), ErrorText.of(N_("not valid JSON"))) from None
            if not isinstance(data, dict) or data.get("kind") not in ("still", "busy", "lost", "ok", "player"):
                raise FormatError(str(file), ErrorText.of(N_("line {line}"), line=number),
                                  ErrorText.of(N_("expected a scene with kind still, busy, lost, ok or player")))
            observations = {o.region: o for o in (observation_from_json(x, where) for x in data.get("observations", []))}
            command = None
            if data.get("command"):
                name, arg = data["command"]
                if name in ("play", "correct") and arg is not None:
                    arg = spec.state_type.move_from_json(arg, where)
                command = (name, arg)
            yield Scene(data["kind"], observations, command=command, note=data.get("note", ""))
