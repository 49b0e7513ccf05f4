"""The rejection memory (rejections.py) is journaled with what caused it: after a kill -9 or a
restart no reading the players rejected comes back; old journals still open; a bad row is named."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import FormatError
from companion.referee.events import MoveAccepted, OverrideRecorded
from companion.referee.journal import SCHEMA_VERSION, Journal, JournalWriteError, open_or_set_aside
from companion.referee.rejections import MAX_REMEMBERED, RejectedReadings
from companion.referee.tracker import Tracker
from companion.vision.types import CellReading, Observation

from .helpers import grid_obs
from .toygame import Place, ToyState, ToyView, resolve

# every misread of the child at once, with the stone really played at (0, 2)
MISREADS = grid_obs(["B.W", "..W", "W.W"])


def resumed(path: Path) -> tuple[Journal, Tracker]:
    journal = Journal(path, resolve=resolve)
    return journal, Tracker.resume(journal.load_game(journal.latest_game_id()), ToyView(), journal)


@pytest.mark.slow
def test_no_rejected_reading_comes_back_after_kill_9(tmp_path):
    path = tmp_path / "journal.sqlite"
    child = Path(__file__).with_name("rejections_child.py")
    proc = subprocess.Popen([sys.executable, str(child), str(path)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert line.split() == ["REJECTED", "12", "20", "22"], line  # phantom, question, correction

    journal, tracker = resumed(path)
    assert journal.set_aside is None
    assert tracker.moves == [Place(0, 0, "B"), Place(0, 2, "W")]
    assert set(tracker.rejected.cells) == {("grid", 1, 2), ("grid", 2, 0), ("grid", 2, 2)}
    for _ in range(3):  # the camera goes on misreading the three cells the same way
        assert tracker.observe(MISREADS) == []
    assert tracker.moves == [Place(0, 0, "B"), Place(0, 2, "W")]
    assert not tracker.wants_another_look

    # without the journaled memory the same looks are ruled on again (what used to happen)
    game = journal.load_game(journal.latest_game_id())
    forgetful = Tracker.resume(dataclasses.replace(game, rejections=()), ToyView(), None)
    assert [e for _ in range(3) for e in forgetful.observe(MISREADS)] != []
    journal.close()


def test_an_undo_and_the_rejection_it_causes_are_one_transaction_before_feedback(tmp_path):
    path = tmp_path / "j.sqlite"
    tracker = Tracker(ToyState(), ToyView(), journal=Journal(path, resolve=resolve))
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    seen = []

    def feedback(event):
        if isinstance(event, OverrideRecorded):  # what a second connection sees at this moment
            other = Journal(path, resolve=resolve)
            game = other.load_game(tracker.game_id)
            seen.append((len(game.moves), game.rejections))
            other.close()

    tracker.sinks.append(feedback)
    tracker.undo()
    assert seen == [(1, (("remember", ("grid", 1, 2), '["W", {}]'),))]


def test_a_failure_while_journaling_the_rejection_leaves_the_undo_unwritten_too(tmp_path, monkeypatch):
    path = tmp_path / "j.sqlite"
    journal = Journal(path, resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    told = []
    tracker.sinks.append(told.append)

    def power_cut(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(journal, "record_rejections", power_cut)
    with pytest.raises(JournalWriteError):
        tracker.undo()
    assert told == []  # nothing was announced
    assert len(tracker.moves) == 2 and tracker.rejected.cells == {}  # nor kept in memory
    other = Journal(path, resolve=resolve)
    game = other.load_game(tracker.game_id)
    assert len(game.moves) == 2 and game.rejections == ()  # neither the undo nor the rejection


def test_forgetting_is_journaled_too_so_the_resumed_memory_is_the_one_that_stood(tmp_path):
    path = tmp_path / "j.sqlite"
    tracker = Tracker(ToyState(), ToyView(), journal=Journal(path, resolve=resolve))
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()  # (1, 2) rejected
    tracker.observe(grid_obs(["B..", "...", "W.."]))  # a real move; (1, 2) looks as the game: forgotten
    assert accepted_moves(tracker) == [Place(0, 0, "B"), Place(2, 0, "W")]
    assert tracker.rejected.cells == {}
    tracker.observe(grid_obs(["B.B", "...", "W.."]))
    tracker.undo()  # (0, 2) rejected
    tracker.play(Place(0, 2, "B"))  # it was real after all: the move forgets it
    tracker.observe(grid_obs(["B.B", "...", "W.W"]))
    tracker.undo()  # (2, 2) rejected, and still remembered at the restart
    assert set(tracker.rejected.cells) == {("grid", 2, 2)}
    tracker.journal.close()
    journal, again = resumed(path)
    assert again.rejected.cells == tracker.rejected.cells
    assert again.observe(grid_obs(["B.B", "..W", "W.."])) != []  # (1, 2) is read as usual again
    journal.close()


def accepted_moves(tracker: Tracker) -> list:
    return list(tracker.moves)


def test_replaying_the_changes_keeps_the_bound_and_the_order():
    live = RejectedReadings()
    n = MAX_REMEMBERED + 7
    latest = {"r": Observation("r", 1, n, (tuple(CellReading("x", 0.9) for _ in range(n)),))}
    live.remember([("r", 0, c) for c in range(n // 2)], latest)
    live.forget([("r", 0, 3)])
    live.remember([("r", 0, c) for c in range(n // 2, n)], latest)
    live.remember([("r", 0, 5)], latest)  # remembered again: now the newest
    changes = live.drain()
    assert live.drain() == []
    again = RejectedReadings.replayed(changes)
    assert list(again.cells) == list(live.cells) and again.cells == live.cells
    assert len(again.cells) == MAX_REMEMBERED and list(again.cells)[-1] == ("r", 0, 5)


OLD_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, initial TEXT NOT NULL,
                    started REAL NOT NULL, finished REAL);
CREATE TABLE entries (seq INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
                      kind TEXT NOT NULL, actor TEXT NOT NULL, move TEXT, note TEXT NOT NULL DEFAULT '{}',
                      created REAL NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
"""


def test_a_journal_written_before_rejections_were_journaled_opens_and_is_upgraded(tmp_path):
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:
        db.executescript(OLD_SCHEMA)
        db.execute("INSERT INTO games VALUES (1, 'toy', ?, 0, NULL)", (json.dumps(ToyState().to_json()),))
        db.execute("INSERT INTO entries VALUES (1, 1, 'move', 'camera', ?, '{}', 1)",
                   (json.dumps(Place(0, 0, "B").to_json()),))
    db.close()
    journal, tracker = resumed(path)
    assert journal.set_aside is None
    assert tracker.moves == [Place(0, 0, "B")] and tracker.rejected.cells == {}
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()  # the upgraded file takes the new rows
    journal.close()
    journal, again = resumed(path)
    assert set(again.rejected.cells) == {("grid", 1, 2)}
    assert journal._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(SCHEMA_VERSION)
    journal.close()


@pytest.mark.parametrize(("column", "value", "named"), [
    ("picture", "not json", "rejections row 1.picture"),
    ("picture", '{"label": "W"}', "rejections row 1.picture"),
    ("action", "recall", "rejections row 1.action"),
    ("row", -1, "rejections row 1.row"),
])
def test_a_corrupt_rejection_row_is_a_clear_error_and_the_file_is_kept(tmp_path, column, value, named):
    path = tmp_path / "j.sqlite"
    tracker = Tracker(ToyState(), ToyView(), journal=Journal(path, resolve=resolve))
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "..W", "..."]))
    tracker.undo()
    tracker.journal._db.execute(f"UPDATE rejections SET {column}=? WHERE seq=1", (value,))
    tracker.journal.close()
    journal = Journal(path, resolve=resolve)
    with pytest.raises(FormatError) as caught:
        journal.load_game(journal.latest_game_id())
    assert str(path) in str(caught.value) and named in str(caught.value)
    assert "expected" in str(caught.value)
    journal.close()
    fresh, game = open_or_set_aside(path, lambda j: j.load_game(j.latest_game_id()), resolve=resolve)
    assert game is None and fresh.set_aside is not None  # set aside, not lost
    kept = sqlite3.connect(fresh.set_aside.moved_to)
    assert kept.execute("SELECT count(*) FROM rejections").fetchone() == (1,)
    kept.close()
    fresh.close()


def test_a_chain_of_moves_seen_at_once_is_one_transaction(tmp_path):
    path = tmp_path / "j.sqlite"
    tracker = Tracker(ToyState(), ToyView(), journal=Journal(path, resolve=resolve))
    counts = []

    def feedback(event):
        if isinstance(event, MoveAccepted):
            other = Journal(path, resolve=resolve)
            counts.append(len(other.load_game(tracker.game_id).moves))
            other.close()

    tracker.sinks.append(feedback)
    two = grid_obs(["B..", "...", "..W"])
    for _ in range(2):  # a chain of two moves waits for a second agreeing look
        tracker.observe(two)
    assert counts == [2, 2]  # both moves were on disk before the first was announced
