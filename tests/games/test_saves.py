"""Save envelopes: clear errors for every way a file can be wrong, and no file is ever damaged."""

import json
from pathlib import Path

import pytest

from companion.errors import CompanionError, FormatError
from companion.games import saves

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def write(tmp_path, data, name="save.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{not json", "line 1, column 2: not valid JSON"),
        ([], "top level: expected an object"),
        ({"format": "photo"}, "format: expected one of"),
        ({"format": "table-companion/state", "version": 99, "game": "babylon"}, "newer companion"),
        ({"format": "table-companion/state", "version": 1, "game": "chess"}, "game: expected one of"),
        ({"format": "table-companion/state", "version": "1"}, "version: expected a whole number"),
    ],
)
def test_bad_save_files_give_clear_errors(tmp_path, content, fragment):
    path = write(tmp_path, content)
    before = path.read_bytes()
    with pytest.raises(FormatError) as info:
        saves.load(path)
    assert str(path) in str(info.value)
    assert fragment in str(info.value)
    assert path.read_bytes() == before


def test_missing_and_undecodable_files(tmp_path):
    with pytest.raises(FormatError, match="no such file"):
        saves.load(tmp_path / "absent.json")
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CompanionError, match="cannot be read"):
        saves.load(path)


def test_atomic_write_replaces_whole_file(tmp_path):
    path = tmp_path / "games" / "g.json"
    saves.write_json_atomic(path, {"a": "鳥"})
    saves.write_json_atomic(path, {"b": 2})
    assert json.loads(path.read_text(encoding="utf-8")) == {"b": 2}
    assert [p.name for p in path.parent.iterdir()] == ["g.json"]  # no temporary files left behind


def test_errors_inside_a_body_name_the_whole_key_path(tmp_path):
    state = json.loads((EXAMPLES / "reclamation-state.json").read_text(encoding="utf-8"))
    state["state"]["variant"] = 7
    path = write(tmp_path, state)
    with pytest.raises(FormatError) as info:
        saves.load(path)
    assert f"{path}: state.variant:" in str(info.value)
    record = json.loads((EXAMPLES / "reclamation-game.json").read_text(encoding="utf-8"))
    record["moves"][1] = {"kind": "warp"}
    path = write(tmp_path, record, "record.json")
    with pytest.raises(FormatError) as info:
        saves.load(path)
    assert f"{path}: moves[1]" in str(info.value)


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_every_example_file_loads(example):
    data = json.loads(example.read_text(encoding="utf-8"))
    if data.get("format") == saves.MOVE_FORMAT or "kind" in data:
        return  # a move: checked by `companion check` tests
    if data.get("format") not in (saves.STATE_FORMAT, saves.GAME_FORMAT):
        return  # card or field data of a game, checked by that game's tests
    record = saves.load(example)
    assert record.final.score_sheet().players == record.final.players
