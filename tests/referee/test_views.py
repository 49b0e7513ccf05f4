"""The camera views of the real engines: legal play accepted, illegal actions called by rule id."""

from __future__ import annotations

import random

import pytest

from companion.demo.observed import Noise, read_view
from companion.demo.script import answer_for
from companion.referee.events import AskPlayer, MoveAccepted, ViolationFound
from companion.referee.tracker import Tracker

from .helpers import observe

reclamation = pytest.importorskip("companion.games.reclamation")
babylon = pytest.importorskip("companion.games.babylon")

from companion.games.babylon.moves import PlaceDecoration, PlaceTile  # noqa: E402
from companion.games.babylon.selfplay import play_random_game  # noqa: E402
from companion.games.reclamation.state import Turn  # noqa: E402
from companion.referee.views.babylon import BabylonView, garden_region  # noqa: E402
from companion.referee.views.reclamation import ReclamationView  # noqa: E402


def test_reclamation_turns_are_accepted_and_a_jump_is_called():
    state = reclamation.new_game()
    view = ReclamationView()
    tracker = Tracker(state, view)
    move = list(state.legal_moves())[1]
    events = tracker.observe(observe(view.expected(state.apply(move))))
    assert isinstance(events[0], MoveAccepted) and events[0].ruling.move.to == move.to
    jump = Turn("a6", "c4", "example")  # Vine's gardener two squares away
    seen = observe(view.physical_after(tracker.state, jump))
    tracker.observe(seen)
    events = tracker.observe(seen)
    assert isinstance(events[0], ViolationFound)
    assert events[0].ruling.rule_ids == ("reclamation.garden.move",)


def _referee(view, initial, moves, noise, seed=0):
    """Play recorded moves as still scenes (the players answer questions truthfully)."""
    tracker = Tracker(initial, view)
    log = []
    tracker.sinks.append(log.append)
    rng = random.Random(seed)
    state = initial
    for i, move in enumerate(moves):
        after = state.apply(move)
        if view.expected(after) == view.expected(state):
            tracker.play(move, expected_moves=i)
        else:
            for _ in range(3):
                for event in tracker.observe(read_view(view.expected(after), rng, noise)):
                    if isinstance(event, AskPlayer):
                        earlier = tracker.pending is not None and tracker.pending.kind == "revise"
                        index = answer_for(event.candidates, moves, i, earlier)
                        if index is None and not earlier and len(tracker.moves) <= i:  # not listed: say what it was
                            tracker.correct(move)
                        elif index is not None:
                            tracker.confirm(index)
        state = after
        assert len(tracker.moves) >= i + 1, f"move {i} ({move}) was not confirmed"
    return tracker, log, state


def test_babylon_opening_is_followed_move_by_move_with_noise():
    initial, moves, _ = play_random_game(players=2, seed=3)
    tracker, log, state = _referee(BabylonView(), initial, moves[:40], Noise(), seed=3)
    assert not [e for e in log if isinstance(e, ViolationFound)]
    assert tracker.state.score_sheet().totals() == state.score_sheet().totals()
    assert [m.kind for m in tracker.moves] == [m.kind for m in moves[:40]]
    # the flower of a taken tile is not asked: it is settled when the tile shows it
    def flowers(game_state):
        return sorted((seat, t.row, t.col, t.tile.flower) for seat, p in enumerate(game_state.seats)
                      for t in p.board.tiles)

    assert flowers(tracker.state) == flowers(state) and tracker.revisions >= 1
    asks = [e for e in log if isinstance(e, AskPlayer)]
    assert all(len({c.to_json()["flower"] for c in a.candidates}) > 1 for a in asks if a.candidates[0].kind == "take")


def _to_build(seed=5):
    initial, moves, _ = play_random_game(players=2, seed=seed)
    state = initial
    for move in moves:
        if state.stage == "build" and state.turn.new_tile is not None and state.me.board.tiles:
            return state
        state = state.apply(move)
    raise AssertionError("no build stage with a held tile")


@pytest.mark.parametrize("level", [0, 2])
def test_babylon_a_tile_without_support_is_called(level):
    state = _to_build()
    view = BabylonView()
    top = state.me.board.top
    spot = next((r, c) for r in range(7) for c in range(7)
                if all(top.at(x).kind == "recess" for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))))
    tile = state.held_tile("new")
    move = PlaceTile("new", spot[0], spot[1], level, icons=tile.icons or ("stairs", None, "bridge", None))
    ruling = state.check(move)
    assert not ruling.accepted
    tracker = Tracker(state, view)
    seen = observe(view.physical_after(state, move))
    tracker.observe(seen)
    events = tracker.observe(seen)
    assert isinstance(events[0], ViolationFound)
    assert events[0].ruling.rule_ids == ruling.rule_ids
    assert any(r.startswith("babylon.build.") for r in ruling.rule_ids)


def test_babylon_a_statue_on_a_space_without_its_icon_is_called():
    state = _to_build()
    view = BabylonView()
    top = state.me.board.top
    cell = next((r, c) for r in range(8) for c in range(8)
                if top.cells[r][c].kind == "tile" and top.cells[r][c].icon != "statue")
    move = PlaceDecoration("statue", (cell,))
    ruling = state.check(move)
    assert not ruling.accepted
    tracker = Tracker(state, view)
    seen = observe(view.physical_after(state, move))
    assert seen[garden_region(state.turn_of)].cell(*cell).label == "statue"
    tracker.observe(seen)
    events = tracker.observe(seen)
    assert isinstance(events[0], ViolationFound) and events[0].ruling.rule_ids == ruling.rule_ids
    assert all(r.startswith("babylon.deco.") for r in ruling.rule_ids)
