"""Rulebook places for rulings, and nested-message rendering."""

import pytest

from companion.games.api import Message
from companion.ui.rulebook import location, section_for
from companion.ui.text import render


@pytest.mark.parametrize(
    ("rule", "section"),
    [("babylon.build.support", "B. Build: tiles"), ("babylon.deco.bridge", "B. Build: decorations"),
     ("babylon.quarry.reward", "A. Quarry"), ("babylon.score.tiebreak", "Game end and scoring"),
     ("reclamation.garden.reclaim.order", "Garden rules: reclaim"), ("reclamation.throne.win", "Throne variant"),
     ("babel.round.storm", "Round"), ("baubylon.quake", "Earthquake")],
)
def test_rule_sections(rule, section):
    assert section_for(rule) == section


def test_unknown_rules_have_no_section():
    assert section_for("chess.castle") is None
    assert render(location("chess.castle"), "en") == "Rulebook ()"


def test_location_reads_in_one_language_throughout():
    text = render(location("babylon.quarry.visible"), "ja")
    assert text == "バビロン ルールブック・A. 採石（babylon.ja.txt / babylon.zh-TW.txt）"
    assert render(location("babylon.quarry.visible"), "zh_TW").startswith("《巴比倫》規則書・A. 採石")


def test_nested_messages_are_rendered_in_the_requested_language():
    nested = Message.of("{name}: {category}", name="Ben", category=Message.of("Fountains"))
    assert render(nested, "ja") == "Ben：噴水"
    assert render(nested, "en") == "Ben: Fountains"
    assert render(None, "ja") == ""
