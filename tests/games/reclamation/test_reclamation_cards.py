"""Card patterns as data: the card file, its errors, and `companion cards`."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.errors import CompanionError, FormatError
from companion.games.reclamation.cards import (
    EXAMPLE_CARD,
    Card,
    CardBook,
    CardPatterns,
    Offset,
    default_book,
    load_book,
    parse_book,
)
from companion.games.reclamation.state import new_game


def book_json(*cards):
    return {"format": "table-companion/reclamation-cards", "version": 1, "cards": list(cards)}


def test_the_rulebook_card_is_the_built_in_example():
    assert EXAMPLE_CARD.garden == (Offset(2, -1), Offset(2, 1))
    assert EXAMPLE_CARD.throne is None  # its red side is not shown anywhere: never guessed
    assert Card("example", EXAMPLE_CARD.garden).picture() == ["X.X", "...", ".G."]


def test_without_a_card_file_a_game_uses_the_example_and_says_what_is_missing():
    book = default_book()
    assert book.builtin and [c.name for c in book.for_side("garden")] == ["example"]
    state = new_game(("Aki", "Bo"))
    assert [c.name for c in state.cards] == ["example"] and state.cards_missing == 3
    assert any("1 of 4" in m.render() for m in state.guidance())
    # With a single card the cycle cannot refill from "the other three": it stays usable.
    after = state.apply(next(state.legal_moves()))
    assert after.usable_cards(0) == state.cards


def test_parse_book_reads_sides_and_rejects_bad_files():
    book = parse_book(book_json(
        {"name": "a", "garden": [{"forward": 1, "right": 0}], "throne": [{"forward": -1, "right": 2}]},
        {"name": "b", "throne": [{"forward": 2, "right": 0}, {"forward": 0, "right": 1}]},
    ), "cards.json")
    assert [c.name for c in book.for_side("garden")] == ["a"]
    assert [c.name for c in book.for_side("throne")] == ["a", "b"]
    assert book.missing("garden") == 3 and book.missing("throne") == 2
    bad = [
        (book_json({"name": "a", "garden": [{"forward": 0, "right": 0}]}), "cards[0].garden"),
        (book_json({"name": "a", "garden": []}), "cards[0].garden"),
        (book_json({"name": "a", "garden": [{"forward": 9, "right": 0}]}), "cards[0].garden[0].forward"),
        (book_json({"name": "a"}, {"name": "a"}), "cards[1].name"),
        (book_json({"name": "a", "colour": "red"}), "cards[0].colour"),
        (book_json(*({"name": str(i), "garden": [{"forward": 1, "right": 0}]} for i in range(5))), "cards"),
        ({"format": "something", "version": 1, "cards": []}, "format"),
        ([], "top level"),
    ]
    for data, where in bad:
        with pytest.raises(FormatError) as info:
            parse_book(data, "cards.json")
        assert info.value.source == "cards.json" and info.value.where == where, info.value


def test_corrupt_card_file_is_a_clear_error(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(FormatError, match="cards.json"):
        load_book(path)
    with pytest.raises(CompanionError):
        new_game(("A", "B"), cards=CardBook(()))


def test_cards_command_adds_lists_checks_and_removes(tmp_path, capsys):
    path = tmp_path / "my-cards.json"
    assert main(["cards", "--file", str(path), "list"]) == 0
    assert "3 missing" in capsys.readouterr().out
    assert main(["cards", "--file", str(path), "add", "leaf", "--side", "garden", "--target", "1,1", "--target=-1,-1"]) == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [c["name"] for c in data["cards"]] == ["example", "leaf"]
    assert data["cards"][1]["garden"] == [{"forward": -1, "right": -1}, {"forward": 1, "right": 1}]
    # the same side again needs --replace; a bad target is refused and the file stays as it was
    assert main(["cards", "--file", str(path), "add", "leaf", "--side", "garden", "--target", "1,0"]) == 2
    assert main(["cards", "--file", str(path), "add", "leaf", "--side", "garden", "--target", "0,0", "--replace"]) == 2
    assert main(["cards", "--file", str(path), "add", "leaf", "--side", "garden", "--target", "one,two"]) == 2
    assert json.loads(path.read_text(encoding="utf-8")) == data
    assert main(["cards", "--file", str(path), "add", "leaf", "--side", "throne", "--target", "2,0"]) == 0
    capsys.readouterr()
    assert main(["cards", "--file", str(path), "check"]) == 1  # valid but incomplete
    out = capsys.readouterr().out
    assert "Garden 2/4" in out and "Throne 1/4" in out
    book = load_book(path)
    game = new_game(("A", "B"), variant="throne", cards=book)
    assert [c.name for c in game.cards] == ["leaf"]
    assert main(["cards", "--file", str(path), "remove", "leaf", "--side", "garden"]) == 0
    assert load_book(path).get("leaf") == CardPatterns("leaf", None, (Offset(2, 0),))
    assert main(["cards", "--file", str(path), "remove", "leaf"]) == 0
    assert load_book(path).get("leaf") is None


def test_cards_command_never_overwrites_a_corrupt_file(tmp_path, capsys):
    path = tmp_path / "cards.json"
    path.write_text('{"format": "table-companion/reclamation-cards", "version": 1, "cards": [{"name": 3}]}', encoding="utf-8")
    before = path.read_bytes()
    assert main(["cards", "--file", str(path), "add", "x", "--side", "garden", "--target", "1,0"]) == 2
    assert "cards[0].name" in capsys.readouterr().err
    assert path.read_bytes() == before


def test_the_default_card_file_lives_in_the_state_directory(capsys):
    assert main(["cards", "add", "leaf", "--side", "garden", "--target", "1,1"]) == 0
    capsys.readouterr()
    book = default_book()
    assert not book.builtin and [c.name for c in book.for_side("garden")] == ["example", "leaf"]
    assert [c.name for c in new_game(("A", "B")).cards] == ["example", "leaf"]


def test_a_full_set_refuses_a_fifth_card(tmp_path):
    path = tmp_path / "c.json"
    for name, target in (("b", "1,0"), ("c", "0,1"), ("d", "1,1")):
        assert main(["cards", "--file", str(path), "add", name, "--side", "garden", "--target", target]) == 0
    assert main(["cards", "--file", str(path), "check"]) == 1  # throne side still missing
    assert main(["cards", "--file", str(path), "add", "e", "--side", "garden", "--target", "2,0"]) == 2
