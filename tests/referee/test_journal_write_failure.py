"""A journal that cannot be written (a full or failing card) loses nothing: the referee's memory
stays what the file holds, the players are told in their language, and the next look tries again."""

from __future__ import annotations

import sqlite3

import pytest

from companion.feedback.controller import pattern_for
from companion.feedback.patterns import PATTERNS
from companion.games.api import Message
from companion.referee.events import MoveAccepted, OverrideRecorded, SaveFailed
from companion.referee.journal import Journal, JournalWriteError
from companion.referee.session import RefereeSession, Scene
from companion.referee.tracker import Tracker
from companion.ui.session import Session as ScreenState

from .helpers import grid_obs
from .toygame import Place, ToyState, ToyView, resolve

ONE = grid_obs(["B..", "...", "..."])
TWO = grid_obs(["B..", "..W", "..."])


def refuse_writes(journal: Journal, table: str = "entries") -> None:
    """SQLite itself refuses the next rows, as it does when the card is full (a TEMP trigger lives
    in this connection only: the file is not changed)."""
    journal._db.execute(f"CREATE TEMP TRIGGER refuse BEFORE INSERT ON main.{table} "
                        "BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END")


def allow_writes(journal: Journal) -> None:
    journal._db.execute("DROP TRIGGER temp.refuse")


class FailingCommit:
    """The connection, except that its next commit fails (a card that fails at fsync)."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.fail = True

    def commit(self) -> None:
        if self.fail:
            self.fail = False
            raise sqlite3.OperationalError("disk I/O error")
        self.db.commit()

    def __getattr__(self, name):
        return getattr(self.db, name)


def journaled_moves(path) -> list:
    journal = Journal(path, resolve=resolve)
    try:
        return list(journal.load_game(journal.latest_game_id()).moves)
    finally:
        journal.close()


def test_a_refused_write_keeps_memory_and_file_alike_and_the_next_look_saves_the_move(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path, resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    heard = []
    tracker.sinks.append(heard.append)
    tracker.observe(ONE)
    heard.clear()

    refuse_writes(journal)
    with pytest.raises(JournalWriteError) as caught:
        tracker.observe(TWO)
    assert heard == []  # no LED, no screen said "accepted"
    assert tracker.moves == [Place(0, 0, "B")]
    assert tracker.state == ToyState().apply(Place(0, 0, "B"))
    assert journaled_moves(path) == [Place(0, 0, "B")]
    assert "database or disk is full" in str(caught.value)
    assert "j.sqlite" in caught.value.render("ja")

    allow_writes(journal)
    assert any(isinstance(e, MoveAccepted) for e in tracker.observe(TWO))
    assert tracker.moves == journaled_moves(path) == [Place(0, 0, "B"), Place(1, 2, "W")]
    journal.close()


def test_a_failed_commit_is_rolled_back_and_the_undo_is_not_half_done(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path, resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    tracker.observe(ONE)
    tracker.observe(TWO)
    before = (list(tracker.moves), list(tracker.states), dict(tracker.rejected.cells))

    journal._db = FailingCommit(journal._db)
    with pytest.raises(JournalWriteError):
        tracker.undo()  # the undo and the rejection it causes: one transaction, not kept
    assert not journal._db.in_transaction
    assert (list(tracker.moves), list(tracker.states), dict(tracker.rejected.cells)) == before
    assert journaled_moves(path) == [Place(0, 0, "B"), Place(1, 2, "W")]

    events = tracker.undo()  # the commit works again: the same undo goes through whole
    assert any(isinstance(e, OverrideRecorded) for e in events)
    assert tracker.moves == journaled_moves(path) == [Place(0, 0, "B")]
    assert set(tracker.rejected.cells) == {("grid", 1, 2)}
    journal.close()


def test_the_session_tells_the_players_and_keeps_refereeing(tmp_path):
    journal = Journal(tmp_path / "j.sqlite", resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    ui = ScreenState()
    screens = []
    session = RefereeSession(tracker, [lambda e: screens.append(ui.apply(e))])
    session.handle(Scene("still", ONE))

    refuse_writes(journal)
    events = session.handle(Scene("still", TWO))
    assert [type(e) for e in events] == [SaveFailed]
    assert screens[-1] == "live"
    assert ui.save_problem is ui.history[-1] is events[0].detail  # shown on the live screen
    for lang in ("ja", "zh_TW"):
        text = events[0].detail.render(lang)
        assert "j.sqlite" in text and "could not be saved" not in text

    session.commands.put(("undo", None))  # a player's command meets the same full card
    assert [type(e) for e in session.run_pending()] == [SaveFailed]
    assert tracker.moves == [Place(0, 0, "B")]

    allow_writes(journal)
    assert any(isinstance(e, MoveAccepted) for e in session.handle(Scene("still", TWO)))
    assert session.stats.events["SaveFailed"] == 2
    assert ui.save_problem is None  # saved again: the warning goes
    journal.close()


def test_the_led_and_buzzer_say_it_too():
    event = SaveFailed("toy", 1, Message.of("x"))
    pattern = pattern_for(event)
    assert pattern is PATTERNS["save_failed"] and pattern.urgent  # a long low note, then magenta
    assert pattern_for(SaveFailed("toy", 1, Message.of("x")), camera_lost=True) is pattern
