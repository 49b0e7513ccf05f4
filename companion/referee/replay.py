"""`companion replay`: recorded scenes or recorded frames through the same referee path.

- a folder written by `companion run --record DIR` (game.json + scenes.jsonl): the observations
  are replayed as they were seen;
- an image folder or a video file: frames → motion gate → locator → observers → referee, which
  needs the board calibration and appearance profiles saved by `companion calibrate`.
The replay keeps its own journal in a temporary folder unless --journal is given: a replay never
touches the live game's journal.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from ..errors import CompanionError
from ..games import saves
from ..games.api import Message
from ..games.registry import get as get_spec
from ..i18n import N_, NP_, REGION_NAMES
from .console import Console
from .events import ViolationFound
from .frames import SCENES_FILE, BoardReader, frame_scenes, read_scenes
from .journal import Journal
from .session import RefereeSession
from .tracker import Tracker
from .views import view_for


@dataclass
class ReplayResult:
    moves: int
    over: bool
    violations: list[tuple[str, ...]] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    totals: tuple[int, ...] = ()


def replay(path: Path, *, game: str | None, start: Path | None, state_dir: Path, journal_path: Path | None,
           console: Console, out: TextIO, lang: str | None) -> ReplayResult:
    recorded = (path / SCENES_FILE).exists() if path.is_dir() else path.suffix == ".jsonl"
    if recorded:
        folder = path if path.is_dir() else path.parent
        start = start or folder / "game.json"
    if start is not None:
        initial = saves.load(start).final
        game = initial.game
    elif game is not None:
        spec = get_spec(game)
        initial = spec.new_game(tuple(f"P{i + 1}" for i in range(spec.min_players)))
    else:
        raise CompanionError(message=Message.of(N_("replay: say which game (--game) or give a starting state (--start FILE)")))
    spec = get_spec(game)
    view = view_for(game)
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(journal_path or Path(tmp) / "replay-journal.sqlite")
        tracker = Tracker(initial, view, journal=journal)
        result = ReplayResult(0, False)
        session = RefereeSession(tracker, [console, lambda e: result.violations.append(e.ruling.rule_ids)
                                           if isinstance(e, ViolationFound) else None])
        if recorded:
            scenes = read_scenes(path, spec)
        else:
            from ..vision.sources import FileSource, SourceError

            try:
                source = FileSource(path).open()
            except SourceError as exc:
                raise CompanionError(message=Message.of(N_("replay {path}: {reason}"), path=str(path), reason=exc)) from None
            reader = BoardReader(game, state_dir)
            reader.fit(view.observer_keywords(tracker.state))
            scenes = frame_scenes(iter(source), reader, lambda: tracker.wants_another_look)
            result.skipped = reader.skipped
        for scene in scenes:
            session.handle(scene)
            if session.finished:
                break
        session._run_commands()
        console.close()
        for region, why in result.skipped.items():
            board = Message.of(REGION_NAMES.get(region, region))
            out.write("companion replay: " + Message.of(N_("skipped {board}: {reason}"), board=board,
                                                         reason=why).render(lang) + "\n")
        from ..commands.score import format_sheet

        sheet = tracker.state.score_sheet()
        out.write("\n".join(format_sheet(sheet, lang, tracker.state.winners)) + "\n")
        result.moves = len(tracker.moves)
        result.over = tracker.state.is_over
        result.totals = sheet.totals()
        journal.close()
    return result


def summary(moves: int, over: bool, violations: list[tuple[str, ...]]) -> Message:
    """What a run or a replay came to: moves confirmed, whether the game ended, the rules called."""
    caught = ", ".join("/".join(r) for r in violations) or Message.of(N_("none"))
    return Message.of(NP_("{count} move confirmed; game over: {over}; violations called: {caught}",
                          "{count} moves confirmed; game over: {over}; violations called: {caught}"),
                      count=moves, over=Message.of(N_("yes") if over else N_("no")), caught=caught)


def describe(result: ReplayResult, lang: str | None = None) -> str:
    return "companion replay: " + summary(result.moves, result.over, result.violations).render(lang)


