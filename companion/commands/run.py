"""`companion run`: play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import CompanionError, listed
from ..games.api import Message
from ..i18n import N_, REGION_NAMES, translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help=N_("play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)"),
        description=N_("Referee a game on the table. With no camera found, plays the built-in simulated "
        "game through the whole pipeline. After a restart the running game resumes from the journal."),
    )
    parser.add_argument("--game", default="babylon", help=N_("babylon (default), reclamation, babel or baubylon"))
    parser.add_argument("--headless", action="store_true", help=N_("no screen: rulings and score in the terminal"))
    parser.add_argument("--new", action="store_true", help=N_("start a new game even if the journal holds a running one"))
    parser.add_argument("--speed", type=float, default=None,
                        help=N_("seconds between scenes of the simulated table (default 0.03 headless, 0.4 with a screen)"))
    parser.add_argument("--seed", type=int, default=1, help=N_("seed of the simulated table's noise and script"))
    parser.add_argument("--state-dir", type=Path, default=None, help=N_("where the journal and exports go (default: from config)"))
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help=N_("also write every scene to DIR (for companion replay DIR)"))
    parser.add_argument("--no-render", action="store_true",
                        help=N_("simulated table: skip the twin's rendering and read it at the observation level (faster)"))
    parser.add_argument("--add-names", default="", metavar="NAME,NAME",
                        help=N_("add player names to the touchscreen's list of names used before (for names the "
                             "kiosk cannot type, e.g. Chinese names), then run"))
    parser.add_argument("--max-scenes", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=handle)


def has_display(environ) -> bool:
    """An X or Wayland display, or the kiosk unit's screen: SDL straight on KMS/DRM, where neither
    $DISPLAY nor $WAYLAND_DISPLAY is set (systemd/companion.service)."""
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY")
                or environ.get("SDL_VIDEODRIVER") == "kmsdrm")


def _say(lang: str | None, msgid: str | Message, **params: Any) -> None:
    message = msgid if isinstance(msgid, Message) else Message.of(msgid, **params)
    print("companion run: " + message.render(lang), flush=True)


def handle(args: argparse.Namespace, config) -> int:
    from ..referee.console import Console
    from ..referee.live import RunOptions, find_camera

    state_dir = args.state_dir or config.state_dir()
    state_dir.mkdir(parents=True, exist_ok=True)
    if args.add_names:
        from ..ui.names import NameBook

        added = [name.strip() for name in args.add_names.split(",") if name.strip()]
        NameBook(state_dir).remember(added)
        lang = config.get("general", "language")
        _say(lang, N_("names to tap on the touchscreen: {names}"), names=translate(N_(", "), lang).join(added))
    lang = config.get("general", "language")
    headless = args.headless or not has_display(os.environ)
    options = RunOptions(game=args.game, headless=headless, fresh=args.new, seed=args.seed,
                         speed=args.speed if args.speed is not None else (0.03 if headless else 0.4),
                         state_dir=state_dir, lang=lang, max_scenes=args.max_scenes, verbose=args.verbose > 0,
                         record=args.record, frames=not args.no_render)
    source, why = find_camera(config)
    if source is None:
        _say(lang, N_("{reason}: playing the built-in simulated game"), reason=why)
    elif not headless:  # its readers are built in the referee thread, under the screen's "preparing" line
        return _with_screen(options, config, (source, None))
    else:
        done = _camera_headless(source, options, config)
        if done is not None:
            return done
    if headless:
        if not args.headless:
            _say(lang, N_("no display: running headless"))
        return _headless(options, config, Console(lang, verbose=options.verbose))
    return _with_screen(options, config)


def _camera_reader(source, options, preparing):
    """The board reader of the opened camera (its observers built: see referee/startup.py), or None
    when no board of the game can be read through it (said, and the camera closed): the built-in
    simulated game is played then."""
    from ..referee.camera_run import readable_regions

    lang = options.lang
    reader, _frame = readable_regions(source, options.game, options.state_dir, preparing)
    if reader.observers:
        _say(lang, N_("camera {camera}: reading {boards}"), camera=source.name,
             boards=tuple(Message.of(REGION_NAMES.get(r, r)) for r in reader.observers))
        return reader
    source.close()
    reasons = listed(Message.of(N_("{region}: {reason}"), region=r, reason=w) for r, w in reader.skipped.items())
    _say(lang, N_("camera {camera} found, but no board of {game} can be read ({reasons}): playing the built-in "
                  "simulated game"), camera=source.name, game=options.game,
         reasons=reasons or Message.of(N_("no frame")))
    return None


def _camera_headless(source, options, config) -> int | None:
    """Referee the opened camera in the terminal, its readers built first (the terminal and systemd
    told); None when no board can be read through it: the simulated game is played then."""
    from ..referee.startup import Preparation, watchdog

    reader = _camera_reader(source, options, Preparation(options.game, lambda m: _say(options.lang, m),
                                                         dog=watchdog()))
    return None if reader is None else _camera(source, reader, options, config, True)


def _camera(source, reader, options, config, headless: bool) -> int:
    from ..referee.camera_run import run_camera
    from ..referee.console import Console
    from ..referee.controls import LiveControls
    from ..referee.live import Say, feedback_sink

    console = Console(options.lang, verbose=options.verbose)
    skipped: list[str] = []
    controls = LiveControls()
    feedback = feedback_sink(config, Say(sys.stdout, console), skipped, controls)
    sinks = [feedback.handle] if feedback is not None else []
    try:
        return run_camera(source, reader, options, config, sys.stdout, extra_sinks=sinks, console=console,
                          on_session=controls.attach)
    finally:
        if feedback is not None:
            feedback.close()


def _headless(options, config, console) -> int:
    from ..referee.controls import LiveControls
    from ..referee.live import Say, feedback_sink, run_demo
    from ..referee.replay import summary

    say = Say(sys.stdout, console)
    skipped: list[Any] = []
    controls = LiveControls()
    feedback = feedback_sink(config, say, skipped, controls)
    sinks = [feedback.handle] if feedback is not None else []
    try:
        result = run_demo(options, config, sys.stdout, extra_sinks=sinks, console=console,
                          on_session=controls.attach)
    finally:
        if feedback is not None:
            feedback.close()
    say(summary(result.moves, result.over, result.violations))
    for line in skipped + result.skipped:
        say(Message.of(N_("skipped: {what}"), what=line))
    return 0


def _with_screen(options, config, camera=None) -> int:
    """The Kivy UI in the main thread, the referee in a worker thread; headless if the UI is missing.
    `camera`: an opened (source, reader) to start on, else the simulated table; a reader of None is
    built in the referee thread while the screen says so (a cold build compiles for a minute)."""
    from ..referee.console import Console

    try:
        from ..ui import kivy_env

        kivy_env.prepare()
        from ..referee.interface import EventFeed
        from ..ui.app import CompanionApp
    except Exception as exc:  # no Kivy window on this machine: the terminal still works
        _say(options.lang, N_("no screen UI ({reason}); running headless"), reason=str(exc))
        options.headless = True
        if camera is not None:
            done = _camera_headless(camera[0], options, config)
            if done is not None:
                return done
        return _headless(options, config, Console(options.lang, verbose=options.verbose))
    from ..referee.controls import LiveControls
    from ..referee.live import Say, feedback_sink

    feed = EventFeed()
    controls = LiveControls(options.state_dir, config)
    stop = threading.Event()
    console = Console(options.lang)
    skipped: list[str] = []
    feedback = feedback_sink(config, Say(sys.stdout, console), skipped, controls)
    sinks = [feed.push] + ([feedback.handle] if feedback is not None else [])
    controls.open_camera = switching_camera(config, options, controls, sinks)
    controls.open_simulated = switching_to_simulated(options, controls, sinks)
    worker = threading.Thread(target=referee_loop, name="referee", daemon=True,
                              args=(options, config, controls, sinks, stop, console, camera))
    worker.start()
    try:
        CompanionApp(controls, feed, lang=options.lang or "en", state_dir=options.state_dir).run()
    finally:
        stop.set()
        controls.shutdown()
        worker.join(timeout=5)
        if feedback is not None:
            feedback.close()
    return 0


def referee_loop(options, config, controls, sinks, stop: threading.Event, console=None, camera=None,
                 out=None) -> int:
    """Runs games one after another in the referee thread. A run ends when its game is over, or
    when the screen asks for a new game or another camera (controls.run_stop); the next run then
    starts from that request. The ended game stays in its journal (and its exports when it ended).
    `camera`: (source, reader); a reader of None is built here first, the screen saying so."""
    from ..referee.camera_run import run_camera
    from ..referee.live import run_demo
    from ..referee.startup import Preparation, watchdog

    out = out or sys.stdout
    runs = 0
    dog = watchdog()
    kick = dog.kick if dog is not None else (lambda: None)
    if camera is not None and camera[1] is None:
        preparing = Preparation(options.game, lambda m: _say(options.lang, m), sinks, dog)
        reader = _camera_reader(camera[0], options, preparing)
        camera = None if reader is None else (camera[0], reader)
    options = replace(options, on_reader=controls.observe_reader)
    controls.camera = "sim" if camera is None else camera[0].name
    while not (stop.is_set() or controls.closing):
        controls.begin_run()
        try:
            if camera is None:
                run_demo(options, config, out, extra_sinks=sinks, stop=controls.run_stop,
                         on_session=controls.attach, console=console)
            else:
                controls.observers = dict(camera[1].observers)
                run_camera(camera[0], camera[1], options, config, out, extra_sinks=sinks, stop=controls.run_stop,
                           console=console, on_session=controls.attach)
        except CompanionError as exc:
            print(f"companion run: {exc.render(options.lang)}", file=sys.stderr)  # English with --lang en
        runs += 1
        options = replace(options, after_ready=True, twin_reader=None)  # the next run's: startup.KeepAlive
        requests = controls.pending() or _requests_when_idle(controls, stop, kick)
        for request in requests:
            if request is None:
                return runs
            if request.kind == "new_game":
                options = replace(options, game=request.setup.game, fresh=True, setup=request.setup)
                if camera is not None and hasattr(camera[1], "forget"):
                    camera[1].forget()  # the last game's boards are no history for this one
            elif request.kind == "camera":
                camera = None if request.source is None else (request.source, request.reader)
                built = request.reader if request.source is None else None  # the twin's, built by the switch
                options = replace(options, fresh=False, setup=None, twin_reader=built)
        if camera is not None and getattr(camera[1], "game", options.game) != options.game:
            camera = _camera_for_new_game(camera, options, controls, sinks, dog)
    return runs


def _camera_for_new_game(camera, options, controls, sinks, dog):
    """A new game of another game on the camera: the camera's readers are the old game's boards', so
    the new game's are built here, in the refereeing thread (the old game has ended), the screen and
    systemd told and the watchdog kept fed (startup.KeepAlive). None when no board of the new game
    can be read through the camera (said, as at start-up): the simulated table plays it then."""
    from ..referee.startup import Preparation

    preparing = Preparation(options.game, lambda m: _say(options.lang, m), sinks, dog, running=True, keep_alive=True)
    reader = _camera_reader(camera[0], options, preparing)
    controls.camera = "sim" if reader is None else camera[0].name
    return None if reader is None else (camera[0], reader)


def _requests_when_idle(controls, stop: threading.Event, kick, poll: float = 0.2) -> list:
    """The screen's next requests ([None] once stopping). While a finished game waits on the
    screen this is the referee thread's loop, so it kicks the watchdog as the game's loop did
    (without, systemd killed the kiosk 30 s after every game over)."""
    while not (stop.is_set() or controls.closing):
        kick()
        waiting = controls.pending()
        if waiting:
            return waiting
        stop.wait(poll)
    return [None]


def switching_camera(config, options, controls, sinks):
    """LiveControls.open_camera for Settings' camera switch (run in the switch's own thread): the
    camera opened and its readers built for the game being played, the build told on the terminal,
    the screen (the "preparing" line) and systemd's STATUS, as at start-up (referee/startup.py)."""
    from ..referee.startup import Preparation, watchdog

    def open_for_switch(name: str):
        game = controls.game or options.game
        session = controls.session
        moves = len(getattr(getattr(session, "tracker", None), "moves", ()) or ())
        preparing = Preparation(game, lambda m: _say(options.lang, m), sinks, watchdog(), moves, running=True)
        return open_camera(config, name, game, options.state_dir, preparing)

    return open_for_switch


def switching_to_simulated(options, controls, sinks):
    """LiveControls.open_simulated for Settings' switch back to the simulated table (in the
    switch's own thread): its twin's reader built for the game being played, told as at start-up;
    None where the table is read at the observation level (no rendering, or no twin for the game)."""
    from ..referee.live import twin_reader
    from ..referee.startup import Preparation, watchdog

    def build():
        if not options.frames:
            return None
        game = controls.game or options.game
        moves = len(getattr(getattr(controls.session, "tracker", None), "moves", ()) or ())
        preparing = Preparation(game, lambda m: _say(options.lang, m), sinks, watchdog(), moves, running=True)
        try:
            return twin_reader(game, options.seed, preparing)
        except (ImportError, NotImplementedError):  # the run says why when it starts
            return None

    return build


def open_camera(config, name: str, game: str, state_dir: Path, preparing=None):
    """Open the camera source `name` and check a board of `game` can be read through it
    (`preparing`: a startup.Preparation announcing the readers' build). Raises CompanionError
    saying why not (the source is closed again then)."""
    from ..referee.camera_run import readable_regions
    from ..referee.frames import NOT_LOCATED
    from ..vision.sources import SourceError, open_source

    try:
        opened = open_source(_CameraChoice(config, name))
    except SourceError as exc:
        raise CompanionError(str(exc), message=Message.of(
            N_("it gives no picture (check its cable, and that no other program is using it)"))) from exc
    try:
        reader, _frame = readable_regions(opened.source, game, state_dir, preparing)
    except BaseException:  # a reader's build that fails on a bug: the camera is not left open
        opened.source.close()
        raise
    if not reader.observers:
        opened.source.close()
        reasons = "; ".join(f"{r}: {w}" for r, w in reader.skipped.items()) or "no frame"
        unlocated = tuple(r for r, why in reader.skipped.items() if why.code == NOT_LOCATED)
        if unlocated:  # the board (its mat markers, or its saved place) is not in this camera's picture
            message = Message.of(N_("it does not see the board of {regions}: put the whole mat in view"),
                                 regions=unlocated)
        elif reader.skipped:
            message = Message.of(N_("it sees the board but cannot read {regions}: calibrate it in Settings"),
                                 regions=tuple(reader.skipped))
        else:
            message = Message.of(N_("it gives no picture (check its cable, and that no other program is using it)"))
        raise CompanionError(f"no board of {game} can be read through it ({reasons})", message=message)
    return opened.source, reader


class _CameraChoice:
    """The configuration with another [camera] source, for switching cameras at run time."""

    def __init__(self, config, source: str):
        self.config, self.source = config, source

    def section(self, name: str) -> dict:
        values = dict(self.config.section(name))
        if name == "camera":
            values["source"] = self.source
        return values

    def get(self, section: str, key: str):
        return self.section(section)[key]
