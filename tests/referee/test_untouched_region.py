"""A sure misread in a region no candidate changes (the other player's garden while the player to
move builds) does not rule out every reading of the scene: the move is still accepted, and an
illegal one still called (babylon.build.support)."""

from __future__ import annotations

import pytest

pytest.importorskip("companion.games.babylon")

from companion.games.babylon.moves import PlacePillar  # noqa: E402
from companion.games.babylon.selfplay import play_random_game  # noqa: E402
from companion.referee.events import MoveAccepted, ViolationFound  # noqa: E402
from companion.referee.tracker import Tracker  # noqa: E402
from companion.referee.views.babylon import BabylonView, garden_region  # noqa: E402
from companion.vision.types import CellReading  # noqa: E402

from .helpers import observe  # noqa: E402


def before_a_pillar():
    initial, moves, _ = play_random_game(players=2, seed=3)
    state = initial
    for move in moves:
        if isinstance(move, PlacePillar):
            return state, move
        state = state.apply(move)
    raise AssertionError("no pillar in the game")


def misread_elsewhere(state):
    """A belvedere read surely on a bare recess of the other player's garden."""
    other = garden_region(1 - state.turn_of)
    return {(other, 0, 0): CellReading("belvedere", 0.9, {"level": 4})}


def test_a_move_is_accepted_despite_a_sure_misread_in_the_other_garden():
    state, move = before_a_pillar()
    view = BabylonView()
    tracker = Tracker(state, view)
    events = tracker.observe(observe(view.expected(state.apply(move)), overrides=misread_elsewhere(state)))
    assert [e.ruling.move for e in events if isinstance(e, MoveAccepted)] == [move]


def test_an_illegal_tile_is_still_called_despite_it():
    state, move = before_a_pillar()
    view = BabylonView()
    tracker = Tracker(state, view)
    illegal = next(m for m in view.illegal_examples(state, __import__("random").Random(1))
                   if not state.check(m).accepted and view.physical_after(state, m) not in (None, view.expected(state)))
    ruling = state.check(illegal)
    shown = observe(view.physical_after(state, illegal), overrides=misread_elsewhere(state))
    events = tracker.observe(shown) + tracker.observe(shown)
    called = [e for e in events if isinstance(e, ViolationFound)]
    assert called and called[0].ruling.rule_ids == ruling.rule_ids
