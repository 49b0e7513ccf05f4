"""The session model: what each referee event changes and which screen it brings forward."""

from companion.games.api import Message
from companion.referee.events import OverrideRecorded, SourceStatus
from companion.ui.controller import EventFeed, GameSetup, RefereeControls
from companion.ui.fake import DEMO_PLAYERS, DemoState, FakeReferee
from companion.ui.session import HISTORY_LIMIT, Session


def run(fake: FakeReferee, session: Session) -> list[str | None]:
    return [session.apply(event) for event in fake.feed.drain()]


def started() -> tuple[FakeReferee, Session]:
    fake, session = FakeReferee(), Session()
    fake.start_game(GameSetup("babylon", DEMO_PLAYERS))
    run(fake, session)
    return fake, session


def test_the_fake_referee_implements_the_protocol():
    assert isinstance(FakeReferee(), RefereeControls)


def test_start_sets_turn_guidance_and_score_without_changing_screen():
    fake, session = FakeReferee(), Session()
    fake.start_game(GameSetup("babylon", DEMO_PLAYERS))
    assert run(fake, session) == [None, None]
    assert session.game == "babylon"
    assert session.current_player == 0
    assert session.guidance and session.guidance[0].msgid == "Take one visible tile from the quarry."
    assert session.sheet is not None and session.sheet.players == DEMO_PLAYERS


def test_accepted_move_advances_the_turn_and_logs_the_move():
    fake, session = started()
    fake.play_move()
    run(fake, session)
    assert session.move_number == 1
    assert session.current_player == 1
    assert session.last_ruling is not None and session.last_ruling.accepted
    assert session.history[-1] == session.last_ruling.move.describe()


def test_violation_interrupts_with_the_ruling_screen_until_resolved():
    fake, session = started()
    fake.find_violation()
    assert run(fake, session) == ["ruling"]
    assert session.pending_violation is not None
    assert session.pending_violation.rule_ids == ("babylon.build.support",)
    fake.accept_correction()
    screens = run(fake, session)
    assert screens[0] == "live"
    assert session.pending_violation is None


def test_question_keeps_candidates_and_confidences_and_clears_on_choice():
    fake, session = started()
    fake.ask()
    assert run(fake, session) == ["ruling"]
    assert len(session.question.candidates) == 2
    assert session.question.confidences == (0.55, 0.41)
    fake.choose(1)
    run(fake, session)
    assert session.question is None
    assert fake.calls[-1] == ("choose", (1,))


def test_game_over_brings_the_score_sheet_with_the_winners():
    fake, session = started()
    fake.end_game()
    assert run(fake, session) == ["score"]
    assert session.over
    assert session.winners == (1,)  # Aiko and Ben tie on 33; fewer visible recesses: Ben
    assert session.sheet.tiebreak_decided()
    assert session.current_player is None


def test_source_status_is_kept_for_the_live_view():
    session = Session()
    detail = Message.of("Hands on the table: waiting for the scene to settle")
    assert session.apply(SourceStatus("babylon", 3, "busy", detail)) is None
    assert (session.source_status, session.source_detail) == ("busy", detail)


def test_history_keeps_only_the_newest_entries():
    session = Session()
    for n in range(HISTORY_LIMIT + 5):
        session.apply(OverrideRecorded("babylon", n, "undo", Message.of("undo {n}", n=n)))
    assert len(session.history) == HISTORY_LIMIT
    assert session.history[-1].render() == f"undo {HISTORY_LIMIT + 4}"


def test_event_feed_keeps_order_and_hands_over_in_batches():
    feed = EventFeed()
    for n in range(7):
        feed.push(OverrideRecorded("babylon", n, "undo", Message.of("x")))
    first = feed.drain(limit=5)
    assert [e.move_number for e in first] == [0, 1, 2, 3, 4]
    assert [e.move_number for e in feed.drain()] == [5, 6]
    assert feed.drain() == []


def test_event_feed_accepts_events_from_another_thread():
    import threading

    feed = EventFeed()
    threads = [threading.Thread(target=lambda n=n: feed.push(OverrideRecorded("g", n, "undo", Message.of("x"))))
               for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(e.move_number for e in feed.drain(limit=100)) == list(range(20))


def test_crop_to_marks_cuts_the_offending_spot_and_moves_its_marks():
    import numpy as np

    from companion.ui.controller import CameraView, Mark, crop_to_marks

    image = np.zeros((480, 640, 3), np.uint8)
    view = CameraView(image, (Mark(100, 100, "ok", "ok"), Mark(300, 200, "!", "bad", 20)))
    spot = crop_to_marks(view, margin=10)
    assert spot.image.shape[:2] == (2 * 30 + 1, 2 * 30 + 1)
    assert [(m.x, m.y, m.kind) for m in spot.marks] == [(30, 30, "bad")]
    corner = crop_to_marks(CameraView(image, (Mark(5, 5, "", "bad", 10),)), margin=10)
    assert corner.image.shape[:2] == (26, 26)  # clipped at the image's edge
    assert crop_to_marks(CameraView(image, (Mark(1, 1),))) is None


def test_repeated_source_status_changes_nothing_shown():
    session = Session()
    assert session.apply(SourceStatus("babylon", 3, "busy")) is None
    revision = session.revision
    session.apply(SourceStatus("babylon", 3, "busy"))
    assert session.revision == revision  # the app skips re-rendering
    session.apply(SourceStatus("babylon", 3, "still"))
    assert session.revision == revision + 1


def test_a_move_after_the_end_clears_the_result():
    fake, session = started()
    fake.end_game()
    run(fake, session)
    assert session.over
    fake.undo()  # the override alone does not reopen the game
    fake.state = DemoState(DEMO_PLAYERS)
    fake.play_move()
    run(fake, session)
    assert not session.over and session.current_player == 1


def test_a_game_resumed_from_the_journal_shows_where_it_stands():
    from companion.referee.events import GameResumed

    session = Session()
    state = DemoState(("Aiko", "陳美玲"), 1, 7)
    detail = Message.of("{count} moves replayed from the journal", count=7)
    assert session.apply(GameResumed("babylon", 7, state, detail)) is None
    assert session.state is state and session.players == ("Aiko", "陳美玲") and session.current_player == 1
    assert session.history[-1] == detail and session.move_number == 7
