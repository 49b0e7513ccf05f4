from pathlib import Path

import pytest

from companion.config import DEFAULTS, load_config
from companion.errors import ConfigError


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_when_no_file():
    config = load_config()
    assert config.path is None
    for section, keys in DEFAULTS.items():
        for key, (default, help_text) in keys.items():
            assert config.get(section, key) == default
            assert config.origins[section][key] == "default"
            assert help_text, f"{section}.{key} has no documentation"


def test_file_overrides_and_origins(tmp_path, monkeypatch):
    path = write(tmp_path, '[general]\nlanguage = "ja"\n[feedback]\nvolume = 0\nbuzzer = 12\n')
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    config = load_config()
    assert config.get("general", "language") == "ja"
    assert config.get("feedback", "volume") == 0.0 and isinstance(config.get("feedback", "volume"), float)
    assert config.origins["feedback"]["buzzer"] == str(path)
    assert config.origins["feedback"]["led_red"] == "default"
    assert any("language = \"ja\"" in line and str(path) in line for line in config.describe())
    shown = config.describe("ja")  # doctor --config, in the configured language
    assert shown[0] == f"# 設定ファイル：{path}"
    assert any(line.startswith("led_red = ") and line.endswith("# 既定値") for line in shown)
    assert "# 設定ファイル：見つかりません（すべて既定値）" in config.__class__(path=None, values={}, origins={}).describe("ja")


def test_user_file_found_before_system_file(tmp_path, _isolated_home):
    user = _isolated_home / ".config" / "companion" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[camera]\nsource = "sim"\n', encoding="utf-8")
    assert load_config().get("camera", "source") == "sim"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[general\nlanguage='en'", "not valid TOML"),
        ("[nope]\nx = 1\n", "[nope]: unknown section"),
        ("[general]\ncolour = 1\n", "[general] colour: unknown key"),
        ("[feedback]\nbuzzer = \"18\"\n", "[feedback] buzzer: expected a whole number"),
        ("[feedback]\nvolume = 1.5\n", "[feedback] volume: expected a number from 0.0 to 1.0"),
        ("[feedback]\nquiet_start = \"25:00\"\n", "[feedback] quiet_start: expected HH:MM"),
        ("[camera]\nsource = \"kinect\"\n", "[camera] source: expected one of"),
        ("[ui]\nfullscreen = 1\n", "[ui] fullscreen: expected true or false"),
    ],
)
def test_bad_config_names_file_and_key(tmp_path, text, fragment):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(path) in str(info.value)
    assert fragment in str(info.value)
    assert path.read_text(encoding="utf-8") == text  # the user's file is never touched


def test_missing_config_named_by_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    with pytest.raises(ConfigError, match="does not exist"):
        load_config()


def test_state_dir_precedence(tmp_path, monkeypatch, _isolated_home):
    assert load_config().state_dir() == _isolated_home / ".local" / "share" / "companion"
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "systemd-state"))
    assert load_config().state_dir() == tmp_path / "systemd-state"
    path = write(tmp_path, f'[general]\nstate_dir = "{tmp_path / "mine"}"\n')
    assert load_config(path).state_dir() == tmp_path / "mine"
