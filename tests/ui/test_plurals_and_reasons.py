"""Plurals (NP_ msgids chosen by `count`) and reasons in the player's language: errors carry a
Message, file errors translate what companion.jsonread expects, the calibration capture's raw
labels become piece names, and no English is left inside a translated refusal."""

from __future__ import annotations

import json
import re
import time

import pytest

from companion.errors import CompanionError, ErrorText, FormatError, line_column, os_error_text
from companion.games.api import Message
from companion.i18n import N_, NP_, identifier_name, plural_forms, translate
from companion.jsonread import JsonReader
from companion.ui import catalogues

SETS = NP_("{count} set of stairs, fountain, bridge and statue", "{count} sets of stairs, fountain, bridge and statue")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


# --- plurals ------------------------------------------------------------------------------------------

def test_english_takes_the_form_its_count_asks_for_and_json_keeps_both():
    assert Message.of(SETS, count=1).render("en") == "1 set of stairs, fountain, bridge and statue"
    assert Message.of(SETS, count=0).render("en") == "0 sets of stairs, fountain, bridge and statue"
    assert Message.of(SETS, count=4).render("en").startswith("4 sets")
    data = json.loads(json.dumps(Message.of(SETS, count=1).to_json()))
    assert plural_forms(data["msgid"]) == plural_forms(SETS) and data["text"].startswith("1 set ")


def test_japanese_and_chinese_have_one_form_for_every_count():
    for lang in ("ja", "zh_TW"):
        one, two = (Message.of(SETS, count=n).render(lang) for n in (1, 2))
        assert one.replace("1", "2") == two and not LATIN_WORD.search(one)


def test_a_plural_without_a_number_reads_as_plural_and_a_typo_falls_back_to_english():
    assert translate(NP_("{count} cube", "{count} cubes"), "en", {"count": "?"}) == "? cubes"
    assert translate(NP_("{n} cube", "{n} cubes"), "ja", {"n": 1}) == "1 cubes"  # no count: plural


def test_the_extractor_keeps_both_forms_and_babylon_scoring_is_among_them():
    extracted = {m.id for m in catalogues.extract(catalogues.PACKAGE_DIR / "games" / "babylon") if m.id}
    assert plural_forms(SETS) in extracted
    assert not any(isinstance(i, str) and "sets of" in i for i in extracted)  # no plain "{count} sets" left


def test_every_plural_msgid_of_the_template_is_translated_with_its_placeholders():
    template = catalogues.read(catalogues.TEMPLATE)
    plurals = [m.id for m in template if isinstance(m.id, tuple)]
    assert len(plurals) >= 40
    for singular, plural in plurals:
        assert catalogues.placeholders(singular) <= catalogues.placeholders(plural), singular
        msgid = NP_(singular, plural)
        params = {name: 1 for name in catalogues.placeholders(plural)}
        for lang in ("ja", "zh_TW"):
            text = translate(msgid, lang, params)
            assert text != singular.format(**params) and "{" not in text, (lang, singular)


def test_check_names_a_plural_translation_with_a_lost_placeholder_and_a_fuzzy_one(tmp_path):
    from babel.messages.catalog import Catalog

    template = Catalog()
    template.add(("{count} cube", "{count} cubes"))
    template.add("Take {n} cards")
    for lang, cube, take, fuzzy in (("ja", ("ブロック {count} 個",), "{n} 枚", False), ("zh_TW", ("方塊",), "{n} 張", True)):
        catalog = Catalog(locale=lang)
        catalog.add(("{count} cube", "{count} cubes"), cube)
        catalog.add("Take {n} cards", take, flags=["fuzzy"] if fuzzy else [])
        catalogues.write(catalog, catalogues.po_path(lang, tmp_path))
    problems = [(p.lang, p.msgid, p.what.split(":")[0]) for p in catalogues.check(tmp_path, template)]
    assert problems == [("zh_TW", "{count} cube", "placeholders differ"), ("zh_TW", "Take {n} cards", "marked fuzzy")]


# --- errors carry a Message -----------------------------------------------------------------------

def test_an_error_with_a_message_is_english_in_logs_and_translated_for_the_player():
    error = CompanionError(message=Message.of(N_("the simulated table has no recorded game of {game}"), game="babel"))
    assert str(error) == "the simulated table has no recorded game of Babel Builders"
    assert error.render("ja") == "シミュレーションの卓にはバベルの建築家たちの記録されたゲームがありません"
    plain = CompanionError("disk full")
    assert plain.render("ja") == "disk full" and plain.message is None
    # put into a sentence, the error renders in the sentence's language
    sentence = Message.of(N_("This game cannot start: {reason}"), reason=error)
    assert "バベルの建築家たち" in sentence.render("ja") and "recorded" not in sentence.render("ja")


@pytest.mark.parametrize("data, read", [
    ({"n": "x"}, lambda r: r.get("n").int()),
    ({"n": 0}, lambda r: r.get("n").int(minimum=1)),
    ({"n": 9}, lambda r: r.get("n").int(maximum=3)),
    ({"n": 1}, lambda r: r.get("n").str()),
    ({"n": "z"}, lambda r: r.get("n").str(choices=("a", "b"))),
    ({"n": 1}, lambda r: r.get("n").list()),
    ({"n": [1]}, lambda r: r.get("n").list(length=2)),
    ({"n": 1}, lambda r: r.get("n").bool()),
    ({"n": 1}, lambda r: r.get("n").obj()),
    ({"n": "1"}, lambda r: r.get("n").float()),
    ({}, lambda r: r.get("n")),
])
def test_what_a_json_file_should_hold_is_said_in_the_players_language(data, read):
    with pytest.raises(FormatError) as caught:
        read(JsonReader(data, "cards.json"))
    error = caught.value
    assert str(error).startswith("cards.json: n: ")
    for lang in ("ja", "zh_TW"):
        text = error.render(lang)
        assert text.startswith("cards.json: n") and "expected" not in text and "missing" not in text, text


def test_file_errors_keep_the_place_and_drop_pythons_english_detail():
    not_json = FormatError("a.json", line_column(3, 7), ErrorText.of(N_("not valid JSON")))
    assert str(not_json) == "a.json: line 3, column 7: not valid JSON"
    assert not_json.render("ja") == "a.json: 3 行目 7 文字目：JSON として読めません"
    assert FormatError("a.json", "", os_error_text(FileNotFoundError(2, "No such file"))).render("zh_TW") == (
        "a.json：沒有這個檔案")
    assert FormatError("a.json", "x", "something an engine wrote").render("ja") == "a.json: x：something an engine wrote"
    assert FormatError("a.json", "x", Message.of(N_("no tile left"))).render("ja") == "a.json: x：タイルなし"


# --- identifiers and lists -----------------------------------------------------------------------------

def test_regions_and_games_are_named_and_listed_in_the_language():
    assert identifier_name("regions", ("babylon.garden", "babylon.quarry"), "ja") == "バビロンの庭園、バビロンの採石場"
    assert identifier_name("region", "babel", "zh_TW") == "巴別的建築工地"
    assert identifier_name("game", "reclamation", "ja") == "箱庭の国"
    assert identifier_name("player", "babel", "ja") == "babel"  # only known keys are names


# --- the refusals a player meets -----------------------------------------------------------------------

def _no_english(text: str, allowed: tuple[str, ...] = ()) -> list[str]:
    for word in allowed:
        text = text.replace(word, "")
    return LATIN_WORD.findall(text)


def test_a_game_for_too_many_players_is_refused_in_the_players_language():
    from companion.referee.controls import LiveControls
    from companion.referee.interface import GameSetup

    controls = LiveControls()
    controls.camera = "opencv"
    answer = controls.start_game(GameSetup("reclamation", ("A", "B", "C")))
    assert not answer.done
    assert answer.message.render("en") == "This game cannot start: The Reclamation is for 2 players, not 3."
    for lang in ("ja", "zh_TW"):
        assert _no_english(answer.message.render(lang)) == [], answer.message.render(lang)
    babylon = controls.start_game(GameSetup("babylon", ("A",))).message
    assert "2 to 4 players, not 1" in babylon.render("en") and _no_english(babylon.render("ja")) == []


def test_babylon_starts_on_the_simulated_table_with_the_players_names():
    from companion.referee.controls import LiveControls, demo_for_setup
    from companion.referee.interface import GameSetup

    demo = demo_for_setup(GameSetup("babylon", ("Aiko", "陳美玲")))
    assert demo.initial.players == ("Aiko", "陳美玲")
    state = demo.initial
    for move in demo.moves[:6]:  # the recorded moves still fit the renamed game
        state = state.apply(move)
    assert LiveControls().start_game(GameSetup("babylon", ("Aiko", "Ben"))).done


def test_a_camera_that_gives_no_picture_is_said_without_english(monkeypatch):
    from companion.commands import run
    from companion.referee.controls import LiveControls
    from companion.vision.sources import SourceError

    def no_source(choice):
        raise SourceError("no camera at OpenCV device 0 (no /dev/video0: check the cable)")

    monkeypatch.setattr("companion.vision.sources.open_source", no_source)
    controls = LiveControls()
    controls.open_camera = lambda name: run.open_camera(None, name, "babylon", None)
    assert controls.set_camera("opencv").done  # answered at once: the camera is opened in the background
    for _ in range(500):
        switch = controls.device_status().switch
        if switch.done is not None:
            break
        time.sleep(0.01)
    answer = switch
    assert not answer.done and "gives no picture" in answer.message.render("en")
    for lang in ("ja", "zh_TW"):
        assert _no_english(answer.message.render(lang), ("opencv", "sim")) == [], answer.message.render(lang)


def test_an_editor_save_refused_for_a_corrupt_file_names_it_without_english(tmp_path):
    from companion.referee.controls import LiveControls

    path = tmp_path / "babel-cards.json"
    path.write_text("{oops", encoding="utf-8")
    answer = LiveControls(tmp_path).save_editor_data("babel.blueprint", {"name": "x", "cells": {"B2": 1}})
    assert "not valid JSON" in answer.render("en") and path.read_text(encoding="utf-8") == "{oops"
    for lang in ("ja", "zh_TW"):
        text = answer.render(lang)
        assert str(path) in text and _no_english(text, (str(path), "JSON")) == [], text
    path.write_text(json.dumps({"format": "companion.babel.cards", "version": "two", "blueprints": []}))
    answer = LiveControls(tmp_path).save_editor_data("babel.blueprint", {"name": "x", "cells": {"B2": 1}})
    assert "expected" in answer.render("en") and "expected" not in answer.render("ja")


def test_a_refused_calibration_frame_names_the_pieces_not_their_labels():
    from companion.referee.controls import kind_message, piece_message, verdict_message
    from companion.vision.calibration.capture import Misread

    misread = Misread(1, 2, ("pillar2", {"level": 3}), ("tile", {"level": 1, "tile": "r1c2", "flower": "flower0",
                                                                   "icon": "fountain"}))
    verdict = (NP_("Good frame, but {count} place reads differently (row {row}, column {col}: expected "
                   "{expected}, seen {seen}); check it.",
                   "Good frame, but {count} places read differently (row {row}, column {col}: expected "
                   "{expected}, seen {seen}); check them."),
               {"count": 1, "row": 2, "col": 3, "expected": "pillar2 (level 3)", "seen": "tile (level 1, ...)"})
    message = verdict_message(verdict, (misread,))
    english = message.render("en")
    assert "expected double pillar, top at level 3, seen a tile at level 1, flower 1, icon fountain" in english
    for lang in ("ja", "zh_TW"):
        text = message.render(lang)
        assert "pillar2" not in text and _no_english(text) == [], text
    missing = verdict_message((N_("Some kinds of piece cannot be seen where the layout puts them: {missing}. Check "
                                  "the layout against the diagram."), {"missing": "icon:statue, pawn:blue, pillar1"}))
    assert "the statue icon, blue pawn, single pillars" in missing.render("en")
    assert _no_english(missing.render("ja")) == []
    for label, attrs in (("recess", {"level": 0}), ("clay", {"layers": 3}), ("bottom", {}), ("vine", {"height": 3,
                         "gardener": True}), ("cubes", {"count": 1}), ("cubes", {"count": 0}),
                         ("field", {"height": 2, "pawns": ["red"]}), ("field", {"height": 0, "pawns": []}),
                         ("stairs", {"level": [1, 2]}), ("belvedere", {"level": 2})):
        words = piece_message(label, attrs)
        assert _no_english(words.render("zh_TW")) == [], (label, words.render("zh_TW"))
    assert piece_message("cubes", {"count": 1}).render("en") == "1 cube"
    assert piece_message("vine", {"height": 3, "gardener": True}).render("en") == "3 stones, vine up, with the gardener"
    unmeasured = verdict_message((N_("The board could not be measured in this frame ({reason})."),
                                  {"reason": "index 7 is out of bounds for axis 0"}))
    assert "evenly lit" in unmeasured.render("en") and _no_english(unmeasured.render("zh_TW")) == []
    for kind in ("card", "cube", "table", "block", "outline:left", "flower2", "granite", "glyph:bridge"):
        assert _no_english(kind_message(kind).render("ja")) == [], kind


def test_every_plural_written_into_a_call_is_given_its_count():
    """A NP_ msgid inside a call (Message.of, an engine's _v helper, the set-up steps' _m) needs
    the `count` that chooses its form among the same call's keywords."""
    import ast

    missing = []
    for path in sorted(catalogues.PACKAGE_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            marked = [a for a in node.args if isinstance(a, ast.Call) and getattr(a.func, "id", "") == "NP_"]
            keywords = {k.arg for k in node.keywords}
            if marked and "count" not in keywords and None not in keywords:  # None: **params
                missing.append(f"{path.relative_to(catalogues.PACKAGE_DIR)}:{node.lineno}")
    assert missing == []
