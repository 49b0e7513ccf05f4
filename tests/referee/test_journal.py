"""Journal: written before feedback, resumes after SIGKILL, corrupt files set aside, export."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from companion.referee.events import MoveAccepted
from companion.referee.journal import Journal, open_or_set_aside
from companion.referee.tracker import Tracker

from .helpers import grid_obs
from .toygame import Place, ToyState, ToyView, resolve


def test_every_move_is_in_the_journal_before_its_event_reaches_feedback(tmp_path):
    journal = Journal(tmp_path / "j.sqlite", resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    seen = []

    def feedback(event):
        if isinstance(event, MoveAccepted):
            # a second connection sees what is durably committed at this very moment
            other = Journal(tmp_path / "j.sqlite", resolve=resolve)
            seen.append((event.move_number, len(other.load_game(tracker.game_id).moves)))
            other.close()

    tracker.sinks.append(feedback)
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "...", "..W"]))
    assert seen == [(1, 1), (2, 2)]


def test_a_restart_resumes_with_undo_and_overrides_replayed(tmp_path):
    path = tmp_path / "j.sqlite"
    journal = Journal(path, resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "...", "..W"]))
    tracker.undo()
    tracker.correct(Place(1, 1, "W"))
    journal.close()
    again = Journal(path, resolve=resolve)
    game = again.load_game(again.latest_game_id())
    assert game.moves == (Place(0, 0, "B"), Place(1, 1, "W"))
    assert game.state == tracker.state
    kinds = [(e["kind"], e["actor"]) for e in again.entries(game.id)]
    assert kinds == [("move", "camera"), ("move", "camera"), ("undo", "player"),
                     ("move", "player")]


def test_a_garbage_journal_is_set_aside_not_replaced(tmp_path):
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    journal = Journal(path, resolve=resolve)
    assert journal.set_aside is not None
    assert journal.set_aside.moved_to.exists()
    assert journal.set_aside.moved_to.read_bytes().startswith(b"this is not a database")
    assert ".corrupt-" in journal.set_aside.moved_to.name
    assert journal.latest_game_id() is None
    journal.start_game(ToyState())  # the fresh journal works


def tampered_journal(path):
    """A journal at `path` whose second move is not legal (tampered with): it no longer replays."""
    journal = Journal(path, resolve=resolve)
    game_id = journal.start_game(ToyState())
    journal.record_move(game_id, Place(0, 0, "B"))
    journal.record_move(game_id, Place(0, 0, "W"))
    journal.close()
    return path


def test_a_journal_whose_moves_no_longer_replay_is_set_aside(tmp_path):
    path = tampered_journal(tmp_path / "j.sqlite")
    fresh, loaded = open_or_set_aside(path, lambda j: j.load_game(j.latest_game_id()), resolve=resolve)
    assert loaded is None
    assert fresh.set_aside is not None and "entry 2" in fresh.set_aside.reason
    assert fresh.set_aside.moved_to.exists() and fresh.latest_game_id() is None


def test_export_writes_a_record_and_a_score_sheet_without_overwriting(tmp_path):
    journal = Journal(tmp_path / "j.sqlite", resolve=resolve)
    tracker = Tracker(ToyState(), ToyView(), journal=journal)
    for _ in range(2):  # two moves in one scene: accepted when two looks agree
        tracker.observe(grid_obs(["B..", "...", "..W"]))
    first = journal.export(tracker.game_id, tmp_path / "out")
    second = journal.export(tracker.game_id, tmp_path / "out")
    assert first[0] != second[0] and all(p.exists() for p in first + second)
    record = json.loads(first[0].read_text())
    assert record["format"] == "table-companion/game" and len(record["moves"]) == 2
    assert json.loads(first[1].read_text())["totals"] == [1, 1]


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_no_confirmed_move(tmp_path):
    """A real child process is killed with SIGKILL; every move it announced survives."""
    path = tmp_path / "j.sqlite"
    child = Path(__file__).with_name("journal_child.py")
    for round_no in range(4):
        proc = subprocess.Popen([sys.executable, str(child), str(path), str(round_no)],
                                stdout=subprocess.PIPE, text=True)
        announced = 0
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ACCEPTED"):
                announced = int(line.split()[1])
                if announced >= 2 + round_no % 3:
                    break
            if line.startswith("DONE"):
                break
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        journal = Journal(path, resolve=resolve)
        game_id = journal.latest_game_id(running_only=False)
        game = journal.load_game(game_id)
        journal.close()
        assert journal.set_aside is None
        assert len(game.moves) >= announced
        if game.finished:  # start the next round on a fresh journal
            for side in ("", "-wal", "-shm"):
                Path(str(path) + side).unlink(missing_ok=True)


def test_move_notes_carry_open_provisional_choices_until_settled(tmp_path):
    journal = Journal(tmp_path / "j.sqlite", resolve=resolve)
    game_id = journal.start_game(ToyState())
    first, other = Place(0, 0, "B"), Place(0, 1, "B")
    # the form written before this sitting: a note entry listing every reading, then the move
    journal._append(game_id, "note", "referee", None, {"provisional": [first.to_json(), other.to_json()]})
    journal.record_move(game_id, first)
    journal.record_move(game_id, Place(2, 2, "W"), note={"provisional": [Place(2, 1, "W").to_json()]})
    game = journal.load_game(game_id)
    assert game.notes[0]["provisional"] == [other.to_json()]
    assert game.notes[1]["provisional"] == [Place(2, 1, "W").to_json()]
    journal._append(game_id, "note", "referee", None, {"settled": 0})
    # a revision re-records each move with its own note, in one transaction
    journal.revise(game_id, 1, [(Place(2, 1, "W"), "camera", {"provisional": []})], {"revise": "seen later"})
    game = journal.load_game(game_id)
    assert "provisional" not in game.notes[0]
    assert game.notes[1] == {"revise": "seen later", "provisional": []}
    assert game.moves == (first, Place(2, 1, "W"))
    tracker = Tracker.resume(game, ToyView(), journal)
    assert tracker.provisionals == []  # settled, and an empty list opens nothing
