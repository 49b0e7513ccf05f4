"""Baubylon's save format (docs/formats/baubylon.md), the field file, the examples and the CLI."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import CompanionError, FormatError
from companion.games import get, saves
from companion.games.baubylon import moves as mv
from companion.games.baubylon import top_view
from companion.games.baubylon.setupfile import load_field_setup
from companion.games.baubylon.state import BaubylonState

from .helpers import BLUE, RED, YELLOW, position

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def roundtrip(state):
    return saves.parse_state(json.loads(json.dumps(saves.state_to_json(state))), "<rt>")


def test_states_roundtrip():
    state = position({"C4": (BLUE, YELLOW, RED), "D4": (RED,)}, roll=4, captured=(1, 0, 2))
    assert roundtrip(state) == state
    assert roundtrip(get("baubylon").new_game(tuple("ABCDEF"))) == get("baubylon").new_game(tuple("ABCDEF"))


@pytest.mark.parametrize("move", [
    mv.Roll(4), mv.Pass(), mv.Quake("C4", 1), mv.Step("B3", ("C3", "D3"), ("D3",)),
    mv.Step("G6", ("F6",), piece="blocker"),
])
def test_moves_roundtrip(move):
    assert BaubylonState.move_from_json(json.loads(json.dumps(move.to_json()))) == move


def test_examples_load_replay_and_check():
    record = saves.load(EXAMPLES / "baubylon-game.json")
    assert record.final.winners == (0,)
    state = saves.load(EXAMPLES / "baubylon-state.json").final
    move = saves.parse_move(saves.read_json_file(EXAMPLES / "baubylon-move.json"), record.spec)
    assert state.check(move).accepted and state.apply(move).is_over
    setup = load_field_setup(EXAMPLES / "baubylon-field.json")
    assert setup.field == record.initial.field and setup.blockers == ("D6", "F5")


def test_a_game_on_the_players_field_file():
    state = get("baubylon").new_game(("A", "B"), field_file=str(EXAMPLES / "baubylon-field.json"),
                                     colours="white, black")
    assert state.colours == ("white", "black") and state.stack("F5") == (RED,)


def test_cli_score_and_check(capsys):
    assert main(["score", str(EXAMPLES / "baubylon-game.json")]) == 0
    assert "winner: Aiko" in capsys.readouterr().out
    bad = '{"kind": "move", "origin": "E5", "path": ["D5", "D4"]}'
    assert main(["check", str(EXAMPLES / "baubylon-state.json"), bad]) == 1
    out = capsys.readouterr().out
    assert "[baubylon.move]" in out and "can reach: " in out


def test_camera_view():
    view = top_view(position({"C4": (BLUE, YELLOW)}))
    assert view["C4"].height == 2 and view["C4"].pawns == (BLUE, YELLOW) and not view["C4"].start
    assert view["D4"].height == 6 and view["B3"].start and view["B3"].height == 0
    assert view["A1"].attrs() == {"height": 0, "pawns": [], "start": False}
    assert len(view) == 64


def body(**changes):
    data = saves.state_to_json(position({"C4": (BLUE,)}, roll=2))
    data["state"].update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "where", "fragment"),
    [
        ({"players": ["solo"]}, "state.players", "2 to 6 players"),
        ({"colours": ["blue", "blue", "green"]}, "state.colours", "different colours"),
        ({"colours": ["red", "blue", "green"]}, "state.colours", "different colours"),
        ({"stacks": {"A1": ["blue"]}}, "state.stacks.A1", "field space"),
        ({"stacks": {"C4": ["blue"] * 6}}, "state.stacks.C4", "1 to 5 pieces"),
        ({"stacks": {"C4": ["purple"]}}, "state.stacks.C4[0]", "expected one of"),
        ({"roll": 9}, "state.roll", "≤ 6"),
        ({"captured": [7, 0, 0]}, "state.captured[0]", "≤ 6"),
        ({"captured": [5, 0, 0]}, "state", "more than 6 blockers"),
        ({"winner": 1}, "state", "a winner without a pawn on the goal"),
        ({"turn": 3}, "state.turn", "≤ 2"),
    ],
)
def test_corrupt_states_name_the_key(tmp_path, changes, where, fragment):
    path = tmp_path / "baubylon.json"
    data = body(**changes)
    if "captured" in changes and changes["captured"] == [5, 0, 0]:
        data["state"]["stacks"] = {"C4": ["red", "red"]}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        saves.load(path)
    message = str(info.value)
    assert str(path) in message and where in message and fragment in message


def field_file(tmp_path, field, blockers=()):
    path = tmp_path / "field.json"
    path.write_text(json.dumps({"format": "table-companion/baubylon-field", "version": 1, "field": field,
                                "blockers": list(blockers)}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("field", "blockers", "where", "fragment"),
    [
        ({"rows": 4, "cols": 4, "blocks": [{"at": "B2", "shape": "standing"},
                                           {"at": "B2", "shape": "lying", "toward": "east"}], "starts": ["A2"]},
         (), "field.blocks[1]", "lie flat [baubylon.units]"),
        ({"rows": 4, "cols": 4, "blocks": [{"at": "B2", "shape": "cube"}], "starts": ["A2"]},
         (), "field.blocks[0].shape", "expected one of"),
        ({"rows": 4, "cols": 4, "blocks": [{"at": "B2", "shape": "standing"}, {"at": "C2", "shape": "standing"}],
          "starts": ["A2"]}, (), "field", "not unique"),
        ({"rows": 4, "cols": 4, "blocks": [{"at": "B2", "shape": "standing"}], "starts": ["A2"]},
         ("A1",), "blockers[0]", "blockers go on the field"),
        ({"rows": 4, "cols": 4, "blocks": [{"at": "B2", "shape": "standing"}], "starts": "A2"},
         (), "field.starts", "expected a list"),
    ],
)
def test_bad_field_files_name_the_key(tmp_path, field, blockers, where, fragment):
    path = field_file(tmp_path, field, blockers)
    before = path.read_bytes()
    with pytest.raises(FormatError) as info:
        load_field_setup(path)
    message = str(info.value)
    assert str(path) in message and where in message and fragment in message
    assert path.read_bytes() == before


def test_corrupt_moves_name_the_key():
    with pytest.raises(FormatError, match="kind: expected one of"):
        BaubylonState.move_from_json({"kind": "jump"})
    with pytest.raises(FormatError, match="path: expected a list"):
        BaubylonState.move_from_json({"kind": "move", "origin": "C3", "path": "C4"})
    with pytest.raises(FormatError, match="piece: expected one of"):
        BaubylonState.move_from_json({"kind": "move", "origin": "C3", "path": [], "piece": "king"})
    with pytest.raises(FormatError, match="level: missing"):
        BaubylonState.move_from_json({"kind": "quake", "space": "C4"})


def test_a_record_with_an_illegal_move_is_refused(tmp_path):
    initial = get("baubylon").new_game(("A", "B"))
    path = tmp_path / "g.json"
    path.write_text(json.dumps(saves.record_to_json(initial, [mv.Roll(2), mv.Step("B3", ("C3",))])), "utf-8")
    with pytest.raises(FormatError, match=r"moves\[1\].*baubylon.enter"):
        saves.load(path)


def test_default_colour_option_fits_any_player_count():
    spec = get("baubylon")
    default = next(o.default for o in spec.options if o.name == "colours")
    assert spec.new_game(("A", "B"), colours=default).colours == ("blue", "yellow")
    with pytest.raises(CompanionError, match="cannot start Baubylon: expected 3 different pawn colours"):
        spec.new_game(("A", "B", "C"), colours="blue,blue,green")
