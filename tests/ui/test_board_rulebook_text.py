"""Cell names for the pictures, rulebook places for rulings, and nested-message rendering."""

import pytest

from companion.games.api import Message
from companion.ui.board import cell_of, cells_and_others, grid_for
from companion.ui.rulebook import location, section_for
from companion.ui.text import render


@pytest.mark.parametrize(
    ("name", "cell"),
    [("r3c4", (3, 4)), ("R0C7", (0, 7)), ("tile:r2c3", (2, 3)), ("r2c3:level1", (2, 3)), ("3,4", (3, 4)),
     ("(1, 2)", (1, 2)), ("A1", (0, 0)), ("C3", (2, 2)), ("b2", (1, 1))],
)
def test_cell_names(name, cell):
    assert cell_of(name) == cell


@pytest.mark.parametrize("name", ["hand", "card:north", "quarry", "D4", "r3", "storage"])
def test_names_that_are_not_cells(name):
    assert cell_of(name) is None


def test_cells_outside_the_grid_are_listed_as_words():
    cells, others = cells_and_others(("r1c1", "r9c9", "hand"), "babylon")
    assert cells == {(1, 1)}
    assert others == ["r9c9", "hand"]
    assert grid_for("reclamation") == (6, 6)
    assert grid_for("babel") == (3, 3)


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
