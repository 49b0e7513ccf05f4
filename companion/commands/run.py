"""`companion run`: play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)."""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

from ..errors import CompanionError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "run", help="play a game: camera → referee → LED/buzzer/screen (simulated table when no camera)",
        description="Referee a game on the table. With no camera found, plays the built-in simulated "
        "game through the whole pipeline. After a restart the running game resumes from the journal.",
    )
    parser.add_argument("--game", default="babylon", help="babylon (default), reclamation, babel or baubylon")
    parser.add_argument("--headless", action="store_true", help="no screen: rulings and score in the terminal")
    parser.add_argument("--new", action="store_true", help="start a new game even if the journal holds a running one")
    parser.add_argument("--speed", type=float, default=None,
                        help="seconds between scenes of the simulated table (default 0.03 headless, 0.4 with a screen)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the simulated table's noise and script")
    parser.add_argument("--state-dir", type=Path, default=None, help="where the journal and exports go (default: from config)")
    parser.add_argument("--record", type=Path, default=None, metavar="DIR",
                        help="also write every scene to DIR (for companion replay DIR)")
    parser.add_argument("--no-render", action="store_true",
                        help="simulated table: skip the twin's rendering and read it at the observation level (faster)")
    parser.add_argument("--max-scenes", type=int, default=None, help=argparse.SUPPRESS)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    from ..referee.console import Console
    from ..referee.live import RunOptions, find_camera

    state_dir = args.state_dir or config.state_dir()
    state_dir.mkdir(parents=True, exist_ok=True)
    lang = config.get("general", "language")
    headless = args.headless or not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    options = RunOptions(game=args.game, headless=headless, fresh=args.new, seed=args.seed,
                         speed=args.speed if args.speed is not None else (0.03 if headless else 0.4),
                         state_dir=state_dir, lang=lang, max_scenes=args.max_scenes, verbose=args.verbose > 0,
                         record=args.record, frames=not args.no_render)
    source, why = find_camera(config)
    if source is None:
        print(f"companion run: {why}: playing the built-in simulated game", flush=True)
    else:
        from ..referee.camera_run import readable_regions

        reader, _frame = readable_regions(source, args.game, state_dir)
        if reader.observers:
            print(f"companion run: camera {source.name}: reading {', '.join(reader.observers)}", flush=True)
            return _camera(source, reader, options, config, headless)
        source.close()
        reasons = "; ".join(f"{r}: {w}" for r, w in reader.skipped.items()) or "no frame"
        print(f"companion run: camera {source.name} found, but no board of {args.game} can be read "
              f"({reasons}): playing the built-in simulated game", flush=True)
    if headless:
        if not args.headless:
            print("companion run: no display: running headless", flush=True)
        return _headless(options, config, Console(lang, verbose=options.verbose))
    return _with_screen(options, config)


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

    say = Say(sys.stdout, console)
    skipped: list[str] = []
    controls = LiveControls()
    feedback = feedback_sink(config, say, skipped, controls)
    sinks = [feedback.handle] if feedback is not None else []
    try:
        result = run_demo(options, config, sys.stdout, extra_sinks=sinks, console=console,
                          on_session=controls.attach)
    finally:
        if feedback is not None:
            feedback.close()
    caught = ", ".join("/".join(r) for r in result.violations) or "none"
    say(f"companion run: {result.moves} moves confirmed; game over: {'yes' if result.over else 'no'}; "
        f"violations called: {caught}")
    for line in skipped + result.skipped:
        say(f"companion run: skipped: {line}")
    return 0


def _with_screen(options, config) -> int:
    """The Kivy UI in the main thread, the referee in a worker thread; headless if the UI is missing."""
    from ..referee.console import Console

    try:
        from ..ui import kivy_env

        kivy_env.prepare()
        from ..referee.interface import EventFeed
        from ..ui.app import CompanionApp
    except Exception as exc:  # no Kivy window on this machine: the terminal still works
        print(f"companion run: no screen UI ({exc}); running headless", flush=True)
        options.headless = True
        return _headless(options, config, Console(options.lang, verbose=options.verbose))
    from ..referee.controls import LiveControls
    from ..referee.live import Say, feedback_sink, run_demo

    feed = EventFeed()
    controls = LiveControls()
    stop = threading.Event()
    console = Console(options.lang)
    skipped: list[str] = []
    feedback = feedback_sink(config, Say(sys.stdout, console), skipped, controls)
    sinks = [feed.push] + ([feedback.handle] if feedback is not None else [])

    def referee() -> None:
        try:
            run_demo(options, config, sys.stdout, extra_sinks=sinks, stop=stop,
                     on_session=controls.attach, console=console)
        except CompanionError as exc:
            print(f"companion run: {exc}", file=sys.stderr)

    worker = threading.Thread(target=referee, name="referee", daemon=True)
    worker.start()
    try:
        CompanionApp(controls, feed, lang=options.lang or "en").run()
    finally:
        stop.set()
        worker.join(timeout=5)
        if feedback is not None:
            feedback.close()
    return 0
