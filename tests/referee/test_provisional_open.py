"""Several provisional choices open at once (one per player), and open choices surviving a restart:
the journal keeps each provisional move's alternatives, so after kill -9 the later placement still
settles the flower (babylon.quarry.visible: a tile is taken material side up, its flower shows
when it is placed; babylon.quarry.reward: the pillars it gives depend on that flower)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

babylon = pytest.importorskip("companion.games.babylon")

from companion.games.babylon.moves import Take  # noqa: E402
from companion.games.babylon.selfplay import play_random_game  # noqa: E402
from companion.referee.events import AskPlayer  # noqa: E402
from companion.referee.journal import Journal  # noqa: E402
from companion.referee.tracker import MAX_OPEN_BRANCHES, Tracker  # noqa: E402
from companion.referee.views.babylon import BabylonView  # noqa: E402

from .test_provisional import _feed  # noqa: E402


def flowers(game_state):
    return sorted((seat, t.row, t.col, t.level, t.tile.flower) for seat, player in enumerate(game_state.seats)
                  for t in player.board.tiles)


def replayed(moves, upto):
    """The true state after the first `upto` recorded moves of seed 3."""
    state = play_random_game(players=2, seed=3)[0]
    for move in moves[:upto]:
        state = state.apply(move)
    return state


@pytest.mark.slow
def test_a_second_take_while_a_flower_is_open_is_not_asked(tmp_path):
    initial, moves, _ = play_random_game(players=2, seed=3)
    moves = moves[:52]  # seed 3: takes at 43 and 46 (two players) are both open until 51
    view = BabylonView()
    journal = Journal(tmp_path / "journal.sqlite")
    tracker = Tracker(initial, view, journal=journal)
    log: list = []
    tracker.sinks.append(log.append)
    _feed(tracker, view, initial, moves[:47], log)
    assert len(tracker.provisionals) == 2
    assert {p.player for p in tracker.provisionals} == {0, 1}  # one open choice per player
    assert sum(len(p.alternatives) for p in tracker.provisionals) <= MAX_OPEN_BRANCHES
    _feed_from(tracker, view, initial, moves, 47, log)
    asked_at_take = [e for e in log if isinstance(e, AskPlayer) and isinstance(e.candidates[0], Take)
                     and e.question.msgid.startswith("The camera cannot see")]
    assert asked_at_take == []
    assert flowers(tracker.state) == flowers(replayed(moves, 52)) and flowers(tracker.state)
    stored = journal.load_game(tracker.game_id)  # the revised history replays to the same state
    assert [m.to_json() for m in stored.moves] == [m.to_json() for m in tracker.moves]


def _feed_from(tracker, view, initial, moves, start, log):
    """Go on feeding recorded moves from `start` (the tracker has the earlier ones)."""
    state = initial
    for move in moves[:start]:
        state = state.apply(move)
    _feed(tracker, view, state, moves[start:], log)


@pytest.mark.slow
def test_an_open_choice_survives_kill_9_and_the_placement_still_settles_it(tmp_path):
    path = tmp_path / "journal.sqlite"
    child = Path(__file__).with_name("provisional_child.py")
    proc = subprocess.Popen([sys.executable, str(child), str(path), "35"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert line.split() == ["OPEN", "34"], line  # the take at 34 (pink) is open when it dies

    initial, moves, _ = play_random_game(players=2, seed=3)
    assert moves[34].kind == "take" and moves[34].flower == "pink" and moves[39].kind == "tile"
    view = BabylonView()
    journal = Journal(path)
    game = journal.load_game(journal.latest_game_id())
    tracker = Tracker.resume(game, view, journal)
    assert [p.at for p in tracker.provisionals] == [34]
    choice = tracker.provisionals[0]
    assert len(choice.alternatives) == 3 and tracker.moves[34] not in choice.alternatives
    assert any(m.flower == "pink" for m in (tracker.moves[34], *choice.alternatives))
    log: list = []
    tracker.sinks.append(log.append)
    _feed_from(tracker, view, initial, moves[:40], 35, log)
    assert tracker.moves[34].flower == "pink"  # the placed tile showed it
    assert not [e for e in log if isinstance(e, AskPlayer)]
    assert flowers(tracker.state) == flowers(replayed(moves, 40))
    journal.close()
    again = Journal(path)  # and after another restart the settled choice stays final
    game = again.load_game(again.latest_game_id())
    assert game.moves[34].flower == "pink"
    assert Tracker.resume(game, view, again).provisionals == []
