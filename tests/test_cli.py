"""The `companion` command: help for every subcommand, one-line errors, no tracebacks."""

import subprocess
import sys

import pytest

from companion.cli import SUBCOMMANDS, main


def test_help_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for name in ("run", "score", "check", "recognise", "calibrate", "bench", "doctor", "replay", "games"):
        assert name in out


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_each_subcommand_has_help(name, capsys):
    with pytest.raises(SystemExit) as info:
        main([name, "--help"])
    assert info.value.code == 0
    assert "usage: companion" in capsys.readouterr().out


def test_bad_config_is_one_line_error(tmp_path, monkeypatch, capsys):
    config = tmp_path / "config.toml"
    config.write_text("[feedback]\nvolume = 'loud'\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["games"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0
    assert str(config) in err and "[feedback] volume" in err


def test_doctor_shows_effective_config_and_origins(tmp_path, monkeypatch, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[general]\nlanguage = "zh_TW"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert main(["doctor", "--config"]) == 0
    out = capsys.readouterr().out
    assert f'language = "zh_TW"  # {config}' in out
    assert 'source = "auto"  # 預設值' in out  # the origin said in the configured language
    assert out.startswith(f"# 設定檔：{config}\n")


def test_score_of_missing_file_is_clear(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nothing.json")]) == 2
    assert "nothing.json: no such file" in capsys.readouterr().err


def test_check_with_bad_input_is_a_one_line_error(tmp_path, capsys):
    save = tmp_path / "s.json"
    save.write_text('{"format": "table-companion/state", "version": 1, "game": "babylon", "state": {}}')
    code = main(["check", str(save), "{oops"])
    err = capsys.readouterr().err
    assert code == 2 and err[-1] == "\n" and err.count("\n") == 1


def test_no_traceback_from_the_real_entry_point(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "score", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{bad}: line 1, column 6: not valid JSON" in result.stderr


@pytest.mark.parametrize(("lang", "word"), [("ja", "中断しました"), ("zh_TW", "已中斷")])
def test_an_interrupted_command_says_so_in_the_players_language(lang, word, monkeypatch, capsys):
    import companion.commands.games as games

    def interrupted(args, config):
        raise KeyboardInterrupt

    monkeypatch.setattr(games, "handle", interrupted)
    assert main(["--lang", lang, "games"]) == 130
    err = capsys.readouterr().err.strip()
    assert err == f"companion games: {word}"
