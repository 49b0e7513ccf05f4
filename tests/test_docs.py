"""Documentation that must not drift from the code."""

from pathlib import Path

from companion.config import _CHOICES, DEFAULTS, markdown
from companion.games import get

REPO = Path(__file__).resolve().parents[1]


def test_every_config_key_is_documented():
    text = (REPO / "docs" / "config.md").read_text(encoding="utf-8")
    for section, keys in DEFAULTS.items():
        assert f"## [{section}]" in text
        for key in keys:
            assert f"| `{key}` |" in text, f"[{section}] {key} is missing from docs/config.md"
    assert text == markdown(), "docs/config.md is stale: python -m companion.config > docs/config.md"


def test_babylon_config_keys_are_the_engine_options():
    """[babylon] in the config file is how a table picks its readings of the open rule questions."""
    spec = get("babylon")
    options = {option.name: option for option in spec.options}
    for key, (default, _) in DEFAULTS["babylon"].items():
        assert key in options, f"[babylon] {key} is not an option of the engine"
        assert options[key].default == default
        assert set(options[key].choices) == set(_CHOICES[("babylon", key)])


def test_readme_opens_with_the_two_commands():
    head = (REPO / "README.md").read_text(encoding="utf-8")[:600]
    assert "make run" in head and "make test" in head


def test_ci_runs_the_readme_test_command():
    assert "make test" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_top_level_folders_say_what_lives_there():
    for folder in ("companion", "hardware", "calibration", "tests", "systemd", "docs", "benchmarks"):
        assert (REPO / folder).is_dir(), folder
        readmes = list((REPO / folder).glob("README*")) + list((REPO / folder).glob("__init__.py"))
        assert readmes, f"{folder}/ has no README"
