"""Tracker rulings on hand-made observations of the toy game: accept, violate, ask, wait, undo."""

from __future__ import annotations

from companion.referee.events import (
    AskPlayer,
    MoveAccepted,
    OverrideRecorded,
    ScoreChanged,
    SourceStatus,
    TurnGuidance,
    ViolationCleared,
    ViolationFound,
)
from companion.referee.tracker import Tracker, TrackerSettings

from .helpers import grid_obs
from .toygame import Pass, Place, ToyState, ToyView


def make(settings: TrackerSettings | None = None, state: ToyState | None = None) -> Tracker:
    return Tracker(state or ToyState(), ToyView(), settings=settings or TrackerSettings())


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def test_a_clear_legal_change_is_accepted_with_score_and_guidance():
    tracker = make()
    events = tracker.observe(grid_obs(["B..", "...", "..."]))
    assert kinds(events) == ["MoveAccepted", "ScoreChanged", "TurnGuidance"]
    accepted = events[0]
    assert isinstance(accepted, MoveAccepted)
    assert accepted.ruling.move == Place(0, 0, "B")
    assert accepted.move_number == 1
    assert isinstance(events[1], ScoreChanged) and events[1].sheet.totals() == (1, 0)
    assert isinstance(events[2], TurnGuidance) and events[2].player == 1
    assert tracker.state.at(0, 0) == "B"


def test_nothing_changed_gives_nothing():
    tracker = make()
    assert tracker.observe(grid_obs(["...", "...", "..."])) == []
    assert tracker.moves == []


def test_an_illegal_action_is_called_after_two_agreeing_scenes_and_cleared_when_undone():
    tracker = make()
    tracker.observe(grid_obs(["B..", "...", "..."]))
    tracker.observe(grid_obs(["B..", "...", "..W"]))
    assert len(tracker.moves) == 2
    illegal = grid_obs(["BB.", "...", "..W"])  # dark next to its own stone
    assert tracker.observe(illegal) == []  # one scene is not enough to blame anyone
    events = tracker.observe(illegal)
    assert kinds(events) == ["ViolationFound"]
    violation = events[0]
    assert isinstance(violation, ViolationFound)
    assert violation.ruling.rule_ids == ("toy.apart",)
    assert violation.ruling.move == Place(0, 1, "B")
    assert violation.state == tracker.state and len(tracker.moves) == 2  # confirmed state unchanged
    assert violation.ruling.violations[0].fix is not None
    assert tracker.observe(illegal) == []  # not repeated while the table still shows it
    events = tracker.observe(grid_obs(["B..", "...", "..W"]))
    assert kinds(events) == ["ViolationCleared", "TurnGuidance"]
    assert isinstance(events[0], ViolationCleared)
    events = tracker.observe(grid_obs(["B..", "...", "B.W"]))
    assert isinstance(events[0], MoveAccepted) and events[0].ruling.move == Place(2, 0, "B")


def test_wrong_colour_is_a_violation_with_its_rule_id():
    tracker = make()
    obs = grid_obs(["...", ".W.", "..."])
    tracker.observe(obs)
    events = tracker.observe(obs)
    assert isinstance(events[0], ViolationFound)
    assert events[0].ruling.rule_ids == ("toy.colour",)


def test_a_player_correcting_a_violation_into_a_legal_move_is_accepted():
    tracker = make()
    wrong = grid_obs(["...", ".W.", "..."])
    tracker.observe(wrong)
    tracker.observe(wrong)
    events = tracker.observe(grid_obs(["...", ".B.", "..."]))  # swapped for the right colour
    assert isinstance(events[0], MoveAccepted) and events[0].ruling.move == Place(1, 1, "B")


def test_among_similar_readings_the_legal_move_wins():
    # The cell reads a little more like the wrong colour; the legal reading is nearly as likely.
    tracker = make(TrackerSettings(min_confidence=0.4))
    unsure = {(1, 1): ("W", 0.5, "B", 0.45)}
    events = tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure))
    assert isinstance(events[0], MoveAccepted) and events[0].ruling.move == Place(1, 1, "B")


def test_a_clearly_illegal_reading_is_not_explained_away_by_a_weak_legal_one():
    tracker = make()
    unsure = {(1, 1): ("W", 0.9, "B", 0.05)}
    obs = grid_obs(["...", "...", "..."], unsure=unsure)
    tracker.observe(obs)
    events = tracker.observe(obs)
    assert isinstance(events[0], ViolationFound) and events[0].ruling.rule_ids == ("toy.colour",)


def test_a_low_confidence_reading_asks_the_players_and_their_answer_is_recorded():
    tracker = make()
    unsure = {(1, 1): ("B", 0.5, ".", 0.45)}
    assert tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure)) == []  # look again first
    events = tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure))
    assert kinds(events) == ["AskPlayer"]
    ask = events[0]
    assert isinstance(ask, AskPlayer) and ask.candidates == (Place(1, 1, "B"),)
    assert tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure)) == []  # asked once
    events = tracker.confirm(0)
    assert isinstance(events[0], MoveAccepted) and events[0].ruling.move == Place(1, 1, "B")
    assert isinstance(events[-1], OverrideRecorded) and events[-1].action == "confirm"


def test_two_equally_likely_legal_moves_ask_with_both():
    tracker = make()
    unsure = {(0, 0): ("B", 0.5, ".", 0.45), (2, 2): ("B", 0.5, ".", 0.45)}
    tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure))
    events = tracker.observe(grid_obs(["...", "...", "..."], unsure=unsure))
    assert kinds(events) == ["AskPlayer"]
    assert set(events[0].candidates) == {Place(0, 0, "B"), Place(2, 2, "B")}


def test_a_scene_nothing_explains_waits_for_the_action_to_finish():
    tracker = make()
    events = tracker.observe(grid_obs(["...", ".?.", "..."]))  # e.g. a piece half put down
    assert len(events) == 1 and isinstance(events[0], SourceStatus) and events[0].status == "waiting"
    assert tracker.observe(grid_obs(["...", ".?.", "..."])) == []
    assert tracker.moves == []
    events = tracker.observe(grid_obs(["...", ".B.", "..."]))
    assert isinstance(events[0], MoveAccepted)


def test_without_chain_confirmations_several_moves_in_one_scene_are_accepted_at_once():
    tracker = make(TrackerSettings(chain_confirmations=1))
    events = tracker.observe(grid_obs(["B..", "...", "..W"]))
    accepted = [e.ruling.move for e in events if isinstance(e, MoveAccepted)]
    assert accepted == [Place(0, 0, "B"), Place(2, 2, "W")]


def test_several_moves_wait_for_two_agreeing_looks():
    tracker = make()
    assert tracker.observe(grid_obs(["B..", "...", "..W"])) == []  # a chain seen once: look again
    assert tracker.wants_another_look
    events = tracker.observe(grid_obs(["B..", "...", "..W"]))
    accepted = [e.ruling.move for e in events if isinstance(e, MoveAccepted)]
    assert accepted == [Place(0, 0, "B"), Place(2, 2, "W")]


def test_a_misread_beside_a_real_move_in_one_look_is_no_second_move():
    tracker = make()
    assert tracker.observe(grid_obs(["B..", "...", "..W"])) == []  # (2,2) misread this once
    events = tracker.observe(grid_obs(["B..", "...", "..."]))
    assert [e.ruling.move for e in events if isinstance(e, MoveAccepted)] == [Place(0, 0, "B")]
    assert tracker.moves == [Place(0, 0, "B")]


def test_a_single_move_still_gets_through_at_the_first_look():
    tracker = make()
    events = tracker.observe(grid_obs(["B..", "...", "..."]))
    assert [e.ruling.move for e in events if isinstance(e, MoveAccepted)] == [Place(0, 0, "B")]


def test_undo_and_correct_overrides():
    tracker = make()
    tracker.observe(grid_obs(["B..", "...", "..."]))
    events = tracker.undo()
    assert isinstance(events[0], OverrideRecorded) and events[0].action == "undo"
    assert tracker.moves == [] and tracker.state == ToyState()
    tracker.observe(grid_obs(["B..", "...", "..."]))
    events = tracker.correct(Place(0, 2, "B"))  # the camera read the wrong cell
    assert tracker.moves == [Place(0, 2, "B")]
    assert isinstance(events[-1], OverrideRecorded) and events[-1].action == "correct"
    events = tracker.correct(Place(1, 1, "B"))  # not legal: a correction cannot break the rules
    assert any(isinstance(e, ViolationFound) for e in events)


def test_an_invisible_sole_move_is_applied_and_the_game_ends():
    tracker = make()
    events = []
    while not tracker.state.is_over:
        legal = list(tracker.state.legal_moves())
        assert all(isinstance(m, Place) for m in legal), "a lone pass is applied automatically"
        move = legal[-1]
        rows = [list(tracker.state.board[i * 3:(i + 1) * 3]) for i in range(3)]
        rows[move.row][move.col] = move.colour
        events = tracker.observe(grid_obs(["".join(r) for r in rows]))
        assert isinstance(events[0], MoveAccepted) and events[0].ruling.move == move
    assert tracker.moves[-1] == Pass()
    assert kinds(events)[-2:] == ["ScoreChanged", "GameOver"]
    assert tracker.observe(grid_obs(["...", "...", "..."])) == []  # a finished game rules no more
