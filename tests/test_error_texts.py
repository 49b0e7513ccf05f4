"""Errors carry their own texts (errors.ErrorText / Message), so a player reads them with no English
left but the file name, the key path and the offending value as written."""

from __future__ import annotations

import errno
import re
import sqlite3

import pytest

from companion import diagnostics
from companion.cli import main
from companion.errors import TOP_LEVEL, CompanionError, ErrorText, FormatError, os_error_text
from companion.games import saves
from companion.games.reclamation.cards import Offset, target_problems
from companion.i18n import N_, NP_
from companion.jsonread import JsonReader

LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
TERMS = ("JSON", "true", "false", "SQLite", "UTF", "OpenCV", "USB")  # kept in Latin letters by the catalogues


def english_left(text: str, *written: str) -> list[str]:
    for word in (*written, *TERMS):
        text = text.replace(word, "")
    return LATIN_WORD.findall(text)


READER_FAILURES = [  # (data, read, the offending value as the error shows it)
    ({"n": "x"}, lambda r: r.get("n").int(), "'x'"),
    ({"n": 0}, lambda r: r.get("n").int(minimum=1), "0"),
    ({"n": 9}, lambda r: r.get("n").int(maximum=3), "9"),
    ({"n": "1"}, lambda r: r.get("n").float(), "'1'"),
    ({"n": 1}, lambda r: r.get("n").str(), "1"),
    ({"n": "zz"}, lambda r: r.get("n").str(choices=("aa", "bb")), "'zz'"),
    ({"n": 1}, lambda r: r.get("n").list(), "1"),
    ({"n": [1]}, lambda r: r.get("n").list(length=2), "[1]"),
    ({"n": [1, 2]}, lambda r: r.get("n").list(length=1), "[1, 2]"),
    ({"n": 1}, lambda r: r.get("n").bool(), "1"),
    ({"n": 1}, lambda r: r.get("n").obj(), "1"),
    ({}, lambda r: r.get("n"), ""),
]


@pytest.mark.parametrize("data, read, value", READER_FAILURES)
def test_every_kind_of_reader_failure_reads_without_english(data, read, value):
    with pytest.raises(FormatError) as caught:
        read(JsonReader(data, "cards.json"))
    error = caught.value
    assert str(error).startswith("cards.json: n: ") and error.render("en") == str(error)
    if value:
        assert str(error).endswith(f", got {value}")
    for lang in ("ja", "zh_TW"):
        text = error.render(lang)
        assert text.startswith("cards.json: n") and value in text, text
        assert english_left(text, "cards.json", value, "aa", "bb") == [], text


def test_a_list_of_one_item_is_singular_in_english():
    with pytest.raises(FormatError, match=r"expected a list of 1 item, got \[1, 2\]"):
        JsonReader([1, 2], "a.json").list(length=1)
    with pytest.raises(FormatError, match=r"expected a list of 3 items, got \[1\]"):
        JsonReader([1], "a.json").list(length=3)


def test_the_top_level_is_named_in_the_players_language():
    with pytest.raises(FormatError) as caught:
        JsonReader(3, "a.json").obj()
    assert caught.value.where == TOP_LEVEL and str(caught.value) == "a.json: top level: expected an object, got 3"
    assert caught.value.render("ja") == "a.json: 最上位：オブジェクトが必要です（実際は 3）"
    assert caught.value.render("zh_TW") == "a.json: 最上層：應為物件，實際為 3"


def test_a_caller_says_what_it_expects_with_a_msgid_and_parameters():
    error = JsonReader({"cells": ["a1"]}, "m.json").get("cells").fail(
        NP_("expected {count} cell for the {icon}", "expected {count} cells for the {icon}"), count=2, icon="bridge")
    assert str(error) == "m.json: cells: expected 2 cells for the bridge, got ['a1']"
    assert error.render("ja") == "m.json: cells：橋には 2 マス必要です（実際は ['a1']）"
    assert "橋樑" in error.render("zh_TW") and english_left(error.render("zh_TW"), "m.json", "cells", "a1") == []


def test_a_game_file_error_keeps_its_text_when_the_envelope_prefixes_the_key_path():
    data = {"format": "table-companion/move", "version": 1, "game": "babylon",
            "move": {"kind": "decoration", "piece": "statue", "cells": [[0, 0], [0, 1]]}}
    from companion.games.registry import get

    with pytest.raises(FormatError) as caught:
        saves.parse_move(data, get("babylon"), "move.json")
    error = caught.value
    assert str(error) == "move.json: move.cells: expected 1 cell for the statue, got [[0, 0], [0, 1]]"
    for lang in ("ja", "zh_TW"):
        assert english_left(error.render(lang), "move.json", "move.cells") == [], error.render(lang)


def test_an_english_expectation_nobody_translated_is_shown_as_is():
    assert FormatError("a.json", "x", "expected place or pass, got 'q'").render("ja") == (
        "a.json: x：expected place or pass, got 'q'")


def test_a_file_that_cannot_be_read_says_why_in_the_language(tmp_path):
    with pytest.raises(FormatError) as missing:
        saves.read_json_file(tmp_path / "absent.json")
    assert str(missing.value).endswith("absent.json: no such file")
    assert missing.value.render("zh_TW").endswith("absent.json：沒有這個檔案")
    with pytest.raises(FormatError) as folder:
        saves.read_json_file(tmp_path)
    assert str(folder.value).endswith(": is a folder, not a file") and "フォルダー" in folder.value.render("ja")
    (tmp_path / "bad.json").write_text('{"a": 1,\n oops}', encoding="utf-8")
    with pytest.raises(FormatError) as not_json:
        saves.read_json_file(tmp_path / "bad.json")
    assert str(not_json.value).endswith("bad.json: line 2, column 2: not valid JSON")
    assert not_json.value.render("ja").endswith("bad.json: 2 行目 2 文字目：JSON として読めません")


@pytest.mark.parametrize("exc, english", [
    (PermissionError(errno.EACCES, "Permission denied"), "this user may not read it"),
    (OSError(errno.ENOSPC, "No space left on device"), "the storage is full"),
    (OSError(errno.EMFILE, "Too many open files"), "cannot be read (Too many open files)"),
    (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
     "not UTF-8 text"),
])
def test_operating_system_errors_are_explained_and_their_own_words_kept_only_as_detail(exc, english):
    text = os_error_text(exc)
    assert english in str(text)
    for lang in ("ja", "zh_TW"):
        assert english_left(text.render(lang), "Too many open files") == [], text.render(lang)


def test_an_error_text_renders_its_parameters_in_the_same_language():
    nested = ErrorText.of(N_("{expected}, got {value}"), expected=ErrorText.of(N_("expected a move of {game}"),
                                                                                    game="reclamation"), value="'x'")
    assert str(nested) == "expected a move of The Reclamation, got 'x'"
    assert nested.render("ja") == "箱庭の国の手が必要です（実際は 'x'）"
    error = CompanionError(message=nested)
    assert str(error) == str(nested) and error.render("zh_TW").startswith("應為箱庭之國的一步")


def test_card_target_problems_stay_english_for_the_command_line_and_translate_for_the_player():
    assert [str(p) for p in target_problems([Offset(0, 0)])] == ["a target cannot be the gardener's own square (0, 0)"]
    with pytest.raises(FormatError) as caught:
        from companion.games.reclamation.cards import parse_targets

        parse_targets(JsonReader([{"forward": 1, "right": 0}, {"forward": 1, "right": 0}], "c.json", "targets"))
    assert "target (1, 0) is listed twice: expected a list of distinct offsets" in str(caught.value)
    shown = caught.value.render("ja")
    assert english_left(shown.split("（実際は")[0], "c.json", "targets") == [], shown  # then the value as written


def test_the_command_line_prints_an_error_in_the_chosen_language(tmp_path, capsys):
    missing = tmp_path / "nothing.json"
    assert main(["--lang", "ja", "check", str(missing), "{}"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"companion check: {missing}：ファイルがありません"
    assert main(["--lang", "en", "check", str(missing), "{}"]) == 2
    assert capsys.readouterr().err.strip() == f"companion check: {missing}: no such file"


def test_doctor_explains_a_journal_that_is_not_sqlite_and_keeps_sqlites_words_as_detail(tmp_path):
    path = tmp_path / "games.sqlite"
    path.write_bytes(b"this is not a database at all, just some text" * 40)
    result = diagnostics._check_sqlite(path)
    assert result.status == diagnostics.FAIL
    english = result.detail.render("en")
    assert "this is not an SQLite journal" in english and "(file is not a database)" in english
    for lang in ("ja", "zh_TW"):
        text = result.detail.render(lang)
        assert english_left(text, str(path), "file is not a database") == [], text


def test_sqlite_result_codes_are_explained():
    locked = sqlite3.OperationalError("database is locked")
    locked.sqlite_errorname = "SQLITE_BUSY"
    assert "stop the companion first" in diagnostics._sqlite_problem(locked).render("en")
    assert diagnostics._sqlite_problem(sqlite3.DatabaseError("?")).render("en") == "it cannot be read as SQLite"


def test_doctor_explains_a_calibration_file_that_is_not_json(tmp_path):
    folder = tmp_path / "calibration"
    folder.mkdir()
    (folder / "camera.json").write_text("{oops", encoding="utf-8")
    result = diagnostics.check_calibration(tmp_path, diagnostics.Machine())
    assert result.status == diagnostics.FAIL
    assert result.detail.render("en").endswith("cannot be used: not valid JSON at line 1, column 2.")
    for lang in ("ja", "zh_TW"):
        assert english_left(result.detail.render(lang), str(folder / "camera.json")) == []


def test_a_camera_that_gives_no_frames_is_explained_in_the_language():
    probe = diagnostics.CameraProbe("opencv", True, "/dev/video0", error="opened, but no frame arrived",
                                    problem=diagnostics.Message.of(N_(
                                        "it opened, but no frame arrived: reconnect it, or try another USB port")))
    text = diagnostics._probe_problem(probe).render("ja")
    assert "USB" in text and english_left(text) == []
    bare = diagnostics.CameraProbe("opencv", True, "/dev/video0", error="something odd")
    shown = diagnostics._probe_problem(bare)
    assert shown.render("en") == "the camera reported a problem (something odd)"
    for lang in ("ja", "zh_TW"):  # the library's words stay, in brackets, after a translated reason
        assert english_left(shown.render(lang), "something odd") == []


def test_a_baubylon_field_file_names_the_block_and_the_rule_in_the_players_language():
    from companion.games.baubylon.field import Field

    data = {"rows": 6, "cols": 6, "starts": ["A1"],
            "blocks": [{"at": "B2", "shape": "standing"}, {"at": "B2", "shape": "lying", "toward": "east"}]}
    with pytest.raises(FormatError) as caught:
        Field.from_reader(JsonReader(data, "field.json", "field"))
    error = caught.value
    assert str(error) == ("field.json: field.blocks[1]: the lying block at B2 would rest on a step (heights 0 and 4); "
                          "it must lie flat [baubylon.units]")
    for lang in ("ja", "zh_TW"):
        assert english_left(error.render(lang), "field.json", "field.blocks", "baubylon.units") == [], error.render(lang)


def test_a_game_that_cannot_start_says_why_in_the_players_language():
    from companion.games.registry import get

    with pytest.raises(CompanionError) as caught:
        get("baubylon").new_game(("a", "b"), colours="blue,blue")
    error = caught.value
    assert str(error) == "cannot start Baubylon: expected 2 different pawn colours, none of them 'red'"
    for lang in ("ja", "zh_TW"):
        assert english_left(error.render(lang), "red") == [], error.render(lang)
