import pytest

from companion.errors import FormatError
from companion.games.jsonread import JsonReader


def test_paths_name_the_bad_key():
    reader = JsonReader({"board": [{"level": 1}, {"level": "x"}]}, "save.json")
    levels = [cell.get("level") for cell in reader.get("board").list()]
    assert levels[0].int() == 1
    with pytest.raises(FormatError) as info:
        levels[1].int()
    assert str(info.value) == "save.json: board[1].level: expected a whole number, got 'x'"


def test_missing_key_and_ranges():
    reader = JsonReader({"round": 20}, "s.json")
    with pytest.raises(FormatError, match=r"s.json: players: missing"):
        reader.get("players")
    with pytest.raises(FormatError, match="≤ 15"):
        reader.get("round").int(maximum=15)
    assert reader.get("players", default=[]).list() == []


def test_types_are_strict():
    assert JsonReader(True).bool() is True
    with pytest.raises(FormatError):
        JsonReader(1).bool()
    with pytest.raises(FormatError):
        JsonReader(True).int()  # JSON true is not the number 1
    with pytest.raises(FormatError, match="one of 'a', 'b'"):
        JsonReader("c").str(("a", "b"))
    with pytest.raises(FormatError, match="list of 2"):
        JsonReader([1, 2, 3]).list(length=2)
    assert JsonReader(3).float() == 3.0
