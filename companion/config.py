"""TOML configuration with documented defaults, and where each effective value came from.

Search order: $COMPANION_CONFIG, else ~/.config/companion/config.toml, else
/etc/companion/config.toml. Only the first file found is read; keys it leaves out keep their
defaults. Every key, its default and its meaning is listed in DEFAULTS (and in docs/config.md).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError, ErrorText, got, line_column, os_error_text
from .i18n import N_, translate

# section -> key -> (default, help). The type of the default is the type the key must have.
DEFAULTS: dict[str, dict[str, tuple[Any, str]]] = {
    "general": {
        "language": ("en", "Language of the screens and rulings: en, ja or zh_TW."),
        "log_level": ("INFO", "DEBUG, INFO, WARNING or ERROR."),
        "state_dir": ("", "Where games, journal and calibration live; empty = $STATE_DIRECTORY or ~/.local/share/companion."),
    },
    "camera": {
        "source": ("auto", "auto, picamera2, opencv, files or sim (auto tries them in that order, sim last)."),
        "device": (0, "OpenCV capture device index (USB webcam)."),
        "path": ("", "Image folder or video file for the files source."),
        "width": (1280, "Capture width in pixels."),
        "height": (720, "Capture height in pixels."),
        "settle_seconds": (2.0, "Seconds to let auto exposure and white balance settle before freezing them."),
    },
    "feedback": {
        "led_red": (17, "GPIO (BCM) pin of the status LED's red leg."),
        "led_green": (27, "GPIO (BCM) pin of the status LED's green leg."),
        "led_blue": (22, "GPIO (BCM) pin of the status LED's blue leg."),
        "buzzer": (18, "GPIO (BCM) pin of the buzzer."),
        "buzzer_tonal": (False, "true for a passive (tonal) buzzer, false for an active one."),
        "button_confirm": (23, "GPIO (BCM) pin of the optional confirm button; -1 for none."),
        "button_undo": (24, "GPIO (BCM) pin of the optional undo button; -1 for none."),
        "volume": (1.0, "Buzzer volume from 0.0 (silent) to 1.0."),
        "quiet_start": ("", "Start of quiet hours (HH:MM), when the buzzer stays silent; empty = never."),
        "quiet_end": ("", "End of quiet hours (HH:MM)."),
    },
    "ui": {
        "fullscreen": (True, "Fill the screen (kiosk); false for a window."),
    },
    "babylon": {
        "bridge_gap": ("bridge_level", "babylon.deco.bridge reading: bridge_level (the gap space is open at the bridge's level) or empty_to_board (the gap must be open all the way down)."),
        "exact_cover": ("directly_beneath", "babylon.build.no_exact_cover reading: directly_beneath (ja rulebook) or any_tile (zh-TW rulebook)."),
        "statue_line": ("row_or_column", "babylon.deco.statue reading: row_or_column, or with_diagonals (statues in a diagonal line count too)."),
        "decoration_height": ("flat", "How tall fountains, bridges, stairs and belvederes stand when a tile passes over them: flat or one_level."),
    },
}


@dataclass
class Config:
    """The effective configuration: values by section and key, and the origin of each."""

    values: dict[str, dict[str, Any]] = field(default_factory=dict)
    origins: dict[str, dict[str, str]] = field(default_factory=dict)
    path: Path | None = None

    def get(self, section: str, key: str) -> Any:
        return self.values[section][key]

    def section(self, section: str) -> dict[str, Any]:
        return dict(self.values[section])

    def state_dir(self) -> Path:
        configured = self.get("general", "state_dir")
        if configured:
            return Path(configured).expanduser()
        if os.environ.get("STATE_DIRECTORY"):  # set by systemd's StateDirectory=
            return Path(os.environ["STATE_DIRECTORY"].split(":")[0])
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "companion"

    def describe(self, lang: str | None = None) -> list[str]:
        """The effective config as TOML, each value commented with where it came from (a file, an
        option, or the default), the comments in `lang`."""
        default = translate(N_("default"), lang)
        found = str(self.path) if self.path else translate(N_("none found (all defaults)"), lang)
        lines = ["# " + translate(N_("config file: {path}"), lang, {"path": found})]
        for section, keys in self.values.items():
            lines.append(f"[{section}]")
            for key, value in keys.items():
                origin = self.origins[section][key]
                lines.append(f"{key} = {_toml_value(value)}  # {default if origin == 'default' else origin}")
        return lines


def candidate_paths() -> list[Path]:
    env = os.environ.get("COMPANION_CONFIG")
    if env:
        return [Path(env).expanduser()]
    config_home = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return [Path(config_home) / "companion" / "config.toml", Path("/etc/companion/config.toml")]


def find_config_file() -> Path | None:
    candidates = candidate_paths()
    if os.environ.get("COMPANION_CONFIG"):
        path = candidates[0]
        if not path.exists():
            raise ConfigError(str(path), "", ErrorText.of(N_("COMPANION_CONFIG names a file that does not exist")))
        return path
    return next((p for p in candidates if p.exists()), None)


def load_config(path: Path | None = None) -> Config:
    """Defaults overlaid with the first config file found (or the one given)."""
    path = path if path is not None else find_config_file()
    config = Config(
        values={s: {k: d for k, (d, _) in keys.items()} for s, keys in DEFAULTS.items()},
        origins={s: dict.fromkeys(keys, "default") for s, keys in DEFAULTS.items()},
        path=path,
    )
    if path is None:
        return config
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(str(path), "", os_error_text(exc)) from None
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(path, exc) from None
    for section, keys in data.items():
        if section not in DEFAULTS:
            raise ConfigError(str(path), f"[{section}]", ErrorText.of(N_("unknown section; expected one of {choices}"),
                                                                       choices=", ".join(DEFAULTS)))
        if not isinstance(keys, dict):
            raise ConfigError(str(path), section, got(N_("expected a [section] table"), keys))
        for key, value in keys.items():
            if key not in DEFAULTS[section]:
                raise ConfigError(str(path), f"[{section}] {key}", ErrorText.of(N_("unknown key; expected {keys}"),
                                                                                 keys=", ".join(DEFAULTS[section])))
            config.values[section][key] = _check_type(path, section, key, value)
            config.origins[section][key] = str(path)
    _check_values(config, path)
    return config


def _check_type(path: Path, section: str, key: str, value: Any) -> Any:
    default = DEFAULTS[section][key][0]
    where = f"[{section}] {key}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(str(path), where, got(N_("expected true or false"), value))
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(str(path), where, got(N_("expected a whole number"), value))
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(str(path), where, got(N_("expected a number"), value))
        value = float(value)
    elif isinstance(default, str) and not isinstance(value, str):
        raise ConfigError(str(path), where, got(N_("expected a string"), value))
    return value


_CHOICES = {
    ("general", "language"): ("en", "ja", "zh_TW", "zh-TW"),
    ("general", "log_level"): ("DEBUG", "INFO", "WARNING", "ERROR"),
    ("camera", "source"): ("auto", "picamera2", "opencv", "files", "sim"),
    ("babylon", "bridge_gap"): ("bridge_level", "empty_to_board"),
    ("babylon", "exact_cover"): ("directly_beneath", "any_tile"),
    ("babylon", "statue_line"): ("row_or_column", "with_diagonals"),
    ("babylon", "decoration_height"): ("flat", "one_level"),
}


def _check_values(config: Config, path: Path) -> None:
    for (section, key), choices in _CHOICES.items():
        value = config.values[section][key]
        if value not in choices:
            raise ConfigError(str(path), f"[{section}] {key}", got(N_("expected one of {choices}"), value,
                                                                   choices=", ".join(choices)))
    volume = config.values["feedback"]["volume"]
    if not 0.0 <= volume <= 1.0:
        raise ConfigError(str(path), "[feedback] volume", got(N_("expected a number from {low} to {high}"), volume,
                                                              low="0.0", high="1.0"))
    for key in ("quiet_start", "quiet_end"):
        value = config.values["feedback"][key]
        if value and not _is_hhmm(value):
            raise ConfigError(str(path), f"[feedback] {key}", got(N_("expected HH:MM (e.g. 22:30) or empty"), value))


def _is_hhmm(text: str) -> bool:
    parts = text.split(":")
    return (
        len(parts) == 2
        and all(p.isdigit() and len(p) == 2 for p in parts)
        and int(parts[0]) < 24
        and int(parts[1]) < 60
    )


def markdown() -> str:
    """docs/config.md, generated from DEFAULTS so the two cannot drift apart."""
    out = [
        "# Configuration",
        "",
        "The companion reads one TOML file: `$COMPANION_CONFIG` if set, else `~/.config/companion/config.toml`,",
        "else `/etc/companion/config.toml` (the kiosk service's, via `ConfigurationDirectory=`). Keys left out",
        "keep the defaults below. `companion doctor --config` prints the effective configuration and where",
        "each value came from. A bad file is reported as one line naming the file, the key and what is",
        "expected; the companion never rewrites it. This page is generated: `python -m companion.config`.",
        "",
        "```toml",
        "# example: a Japanese table with a passive buzzer, silent at night",
        "[general]",
        'language = "ja"',
        "",
        "[feedback]",
        "buzzer_tonal = true",
        'quiet_start = "22:00"',
        'quiet_end = "08:00"',
        "```",
        "",
    ]
    for section, keys in DEFAULTS.items():
        out += [f"## [{section}]", "", "| key | default | meaning |", "|---|---|---|"]
        out += [f"| `{key}` | `{_toml_value(default)}` | {text} |" for key, (default, text) in keys.items()]
        out.append("")
    return "\n".join(out)


# tomllib (Python 3.11) says where it stopped only in its English text: "... (at line 3, column 7)".
_TOML_WHERE = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")


def _toml_error(path: Path, exc: tomllib.TOMLDecodeError) -> ConfigError:
    """Where the file stops being TOML, in the player's language; tomllib's own words only as a detail."""
    text = str(exc)
    found = _TOML_WHERE.search(text)
    if found is None:
        where: Any = ""
    elif found[1]:
        where = line_column(int(found[1]), int(found[2]))
    else:
        where = ErrorText.of(N_("the end of the file"))
    detail = text[: found.start()] if found else text
    return ConfigError(str(path), where, ErrorText.of(N_("not valid TOML ({detail})"), detail=detail))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


if __name__ == "__main__":
    print(markdown(), end="")
