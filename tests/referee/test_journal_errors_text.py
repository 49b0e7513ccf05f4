"""A journal or a scene recording that cannot be read says why in the player's language."""

import json

import pytest

from companion.errors import FormatError
from companion.games.api import IllegalMove, Message, Ruling, Violation
from companion.i18n import N_
from companion.referee.frames import read_scenes
from companion.referee.journal import _does_not_replay, _picture_text


def test_a_remembered_picture_that_is_not_a_reading_is_named_in_every_language():
    with pytest.raises(FormatError) as info:
        _picture_text("[1, 2, 3]", "journal.sqlite: game 1", "rejections row 4.picture")
    english = info.value.render("en")
    assert "rejections row 4.picture" in english and "cell reading, got '[1, 2, 3]'" in english
    for lang in ("ja", "zh_TW"):
        text = info.value.render(lang)
        assert "rejections row 4.picture" in text and "'[1, 2, 3]'" in text and "expected" not in text


def test_a_move_that_no_longer_replays_gives_its_rule_and_reason_translated():
    reason = Message.of(N_("expected a list"))  # any translated text stands for the engine's reason
    ruling = Ruling(move=None, violations=(Violation("babylon.build.support", reason),))
    exc = IllegalMove.__new__(IllegalMove)
    exc.ruling = ruling
    text = _does_not_replay(exc)
    assert text.render("en") == "this move does not replay: expected a list [babylon.build.support]"
    assert "babylon.build.support" in text.render("ja") and "replay" not in text.render("ja")


def test_a_broken_scene_line_gives_its_line(tmp_path):
    path = tmp_path / "scenes.jsonl"
    path.write_text(json.dumps({"kind": "still"}) + "\n" + json.dumps({"kind": "dance"}) + "\n")
    with pytest.raises(FormatError) as info:
        list(read_scenes(path, spec=None))
    assert "line 2" in info.value.render("en") and "kind still" in info.value.render("en")
    assert "kind still" not in info.value.render("ja")
