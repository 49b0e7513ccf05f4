"""Every screen builds in every language at both display sizes, and the main flows work by touch.

Touches are real Kivy touch events (down and up at a widget's centre), so a button that is hidden,
covered or off-screen fails the test the way it would fail a player's finger.
"""

from __future__ import annotations

import pytest

from companion.games.api import Message
from companion.i18n import LANGUAGES, N_
from companion.ui.screenshots import SHOTS

pytestmark = pytest.mark.ui


def on_screen(harness, widget) -> bool:
    x, y = widget.to_window(widget.center_x, widget.center_y)
    return 0 <= x <= harness.window.width and 0 <= y <= harness.window.height


MIN_TARGET = 44  # px: about 8.4 mm on the 7-inch display (800 px across 154 mm)


def check_every_screen(width: int, height: int, languages, names=None) -> None:
    from kivy.uix.button import Button

    from companion.ui.harness import Harness

    for lang in languages:
        harness = Harness(width, height, lang)  # one app per language; each screen's set-up runs on it
        try:
            for name in names or SHOTS:
                prepare_screen, screen = SHOTS[name]
                prepare_screen(harness)
                harness.app.go(screen)
                harness.frame(1)
                assert harness.app.manager.current == screen, name
                texts = harness.texts()
                assert len(texts) >= 5, (name, lang, texts)
                small = [(w.text, tuple(w.size)) for w in harness.widgets()
                         if isinstance(w, Button) and w.opacity and (w.height < MIN_TARGET or w.width < MIN_TARGET)]
                assert not small, (name, lang, small)  # fingers, not mice
                if lang != "en":  # really translated, not English under a CJK navigation bar
                    assert any(ord(ch) > 0x3000 for t in texts if t not in ("日本語", "繁體中文") for ch in t), (name, lang)
        finally:
            harness.close()


@pytest.mark.slow
def test_every_screen_builds_in_japanese_and_chinese_on_the_7_inch_display():
    # English is what every other test here reads; `make screenshots` renders all three anyway.
    check_every_screen(800, 480, [lang for lang in LANGUAGES if lang != "en"])


def test_screens_build_at_1280x720():
    check_every_screen(1280, 720, ("ja",), ("live", "ruling", "score"))


def test_start_a_game_from_home_through_setup_to_live(harness):
    harness.tap("Babel Builders")
    assert harness.app.screens["home"].count == 5  # Babel needs 5 to 10 players
    harness.tap("+")
    harness.tap("Start the game")
    setup = harness.fake.calls[-1][1][0]
    assert setup.game == "babel" and len(setup.players) == 6
    assert setup.players[0] == "Player 1"
    assert harness.app.manager.current == "setup"
    assert "Divine Punishment: 2" not in harness.texts()  # step 1 is the roles
    harness.tap("Next")
    assert "• Divine Punishment: 2" in harness.texts() and "• Seal: 5" in harness.texts()
    harness.tap("Next")
    harness.tap("Next")
    harness.tap("Play")
    assert harness.app.manager.current == "live"


def test_player_names_and_babylon_flowers_reach_the_referee(harness):
    home = harness.app.screens["home"]
    entry = next(w for w in harness.widgets() if getattr(w, "hint_text", "") == "Player 1")
    entry.text = "Aiko"
    harness.tap("Pink")  # seat 2 skips yellow (seat 3 holds it) and takes blue
    assert home.flowers[:3] == [0, 3, 2]
    harness.tap("Start the game")
    setup = harness.fake.calls[-1][1][0]
    assert setup.players == ("Aiko", "Player 2", "Player 3")
    assert setup.flowers == ("white", "blue", "yellow")
    assert dict(setup.options)["flowers"] == "white,blue,yellow,pink"  # the engine's option: seats first


def test_violation_interrupts_and_can_be_overridden(harness):
    harness.app.start_game(_babylon())
    harness.app.go("live")
    harness.fake.find_violation()
    harness.app.poll_feed()
    assert harness.app.manager.current == "ruling"
    texts = harness.texts()
    assert "Rule babylon.build.support" in texts
    assert any(t.startswith("Babylon rulebook · B. Build: tiles") for t in texts)
    assert any("here 2 pillars carry it" in t for t in texts)
    assert "Ruling" in texts  # the bar offers the open ruling while it is pending
    button = harness.find("Override: the move stands")
    assert on_screen(harness, button)
    harness.tap(button)
    assert ("override", ()) in harness.fake.calls
    assert harness.app.manager.current == "live"
    assert harness.app.session.pending_violation is None
    assert any(t.startswith("✓ Accepted: Place a tile on r3c4 r3c5 r4c4 r4c5") for t in harness.texts())
    assert "Ruling" not in harness.texts()


def test_violation_accept_correction_and_undo_buttons_call_the_referee(harness):
    harness.app.start_game(_babylon())
    harness.fake.find_violation()
    harness.app.poll_feed()
    harness.tap("We'll put it right")
    assert harness.fake.calls[-1] == ("accept_correction", ())
    harness.fake.find_violation()
    harness.app.poll_feed()
    harness.tap("Undo")
    assert harness.fake.calls[-1] == ("undo", ())


def test_ask_player_choose_a_candidate_by_touch(harness):
    harness.app.start_game(_babylon())
    harness.fake.ask()
    harness.app.poll_feed()
    assert harness.app.manager.current == "ruling"
    harness.tap("Place a tile on r5c5 r5c6 r6c5 r6c6 at level 1 (41% sure)")
    assert harness.fake.calls[-1] == ("choose", (1,))
    assert harness.app.session.question is None


def test_finish_and_see_the_score_with_the_tie_break(harness):
    harness.app.start_game(_babylon())
    harness.fake.play_move()
    harness.app.poll_feed()
    harness.app.go("live")
    harness.tap("End game")
    assert harness.fake.calls[-1] == ("end_game", ())
    assert harness.app.manager.current == "score"
    texts = harness.texts()
    assert "Winner: Ben" in texts
    assert "Equal points: the tie-break decides (Fewer visible recesses)." in texts
    assert "babylon.score.fountain" in texts
    totals = [t for t in texts if t in ("33", "31")]
    assert sorted(totals).count("33") >= 2


def test_score_numbers_light_up_the_pieces_that_scored(harness):
    harness.app.start_game(_babylon())
    harness.fake.end_game()
    harness.app.poll_feed()
    score = harness.app.screens["score"]
    fountain_row = [w for w in harness.widgets() if getattr(w, "text", None) == "9"]
    harness.tap(fountain_row[0])  # Ben's 9 fountain points
    assert score.selected == (1, "fountain")
    assert "Ben: Fountains" in harness.texts()
    from companion.ui.widgets import BoardPicture

    picture = next(w for w in harness.widgets() if isinstance(w, BoardPicture))
    assert picture.highlight == {(3, 3), (3, 4)}


def test_language_switches_at_run_time_from_the_bar(harness):
    harness.app.start_game(_babylon())
    harness.app.go("live")
    harness.tap("日本語")  # the bar offers the next language
    assert harness.app.lang == "ja"
    texts = harness.texts()
    assert "ライブ" in texts and "Aiko の手番" in texts
    assert "採石場から見えているタイルを 1 枚取ってください。" in texts
    harness.tap("繁體中文")
    assert harness.app.lang == "zh_TW"
    assert "輪到 Aiko" in harness.texts()
    harness.tap("English")
    assert harness.app.lang == "en" and "Live" in harness.texts()


def test_editors_save_through_the_referee(harness):
    harness.tap("Editors")
    editors = harness.app.screens["editors"]
    harness.tap("Save")
    assert harness.fake.saved == {}  # an empty card is refused on the screen
    assert "Mark at least one target square." in harness.texts()
    from companion.ui.widgets import Btn

    empty_cells = [w for w in harness.widgets() if isinstance(w, Btn) and w.text == "" and w.size_hint_y == 1]
    harness.tap(empty_cells[0])
    assert len(editors.card.targets) == 1
    harness.tap("Save")
    assert harness.fake.saved["reclamation.card"][0]["garden"]  # the black side unless Throne is chosen
    assert "Saved." in harness.texts()
    harness.tap("Babel blueprint")
    harness.tap("B2\n0")
    harness.tap("B2\n1")
    assert editors.blueprint.counts["B2"] == 2
    harness.tap("Save")
    assert harness.fake.saved["babel.blueprint"] == [{"name": "blank1", "cells": {"B2": 2}}]


def test_settings_change_volume_and_camera(harness):
    harness.tap("Settings")
    assert "Volume 80%" in harness.texts()
    harness.tap("+")
    assert harness.fake.calls[-1] == ("set_sound", (True, 0.9))
    assert "Volume 90%" in harness.texts()
    harness.tap("opencv")
    assert harness.fake.calls[-1] == ("set_camera", ("opencv",))
    harness.tap("日本語")
    assert "音量 90%" in harness.texts()


def test_calibration_progress_to_a_verdict(harness):
    harness.app.go("calibration")
    harness.tap("Start")
    screen = harness.app.screens["calibration"]
    assert screen.running
    for _ in range(12):
        screen.poll()
    assert not screen.running
    assert "Good: the camera sees the board within 0.4 px." in harness.texts()
    assert ("stop_calibration", ()) not in harness.fake.calls  # it ended by itself: the referee goes on


def test_a_verdict_on_one_frame_does_not_end_the_wizard_and_leaving_early_lets_the_referee_go_on(harness):
    from companion.referee.interface import CalibrationProgress

    harness.app.go("calibration")
    harness.tap("Start")
    screen = harness.app.screens["calibration"]
    one_frame = CalibrationProgress(0.33, verdict=Message.of(N_("Good frame: every place shows what the layout asks for.")))
    harness.fake.calibration_progress = lambda: one_frame
    screen.poll()
    assert screen.running and "Good frame: every place shows what the layout asks for." in harness.texts()
    harness.app.go("home")
    harness.frame(2)  # the screen manager's on_leave comes on the next frames
    assert not screen.running and ("stop_calibration", ()) in harness.fake.calls


def test_events_from_the_referee_arrive_on_the_clock(harness):
    """The app drains the feed itself (Clock.schedule_interval), not only when a test asks."""
    harness.app.start_game(_babylon())
    harness.app.go("live")
    harness.fake.find_violation()
    for _ in range(20):
        harness.frame(1)
        if harness.app.manager.current == "ruling":
            break
    assert harness.app.manager.current == "ruling"


def test_a_game_the_referee_starts_by_itself_is_shown(harness):
    """`companion run` plays or resumes a game without the home screen: its first event shows it."""
    assert harness.app.manager.current == "home"
    harness.fake.play_move()
    harness.app.poll_feed()
    assert harness.app.manager.current == "live"


def _babylon():
    from companion.ui.controller import GameSetup
    from companion.ui.fake import DEMO_PLAYERS

    return GameSetup("babylon", DEMO_PLAYERS, flowers=("white", "pink", "yellow"))


@pytest.mark.slow
def test_a_real_babylon_violation_shows_the_engines_rule_and_lights_its_cells(harness):
    from companion.ui.widgets import BoardPicture

    harness.app.start_game(_babylon())
    assert harness.fake.real_violation()
    harness.app.poll_feed()
    ruling = harness.app.session.pending_violation
    texts = harness.texts()
    assert f"Rule {ruling.violations[0].rule_id}" in texts
    assert "A tile rests on 3 or 4 pillars with level tops; 3 gives a belvedere" in texts  # the engine's rule title
    picture = next(w for w in harness.widgets() if isinstance(w, BoardPicture))
    assert picture.highlight and picture.picture.looks  # the real garden, its offending cells lit
    assert {picture.picture.looks[cell].fill for cell in picture.highlight} <= {"pillar", "tile1", "tile2", "tile3", "recess"}


def test_live_view_without_a_camera_shows_the_referees_own_view_of_the_board():
    from companion.ui.fake import FakeReferee
    from companion.ui.harness import Harness
    from companion.ui.widgets import BoardPicture, CameraPicture

    harness = Harness(800, 480, "en", controls=FakeReferee(with_camera=False))
    try:
        harness.app.start_game(_babylon())
        harness.fake.play_move()
        harness.app.poll_feed()
        harness.app.go("live")
        widgets = list(harness.widgets())
        assert any(isinstance(w, BoardPicture) for w in widgets)
        assert not any(isinstance(w, CameraPicture) for w in widgets)
        assert "Ben's turn" in harness.texts()
    finally:
        harness.close()


def test_a_screen_that_fails_to_build_says_so_instead_of_taking_the_kiosk_down(harness, monkeypatch):
    hints = harness.app.screens["hints"]

    def broken():
        raise KeyError("a score line for a player that does not exist")

    monkeypatch.setattr(hints, "build_content", broken)
    harness.tap("Hints")
    assert harness.app.manager.current == "hints"
    assert "This screen could not be shown." in harness.texts()
    harness.tap("Back to the game")
    assert harness.app.manager.current == "live"


def test_camera_misread_lets_the_players_pick_the_real_move(harness):
    harness.app.start_game(_babylon())
    harness.fake.find_violation()
    harness.app.poll_feed()
    harness.tap("The camera misread: choose what happened")
    assert "What really happened?" in harness.texts()
    harness.tap("Place a tile on r5c5 r5c6 r6c5 r6c6 at level 1")
    name, (move,) = harness.fake.calls[-1]
    assert name == "correct" and move.cells == ("r5c5", "r5c6", "r6c5", "r6c6")
    assert harness.app.session.pending_violation is None


def test_tapping_a_seat_number_moves_the_player_one_seat_up(harness):
    home = harness.app.screens["home"]
    home.names[:3] = ["Aiko", "Ben", "Chen"]
    home.render()
    harness.tap("3")
    assert home.player_names() == ("Aiko", "Chen", "Ben")
    assert home.flowers[:3] == [0, 2, 1]  # each player keeps their flower
    harness.tap("1")  # the start player moves to the last seat
    assert home.player_names() == ("Ben", "Chen", "Aiko")


def test_score_sheet_for_ten_players_keeps_fingers_sized_numbers(harness):
    from kivy.uix.button import Button

    from companion.games.api import Message, ScoreLine, ScoreSheet
    from companion.referee.events import GameOver

    players = tuple(f"P{n}" for n in range(1, 11))
    lines = tuple(ScoreLine(p, "team", Message.of("Winning team"), "babel.end.complete", int(p < 9)) for p in range(10))
    sheet = ScoreSheet("babel", players, lines, final=True)
    harness.fake.feed.push(GameOver("babel", 40, sheet, sheet.leaders()))
    harness.app.poll_feed()
    assert harness.app.manager.current == "score"
    score = harness.app.screens["score"]
    numbers = [w for w in harness.widgets(score) if isinstance(w, Button) and w.text in ("0", "1")]
    assert len(numbers) == 10
    assert all(w.width >= MIN_TARGET and w.height >= MIN_TARGET for w in numbers)
    assert "Shared victory: P1, P2, P3, P4, P5, P6, P7, P8, P9" in harness.texts()
    assert "babel.end.complete" in harness.texts()


def test_rule_readings_are_chosen_before_play_and_reach_the_engine_options(harness):
    harness.tap("Rule readings")
    assert any(t.startswith("babylon.deco.bridge:") for t in harness.texts())  # the engine's own words
    harness.tap("empty_to_board")
    harness.tap("any_tile")
    harness.tap("Players")
    harness.tap("Start the game")
    options = dict(harness.fake.calls[-1][1][0].options)
    assert options["bridge_gap"] == "empty_to_board"
    assert options["exact_cover"] == "any_tile"


def test_reclamation_variant_is_passed_as_the_engines_option(harness):
    harness.tap("The Reclamation")
    harness.tap("Throne (red cards)")
    harness.tap("Start the game")
    setup = harness.fake.calls[-1][1][0]
    assert (setup.game, setup.variant, dict(setup.options)) == ("reclamation", "throne", {"variant": "throne"})
