"""`companion run`, assembled: source → (locator → observer) → tracker → feedback + UI + journal.

With no camera (or no observer for the game on this build) it says so and plays the built-in
simulated game (companion.demo). Pieces that are missing on this build are skipped with a line
saying so; the run itself never crashes on them.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from ..errors import CompanionError, NotYetAvailable, os_error_text
from ..games.api import Message
from ..games.registry import get as get_spec
from ..i18n import GAME_TITLES, N_, NP_
from .console import Console
from .events import AskPlayer, Event, GameResumed, ViolationFound
from .journal import Journal, open_or_set_aside
from .session import RefereeSession, Scene
from .startup import RUNNING_STATUS, Preparation, watchdog
from .tracker import Tracker
from .views import view_for

log = logging.getLogger(__name__)
GAME_ORDER = ("babylon", "reclamation", "babel", "baubylon")


@dataclass
class RunOptions:
    game: str = "babylon"
    headless: bool = True
    fresh: bool = False  # start a new game even when the journal holds a running one
    speed: float = 0.03  # seconds between scenes of the simulated table
    seed: int = 1
    state_dir: Path = Path(".")
    lang: str | None = None
    max_scenes: int | None = None
    verbose: bool = False
    record: Path | None = None  # write every scene here (scenes.jsonl) for `companion replay`
    frames: bool = True  # render the simulated table with the twin and read it (where built)
    setup: Any = None  # interface.GameSetup of a game started from the screen (players' names, options)
    on_reader: Callable[[Any], None] | None = None  # told the twin's reader (the screen's camera marks)
    after_ready: bool = False  # a later run of the screen's loop: READY=1 was sent (startup.KeepAlive)
    twin_reader: Any = None  # the twin's reader built beforehand (a switch to the simulated table)


@dataclass
class RunResult:
    game: str
    moves: int
    over: bool
    violations: list[tuple[str, ...]] = field(default_factory=list)
    injected: list[tuple[str, ...]] = field(default_factory=list)
    skipped: list[Any] = field(default_factory=list)  # Messages (what this build or run went without)
    picture: Path | None = None
    exports: tuple[Path, ...] = ()
    latencies: list[float] = field(default_factory=list)


class Say:
    """Plain lines about the run itself (what was found, what was skipped): a Message is shown in
    the console's language (else `lang`), prefixed with the command's name."""

    def __init__(self, out: TextIO, console: Console | None, lang: str | None = None):
        self.out = out
        self.console = console
        self.lang = console.lang if console is not None else lang

    def __call__(self, text: str | Message) -> None:
        if not isinstance(text, str):
            text = "companion run: " + text.render(self.lang)
        if self.console is not None:
            self.console._line(text)
        else:
            self.out.write(text + "\n")
            self.out.flush()


def pick_game(wanted: str, say: Callable[[str], None], skipped: list[str]):
    """The game's camera view, or the next game that has one on this build."""
    order = [wanted] + [g for g in GAME_ORDER if g != wanted]
    for game in order:
        try:
            view = view_for(game)
            get_spec(game)
        except (NotYetAvailable, ModuleNotFoundError, CompanionError) as exc:
            skipped.append(Message.of(N_("{game}: {reason}"), game=game, reason=_reason(exc)))
            say(Message.of(N_("skipping {game}: {reason}"), game=game, reason=_reason(exc)))
            continue
        if game != wanted:
            say(Message.of(N_("playing {game} instead of {wanted}"), game=game, wanted=Message.of(GAME_TITLES.get(wanted, wanted))))
        return game, view
    raise NotYetAvailable(message=Message.of(N_("no game can be refereed on this build (no rules engine with a camera view)")))


def _reason(exc: BaseException) -> Any:
    """An error as a Message parameter: a CompanionError renders itself; others keep their own words."""
    return exc if isinstance(exc, CompanionError) else str(exc) or type(exc).__name__


def find_camera(config: Any) -> tuple[Any | None, Any]:
    """An opened real camera (Pi camera, USB webcam, or an image folder/video set in the config),
    or None and why not. The simulated table is never chosen here: that is the demo's job."""
    if config is not None and config.get("camera", "source") == "sim":
        return None, Message.of(N_("the configuration asks for the simulated table ({setting})"),
                                setting='[camera] source = "sim"')
    try:
        from ..vision.sources import SourceError, open_source
    except ImportError:
        return None, Message.of(N_("no camera found (the camera sources are not on this build)"))
    try:
        opened = open_source(config)
    except SourceError as exc:
        return None, Message.of(N_("no camera found ({reason})"), reason=exc)
    return opened.source, ""


def paced(scenes: Iterable[Scene], seconds: float, stop: threading.Event) -> Iterator[Scene]:
    for scene in scenes:
        if stop.is_set():
            return
        if seconds > 0:
            stop.wait(seconds)
        yield Scene(scene.kind, scene.observations, scene.frame, time.monotonic(), scene.command, scene.note)


def open_journal(path: Path, game: str, demo_moves: tuple | None, fresh: bool, say) -> tuple[Journal, Any]:
    """The journal and the running game to resume (or None). A journal that does not load is set
    aside and reported; a running game that is not the one being played is left as it is."""

    def loader(journal: Journal):
        game_id = journal.latest_game_id()
        if game_id is None:
            return None
        return journal.load_game(game_id)

    journal, running = open_or_set_aside(path, loader)
    if journal.set_aside is not None:
        aside = journal.set_aside
        say(Message.of(N_("the journal {file} could not be read ({reason}); kept it as {kept} and started a new one"),
                       file=str(aside.original), reason=aside.shown or aside.reason, kept=str(aside.moved_to)))
    if running is None or fresh or running.spec.id != game:
        return journal, None
    if demo_moves is not None and tuple(running.moves) != tuple(demo_moves[: len(running.moves)]):
        say(Message.of(N_("the journal's running {game} game (#{number}) is not the demo's; starting a new one"), game=game, number=running.id))
        journal.finish_game(running.id)
        return journal, None
    return journal, running


def run_demo(options: RunOptions, config: Any, out: TextIO, extra_sinks: Iterable[Callable[[Event], None]] = (),
             stop: threading.Event | None = None, on_session: Callable[[RefereeSession], None] | None = None,
             console: Console | None = None) -> RunResult:
    """Play the built-in simulated game through the referee. Returns what happened."""
    from ..demo.records import load_demo
    from ..demo.script import DemoScript, ScriptPlan

    stop = stop or threading.Event()
    say = Say(out, console, options.lang)
    skipped: list[Any] = []
    game, view = pick_game(options.game, say, skipped)
    demo = load_demo(game, options.seed)
    if options.setup is not None and options.setup.game == game:  # started from the screen: the players' names
        from .controls import demo_for_setup

        demo = demo_for_setup(options.setup)
    if demo.note:
        say(demo.note)
    say(Message.of(NP_("playing a simulated game of {game} ({count} move, {source})",
                       "playing a simulated game of {game} ({count} moves, {source})"), game=game, count=len(demo.moves), source=demo.source))

    journal, running = open_journal(options.state_dir / "demo-journal.sqlite", game, demo.moves, options.fresh, say)
    n = len(demo.moves)
    plan = ScriptPlan(illegal_at=max(1, n // 3), correction_at=max(2, (2 * n) // 3), camera_drop_at=max(1, n // 2))
    sinks: list[Callable[[Event], None]] = [c for c in (console,) if c is not None] + list(extra_sinks)
    if running is not None:
        tracker = Tracker.resume(running, view, journal)
        start = len(running.moves)
    else:
        tracker = Tracker(demo.initial, view, journal=journal)
        start = 0
    script = DemoScript(view, demo.initial, demo.moves, seed=options.seed, start=start, plan=plan,
                        look_again=lambda: tracker.wants_another_look)
    dog = watchdog(skipped)
    session = RefereeSession(tracker, sinks)  # its kicks (and READY=1) once the readers are built, below

    def confirmed() -> int:
        from ..demo.script import confirmed_count

        session.run_pending()  # the players' answers to a question count before they are judged
        return confirmed_count(tracker.moves, tracker.actors)

    script.confirmed = confirmed
    if on_session is not None:
        on_session(session)
    if running is not None:
        session.emit(GameResumed(game, start, tracker.state,
                                 Message.of(NP_("{count} move replayed from the journal", "{count} moves replayed from the journal"),
                                            count=start)))
    result = RunResult(game, 0, False, skipped=skipped)
    recorder = _recorder(options.record, demo.initial if start == 0 else tracker.state, say)
    session.sinks.append(_simulated_player(session, demo.moves, lambda: script.intent, recorder, lambda: script.made))
    session.sinks.append(lambda e: result.violations.append(e.ruling.rule_ids) if isinstance(e, ViolationFound) else None)
    scenes = script.scenes()
    if options.frames:
        preparing = Preparation(game, say, extra_sinks, dog, start, running=options.after_ready,
                                keep_alive=options.after_ready)
        scenes = _twin_frames(game, scenes, script, options.seed, say, skipped, options.on_reader,
                              hands=not options.headless, preparing=preparing, built=options.twin_reader,
                              keywords=view.observer_keywords(tracker.state))
    session.kick = _watchdog_kick(dog)
    for count, scene in enumerate(paced(scenes, options.speed, stop), start=1):
        recorder(scene)
        session.handle(scene)
        if console is not None:
            state = tracker.state
            who = state.players[state.current_player] if state.current_player is not None else "-"
            console.progress(Message.of(N_("[{game}] move {number}/{total} · {player} to play · {scene}"),
                                        game=game, number=len(tracker.moves), total=n, player=who,
                                        scene=scene.note).render(console.lang))
        if session.finished or (options.max_scenes and count >= options.max_scenes):
            break
    session._run_commands()
    if console is not None:
        console.close()
    result.moves = len(tracker.moves)
    result.over = tracker.state.is_over
    result.injected = [i.rule_ids for i in script.injected]
    result.latencies = session.stats.latencies
    if not stop.is_set():
        result.picture, result.exports = _finish(tracker, journal, options, say)
    journal.close()
    return result


def twin_reader(game: str, seed: int, preparing: Preparation | None = None) -> Any:
    """The twin's reader of `game` (its observers built: see referee/startup.py, announced by
    `preparing`); raises NotImplementedError where the twin has no reader for the game."""
    from ..demo import twin

    if game not in twin.SUPPORTED:
        raise NotImplementedError(f"the twin-to-observer path covers {', '.join(twin.SUPPORTED)} only")
    if preparing is not None:
        preparing.begin()
    try:
        return twin.TwinReader(game, seed)
    finally:
        if preparing is not None:
            preparing.done()


def _twin_frames(game: str, scenes, script, seed: int, say, skipped: list[str],
                 on_reader: Callable[[Any], None] | None = None, hands: bool = True,
                 preparing: Preparation | None = None, built: Any = None,
                 keywords: dict[str, dict[str, Any]] | None = None):
    """The twin draws each scene and the observer reads it, where both are built for the game.
    `hands`: draw the busy scenes too (a hand over the table), for a screen to show. `preparing`
    announces the readers' build (their kernels may compile: see referee/startup.py); `built`: a
    reader built beforehand, used when it is the game's; `keywords`: the game's observer keywords
    (GameView.observer_keywords), which the reader is fitted to."""
    try:
        from ..demo import twin

        if built is not None and getattr(built, "game", None) == game:
            reader = built
        else:
            reader = twin_reader(game, seed, preparing)
    except (ImportError, NotImplementedError, ValueError, CompanionError) as exc:
        skipped.append(Message.of(N_("rendered frames: {reason}"), reason=_reason(exc)))
        say(Message.of(N_("the simulated table is read at the observation level ({reason})"), reason=_reason(exc)))
        return scenes
    if keywords:  # most games tell their observers nothing
        reader.fit(keywords)
    say(Message.of(N_("the digital twin renders the table and the observer reads it")))
    if on_reader is not None:
        on_reader(reader)
    return twin.rendered(scenes, reader, script, hands=hands)


def _recorder(directory: Path | None, initial, say) -> Callable[[Scene], None]:
    """Writes scenes for `companion replay`: DIR/game.json (the starting state), DIR/scenes.jsonl."""
    if directory is None:
        return lambda scene: None
    import json

    from ..games import saves
    from .frames import SCENES_FILE, scene_to_json

    directory.mkdir(parents=True, exist_ok=True)
    if (directory / SCENES_FILE).exists():
        raise CompanionError(message=Message.of(N_("--record {folder}: it already holds a recording; choose an empty folder"), folder=str(directory)))
    saves.write_json_atomic(directory / "game.json", saves.state_to_json(initial))
    handle = (directory / SCENES_FILE).open("w", encoding="utf-8")
    say(Message.of(N_("recording the scenes to {file}"), file=str(directory / SCENES_FILE)))

    def record(scene: Scene) -> None:
        handle.write(json.dumps(scene_to_json(scene), ensure_ascii=False) + "\n")
        handle.flush()

    return record


def _simulated_player(session: RefereeSession, recorded: tuple, intent: Callable[[], Any] = lambda: None,
                      recorder: Callable[[Scene], None] = lambda scene: None,
                      made: Callable[[], int] = lambda: 0) -> Callable[[Event], None]:
    """The players at the simulated table answer the referee's questions with what they did: the
    candidate that is their move, else (a move done but not listed) "the camera misread" and the
    move itself; a question about nothing they did is dismissed."""
    from ..demo.script import answer_for, answer_index

    def answer(event: Event) -> None:
        if not isinstance(event, AskPlayer):
            return
        done = len(session.tracker.moves)
        intended = intent()
        index = answer_index(event.candidates, intended) if intended is not None else None
        pending = session.tracker.pending
        if index is None:
            index = answer_for(event.candidates, recorded, done, earlier=pending is not None and pending.kind == "revise")
        command: tuple[str, Any] = ("choose", index) if index is not None else ("undo", None)
        if (index is None and intended is None and done < min(made(), len(recorded))
                and not (pending and pending.kind == "revise") and session.tracker.state.check(recorded[done]).accepted):
            command = ("correct", recorded[done])  # not listed: "the camera misread", and what it was
        session.commands.put(command)
        recorder(Scene("player", command=command, note=Message.of(N_("a player answers"))))

    return answer


def _finish(tracker: Tracker, journal: Journal, options: RunOptions, say) -> tuple[Path | None, tuple[Path, ...]]:
    from ..commands.score import format_sheet
    from . import picture

    sheet = tracker.state.score_sheet()
    say("")
    for line in format_sheet(sheet, options.lang, tracker.state.winners):
        say(line)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    exports_dir = options.state_dir / "exports"
    png = None
    try:
        png = picture.save(exports_dir / f"{tracker.game}-{stamp}.png", tracker.expected_view(), sheet)
        say(Message.of(N_("picture of the final table saved to {file}"), file=str(png)))
    except OSError as exc:
        say(Message.of(N_("could not save the picture ({reason})"), reason=os_error_text(exc)))
    exports: tuple[Path, ...] = ()
    if tracker.game_id is not None:
        exports = journal.export(tracker.game_id, exports_dir)
        say(Message.of(N_("game record saved to {record}, score sheet to {sheet}"), record=str(exports[0]), sheet=str(exports[1])))
    return png, exports


def _watchdog_kick(dog: Any) -> Callable[[], Any]:
    """READY=1 now (the board readers are built), and the refereeing loop's kick for the watchdog."""
    if dog is None:
        return lambda: None
    if dog.enabled:
        dog.ready(RUNNING_STATUS)
    return dog.kick


def feedback_sink(config: Any, say, skipped: list[str], controls: Any = None):
    """The LED/buzzer sink, or None (said and skipped) when the feedback layer is not there.

    With `controls` (the same LiveControls the screen uses), the optional hardware buttons act on
    the table: confirm takes the likeliest reading of a pending question, undo takes back the last
    confirmed move — so a table without a touchscreen can still answer the referee."""
    try:
        from ..feedback import Feedback
    except ImportError as exc:
        skipped.append(Message.of(N_("feedback: {reason}"), reason=_reason(exc)))
        say(Message.of(N_("no LED/buzzer feedback on this build ({reason})"), reason=_reason(exc)))
        return None
    buttons: dict[str, Any] = {}
    if controls is not None:
        buttons = {"on_confirm": lambda: controls.choose(0), "on_undo": controls.undo}
    try:
        return Feedback.from_config(config, **buttons)
    except Exception as exc:  # a wiring problem must not stop the referee
        skipped.append(Message.of(N_("feedback: {reason}"), reason=_reason(exc)))
        say(Message.of(N_("LED/buzzer feedback unavailable ({reason}); continuing without it"), reason=_reason(exc)))
        return None
