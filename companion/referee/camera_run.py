"""`companion run` with a real camera: frames → motion gate → locator → observers → referee.

The camera stays open for the whole game. When it stops delivering frames the referee says so
(SourceStatus "lost"), tries to reopen it every second ("retrying") and carries on where it stood
once frames come back ("ok"); the game state never depends on the camera being there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from ..errors import CompanionError
from ..games.api import Message
from ..games.registry import get as get_spec
from ..i18n import N_, NP_, REGION_NAMES
from ..vision.types import Frame
from .console import Console
from .events import Event, GameResumed
from .frames import BoardReader, frame_scenes
from .live import RunOptions, Say, _finish, _watchdog_kick, open_journal
from .session import RefereeSession, Scene
from .startup import Preparation, watchdog
from .tracker import Tracker
from .views import view_for

RETRY_SECONDS = 1.0
SCENE_WORDS = {  # a scene's kind on the progress line
    "still": N_("the table is still"), "busy": N_("hands over the table"), "lost": N_("the camera is lost"),
    "ok": N_("the camera is back"), "retrying": N_("reconnecting to the camera"),
}


def readable_regions(source: Any, game: str, state_dir,
                     preparing: Preparation | None = None) -> tuple[BoardReader, Frame | None]:
    """Read one frame and set the board reader up on it (which regions can be located and read).
    `preparing` announces the observers' build (their kernels may compile: see startup.py)."""
    reader = BoardReader(game, state_dir)
    try:
        frame = source.read()
    except CompanionError:
        return reader, None
    if frame is not None:
        if preparing is not None:
            preparing.begin()
        try:
            reader.read(frame)
        finally:
            if preparing is not None:
                preparing.done()
    return reader, frame


def frames_with_reconnect(source: Any, stop: threading.Event,
                          lost: Callable[[CompanionError], None]) -> Iterator[Frame | str]:
    """Frames from the source; "lost" / "retrying" / "ok" markers when it fails and comes back
    (`lost` is told the error: it renders in the player's language). The end of a recording
    (read() gives None) ends the stream."""
    down = False
    while not stop.is_set():
        try:
            frame = source.read()
        except CompanionError as exc:
            lost(exc)
            if not down:
                down = True
                yield "lost"
            stop.wait(RETRY_SECONDS)
            yield "retrying"
            try:
                source.close()
                source.open()
            except CompanionError:
                pass
            continue
        if frame is None:
            return
        if down:
            down = False
            yield "ok"
        yield frame


def camera_scenes(items: Iterable[Frame | str], reader: BoardReader, look_again: Callable[[], bool]) -> Iterator[Scene]:
    """Camera markers become source scenes at once; frames go through the motion gate."""
    return frame_scenes(items, reader, look_again)


def _shown(items: Iterable[Frame | str], session: RefereeSession) -> Iterator[Frame | str]:
    """Every frame becomes the session's newest picture, not only the scenes the motion gate lets
    through: the screen's camera view and the calibration wizard need the still table too."""
    for item in items:
        if not isinstance(item, str):
            session.last_frame = item
        yield item


def run_camera(source: Any, reader: BoardReader, options: RunOptions, config: Any, out: TextIO,
               extra_sinks: Iterable[Callable[[Event], None]] = (), stop: threading.Event | None = None,
               console: Console | None = None, on_session: Callable[[RefereeSession], None] | None = None) -> int:
    stop = stop or threading.Event()
    say = Say(out, console, options.lang)
    game = options.game
    spec = get_spec(game)
    view = view_for(game)
    journal, running = open_journal(options.state_dir / "journal.sqlite", game, None, options.fresh, say)
    if running is not None:
        tracker = Tracker.resume(running, view, journal)
    else:
        players = tuple(f"P{i + 1}" for i in range(spec.min_players))
        if options.setup is not None and options.setup.game == game:  # started from the screen
            from .controls import new_game_for

            initial = new_game_for(options.setup, options.state_dir)
        else:
            initial = spec.new_game(players)
        tracker = Tracker(initial, view, journal=journal)
    reader.fit(view.observer_keywords(tracker.state))  # e.g. the field this game of Baubylon is played on
    skipped: list[str] = []
    sinks = [c for c in (console,) if c is not None] + list(extra_sinks)
    session = RefereeSession(tracker, sinks, kick=_watchdog_kick(watchdog(skipped)))  # READY=1: readers built before
    if on_session is not None:
        on_session(session)
    if running is not None:
        session.emit(GameResumed(game, len(tracker.moves), tracker.state,
                                 Message.of(NP_("{count} move replayed from the journal", "{count} moves replayed from the journal"),
                                            count=len(tracker.moves))))
    for region, why in reader.skipped.items():
        say(Message.of(N_("not reading {board}: {reason}"), board=Message.of(REGION_NAMES.get(region, region)), reason=why))
    items = frames_with_reconnect(source, stop, lambda why: say(Message.of(N_("camera error: {reason}"), reason=why)))
    items = _shown(items, session)
    try:
        for scene in camera_scenes(items, reader, lambda: tracker.wants_another_look):
            session.handle(scene)
            if console is not None:
                state = tracker.state
                who = state.players[state.current_player] if state.current_player is not None else "-"
                console.progress(Message.of(N_("[{game}] move {number} · {player} to play · {scene}"),
                                            game=game, number=len(tracker.moves), player=who,
                                            scene=Message.of(SCENE_WORDS.get(scene.kind, scene.kind)))
                                 .render(console.lang))
            if session.finished or stop.is_set():
                break
            time.sleep(0)
    except KeyboardInterrupt:
        say(Message.of(N_("stopped; the game stays in the journal and resumes next time")))
    finally:
        session._run_commands()
        source.close()
        if console is not None:
            console.close()
    _finish(tracker, journal, options, say)
    journal.close()
    return 0


