"""The editors' data: Reclamation card patterns, Babel blueprints, Babylon tiles."""

from companion.ui.editor_data import BABEL_CELLS, Blueprint, CardPattern, TileIcons
from companion.ui.text import render


def test_card_pattern_of_the_rulebook_example():
    card = CardPattern("example")
    card.toggle(2, -1)  # 2 forward, 1 left
    card.toggle(2, 1)  # 2 forward, 1 right
    card.toggle(0, 0)  # the gardener's own square is never a target
    assert card.problems() == []
    # the same entry as docs/examples/reclamation-cards.json
    assert card.to_json() == {"name": "example", "garden": [{"forward": 2, "right": -1}, {"forward": 2, "right": 1}]}
    card.side = "throne"
    assert list(card.to_json()) == ["name", "throne"]


def test_card_pattern_toggle_twice_removes_and_empty_card_is_refused():
    card = CardPattern()
    card.toggle(1, 0)
    card.toggle(1, 0)
    assert [p.msgid for p in card.problems()] == ["Mark at least one target square."]


def test_blueprint_of_the_rulebook_example():
    blueprint = Blueprint("printed1")
    for cell, count in (("C1", 3), ("B2", 8), ("A3", 3)):
        blueprint.bump(cell, count)
    assert blueprint.problems() == []
    assert blueprint.to_json() == {"name": "printed1", "cells": {"C1": 3, "B2": 8, "A3": 3}}
    assert len(BABEL_CELLS) == 9


def test_blueprint_limits():
    empty = Blueprint()
    assert empty.problems()[0].msgid == "A blueprint needs at least one cube."
    too_many = Blueprint()
    too_many.bump("A1", 26)
    assert too_many.problems()[0].render("en") == "26 cubes: there are only 25 in the box."
    too_many.bump("A1", -30)
    assert too_many.counts["A1"] == 0


def test_tile_icons_must_match_the_material():
    tile = TileIcons("granite", 1)
    for space in (0, 1, 3):
        tile.cycle_icon(space)  # none -> stairs
    assert tile.problems() == []
    # a face of table-companion/babylon-tiles: clockwise from the top-left, null where no icon
    assert tile.to_json() == {"material": "granite", "flower": "pink", "icons": ["stairs", "stairs", None, "stairs"]}
    tile.cycle_material()  # granite -> basalt: 4 icons needed
    assert tile.problems()[0].render("en") == "A basalt tile has 4 icons; this one has 3."
    # The material is a nested Message: the screen renders it in the same language as the sentence.
    assert render(tile.problems()[0], "ja") == "玄武岩のタイルのアイコンは 4 個ですが、このタイルは 3 個です。"


def test_editor_json_is_read_by_the_engines_own_parsers():
    from companion.games.babylon.catalogue import FORMAT, parse_catalogue
    from companion.games.reclamation.cards import CARDS_FORMAT, CARDS_VERSION, parse_book

    card = CardPattern()  # no name typed: the pattern names itself
    card.toggle(2, -1)
    card.toggle(1, 0)
    assert card.to_json()["name"] == "f2l1+f1"
    book = parse_book({"format": CARDS_FORMAT, "version": CARDS_VERSION, "cards": [card.to_json()]}, "<editor>")
    assert len(book.cards) == 1

    tile = TileIcons("clay")
    tile.cycle_icon(0)
    tile.cycle_icon(2)
    catalogue = parse_catalogue({"format": FORMAT, "version": 1, "tiles": [tile.to_json()]}, "<editor>")
    assert catalogue is not None

    from companion.games.babel.cards import LIBRARY_FORMAT, parse_library

    blueprint = Blueprint("blank1")
    blueprint.bump("B2", 4)
    library = parse_library({"format": LIBRARY_FORMAT, "version": 1, "blueprints": [blueprint.to_json()]}, "<editor>")
    assert library.blueprint("blank1").minimum[4] == 4  # CELLS order: A1 B1 C1 A2 B2 ...
