"""Names without a keyboard: the kana pad for Japanese names, and names used before kept in the
state folder to tap (the only way for Traditional Chinese names on the kiosk)."""

from __future__ import annotations

import json

import pytest

from companion.ui import kana
from companion.ui.names import FILE, NameBook


def test_kana_edits_like_a_phone_keypad():
    assert kana.add_voiced("さとか") == "さとが"
    assert kana.add_voiced("さとが") == "さとか"  # again: taken back
    assert kana.add_semi_voiced("は") == "ぱ" and kana.add_voiced("ぱ") == "ば" and kana.add_semi_voiced("ば") == "ぱ"
    assert kana.toggle_small("きよ") == "きょ" and kana.toggle_small("きょ") == "きよ"
    assert kana.add_voiced("ア") == "ア" and kana.add_voiced("カ") == "ガ"  # katakana stays katakana
    assert kana.katakana("さくら") == "サクラ"
    assert kana.type_key("", "か", kata=True) == "カ"
    assert kana.type_key("あ" * kana.MAX_NAME, "い") == "あ" * kana.MAX_NAME
    assert kana.add_voiced("") == "" and kana.toggle_small("ん") == "ん"


def test_names_are_kept_most_recent_first_without_repeats(tmp_path):
    book = NameBook(tmp_path)
    book.remember(["陳美玲", "Aiko", ""])
    book.remember(["Ben", "陳美玲"])
    assert NameBook(tmp_path).names == ["Ben", "陳美玲", "Aiko"]
    data = json.loads((tmp_path / FILE).read_text(encoding="utf-8"))
    assert data["format"] == "table-companion/player-names" and data["names"][1] == "陳美玲"
    book.forget("Ben")
    assert NameBook(tmp_path).names == ["陳美玲", "Aiko"]


def test_a_names_file_that_does_not_read_is_set_aside_not_overwritten(tmp_path):
    (tmp_path / FILE).write_text("{broken", encoding="utf-8")
    book = NameBook(tmp_path)
    assert book.names == []
    assert (tmp_path / (FILE + ".bad")).read_text(encoding="utf-8") == "{broken"
    book.remember(["Aiko"])
    assert NameBook(tmp_path).names == ["Aiko"]
    assert NameBook(None).names == []  # no state folder: nothing kept, nothing fails


@pytest.mark.ui
def test_a_japanese_name_is_tapped_on_the_kana_pad(harness):
    home = harness.app.screens["home"]
    pads = [w for w in harness.widgets() if getattr(w, "plain", None) == "かな"]
    assert len(pads) == home.count  # one per seat
    harness.tap(pads[0])
    assert home.editing is not None
    home.edit_name(0)
    for key in ("さ", "と", "う"):
        harness.tap(key)
    harness.tap("か")
    harness.tap("゛")
    assert home.names[0] == "さとうが"
    harness.tap("←")
    harness.tap("カナ")
    harness.tap("ケ")
    assert home.names[0] == "さとうケ"
    harness.tap("Done")
    assert home.editing is None
    harness.tap("Start the game")
    assert harness.fake.calls[-1][1][0].players[0] == "さとうケ"


@pytest.mark.ui
def test_names_used_before_are_offered_and_seat_a_player(tmp_path):
    from companion.ui.harness import Harness

    NameBook(tmp_path).remember(["陳美玲", "Aiko"])
    harness = Harness(800, 480, "zh_TW", state_dir=tmp_path)
    try:
        home = harness.app.screens["home"]
        harness.tap("陳美玲")
        harness.tap("Aiko")
        assert home.names[:2] == ["陳美玲", "Aiko"]
        from companion.ui.widgets import Btn

        chip = next(w for w in harness.widgets() if isinstance(w, Btn) and w.plain == "陳美玲")
        harness.tap(chip)  # already seated: moves to the next free seat, never sits twice
        assert home.names[:3] == ["", "Aiko", "陳美玲"]
        harness.tap("開始遊戲")
        assert harness.fake.calls[-1][1][0].players[1:3] == ("Aiko", "陳美玲")  # seat 1 keeps its default
        assert NameBook(tmp_path).names[:2] == ["Aiko", "陳美玲"]
    finally:
        harness.close()
