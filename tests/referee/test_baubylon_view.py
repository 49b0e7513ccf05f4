"""Baubylon through the referee: the view reads what the Baubylon observer emits (height, pawns
listed bottom to top, only the top colour known), steps are accepted, a step the die does not allow
is called with its rule id, and undo takes a move back."""

from __future__ import annotations

import pytest

baubylon = pytest.importorskip("companion.games.baubylon")

from companion.games.baubylon import moves as mv  # noqa: E402
from companion.games.baubylon.state import new_game  # noqa: E402
from companion.referee.events import (  # noqa: E402
    MoveAccepted,
    OverrideRecorded,
    ViolationCleared,
    ViolationFound,
)
from companion.referee.tracker import Tracker  # noqa: E402
from companion.referee.views.baubylon import REGION, BaubylonView  # noqa: E402
from companion.vision import labels  # noqa: E402
from companion.vision.types import CellReading, Observation  # noqa: E402


def as_observer_reads(view) -> dict[str, Observation]:
    """What the Baubylon observer would emit for an expected view: pawns as JSON lists."""
    grid = view[REGION]
    cells = tuple(tuple(CellReading(c.label, 0.95, {k: list(v) if k == "pawns" else v for k, v in c.attrs})
                        for c in row) for row in grid)
    return {REGION: Observation(REGION, len(grid), len(grid[0]), cells)}


def _rolled(value: int):
    view = BaubylonView()
    tracker = Tracker(new_game(("Ann", "Ben")), view)
    log: list = []
    tracker.sinks.append(log.append)
    tracker.play(mv.Roll(value))
    return view, tracker, log


def test_expected_view_shows_height_and_the_top_colour_only():
    state = new_game(("Ann", "Ben"))
    stacked = state._apply_legal(mv.Roll(3))
    view = BaubylonView()
    space = dict(stacked.stacks)
    blocker_space = next(iter(space))  # the example field starts with blockers on it
    cell = view.expected(stacked)[REGION]
    from companion.games.baubylon.field import parse_space

    r, c = parse_space(blocker_space)
    assert cell[r][c].label == labels.FIELD
    assert cell[r][c].attr("pawns") == ("red",)
    assert cell[r][c].attr("height") == state.field.height(blocker_space)


def test_a_step_seen_on_the_table_is_accepted():
    view, tracker, log = _rolled(3)
    step = next(m for m in tracker.state.legal_moves() if isinstance(m, mv.Step))
    events = tracker.observe(as_observer_reads(view.expected(tracker.state.apply(step))))
    accepted = [e for e in events if isinstance(e, MoveAccepted)]
    assert accepted and accepted[0].ruling.move == step
    assert not [e for e in log if isinstance(e, ViolationFound)]


def test_a_step_the_die_does_not_allow_is_called_after_two_looks_then_cleared():
    view, tracker, log = _rolled(3)
    wrong = next(m for m in view.illegal_candidates(tracker.state) if not tracker.state.check(m).accepted)
    assert not tracker.state.check(wrong).accepted
    seen = as_observer_reads(view.physical_after(tracker.state, wrong))
    assert not [e for e in tracker.observe(seen) if isinstance(e, ViolationFound)]  # one look never blames
    called = [e for e in tracker.observe(seen) if isinstance(e, ViolationFound)]
    assert called and called[0].ruling.rule_ids == tracker.state.check(wrong).rule_ids
    assert "baubylon.move" in called[0].ruling.rule_ids or "baubylon.enter" in called[0].ruling.rule_ids
    back = tracker.observe(as_observer_reads(view.expected(tracker.state)))
    assert any(isinstance(e, ViolationCleared) for e in back)
    assert len(tracker.moves) == 1  # only the declared roll


def test_undo_takes_the_step_back():
    view, tracker, log = _rolled(4)
    step = next(m for m in tracker.state.legal_moves() if isinstance(m, mv.Step))
    before = tracker.state
    tracker.observe(as_observer_reads(view.expected(tracker.state.apply(step))))
    assert len(tracker.moves) == 2
    events = tracker.undo()
    assert any(isinstance(e, OverrideRecorded) for e in events)
    assert tracker.state == before and len(tracker.moves) == 1


def test_a_misread_space_elsewhere_does_not_stop_the_step():
    view, tracker, log = _rolled(3)
    step = next(m for m in tracker.state.legal_moves() if isinstance(m, mv.Step))
    seen = as_observer_reads(view.expected(tracker.state.apply(step)))
    obs = seen[REGION]
    rows = [list(row) for row in obs.cells]
    rows[0][0] = CellReading(labels.FIELD, 0.4, {"height": 2, "pawns": []}, ((labels.FIELD, {"height": 0, "pawns": []}, 0.35),))
    seen = {REGION: Observation(REGION, obs.rows, obs.cols, tuple(tuple(r) for r in rows))}
    events = tracker.observe(seen) + tracker.observe(seen)
    assert not [e for e in events if isinstance(e, ViolationFound)]
