"""`companion --help` and every subcommand's --help in the player's language: --lang, else the
config file's language, else the environment's. In ja and zh_TW no English is left but option
names, metavars, file names, identifiers a player types (game and region ids, card sides) and
argparse's own headings ("usage:", "options:", "positional arguments:"), which stay English."""

from __future__ import annotations

import argparse
import re

import pytest

from companion.cli import build_parser, main
from companion.commands.help_text import columns, help_language, translate_parser
from companion.config import load_config
from companion.errors import CompanionError

# Typed as they are, so kept in Latin letters: identifiers, file kinds, devices, product names.
KEPT = {"Table", "Companion", "companion", "ChArUco", "RxC", "json",
        "babylon", "reclamation", "babel", "baubylon",  # game ids (--game)
        "garden", "throne", "points",  # card sides (--side), --on's default
        "locate", "referee", "vision",  # benchmark topics
        "source"}  # the [camera] source setting
ARGPARSE_OWN = ("usage:", "options:", "positional arguments:")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def every_parser(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found, todo = [], [parser]
    while todo:
        current = todo.pop()
        if current in found:
            continue
        found.append(current)
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())
    return found


def typed_words(parser: argparse.ArgumentParser) -> set[str]:
    """What a user types or reads as a placeholder: commands, positionals' names, metavars."""
    words = set()
    for current in every_parser(parser):
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                words.update(action.choices)
            elif not action.option_strings:
                words.add(action.dest)
            if isinstance(action.metavar, str):
                words.update(LATIN_WORD.findall(action.metavar))
    return words


TYPED = typed_words(build_parser())


def english_left(text: str) -> list[str]:
    """Latin words of three letters or more that are not an option, a metavar, a path, a command or
    a kept term."""
    body = text.split("\n\n", 1)[1]  # the usage block is argparse's and the options' own words
    for heading in ARGPARSE_OWN:
        body = body.replace(heading, "")
    body = re.sub(r"`[^`]*`|'[^']*'|\[[^\]]*\]|\{[^}]*\}|\S*[/<>@]\S*|\w+\.\w+|--?[\w-]+|\b[A-Z][A-Z0-9_,]+\b", " ", body)
    return [word for word in LATIN_WORD.findall(body) if word not in KEPT | TYPED]


@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
def test_every_help_page_reads_in_the_language(lang, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    parsers = every_parser(build_parser(lang))
    assert len(parsers) >= 20  # the command, its subcommands, calibrate's steps and the card actions
    for parser in parsers:
        text = parser.format_help()
        assert english_left(text) == [], (parser.prog, text)
        assert all(heading in text for heading in ("usage:", "options:"))  # argparse's own, kept


def test_the_english_help_is_the_english_text(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    text = build_parser("en").format_help()
    assert "show this help message and exit" in text and "more log output (-vv for debug)" in text
    assert "Table Companion: watches a board game through a camera" in text


def test_english_left_finds_english(monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    parser = argparse.ArgumentParser(prog="x")
    parser.add_argument("--speed", help="seconds between scenes")
    translate_parser(parser, "ja")
    text = parser.format_help()
    assert "このヘルプを表示して終了する" in text  # argparse's -h line is in the catalogue
    assert english_left(text) == ["seconds", "between", "scenes"]  # this one is not


def test_companion_lang_ja_help(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as done:
        main(["--lang", "ja", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: companion [-h] [--version] [-v] [--lang LANG] COMMAND ...")
    assert "カメラでボードゲームを見守り" in out and "このヘルプを表示して終了する" in out
    assert english_left(out) == []


@pytest.mark.parametrize(("argv", "expected"), [
    (["--lang", "zh_TW", "run", "--help"], "不使用螢幕：在終端機顯示裁定與分數"),
    (["--lang=ja", "calibrate", "board", "--help"], "盤そのもののマス目の線から"),
    (["--lang", "zh-TW", "cards", "--help"], "王座（紅色）面"),
])
def test_a_subcommands_help(argv, expected, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit):
        main(argv)
    out = capsys.readouterr().out
    assert expected in out and english_left(out) == []


def test_cjk_help_lines_fit_the_terminal_by_display_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    for lang in ("ja", "zh_TW"):
        for parser in every_parser(build_parser(lang)):
            if parser.prog.endswith("calibrate"):  # its steps are written as a table (raw lines)
                continue
            for line in parser.format_help().splitlines():
                assert columns(line) <= 60 or not re.search(r"[^\x00-\x7f]", line), (parser.prog, line)


class FakeConfig:
    def __init__(self, language: str, origin: str):
        self.values = {"general": {"language": language}}
        self.origins = {"general": {"language": origin}}

    def get(self, section, key):
        return self.values[section][key]


def broken_config():
    raise CompanionError("config.toml: not TOML")


def test_the_help_language_comes_from_lang_then_the_config_file_then_the_environment():
    in_file = lambda: FakeConfig("ja", "/etc/companion/config.toml")  # noqa: E731
    by_default = lambda: FakeConfig("en", "default")  # noqa: E731
    zh_env = {"LANG": "zh_TW.UTF-8"}
    assert help_language(["--lang", "zh_TW", "run"], zh_env, in_file) == "zh_TW"
    assert help_language(["run", "--lang=ja"], {}, by_default) == "ja"
    assert help_language(["run", "--help"], zh_env, in_file) == "ja"
    assert help_language(["run", "--help"], zh_env, by_default) == "zh_TW"
    assert help_language(["--help"], zh_env, broken_config) == "zh_TW"  # the command reports the file later
    assert help_language(["--help"], {"LANGUAGE": "ja:en", "LANG": "zh_TW.UTF-8"}, by_default) == "ja"
    assert help_language(["--help"], {"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, by_default) == "en"
    assert help_language(["--help"], {"LANG": "fr_FR.UTF-8"}, by_default) == "en"
    assert help_language(["--", "--lang", "ja"], {}, by_default) == "en"


def test_the_real_config_is_read_for_the_language(tmp_path, monkeypatch):
    (tmp_path / "companion").mkdir()
    (tmp_path / "companion" / "config.toml").write_text('[general]\nlanguage = "ja"\n', encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert load_config().origins["general"]["language"] != "default"
    assert help_language(["--help"], {"LANG": "zh_TW.UTF-8"}) == "ja"


def test_an_unknown_benchmark_is_refused_in_the_language(capsys):
    assert main(["--lang", "ja", "bench", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion bench: ") and "nope" in err and "vision" in err
    assert english_left("usage:\n\n" + err.replace("companion bench: ", "")) == ["nope"]  # as typed
