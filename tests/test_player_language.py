"""No English left where a player (or whoever sets the kiosk up) reads it: the engines' problems(),
the CLI's lines (check, cards, calibrate, run), config and pin errors, and the lens advice of
doctor and the calibration wizard render in ja and zh_TW with only names, paths, commands, rule ids
and values in Latin letters."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from companion import diagnostics
from companion.cli import main
from companion.config import load_config
from companion.errors import ConfigError
from companion.games.api import Message
from companion.referee.replay import summary
from companion.ui.setup_steps import camera_lens_notice
from tests.games.babylon.make_examples import EXAMPLES
from tests.test_error_texts import english_left

PLAYER_LANGUAGES = ("ja", "zh_TW")
RULE_ID = re.compile(r"\b(?:babel|baubylon|babylon|reclamation)\.[a-z_.]*[a-z_]")


def no_english(text: str, *written: str) -> list[str]:
    """The Latin words left in `text` once `written` (names, paths, commands, values) and the rule
    ids are taken out."""
    return english_left(RULE_ID.sub("", text), *written)


def assert_translated(messages, *written: str) -> None:
    assert messages, "nothing to check"
    for message in messages:
        english = message.render("en")
        for lang in PLAYER_LANGUAGES:
            shown = message.render(lang)
            assert shown != english, (lang, english)
            assert no_english(shown, *written) == [], (lang, shown)


# --- the engines' problems() ------------------------------------------------------------------


def test_babel_problems_cite_their_rules_and_read_in_the_language():
    pytest.importorskip("companion.games.babel")
    from companion.games.babel.state import new_game

    state = new_game(tuple(f"P{i}" for i in range(5)))
    forged = replace(state, towers=(9,) * 9, spent=(6, 0, 0, 0), fanatics=(1, 2, 3), messenger=1)
    found = forged.problems()
    texts = [p.render("en") for p in found]
    assert "81 cubes on the base but the box holds only 25" in texts
    assert "6 Storm cards revealed but the game has only 5 [babel.setup.specials]" in texts
    assert "the messenger is also a fanatic [babel.setup.roles]" in texts
    assert_translated(found)
    assert state.problems() == []


def test_baubylon_problems_cite_their_rules_and_read_in_the_language():
    pytest.importorskip("companion.games.baubylon")
    from companion.games.baubylon.state import new_game

    state = new_game(("Ann", "Bo"))
    forged = replace(state, winner=0, roll=3, captured=(7, 0))
    found = forged.problems()
    assert [p.render("en") for p in found] == [
        "more than 6 blockers [baubylon.blocker]",
        "a winner without a pawn on the goal [baubylon.goal]",
        "a roll after the game ended [baubylon.goal]",
    ]
    assert_translated(found)


def test_babylon_problems_name_the_player_and_the_pieces_in_the_language():
    pytest.importorskip("companion.games.babylon")
    from companion.games import saves
    from companion.games.babylon.consistency import problems

    state = saves.load(EXAMPLES / "babylon-midgame.json").final
    seat = replace(state.seats[0], doubles=-1)
    forged = replace(state, supply=state.supply.add("single", 1), seats=(seat, *state.seats[1:]))
    found = problems(forged)
    texts = [p.render("en") for p in found]
    assert any(t.endswith("holds a negative number of pillars") for t in texts)
    assert any(t.startswith("149 single pillars accounted for but the game has 148") for t in texts)
    assert_translated(found, *state.players)
    ja = [p.render("ja") for p in found]
    assert any("1段柱コマ" in t for t in ja) and any("2段柱コマ" in t for t in ja)


def test_an_impossible_save_says_why_in_the_language(tmp_path):
    pytest.importorskip("companion.games.babylon")
    import json

    from companion.errors import FormatError
    from companion.games import saves

    data = json.loads((EXAMPLES / "babylon-midgame.json").read_text(encoding="utf-8"))
    data["state"]["supply"]["single"] += 1
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        saves.load(path)
    assert "149 single pillars accounted for" in str(caught.value)
    for lang in PLAYER_LANGUAGES:
        assert no_english(caught.value.render(lang), str(path), "state") == [], lang  # the key path stays


# --- the CLI ----------------------------------------------------------------------------------


def test_check_prints_its_verdict_and_fix_in_the_configured_language(capsys):
    state = str(EXAMPLES / "babylon-midgame.json")
    assert main(["--lang", "ja", "check", state, "@" + str(EXAMPLES / "babylon-move.json")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("認められます：") and "ACCEPTED" not in out
    assert main(["--lang", "zh_TW", "check", state, '{"kind": "exchange", "give": "double"}']) == 1
    out = capsys.readouterr().out
    assert out.startswith("不允許：") and "NOT ALLOWED" not in out and "[babylon.build.exchange]" in out
    assert "fix:" not in out


def test_cards_command_speaks_the_language(tmp_path, capsys):
    path = tmp_path / "cards.json"
    assert main(["--lang", "ja", "cards", "--file", str(path), "list"]) == 0
    out = capsys.readouterr().out
    assert "前へ 2、左へ 1" in out and "未入力" in out
    command = "companion cards add NAME --side garden --target F,R ..."
    for line in out.splitlines():
        left = no_english(line, str(path), "example", "companion cards add NAME --side", "garden", "throne",
                          "--target F,R")
        assert [w for w in left if w not in ("XX",)] == [], line
    assert command in out
    assert main(["--lang", "zh_TW", "cards", "--file", str(path), "add", "leaf", "--side", "garden",
                 "--target", "0,0"]) == 2
    err = capsys.readouterr().err
    assert "卡牌" in err and no_english(err.split(": ", 1)[1], "leaf") == []


def test_calibrate_show_says_what_is_missing_and_how_to_measure_the_lens(capsys):
    assert main(["--lang", "ja", "calibrate", "show"]) == 0
    out = capsys.readouterr().out
    assert "companion calibrate camera" in out and "companion calibrate target" in out
    for line in out.splitlines():
        assert no_english(line, "companion calibrate camera", "companion calibrate target",
                          "companion calibrate board", "companion calibrate appearance") == [], line


def test_run_and_replay_summary_reads_in_the_language():
    message = summary(12, True, [("babylon.round",)])
    assert message.render("en") == "12 moves confirmed; game over: yes; violations called: babylon.round"
    assert summary(1, False, []).render("en") == "1 move confirmed; game over: no; violations called: none"
    assert_translated([message, summary(0, False, [])])


# --- config, pins, camera probes ------------------------------------------------------------


def test_a_toml_syntax_error_says_where_in_the_language(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[general\nlanguage = 'ja'\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}: line 1, column 9: not valid TOML (")
    assert caught.value.render("ja").startswith(f"{path}: 1 行目 9 文字目：TOML として読めません（")
    assert caught.value.render("zh_TW").startswith(f"{path}: 第 1 行第 9 字：不是有效的 TOML（")
    path.write_text("[general]\nlanguage = ", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert "the end of the file" in str(caught.value) and "ファイルの末尾" in caught.value.render("ja")


def test_a_pin_used_twice_reads_in_the_language():
    from companion.feedback.devices import FeedbackSettings

    config = load_config(None)
    config.values["feedback"]["button_undo"] = config.values["feedback"]["led_green"]
    with pytest.raises(ConfigError) as caught:
        FeedbackSettings.from_config(config)
    assert "is already led_green" in str(caught.value)
    for lang in PLAYER_LANGUAGES:
        shown = caught.value.render(lang)
        assert no_english(shown, "config", "[feedback] button_undo", "GPIO27", "led_green") == [], shown


# --- the lens: doctor, the wizard ---------------------------------------------------------------


def test_doctor_warns_until_the_lens_is_measured(tmp_path):
    from companion.vision.calibration import files

    assert files.camera_path(tmp_path) == tmp_path / diagnostics.CAMERA_FILE  # the same file as vision's
    missing = diagnostics.check_camera_lens(tmp_path, "auto")
    assert missing.status is diagnostics.Status.WARN and missing.fix.msgid == diagnostics.CAMERA_NOT_MEASURED
    for lang in PLAYER_LANGUAGES:
        advice = missing.fix.render(lang)
        assert "companion calibrate camera" in advice and "companion calibrate target" in advice
        assert no_english(advice, "companion calibrate camera", "companion calibrate target") == [], advice
        assert no_english(missing.detail.render(lang), str(tmp_path / diagnostics.CAMERA_FILE)) == []
    (tmp_path / "calibration").mkdir()
    (tmp_path / diagnostics.CAMERA_FILE).write_text("{}", encoding="utf-8")
    assert diagnostics.check_camera_lens(tmp_path, "auto").status is diagnostics.Status.OK
    assert diagnostics.check_camera_lens(tmp_path / "elsewhere", "sim").status is diagnostics.Status.OK


def test_the_wizard_urges_the_lens_only_when_it_is_not_measured(tmp_path):
    measured = diagnostics.camera_lens_measured
    notice = camera_lens_notice("picamera2", measured(tmp_path))
    assert isinstance(notice, Message) and notice.msgid == diagnostics.CAMERA_NOT_MEASURED
    assert camera_lens_notice("opencv", measured(None)) == notice  # no state folder: nothing can be stored
    assert camera_lens_notice("sim", False) is None  # the simulated table has no lens to measure
    (tmp_path / "calibration").mkdir()
    (tmp_path / diagnostics.CAMERA_FILE).write_text("{}", encoding="utf-8")
    assert camera_lens_notice("picamera2", measured(tmp_path)) is None


def test_the_score_sheet_reads_in_the_language():
    pytest.importorskip("companion.games.babylon")
    from companion.commands.score import format_sheet
    from companion.games import saves

    record = saves.load(EXAMPLES / "babylon-2p-game.json")
    state = record.final
    english = format_sheet(state.score_sheet(), "en", state.winners)
    assert english[0] == "Babylon — final score" and english[-1].startswith("winner: ")
    for lang in PLAYER_LANGUAGES:
        lines = format_sheet(state.score_sheet(), lang, state.winners)
        for line in (lines[0], lines[-1]):
            assert no_english(line, *state.players) == [], (lang, line)


def test_problems_are_listed_with_the_languages_own_separator():
    from companion.errors import listed
    from companion.i18n import N_

    items = [Message.of(N_("a Storm revealed after another card [{rule}]"), rule="babel.round.storm"),
             Message.of(N_("the messenger is also a fanatic [{rule}]"), rule="babel.setup.roles")]
    assert listed(items).render("en") == ("a Storm revealed after another card [babel.round.storm]; "
                                          "the messenger is also a fanatic [babel.setup.roles]")
    assert "[babel.round.storm]。" in listed(items).render("ja")
    assert "[babel.round.storm]；" in listed(items).render("zh_TW")
    assert listed(items[:1]) == items[0] and listed([]) == ""


def test_calibrate_target_says_what_it_wrote_in_the_language(tmp_path, capsys):
    assert main(["--lang", "zh_TW", "calibrate", "target", "--sheet", "a4", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    written = [str(p) for p in sorted(tmp_path.iterdir())]
    assert written and all(f"已寫出 {p}" in out for p in written)
    for line in out.splitlines():
        assert no_english(line, *written, "A4") == [], line


def test_the_runs_own_lines_read_in_the_language():
    import io

    from companion.i18n import N_
    from companion.referee.live import Say

    out = io.StringIO()
    say = Say(out, None, "ja")
    say(Message.of(N_("no display: running headless")))
    say("companion run: a plain line stays as it is")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("companion run: ") and no_english(lines[0], "companion run") == []
    assert lines[1] == "companion run: a plain line stays as it is"
