"""`companion --help`, every subcommand's --help and each bench topic's own --help in the player's
language: --lang, else the config file's language, else the environment's. In ja and zh_TW no
English is left but option names, metavars, file names and identifiers a player types (game and
region ids, card sides); argparse's own headings ("usage:", "options:", "positional arguments:")
and its errors ("invalid choice: …", "the following arguments are required: …") are translated too,
from our catalogue, with no change to gettext's global domain or to argparse itself."""

from __future__ import annotations

import argparse
import re

import pytest

from companion.cli import build_parser, main
from companion.commands.bench import topics
from companion.commands.help_text import (
    ARGPARSE_ERRORS,
    ARGPARSE_HEADINGS,
    PlayerArgumentParser,
    argparse_text,
    columns,
    help_language,
    translate_parser,
)
from companion.config import load_config
from companion.errors import CompanionError

# Typed as they are, so kept in Latin letters: identifiers, file kinds, devices, product names.
KEPT = {"Table", "Companion", "companion", "ChArUco", "RxC", "json",
        "babylon", "reclamation", "babel", "baubylon",  # game ids (--game)
        "garden", "throne", "points",  # card sides (--side), --on's default
        "locate", "referee", "vision",  # benchmark topics
        "source",  # the [camera] source setting
        "CPU", "JPEG", "SIGKILL"}  # written so in Japanese and Chinese too
ARGPARSE_OWN = ("usage:", "options:", "positional arguments:")  # argparse's English headings
HEADINGS = {"ja": ("使い方: ", "オプション:"), "zh_TW": ("用法: ", "選項:")}  # ... in the language
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
    body = text.split("\n\n", 1)[1]  # the usage block: the options' own words
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
        assert text.startswith(HEADINGS[lang][0]) and HEADINGS[lang][1] in text, (parser.prog, text)
        assert not any(heading in text for heading in ARGPARSE_OWN), (parser.prog, text)


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
    assert out.startswith("使い方: companion [-h] [--version] [-v] [--lang LANG] COMMAND ...")
    assert "\n位置引数:\n" in out and "\nオプション:\n" in out
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


# --- each bench topic's own --help ------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["ja", "zh_TW"])
@pytest.mark.parametrize("topic", topics())
def test_each_bench_topics_own_help_reads_in_the_language(topic, lang, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    with pytest.raises(SystemExit) as done:
        main(["--lang", lang, "bench", topic, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(HEADINGS[lang][0] + f"companion bench {topic} ") and HEADINGS[lang][1] in out
    choices = set(LATIN_WORD.findall(" ".join(re.findall(r"\{([^}]*)\}", out.split("\n\n")[0]))))
    assert [word for word in english_left(out) if word not in choices] == [], out  # a choice is typed
    described = out.split("\n\n")[1]  # the topic's description, under its usage
    assert columns(described) > 2 * len(described) * 0.6, described  # mostly wide characters: translated


def test_a_bench_topic_takes_the_environments_language_without_lang(capsys, monkeypatch):
    from companion.benchmarking import babylon

    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LANGUAGE", "zh_TW")
    with pytest.raises(SystemExit):
        babylon.main(["--help"], FakeConfig("en", "default"))  # nothing set in the file: the environment's
    out = capsys.readouterr().out
    assert out.startswith("用法: companion bench babylon") and "自我對弈的亂數種子" in out
    with pytest.raises(SystemExit):
        babylon.main(["--help"], FakeConfig("en", "--lang"))  # `companion --lang en`
    assert "mid-game positions to time" in capsys.readouterr().out


# --- argparse's own errors ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("argv", "ja", "zh_TW"), [
    (["nosuch"], "引数 COMMAND：無効な選択です：'nosuch'（次から選んでください：'run',",
     "引數 COMMAND：無效的選擇：'nosuch'（可選：'run',"),
    (["score"], "次の引数が必要です：file", "缺少下列必要引數：file"),
    (["run", "--speed", "fast"], "引数 --speed：数値として無効な値です：'fast'", "引數 --speed：無效的數字值：'fast'"),
    (["run", "--seed", "x"], "引数 --seed：整数として無効な値です：'x'", "引數 --seed：無效的整數值：'x'"),
    (["run", "--game"], "引数 --game：引数が1つ必要です", "引數 --game：需要一個引數"),
    (["run", "--zzz"], "認識できない引数です：--zzz", "無法辨識的引數：--zzz"),
    (["run", "--s", "1"], "あいまいなオプションです：--s は --speed, --seed, --state-dir のどれとも取れます",
     "選項不明確：--s 可能是 --speed, --seed, --state-dir"),
    (["bench", "vision", "--games", "nope"], "引数 --games：無効な選択です：'nope'（次から選んでください：'babel',",
     "引數 --games：無效的選擇：'nope'（可選：'babel',"),
])
def test_argparse_errors_read_in_the_language(argv, ja, zh_TW, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    for lang, expected in (("ja", ja), ("zh_TW", zh_TW)):
        with pytest.raises(SystemExit) as done:
            main(["--lang", lang, *argv])
        assert done.value.code == 2
        err = capsys.readouterr().err
        usage, said = err.rstrip("\n").split("\n")[0], err.rstrip("\n").split("\n")[-1]
        assert usage.startswith(HEADINGS[lang][0] + "companion"), err
        error = {"ja": "エラー", "zh_TW": "錯誤"}[lang]
        assert said.startswith("companion") and f": {error}: " in said and expected in said, err
        assert english_left("usage\n\n" + said.split(f": {error}: ", 1)[1]) == [], said


def test_in_english_argparse_says_its_own_words(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "en", "score"])
    err = capsys.readouterr().err
    assert err.startswith("usage: companion score [-h]")
    assert err.endswith("companion score: error: the following arguments are required: file\n")


def test_every_template_is_argparses_own_text_and_a_text_none_fits_stays_as_it_is():
    import inspect

    source = inspect.getsource(argparse)
    for template, _msgid in ARGPARSE_ERRORS:  # a Python that rewords one is caught here
        assert repr(template)[1:-1] in source or template in source, template
    for heading in ARGPARSE_HEADINGS + ("usage: ",):
        assert f"_('{heading}')" in source or f"'{heading}'" in source, heading
    assert argparse_text("a custom type's own complaint", "ja") == "a custom type's own complaint"
    assert argparse_text("argument --x: a custom type's own complaint", "ja") == (
        "引数 --x：a custom type's own complaint")
    assert argparse_text("expected 2 arguments", "zh_TW") == "需要 2 個引數"
    assert argparse_text("expected 1 argument", "ja") == "引数が 1 個必要です"
    assert argparse_text("invalid choice: 'x' (choose from 'a', 'b')", "en") == "invalid choice: 'x' (choose from 'a', 'b')"


def test_no_global_gettext_domain_and_no_change_to_argparse(capsys):
    import gettext

    domain = gettext.textdomain()
    own = (argparse._, argparse.ngettext, argparse.ArgumentParser.error, argparse.HelpFormatter.add_usage)
    with pytest.raises(SystemExit):
        main(["--lang", "ja", "score"])
    assert "次の引数が必要です" in capsys.readouterr().err
    assert gettext.textdomain() == domain and gettext.gettext("usage: ") == "usage: "
    assert (argparse._, argparse.ngettext, argparse.ArgumentParser.error,
            argparse.HelpFormatter.add_usage) == own
    plain = argparse.ArgumentParser(prog="other")  # another program's parser in the same process
    plain.add_argument("file")
    assert plain.format_usage().startswith("usage: other")
    with pytest.raises(SystemExit):
        plain.parse_args([])
    assert "other: error: the following arguments are required: file" in capsys.readouterr().err


def test_the_companion_parsers_are_player_parsers_in_every_language():
    for lang in ("en", "ja", "zh_TW"):
        parsers = every_parser(build_parser(lang))
        assert all(isinstance(p, PlayerArgumentParser) and p.lang == lang for p in parsers)
