"""Pause while the calibration layout is on the table; resume with the board as it was."""

from __future__ import annotations

from companion.referee.events import MoveAccepted, SourceStatus
from companion.referee.session import RefereeSession, Scene
from companion.referee.tracker import Tracker

from .helpers import grid_obs
from .toygame import Place, ToyState, ToyView

CALIBRATION_LAYOUT = ["WBW", "BWB", "WBW"]  # pieces laid out for the wizard, nothing like the game


def moves_of(events) -> list:
    return [e.ruling.move for e in events if isinstance(e, MoveAccepted)]


def session_with_a_move() -> tuple[RefereeSession, list]:
    tracker = Tracker(ToyState(), ToyView())
    log: list = []
    session = RefereeSession(tracker, sinks=[log.append])
    session.handle(Scene("still", grid_obs(["B..", "...", "..."])))
    assert tracker.moves == [Place(0, 0, "B")]
    return session, log


def test_nothing_seen_while_paused_counts_and_the_game_goes_on_as_it_was():
    session, log = session_with_a_move()
    session.pause()
    events = session.handle(Scene("busy"))  # the command runs before the scene
    assert any(isinstance(e, SourceStatus) and e.status == "paused" for e in events)
    for rows in (CALIBRATION_LAYOUT, CALIBRATION_LAYOUT, ["B..", ".W.", "..."]):
        assert session.handle(Scene("still", grid_obs(rows))) == []
    session.resume()
    # the pieces are still being cleared away: a legal-looking leftover is no move
    assert moves_of(session.handle(Scene("still", grid_obs(["B..", ".W.", "..."])))) == []
    assert moves_of(session.handle(Scene("still", grid_obs(CALIBRATION_LAYOUT)))) == []
    events = session.handle(Scene("still", grid_obs(["B..", "...", "..."])))  # the game as it was
    assert [e.status for e in events if isinstance(e, SourceStatus)] == ["ok"]
    assert session.tracker.moves == [Place(0, 0, "B")]
    # and the next real move is ruled on at once
    assert moves_of(session.handle(Scene("still", grid_obs(["B..", "...", "..W"])))) == [Place(2, 2, "W")]


def test_pause_and_resume_are_idempotent_and_resume_alone_does_nothing():
    session, _ = session_with_a_move()
    session.resume()
    events = session.handle(Scene("busy"))
    assert [e.status for e in events if isinstance(e, SourceStatus)] == ["busy"]
    assert not session.tracker.resyncing
    session.pause()
    session.pause()
    events = session.handle(Scene("lost"))
    assert [e.status for e in events if isinstance(e, SourceStatus)] == ["paused", "lost"]


def test_a_move_declared_while_resyncing_ends_the_wait():
    session, _ = session_with_a_move()
    session.pause()
    session.resume()
    session.play(Place(2, 2, "W"))
    session.handle(Scene("busy"))
    assert not session.tracker.resyncing and session.tracker.moves == [Place(0, 0, "B"), Place(2, 2, "W")]
    assert moves_of(session.handle(Scene("still", grid_obs(["B..", "...", "B.W"])))) == [Place(2, 0, "B")]


def test_the_calibration_wizard_pauses_the_referee_and_its_end_resumes_it():
    from companion.referee.controls import LiveControls

    session, _ = session_with_a_move()
    controls = LiveControls()
    controls.attach(session)
    controls.start_calibration()
    session.run_pending()
    assert session.tracker.paused
    assert session.handle(Scene("still", grid_obs(CALIBRATION_LAYOUT))) == []
    progress = controls.calibration_progress()  # the simulated table: a verdict at once, the wizard ends
    assert progress.verdict is not None
    session.run_pending()
    assert not session.tracker.paused and session.tracker.resyncing
    controls.start_calibration()
    controls.stop_calibration()  # left before a verdict
    session.run_pending()
    assert not session.tracker.paused and session.tracker.moves == [Place(0, 0, "B")]
