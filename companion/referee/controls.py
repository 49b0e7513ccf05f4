"""The referee's side of companion.referee.interface.RefereeControls for `companion run`.

Game commands (undo, choose, play …) go to the running session, queued for the referee thread.
Requests that change the run itself — a new game from the home screen, another camera — are queued
for the run loop (`companion.commands.run`), which ends the current run (its game stays in the
journal) and starts the next one. Calibration needs a camera run; editor data is stored where
`companion cards` and the engines read it.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..diagnostics import camera_lens_measured
from ..errors import CompanionError, os_error_text
from ..games.api import GameState, Message, Move
from ..i18n import GAME_TITLES, N_, NP_
from .interface import (
    Answer,
    CalibrationProgress,
    CameraSwitch,
    CameraView,
    DeviceStatus,
    GameSetup,
    Mark,
)
from .session import RefereeSession
from .startup import READER_SECONDS

log = logging.getLogger(__name__)

SIM = "sim"
# A camera switch gives up after this long: opening and a first frame, then the readers' build.
SWITCH_SECONDS = READER_SECONDS + 60.0


@dataclasses.dataclass(frozen=True)
class RunRequest:
    """What the run loop should do next: a new game (setup) and/or another camera."""

    kind: str  # "new_game" or "camera"
    setup: GameSetup | None = None
    source: Any = None  # an opened FrameSource (None: the simulated table)
    reader: Any = None  # its BoardReader (the simulated table: its twin's reader, built, or None)


class LiveControls:
    def __init__(self, state_dir: Path | None = None, config: Any = None) -> None:
        self.session: RefereeSession | None = None
        self.sound = (True, 1.0)
        self.state_dir = state_dir
        self.config = config
        self.camera = SIM  # the source the running game reads
        self.requests: queue.SimpleQueue[RunRequest] = queue.SimpleQueue()
        self.run_stop = threading.Event()  # set to end the current run (a request waits, or closing)
        self.closing = False
        self.observers: dict[str, Any] = {}  # region -> observer of the current run (for the marks)
        # Opens a camera and builds its board readers (slow: called in a thread of its own); set by
        # the run loop, which announces the build (startup.Preparation) from it.
        self.open_camera: Callable[[str], tuple[Any, Any]] | None = None
        # ... and the simulated table's twin reader for the game (None: no twin, read at the
        # observation level); unset, a switch to it needs no build: the run loop starts it at once.
        self.open_simulated: Callable[[], Any] | None = None
        self.calibration: Any = None  # a CalibrationRun while the wizard runs
        self._referee_paused = False  # the wizard paused the session's referee (pause/resume)
        self._lock = threading.Lock()
        self.clock: Callable[[], float] = time.monotonic
        self._switch: CameraSwitch | None = None  # the last camera switch from Settings (set_camera)
        self._switch_began = 0.0

    def attach(self, session: RefereeSession) -> None:
        self.session = session

    def _send(self, name: str, arg: Any = None) -> None:
        if self.session is not None:
            self.session.commands.put((name, arg))

    # --- the run loop's side ----------------------------------------------------------------------
    def request(self, request: RunRequest) -> None:
        with self._lock:
            self.requests.put(request)
            self.run_stop.set()

    def next_request(self, stop: threading.Event, poll: float = 0.2) -> RunRequest | None:
        """The next request, waiting for one (None once `stop` is set)."""
        while not (stop.is_set() or self.closing):
            try:
                return self.requests.get(timeout=poll)
            except queue.Empty:
                continue
        return None

    def pending(self) -> list[RunRequest]:
        out = []
        while True:
            try:
                out.append(self.requests.get_nowait())
            except queue.Empty:
                return out

    @property
    def game(self) -> str | None:
        """The game the running session referees (None between runs)."""
        tracker = getattr(self.session, "tracker", None)
        return getattr(tracker, "game", None)

    def observe_reader(self, reader: Any) -> None:
        """The simulated table's twin reader: its observers place the camera view's marks."""
        observers = getattr(reader, "observers", None)
        if isinstance(observers, Mapping):
            self.observers = dict(observers)
        elif getattr(reader, "observer", None) is not None:
            self.observers = {reader.region: reader.observer}

    def begin_run(self) -> None:
        with self._lock:  # a request that came in meanwhile keeps its stop: the new run ends at once
            if self.requests.empty() and not self.closing:
                self.run_stop.clear()
        self.session = None
        self.observers = {}

    def shutdown(self) -> None:
        self.closing = True
        self.run_stop.set()

    # --- RefereeControls ----------------------------------------------------------------------------
    def start_game(self, setup: GameSetup) -> Answer:
        """Ask the run loop for a new game; the answer says what to tell the players now. When the
        game cannot start here, the running game goes on and the answer says why."""
        if self.camera == SIM:
            try:
                demo_for_setup(setup)
            except CompanionError as exc:
                log.warning("cannot start %s on the simulated table: %s", setup.game, exc)
                return Answer(False, Message.of(N_("This game cannot start on the simulated table: {reason}"),
                                                reason=reason_of(exc)))
            note = demo_note(setup)
        else:
            try:
                new_game_for(setup, self.state_dir)
            except CompanionError as exc:
                log.warning("cannot start %s: %s", setup.game, exc)
                return Answer(False, Message.of(N_("This game cannot start: {reason}"), reason=reason_of(exc)))
            note = None
        self.request(RunRequest("new_game", setup=setup))
        return Answer(True, note)

    def accept_correction(self) -> None:
        self._send("accept_correction")

    def override(self) -> None:
        self._send("override")

    def correct(self, move: Move) -> None:
        self._send("correct", move)

    def choose(self, index: int) -> None:
        self._send("choose", index)

    def undo(self) -> None:
        self._send("undo")

    def end_game(self) -> None:
        self._send("end_game")

    def play(self, move: Move) -> None:
        self._send("play", move)

    def camera_view(self) -> CameraView | None:
        """The newest frame the run read, with a mark on every piece the observers recognised."""
        session = self.session
        frame = getattr(session, "last_frame", None)
        if frame is None:
            return None  # the simulated table at the observation level has no picture
        observations = dict(getattr(session, "last_observations", None) or {})
        source = str(getattr(frame, "source", ""))
        if source.startswith("sim:"):  # the twin draws one region per picture: mark that one only
            observations = {r: o for r, o in observations.items() if r == source[4:]}
        return CameraView(frame.image, marks_for(observations, self.observers), self._where(observations))

    def _where(self, observations: Mapping[str, Any]) -> Callable[[int, int], tuple[float, float] | None] | None:
        """Board cell → pixel, for a one-region game whose region this picture shows (the level of
        each cell as last read, so a mark sits on the piece's top)."""
        from .frames import regions_of_game

        game = self.game
        regions = regions_of_game(game) if game else []
        if len(regions) != 1 or regions[0] not in observations:
            return None
        stack = getattr(self.observers.get(regions[0]), "stack", None)
        if stack is None:
            return None
        cells = observations[regions[0]].cells

        def where(row: int, col: int) -> tuple[float, float] | None:
            try:
                attrs = dict(cells[row][col].attrs)
            except IndexError:
                return None
            return cell_pixel(stack, row, col, int(attrs.get("height", attrs.get("level", 0)) or 0))

        return where

    def start_calibration(self) -> None:
        self.calibration = CalibrationRun(self)
        self._pause_referee("pause")  # the calibration layout is not the game (session.pause)

    def calibration_progress(self) -> CalibrationProgress:
        if self.calibration is None:
            return CalibrationProgress(0.0, step=Message.of(N_("Calibration has not started.")))
        progress = self.calibration.progress()
        # A verdict on each frame comes while the capture runs; `ok` is set only when it is over
        # (saved, or it cannot run here): then the referee goes on once the game is back.
        if progress.ok is not None:
            self._pause_referee("resume")
        return progress

    def stop_calibration(self) -> None:
        """The wizard left before its end: the referee goes on (session.resume)."""
        self._pause_referee("resume")

    def _pause_referee(self, which: str) -> None:
        """session.pause / session.resume, each sent once per wizard run."""
        paused = which == "pause"
        if self._referee_paused == paused:
            return
        command = getattr(self.session, which, None)  # RefereeSession.pause / .resume
        if callable(command):
            command()
            self._referee_paused = paused

    def device_status(self) -> DeviceStatus:
        calibrated, detail = self._calibration_state()
        return DeviceStatus(camera=self.camera, volume=self.sound[1], sound=self.sound[0], calibrated=calibrated,
                            calibration_detail=detail, lens_measured=camera_lens_measured(self.state_dir),
                            switch=self.camera_switch())

    def _calibration_state(self) -> tuple[bool, Message | None]:
        """Whether every region of the game has its learned colours in the state folder."""
        game = self.game
        if game is None or self.state_dir is None:
            return False, None
        if self.camera == SIM:
            return True, Message.of(N_("the simulated table needs no calibration"))
        from ..vision.calibration import files
        from .frames import regions_of_game

        regions = regions_of_game(game)
        missing = [r for r in regions
                   if not (files.calibration_dir(Path(self.state_dir)) / f"appearance-{r}.json").exists()]
        if missing:
            return False, Message.of(N_("no colours learned yet for {regions}"), regions=tuple(missing))
        return True, Message.of(N_("colours learned for {regions}"), regions=tuple(regions))

    def set_sound(self, enabled: bool, volume: float) -> None:
        self.sound = (enabled, volume)

    def set_camera(self, source: str) -> Answer:
        """Switch sources at run time, answering at once. The new camera is opened, read and its
        board readers built in a thread of its own (a cold numba cache compiles for 25-35 s here,
        longer on a Pi; the Kivy thread must not wait): the current source keeps running, and
        refereeing, until the new one is ready, then the run loop takes it. How it goes is in
        device_status().switch; when it fails the old source is still the one in use."""
        with self._lock:
            switch = self._switch
        if switch is not None and switch.done is None:  # one at a time (the current source too)
            return Answer(False, Message.of(N_("Still switching to camera {source}: wait until it is ready."),
                                            source=switch.source))
        if source == self.camera:
            return Answer(True)
        if source == SIM and self.open_simulated is None:  # nothing to build (or no way to here)
            self._switch = None
            self.camera = SIM
            self.request(RunRequest("camera"))
            return Answer(True, Message.of(N_("Switching to the simulated table.")))
        if source != SIM and self.open_camera is None:
            return Answer(False, Message.of(N_("Cameras cannot be switched in this run.")))
        switch = CameraSwitch(source)
        with self._lock:
            self._switch, self._switch_began = switch, self.clock()
        threading.Thread(target=self._switch_in_background, args=(switch,), name=f"camera switch {source}",
                         daemon=True).start()
        if source == SIM:
            return Answer(True, Message.of(N_("Switching to the simulated table.")))
        return Answer(True, Message.of(N_("Switching to camera {source}…"), source=source))

    def _prepare(self, source: str) -> tuple[Any, Any]:
        """(source, reader) for the run loop: the camera opened and its readers built, or for the
        simulated table no source and its twin's reader (None: it reads at the observation level)."""
        if source == SIM:
            assert self.open_simulated is not None
            return None, self.open_simulated()
        assert self.open_camera is not None
        return self.open_camera(source)

    def _switch_in_background(self, switch: CameraSwitch) -> None:
        """Open the camera and build its readers (the switch thread); hand them to the run loop
        unless the switch was given up meanwhile (too long, or closing): then the camera is closed."""
        source = switch.source
        try:
            opened, reader = self._prepare(source)
        except Exception as exc:  # a bug in a reader's build must not leave the switch hanging either
            if isinstance(exc, CompanionError):
                log.warning("camera %s could not be used: %s", source, exc)
            else:
                log.exception("camera %s could not be prepared", source)
            self._end_switch(switch, False, Message.of(
                N_("Camera {source} could not be used: {reason}. Still using {current}."),
                source=source, reason=reason_of(exc), current=self.camera))
            return
        with self._lock:
            taken = self._switch is switch and not self.closing
            if taken:
                self.camera = source
                self._switch = dataclasses.replace(switch, done=True, message=Message.of(
                    N_("Now using the simulated table.")) if source == SIM else Message.of(
                    N_("Now using camera {source}."), source=source))
                self.requests.put(RunRequest("camera", source=opened, reader=reader))
                self.run_stop.set()
        if not taken:
            log.info("camera %s was ready after its switch was given up: closed", source)
            close = getattr(opened, "close", None)
            if callable(close):
                close()

    def _end_switch(self, switch: CameraSwitch, done: bool, message: Message) -> None:
        with self._lock:
            if self._switch is switch:
                self._switch = dataclasses.replace(switch, done=done, message=message)

    def camera_switch(self) -> CameraSwitch | None:
        """The last camera switch: under way, taken, or failed (the old source still in use). One
        under way for longer than SWITCH_SECONDS is given up: a build stuck for that long is not
        coming back, and the players must be able to choose again."""
        switch = self._switch
        if switch is not None and switch.done is None and self.clock() - self._switch_began > SWITCH_SECONDS:
            log.warning("camera %s: no board reader after %.0f s; switch given up", switch.source, SWITCH_SECONDS)
            self._end_switch(switch, False, Message.of(
                N_("Camera {source} took too long to get ready. Still using {current}."),
                source=switch.source, current=self.camera))
        return self._switch

    def save_editor_data(self, kind: str, data: dict[str, Any]) -> Message:
        if self.state_dir is None:
            return Message.of(N_("Nowhere to save: this run has no state folder."))
        return store_editor_data(Path(self.state_dir), kind, data)


# --- calibration -----------------------------------------------------------------------------------

class CalibrationRun:
    """The calibration wizard on the live frames of a camera run: each region of the game is
    located (its saved place, or the mat's markers) and an AppearanceCapture
    (vision.calibration.capture) is fed every new frame the screen asks about; when every region
    has its frames the profiles are saved in the state folder."""

    def __init__(self, controls: LiveControls, frames_wanted: int = 3):
        self.controls = controls
        self.frames_wanted = frames_wanted
        self.captures: dict[str, Any] = {}
        self.located: dict[str, str] = {}  # region -> why it is not located (yet)
        self.last_index: int | None = None
        self.verdict: Message | None = None
        self.finished: CalibrationProgress | None = None

    def progress(self) -> CalibrationProgress:
        if self.finished is not None:
            return self.finished
        controls = self.controls
        if controls.camera == SIM:
            return CalibrationProgress(0.0, verdict=Message.of(
                N_("Choose a camera first: the simulated table needs no calibration.")), ok=False)
        if controls.state_dir is None:
            return CalibrationProgress(0.0, verdict=Message.of(N_("Nowhere to save: this run has no state folder.")),
                                       ok=False)
        session = controls.session
        frame = getattr(session, "last_frame", None)
        if session is None or frame is None:
            return CalibrationProgress(0.0, step=Message.of(N_("Waiting for the camera.")))
        if frame.index != self.last_index:
            self.last_index = frame.index
            self._feed(session.tracker.game, frame)
        return self._report(frame)

    def _feed(self, game: str, frame: Any) -> None:
        from ..vision.calibration.capture import AppearanceCapture
        from .frames import regions_of_game

        for region in regions_of_game(game):
            capture = self.captures.get(region)
            if capture is None:
                try:
                    location = self._locate(region, frame.image)
                    capture = self.captures[region] = AppearanceCapture(region, location, self.frames_wanted)
                except CompanionError as exc:
                    self.located[region] = str(exc)
                    log.info("calibration: %s not located: %s", region, exc)
                    continue
                self.located.pop(region, None)
            if capture.progress.ok:
                continue
            progress = capture.feed(frame.image)
            if progress.verdict is not None:
                self.verdict = verdict_message(progress.verdict, progress.misreads)

    def _locate(self, region: str, image: Any) -> Any:
        from ..vision.boards import REGIONS
        from ..vision.calibration import files
        from ..vision.locate.markers import locate_from_markers

        state_dir = Path(self.controls.state_dir)
        height, width = image.shape[:2]
        camera_file = files.camera_path(state_dir)
        camera = files.load_intrinsics(camera_file) if camera_file.exists() else None
        saved = files.board_path(state_dir, region)
        if saved.exists():
            return files.load_location(saved, region, (width, height), camera)
        return locate_from_markers(REGIONS[region], image, intrinsics=camera)

    def _report(self, frame: Any) -> CalibrationProgress:
        view = CameraView(frame.image)
        if not self.captures:
            return CalibrationProgress(0.0, view, step=Message.of(
                N_("Lay the calibration pieces out on the mat so the camera sees its markers (not found yet: "
                   "{regions})."), regions=tuple(self.located)))
        fractions = [c.progress.fraction for c in self.captures.values()] + [0.0] * len(self.located)
        fraction = sum(fractions) / len(fractions)
        waiting = [c for c in self.captures.values() if not c.progress.ok]
        if waiting or self.located:
            step = _text(waiting[0].progress.step) if waiting else Message.of(
                N_("Move the camera until it sees the whole mat."))
            return CalibrationProgress(fraction, view, step=step, verdict=self.verdict)
        saved = [capture.save(Path(self.controls.state_dir)) for capture in self.captures.values()]
        self.finished = CalibrationProgress(1.0, view, verdict=Message.of(
            N_("Calibrated: {regions}. The new colours are used from the next game."),
            regions=tuple(self.captures), files=", ".join(str(s.path) for s in saved)), ok=True)
        return self.finished


def _text(text: tuple[str, dict[str, Any]] | None) -> Message | None:
    """vision's (msgid, params) as a Message (vision does not import games)."""
    if text is None:
        return None
    msgid, params = text
    return Message.of(msgid, **params)


def verdict_message(verdict: tuple[str, dict[str, Any]], misreads: tuple[Any, ...] = ()) -> Message:
    """The capture's verdict on a frame, with the pieces it names in the player's language: the
    capture writes a place's expected and seen pieces, and the kinds it missed, as raw labels."""
    msgid, params = verdict
    params = dict(params)
    if misreads and {"expected", "seen"} <= params.keys():
        first = misreads[0]
        params["expected"], params["seen"] = piece_message(*first.expected), piece_message(*first.seen)
    if isinstance(params.get("reason"), str):  # an observer's English exception text: logged instead
        log.info("calibration frame not measured: %s", params["reason"])
        params["reason"] = Message.of(N_("check that the whole mat is in view and evenly lit"))
    if isinstance(params.get("missing"), str) and params["missing"]:
        params["missing"] = tuple(kind_message(k) for k in params["missing"].split(", "))
    return Message.of(msgid, **params)


# --- new games ---------------------------------------------------------------------------------------

def new_game_for(setup: GameSetup, state_dir: Path | None = None) -> GameState:
    """The engine's opening state for a set-up from the home screen (players in seat order, options).
    With `state_dir`, the card patterns and blueprints the editors saved there are the ones used."""
    from ..games.registry import get as get_spec

    spec = get_spec(setup.game)
    count = len(setup.players)
    if not spec.min_players <= count <= spec.max_players:
        text = (NP_("{game} is for {count} player, not {chosen}.", "{game} is for {count} players, not {chosen}.")
                if spec.min_players == spec.max_players else N_("{game} is for {low} to {high} players, not {chosen}."))
        raise CompanionError(f"{spec.id} is for {spec.min_players}-{spec.max_players} players, got {count}",
                             message=Message.of(text, game=game_name(setup.game), count=spec.min_players,
                                                low=spec.min_players, high=spec.max_players, chosen=count))
    options = dict(setup.options)
    if state_dir is not None and setup.game == "reclamation" and "cards" not in options:
        from ..games.reclamation.cards import default_card_path, load_book

        options["cards"] = load_book(default_card_path(Path(state_dir)))
    if state_dir is not None and setup.game == "babel" and not options.get("cards_file"):
        from ..games.babel.cards import library_path

        options["cards_file"] = str(library_path(Path(state_dir)))
    try:
        state = spec.new_game(tuple(setup.players), **options)
    except (TypeError, ValueError) as exc:  # the engine's own checks (English): said in general words
        raise CompanionError(str(exc), message=Message.of(
            N_("{game} does not accept these settings: {detail}"), game=game_name(setup.game),
            detail=getattr(exc, "message", None) or str(exc))) from exc
    tiles = Path(state_dir) / EDITOR_FILES["babylon.tile"] if state_dir is not None else None
    if setup.game == "babylon" and tiles is not None and tiles.exists():
        from ..games.babylon.catalogue import load_catalogue

        state = load_catalogue(tiles).apply_start_tiles(state)  # the starting tiles' icons, when written down
    return state


def game_name(game: str) -> Message:
    return Message.of(GAME_TITLES.get(game, game))


def demo_for_setup(setup: GameSetup):
    """The simulated table's recorded game of `setup.game`, its seats renamed after the players
    (as many as the recording has seats). Raises CompanionError when the table cannot play it."""
    from ..demo.records import load_demo
    from .views import view_for

    try:
        view_for(setup.game)
        demo = load_demo(setup.game)
    except (CompanionError, ModuleNotFoundError) as exc:  # no view or no recording of it on this build
        raise CompanionError(str(exc), message=Message.of(
            N_("the simulated table has no recorded game of {game}"), game=game_name(setup.game))) from exc
    names = renamed_players(demo.initial.players, setup.players)
    return dataclasses.replace(demo, initial=with_players(demo.initial, names))


def renamed_players(recorded: tuple[str, ...], chosen: tuple[str, ...]) -> tuple[str, ...]:
    """The recording's seats with the chosen names on the first ones (a recording has its own count)."""
    return tuple(chosen[i] if i < len(chosen) and chosen[i] else name for i, name in enumerate(recorded))


def with_players(state: GameState, names: tuple[str, ...]) -> GameState:
    """The same state with other player names (through its JSON form, which every engine has)."""
    data = state.to_json()
    if not isinstance(data, dict) or len(data.get("players", ())) != len(names):
        return state
    # a player is a name, or an object with its name (Babylon's gardens, pieces, flower)
    players = [{**entry, "name": name} if isinstance(entry, dict) else name
               for entry, name in zip(data["players"], names, strict=True)]
    return type(state).from_json({**data, "players": players}, "<renamed players>")


def demo_note(setup: GameSetup) -> Message | None:
    """What the players should know when the recorded game differs from their set-up: its number
    of seats, and rule settings (variant, flowers, rule readings) it was recorded with."""
    from ..demo.records import load_demo

    initial = load_demo(setup.game).initial
    recorded = initial.players
    notes: list[Message] = []
    if len(recorded) != len(setup.players):
        notes.append(Message.of(
            N_("The simulated table plays a recorded game of {game} for {count} players: {names}."),
            game=game_name(setup.game), count=len(recorded),
            names=", ".join(renamed_players(recorded, setup.players))))
    differ = recorded_settings_differing(initial.to_json(), dict(setup.options))
    if differ:
        notes.append(Message.of(N_("The recorded game keeps its own rule settings: {settings}."),
                                settings=", ".join(differ)))
    if len(notes) == 2:
        return Message.of(N_("{first} {second}"), first=notes[0], second=notes[1])
    return notes[0] if notes else None


def recorded_settings_differing(data: Any, chosen: dict[str, Any]) -> list[str]:
    """`name = recorded value` for each chosen option the recording was played otherwise with
    (looked up at the top of its state JSON and under its "options")."""
    if not isinstance(data, dict):
        return []
    recorded = {**data, **(data.get("options") if isinstance(data.get("options"), dict) else {})}
    out = []
    for name, value in chosen.items():
        if name not in recorded:
            continue
        have = recorded[name]
        if isinstance(have, list):
            have = ",".join(str(v) for v in have)
        if isinstance(have, dict) or str(have) == str(value):
            continue
        out.append(f"{name} = {have}")
    return out


# --- the camera view's marks ----------------------------------------------------------------------

EMPTY_LABELS = ("empty", "recess", "table", "none", "")


def marks_for(observations: Mapping[str, Any], observers: Mapping[str, Any]) -> tuple[Mark, ...]:
    """A mark on each occupied cell of each region, where the observer's view maps it to pixels:
    green when read surely, amber when unsure."""
    marks: list[Mark] = []
    for region, observation in observations.items():
        stack = getattr(observers.get(region), "stack", None)
        if stack is None:
            continue
        for row, cells in enumerate(observation.cells):
            for col, cell in enumerate(cells):
                if cell.label in EMPTY_LABELS:
                    continue
                level = int(dict(cell.attrs).get("height", dict(cell.attrs).get("level", 0)) or 0)
                point = cell_pixel(stack, row, col, level)
                if point is None:
                    continue
                kind = "ok" if cell.confidence >= 0.8 else "warn"
                marks.append(Mark(point[0], point[1], str(level) if level else "", kind))
    return tuple(marks)


def cell_pixel(stack: Any, row: int, col: int, level: int = 0) -> tuple[float, float] | None:
    """Where a cell centre at a level falls in the camera image, from the observer's rectifying map
    (its first channel holds each view pixel's source pixel, in the downscaled image)."""
    level = max(0, min(level, len(stack.heights) - 1))
    y = level * stack.height_px + stack.margin + int((row + 0.5) * stack.n)
    x = stack.margin + int((col + 0.5) * stack.n)
    try:
        px, py = (float(v) for v in stack.map_x[y, x][:2])
    except (IndexError, TypeError, ValueError):
        return None
    return (px + 0.5) * stack.downscale - 0.5, (py + 0.5) * stack.downscale - 0.5


# --- editor data -------------------------------------------------------------------------------------

EDITOR_FILES = {"reclamation.card": "reclamation-cards.json", "babel.blueprint": "babel-cards.json",
                "babylon.tile": "babylon-tiles.json"}


def store_editor_data(state_dir: Path, kind: str, data: dict[str, Any]) -> Message:
    """Add an edited card pattern, blueprint or tile face to the file the engines read. The new
    file is checked by the engine's own reader before it replaces the old one, so bad data never
    overwrites a player's file; a file that does not read is left alone and named."""
    from ..games import saves

    if kind not in EDITOR_FILES:
        return Message.of(N_("Unknown kind of editor data: {kind}."), kind=kind)
    path = state_dir / EDITOR_FILES[kind]
    try:
        current = saves.read_json_file(path) if path.exists() else None
        merged = _merge(kind, current, data)
        _check(kind, merged, str(path))
    except CompanionError as exc:  # FormatError included: the file and key, and what is expected
        log.info("editor data not saved: %s", exc)
        return Message.of(N_("Not saved: {reason}"), reason=reason_of(exc))
    state_dir.mkdir(parents=True, exist_ok=True)
    saves.write_json_atomic(path, merged)
    return Message.of(N_("Saved to {path}."), path=str(path))


def _entries(current: Any, key: str, path_hint: str) -> list:
    if current is None:
        return []
    if not isinstance(current, dict) or not isinstance(current.get(key, []), list):
        raise CompanionError(message=Message.of(
            N_("{file}: expected an object with a \"{key}\" list; the file was left as it is"), file=path_hint, key=key))
    return list(current.get(key, []))


def _merge(kind: str, current: Any, data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict) or not data.get("name", "x"):
        raise CompanionError(message=Message.of(N_("the edited entry is empty")))
    if kind == "reclamation.card":
        from ..games.reclamation.cards import EXAMPLE_BOOK

        cards = _entries(current, "cards", EDITOR_FILES[kind])
        if current is None:
            cards = EXAMPLE_BOOK.to_json()["cards"]
        name = data.get("name")
        for index, card in enumerate(cards):
            if isinstance(card, dict) and card.get("name") == name:
                cards[index] = {**card, **data}  # the other side of the same card stays
                break
        else:
            cards.append(data)
        base = current if current is not None else EXAMPLE_BOOK.to_json()
        return {**base, "cards": cards}
    if kind == "babel.blueprint":
        from ..games.babel.cards import LIBRARY_FORMAT, LIBRARY_VERSION

        blueprints = [b for b in _entries(current, "blueprints", EDITOR_FILES[kind])
                      if not (isinstance(b, dict) and b.get("name") == data.get("name"))]
        base = current if current is not None else {"format": LIBRARY_FORMAT, "version": LIBRARY_VERSION}
        return {**base, "blueprints": [*blueprints, data]}
    from ..games.babylon.catalogue import FORMAT

    tiles = _entries(current, "tiles", EDITOR_FILES[kind])
    base = current if current is not None else {"format": FORMAT, "version": 1}
    return {**base, "tiles": [*tiles, data]}


def _check(kind: str, data: dict[str, Any], source: str) -> None:
    """The engine's own reader on the whole new file (raises FormatError naming the key)."""
    if kind == "reclamation.card":
        from ..games.reclamation.cards import parse_book

        parse_book(data, source)
    elif kind == "babel.blueprint":
        from ..games.babel.cards import parse_library

        parse_library(data, source)
    else:
        from ..games.babylon.catalogue import parse_catalogue

        parse_catalogue(data, source)


# --- reasons and pieces in the player's language ------------------------------------------------------

def reason_of(exc: BaseException) -> Message:
    """Why something was refused, for the player: the error's own Message when it carries one; an
    error rendered in the Message's language (a file error: its place as written, what is wrong
    translated); a system's error as a translated reason; anything else (a bug's English) only as a
    detail after translated words."""
    message = getattr(exc, "message", None)
    if isinstance(message, Message):
        return message
    if isinstance(exc, CompanionError):
        return Message.of("{reason}", reason=exc)  # renders itself: CompanionError.render(lang)
    if isinstance(exc, (OSError, UnicodeDecodeError)):
        return Message.of("{reason}", reason=os_error_text(exc))
    return Message.of(N_("something went wrong ({detail})"), detail=f"{type(exc).__name__}: {exc}")


# What the calibration capture names by label (vision/labels.py, the observers' sample classes).
_PIECE_TEXTS = {
    "recess": N_("an empty recess"), "bottom": N_("no tile left"), "empty": N_("an empty space"),
    "card": N_("the bare base card"), "cube": N_("a cube"), "table": N_("the bare table"),
    "block": N_("a block"), "tile": N_("a terrace tile"), "belvedere": N_("a belvedere"),
}


def piece_message(label: str, attrs: Mapping[str, Any] | None = None) -> Message:
    """A calibration cell (label, attrs) in words: what the layout asks for, or what was seen."""
    attrs = dict(attrs or {})
    level = attrs.get("level", 0)
    if label in ("pillar1", "pillar2"):
        return Message.of(N_("single pillar, top at level {level}") if label == "pillar1"
                          else N_("double pillar, top at level {level}"), level=level)
    if label == "tile":
        return Message.of(N_("a tile at level {level}, {flower}, icon {icon}"), level=level,
                          flower=attrs.get("flower", "?"), icon=attrs.get("icon", "none"))
    if label in ("stairs", "fountain", "bridge", "statue", "belvedere"):
        if isinstance(level, list):  # stairs expected between two levels
            low, high = (sorted(level) + [0, 0])[:2]
            return Message.of(N_("stairs between levels {low} and {high}"), low=low, high=high)
        name = Message.of(_PIECE_TEXTS["belvedere"]) if label == "belvedere" else label
        return Message.of(N_("{icon} on level {level}"), icon=name, level=level)
    if label in ("clay", "granite", "basalt"):
        return Message.of(N_("{material} on top"), material=label)
    if label in ("flower", "vine"):
        text = (NP_("{count} stone, flower up", "{count} stones, flower up") if label == "flower"
                else NP_("{count} stone, vine up", "{count} stones, vine up"))
        stones = Message.of(text, count=attrs.get("height", 1))
        return Message.of(N_("{stones}, with the gardener"), stones=stones) if attrs.get("gardener") else stones
    if label == "cubes":
        count = attrs.get("count", 0)
        return Message.of(NP_("{count} cube", "{count} cubes"), count=count) if count else Message.of(
            N_("no cubes"))
    if label == "field":
        return _field_message(int(attrs.get("height", 0) or 0), list(attrs.get("pawns") or []))
    if label in _PIECE_TEXTS:
        return Message.of(_PIECE_TEXTS[label])
    return Message.of("{label}", label=label)


def _field_message(height: int, pawns: list[str]) -> Message:
    block = Message.of(NP_("a block of {count} level", "a block of {count} levels"), count=height)
    if not pawns:
        return block if height else Message.of(N_("an empty space"))
    pawn = Message.of(N_("{colour} pawn"), colour=pawns[-1])
    return Message.of(N_("{block} + {pawn}"), block=block, pawn=pawn) if height else pawn


def kind_message(kind: str) -> Message:
    """A kind of piece the capture learns (an observer's sample class) in words."""
    prefix, _, name = kind.partition(":")
    if prefix in ("icon", "glyph") and name:
        return Message.of(N_("the {icon} icon"), icon=name)
    if prefix == "pawn" and name:
        return Message.of(N_("{colour} pawn"), colour=name)
    if prefix == "outline":
        return Message.of(N_("block outlines"))
    if kind.startswith("flower") and kind[6:].isdigit():
        return Message.of("{flower}", flower=kind)  # "flower 1": the first board's flower
    if kind in ("pillar1", "pillar2"):
        return Message.of(N_("single pillars") if kind == "pillar1" else N_("double pillars"))
    if kind in ("stairs", "fountain", "bridge", "statue"):
        return Message.of(N_("the {icon} icon"), icon=kind)
    if kind in ("clay", "granite", "basalt"):
        return Message.of(N_("{material} on top"), material=kind)
    if kind in ("flower", "vine"):
        return Message.of(N_("stones, flower up") if kind == "flower" else N_("stones, vine up"))
    if kind in _PIECE_TEXTS:
        return Message.of(_PIECE_TEXTS[kind])
    return Message.of("{kind}", kind=kind)
