"""The referee's own lines in the player's language: why a board region is not read (with a code
that `companion run` matches, never its English), the headless console's lines, a game with no
camera view, the demo's generated game and the last fallback of a refusal's reason."""

from __future__ import annotations

import errno
import io
import json

import cv2
import numpy as np
import pytest

from companion.config import load_config
from companion.errors import CompanionError, ErrorText
from companion.games.api import Message
from companion.i18n import N_
from companion.referee import frames
from companion.referee.console import Console
from companion.referee.controls import reason_of
from companion.referee.events import (
    GameOver,
    GameResumed,
    OverrideRecorded,
    SourceStatus,
    ViolationCleared,
)
from companion.referee.frames import NOT_LOCATED, NOT_SET_UP, BoardReader, Skipped
from companion.referee.views import view_for
from tests.test_error_texts import english_left

TRANSLATED = ("ja", "zh_TW")


def assert_translated(text_of, *written: str) -> None:
    english = text_of("en")
    for lang in TRANSLATED:
        text = text_of(lang)
        assert text != english, text
        assert english_left(text, *written) == [], (lang, text)


# --- regions not read ----------------------------------------------------------------------------

def test_a_board_out_of_view_is_not_located_with_a_code_and_its_reason_in_the_language(tmp_path):
    reader = BoardReader("babylon", tmp_path)
    reader.read(_blank_frame())
    assert set(reader.skipped) == {"babylon.garden", "babylon.quarry"} and not reader.observers
    garden = reader.skipped["babylon.garden"]
    assert garden.code == NOT_LOCATED
    assert str(garden).startswith("not located (found 0 of its markers, need at least 2")
    assert "Babylon gardens" not in str(garden)  # the line showing it names the board already
    assert_translated(garden.render)


def test_a_region_without_an_observer_and_one_whose_observer_will_not_start(tmp_path, monkeypatch):
    monkeypatch.setattr(frames, "observer_class", lambda region: None)
    reader = BoardReader("babylon", tmp_path)
    reader.read(_blank_frame())
    skipped = reader.skipped["babylon.garden"]
    assert skipped.code == frames.NO_OBSERVER and str(skipped) == "no observer for this board on this build"
    assert_translated(skipped.render)

    def needs_a_profile(location, profile):
        raise ValueError("the garden observer needs an appearance profile (calibrate first)")

    saved = _saved_location(tmp_path)
    monkeypatch.setattr(frames, "observer_class", lambda region: needs_a_profile)
    reader = BoardReader("babylon", tmp_path, calibration=saved)
    reader.read(_blank_frame())
    skipped = reader.skipped["babylon.garden"]
    assert skipped.code == NOT_SET_UP  # without a profile, that is the reason: said in words, not the observer's
    assert str(skipped) == ("its pieces' colours are not learned yet: calibrate them with "
                            "companion calibrate appearance --region babylon.garden")
    assert_translated(skipped.render, "companion calibrate appearance --region babylon.garden")

    def refuses(location, profile):
        raise CompanionError(message=ErrorText.of(N_("no such file")))

    monkeypatch.setattr(frames, "observer_class", lambda region: refuses)
    reader = BoardReader("babylon", tmp_path, calibration=saved)
    reader.read(_blank_frame())
    skipped = reader.skipped["babylon.garden"]
    assert skipped.code == NOT_SET_UP
    assert str(skipped) == "cannot be read with this calibration (no such file); calibrate it with companion calibrate"
    assert_translated(skipped.render, "companion calibrate")


def test_an_observer_started_without_its_colours_says_how_to_learn_them_in_the_language(tmp_path, monkeypatch):
    from companion.vision.observers.common import need_profile

    class Uncalibrated:  # as every observer does: it starts, and asks for its profile when it reads
        def __init__(self, location, profile):
            self.profile = profile

        def observe(self, image, frame_index=0, timestamp=0.0, previous=None):
            need_profile(self.profile, "babylon.garden")

    monkeypatch.setattr(frames, "observer_class", lambda region: Uncalibrated)
    reader = BoardReader("babylon", tmp_path, calibration=_saved_location(tmp_path))
    assert reader.read(_blank_frame()) == {}
    skipped = reader.skipped["babylon.garden"]
    assert skipped.code == NOT_SET_UP and "babylon.garden" not in reader.observers  # not tried again
    assert str(skipped) == ("its pieces' colours are not learned yet: calibrate them with "
                            "companion calibrate appearance --region babylon.garden")
    assert_translated(skipped.render, "companion calibrate appearance --region babylon.garden")


def test_run_tells_a_board_out_of_view_by_its_code_not_its_english(tmp_path, monkeypatch):
    from companion.commands import run
    from companion.referee import camera_run

    class Source:
        name = "files:x"

        def close(self):
            pass

    reader = BoardReader("babylon", tmp_path)
    reader.skipped = {"babylon.garden": Skipped(NOT_LOCATED, ErrorText.of(N_("no such game in the journal")))}
    monkeypatch.setattr("companion.vision.sources.open_source", lambda config: type("O", (), {"source": Source()})())
    monkeypatch.setattr(camera_run, "readable_regions", lambda source, game, state_dir, preparing=None: (reader, None))
    with pytest.raises(CompanionError) as caught:
        run.open_camera(load_config(), "files", "babylon", tmp_path)
    assert caught.value.render("en") == "it does not see the board of Babylon gardens: put the whole mat in view"
    reader.skipped = {"babylon.garden": Skipped(NOT_SET_UP, ErrorText.of(N_("not located ({reason})"), reason="x"))}
    with pytest.raises(CompanionError) as caught:
        run.open_camera(load_config(), "files", "babylon", tmp_path)
    assert caught.value.render("en").startswith("it sees the board but cannot read Babylon gardens")


def _blank_frame():
    from companion.vision.types import Frame

    return Frame(np.full((720, 960, 3), 90, np.uint8), 0.0, "test", 0)


def _saved_location(tmp_path):
    """A board calibration saved by corners, so the observer is the next thing asked."""
    from companion.cli import main

    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.full((720, 960, 3), 90, np.uint8))
    out = tmp_path / "board-babylon.garden.json"
    assert main(["calibrate", "board", "--region", "babylon.garden", "--corners", "100,100,860,100,860,620,100,620",
                 "--out", str(out), str(image)]) == 0
    return out


# --- the headless console ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_console_lines_are_in_its_language(lang):
    out = io.StringIO()
    console = Console(lang, out)
    detail = Message.of(N_("A player took back the last move"))
    console(ViolationCleared("babylon", 3, None))
    console(OverrideRecorded("babylon", 3, "undo", detail))
    console(GameResumed("babylon", 12, None))
    console(GameResumed("babylon", 12, None, detail))
    console(SourceStatus("babylon", 3, "lost", Message.of(N_("The camera stopped sending pictures; retrying"))))
    console(GameOver("babylon", 40, None, ()))
    lines = out.getvalue().splitlines()
    assert len(lines) == 6
    for line in lines:
        assert english_left(line) == [], line
    english = io.StringIO()
    Console("en", english)(GameOver("babylon", 1, None, ()))
    assert english.getvalue() == "  ★ game over after 1 move\n"


# --- a game with no camera view, the demo's game, a refusal's last fallback -----------------------

def test_a_game_without_a_camera_view_says_so_in_the_language():
    with pytest.raises(CompanionError) as caught:
        view_for("chess")
    assert str(caught.value) == "no camera view for the game 'chess'"
    assert_translated(caught.value.render, "chess")


def test_the_demo_says_why_it_plays_a_generated_game_in_the_language(tmp_path, monkeypatch):
    from companion.demo import records

    (tmp_path / "baubylon.json").write_text(json.dumps({"format": "nothing we know"}), encoding="utf-8")
    monkeypatch.setattr(records, "GAMES_DIR", tmp_path)
    demo = records.load_demo("baubylon")
    assert demo.note is not None and "baubylon.json does not load with this engine (" in str(demo.note)
    assert str(demo.note).endswith("); playing a generated game")
    assert str(demo.source) == "generated (seed 1)"
    assert_translated(demo.source.render)
    for lang in TRANSLATED:
        text = demo.note.render(lang)
        assert str(tmp_path / "baubylon.json") in text and "does not load" not in text, text


def test_a_refusal_of_an_unexpected_error_keeps_its_words_only_as_a_detail():
    assert reason_of(KeyError("fountain")).render("en") == "something went wrong (KeyError: 'fountain')"
    assert_translated(reason_of(KeyError("fountain")).render, "KeyError: 'fountain'")
    missing = reason_of(FileNotFoundError(errno.ENOENT, "No such file or directory", "/x/cards.json"))
    assert missing.render("en") == "no such file"
    assert_translated(missing.render)


def test_a_journal_set_aside_says_why_in_the_language(tmp_path):
    from companion.referee.journal import open_or_set_aside
    from tests.referee.test_journal import resolve, tampered_journal

    path = tampered_journal(tmp_path / "j.sqlite")
    fresh, _ = open_or_set_aside(path, lambda j: j.load_game(j.latest_game_id()), resolve=resolve)
    aside = fresh.set_aside
    assert aside is not None and "entry 2" in aside.reason and aside.shown is not None
    assert aside.shown.render("en") == aside.reason
    for lang in TRANSLATED:
        assert aside.shown.render(lang) != aside.reason and str(path) in aside.shown.render(lang)
