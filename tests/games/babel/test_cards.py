"""Blueprints and instruction cards as data — babel.blueprint, babel.instruction; the card library file."""

import json

import pytest

from companion.errors import FormatError
from companion.games import get
from companion.games.babel.cards import (
    EXAMPLE_BLUEPRINT,
    EXAMPLE_INSTRUCTIONS,
    library_path,
    load_library,
    parse_library,
)
from companion.games.babel.towers import from_mapping

LIBRARY = {
    "format": "table-companion/babel-cards",
    "version": 1,
    "blueprints": [{"name": "our tower", "cells": {"B2": 10, "A1": 2}}],
    "instructions": [{"id": "2-BC", "cubes": 2, "cells": ["B1", "C1"]}],
}


def test_rulebook_example_blueprint_c1_3_b2_8_a3_3():
    assert EXAMPLE_BLUEPRINT.missing(from_mapping({})) == {"C1": 3, "B2": 8, "A3": 3}
    assert not EXAMPLE_BLUEPRINT.is_met(from_mapping({"C1": 3, "B2": 7, "A3": 3}))
    # "at least": more than asked is still complete, and other cells do not matter.
    assert EXAMPLE_BLUEPRINT.is_met(from_mapping({"C1": 3, "B2": 8, "A3": 3}))
    assert EXAMPLE_BLUEPRINT.is_met(from_mapping({"C1": 4, "B2": 9, "A3": 3, "A1": 5}))


def test_rulebook_example_instruction_cards():
    cards = {card.id: (card.cubes, card.cells) for card in EXAMPLE_INSTRUCTIONS}
    assert cards == {"1-A": (1, ("A1", "A2", "A3")), "2-A": (2, ("A1", "A2")), "3-A": (3, ("A1",))}


def test_players_library_adds_to_the_examples(tmp_path):
    path = library_path(tmp_path)
    path.write_text(json.dumps(LIBRARY), encoding="utf-8")
    library = load_library(path)
    assert [b.name for b in library.blueprints] == ["example", "our tower"]
    assert library.blueprint("our tower").missing(from_mapping({})) == {"A1": 2, "B2": 10}
    assert [c.id for c in library.instructions] == ["1-A", "2-A", "3-A", "2-BC"]
    state = get("babel").new_game(tuple("ABCDE"), blueprint="our tower", cards_file=str(path))
    assert state.blueprint.name == "our tower"
    assert state.card("2-BC") is not None


def test_no_library_file_means_the_examples(tmp_path):
    assert load_library(tmp_path / "absent.json").blueprints == (EXAMPLE_BLUEPRINT,)
    assert load_library(None).instructions == EXAMPLE_INSTRUCTIONS


def test_unknown_blueprint_name_is_a_clear_error():
    with pytest.raises(FormatError, match="unknown blueprint; known: example"):
        get("babel").new_game(tuple("ABCDE"), blueprint="moon tower")


@pytest.mark.parametrize(
    ("change", "where", "fragment"),
    [
        (lambda d: d["blueprints"][0]["cells"].update({"D4": 1}), "blueprints[0].cells.D4", "cell name"),
        (lambda d: d["blueprints"][0]["cells"].update({"B2": 30}), "blueprints[0].cells.B2", "≤ 25"),
        (lambda d: d["blueprints"][0]["cells"].update({"A2": 9, "A3": 9}), "blueprints[0].cells", "at most 25"),
        (lambda d: d["blueprints"][0].update({"cells": {}}), "blueprints[0].cells", "at least one cell"),
        (lambda d: d["blueprints"][0].update({"name": "example"}), "blueprints[0].name", "not used before"),
        (lambda d: d["instructions"][0].update({"cubes": 4}), "instructions[0].cubes", "≤ 3"),
        (lambda d: d["instructions"][0].update({"cells": []}), "instructions[0].cells", "at least one cell"),
        (lambda d: d["instructions"][0].update({"cells": ["B1", "B1"]}), "instructions[0].cells[1]", "once"),
        (lambda d: d["instructions"][0].update({"id": "1-A"}), "instructions[0].id", "not used before"),
        (lambda d: d.pop("format"), "format", "missing"),
        (lambda d: d.update({"version": 2}), "version", "newer companion"),
    ],
)
def test_bad_library_files_name_the_file_and_key(tmp_path, change, where, fragment):
    data = json.loads(json.dumps(LIBRARY))
    change(data)
    path = tmp_path / "babel-cards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(FormatError) as info:
        load_library(path)
    message = str(info.value)
    assert str(path) in message and where in message and fragment in message
    assert path.read_bytes() == before  # never overwritten


def test_library_that_is_not_json(tmp_path):
    path = tmp_path / "babel-cards.json"
    path.write_text("{blueprints", encoding="utf-8")
    with pytest.raises(FormatError, match="not valid JSON"):
        load_library(path)


def test_parse_library_without_optional_lists():
    library = parse_library({"format": "table-companion/babel-cards", "version": 1}, "<mem>")
    assert library.blueprints == (EXAMPLE_BLUEPRINT,)


def test_library_under_the_state_directory_is_found(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    (tmp_path / "companion").mkdir()
    library_path(tmp_path / "companion").write_text(json.dumps(LIBRARY), encoding="utf-8")
    state = get("babel").new_game(tuple("ABCDE"), blueprint="our tower")
    assert state.blueprint.name == "our tower"
