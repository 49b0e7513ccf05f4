"""The wiring drawing, the pin map in hardware/README.md and the config defaults agree, and the
resistor and camera tables in the README are what the scripts compute."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

from companion.config import DEFAULTS

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
README = (HARDWARE / "README.md").read_text(encoding="utf-8")
ROLES = ("led_red", "led_green", "led_blue", "buzzer", "button_confirm", "button_undo")


def load(name: str):
    if str(HARDWARE) not in sys.path:
        sys.path.insert(0, str(HARDWARE))  # wiring_svg imports led_resistors from beside it
    spec = importlib.util.spec_from_file_location(name, HARDWARE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


wiring = load("wiring_svg")
resistors = load("led_resistors")
camera = load("camera_height")


def test_the_committed_svg_is_what_the_generator_draws_from_the_config():
    assert wiring.main(["--check"]) == 0, "run .venv/bin/python hardware/wiring_svg.py"


def test_the_svg_parses_and_names_every_default_pin():
    import xml.etree.ElementTree as ET

    svg = (HARDWARE / "wiring.svg").read_text(encoding="utf-8")
    ET.fromstring(svg)  # well-formed
    texts = " ".join(t.text or "" for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"))
    for role in ROLES:
        gpio = DEFAULTS["feedback"][role][0]
        assert f"GPIO{gpio}" in texts and f"pin {wiring.PHYSICAL[f'GPIO{gpio}']}" in texts, role


def test_the_readme_pin_map_is_the_config_default():
    for role in ROLES:
        row = re.search(rf"\| `{role}` \| (\d+) \| (\d+) \|", README)
        assert row, role
        gpio, physical = int(row.group(1)), int(row.group(2))
        assert gpio == DEFAULTS["feedback"][role][0], role
        assert wiring.PHYSICAL[f"GPIO{gpio}"] == physical, role


def test_header_map_is_the_real_40_pin_layout():
    assert wiring.HEADER[11] == "GPIO17" and wiring.HEADER[12] == "GPIO18" and wiring.HEADER[40] == "GPIO21"
    assert sorted(int(n[4:]) for n in wiring.PHYSICAL) == list(range(28))


@pytest.mark.parametrize(("exact", "fitted"), [(290, 330), (170, 180), (100, 100), (1000, 1000), (47, 47), (48, 56), (8.3, 10)])
def test_e12_rounds_up(exact, fitted):
    assert resistors.e12_at_or_above(exact) == fitted


def test_resistors_keep_the_current_at_or_below_target_and_match_the_readme():
    for leg in resistors.led_resistors():
        assert leg.current_a <= resistors.TARGET_A
        assert leg.current_a > 0.8 * resistors.TARGET_A  # the next E12 step never costs >20 %
        colour = leg.role.removeprefix("led_")
        assert re.search(rf"\| {colour} \| {leg.forward_v:.1f} V \| {leg.exact_ohms:.0f} Ω \| \*\*{leg.chosen_ohms:.0f} Ω\*\* \| "
                         rf"{leg.current_a * 1000:.1f} mA", README), colour
    assert resistors.base_current_a() * 1000 == pytest.approx(2.6)


def test_the_readme_camera_table_is_what_the_script_computes():
    for row in camera.table(1280, 30.0):
        label = "standard" if row.lens is camera.CAMERA_MODULE_3 else "wide"
        expected = f"| {label} | {row.height_mm:.0f} mm |"
        assert expected in README, (row.target.name, label)
        assert f"| {row.px_per_cell:.1f} |" in README
