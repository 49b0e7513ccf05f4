"""Save format of Babel Builders (docs/formats/babel.md): round trips, examples, corrupt input, CLI."""

import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import FormatError
from companion.games import saves
from companion.games.babel import moves as mv
from companion.games.babel.state import BabelState

from .helpers import building, game, play

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def roundtrip(state):
    return saves.parse_state(json.loads(json.dumps(saves.state_to_json(state))), "<rt>")


def test_states_roundtrip_through_json():
    state = play(building(7), mv.Storm(), mv.SealInBuild())
    assert roundtrip(state) == state
    assert roundtrip(game(10)) == game(10)


@pytest.mark.parametrize("move", [
    mv.Appoint((1, 2, 3)), mv.Storm(), mv.Instruction("A1", 2, "2-A"), mv.Instruction(None, 1),
    mv.Lightning(None), mv.Lightning("B2"), mv.Deliberation(3), mv.SealInBuild(), mv.FinishBuilding(),
    mv.ConfirmPunishment("two_received", 2), mv.NameMaster(4), mv.UseSeal(1, 2), mv.UsePunishment(1, 2, 2),
    mv.EndPhase("seal"), mv.RevealMessenger(3, (1, 2)),
])
def test_moves_roundtrip_through_json(move):
    assert BabelState.move_from_json(json.loads(json.dumps(move.to_json()))) == move


def test_examples_load_and_replay():
    record = saves.load(EXAMPLES / "babel-game.json")
    assert record.final.is_over and record.final.result == "architects"
    assert record.final.winners == (0, 2, 3)
    state = saves.load(EXAMPLES / "babel-state.json").final
    assert state.phase == "build"
    move = saves.parse_move(saves.read_json_file(EXAMPLES / "babel-move.json"), record.spec)
    assert state.check(move).accepted


def test_cli_score_and_check_on_the_examples(capsys):
    assert main(["score", str(EXAMPLES / "babel-game.json")]) == 0
    out = capsys.readouterr().out
    assert "[babel.end.complete]" in out and "winner: Aiko, Chen, Daichi" in out
    bad = '{"kind": "instruction", "cell": "A3", "cubes": 2, "card": "2-A"}'
    assert main(["check", str(EXAMPLES / "babel-state.json"), bad]) == 1
    assert "[babel.instruction]" in capsys.readouterr().out


def body(**changes):
    data = saves.state_to_json(play(building(), mv.Instruction("A1", 1)))
    data["state"].update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "where", "fragment"),
    [
        ({"players": ["a", "b"]}, "state.players", "5 to 10 players"),
        ({"towers": {"A1": 20, "B1": 9}}, "state.towers", "at most 25"),
        ({"towers": {"Z9": 1}}, "state.towers.Z9", "cell name"),
        ({"deck": -1}, "state.deck", "≥ 0"),
        ({"deck": 99}, "state.deck", "≤ 42"),
        ({"master": 7}, "state.master", "≤ 4"),
        ({"stage": "party"}, "state.stage", "expected one of"),
        ({"architects": [1, 1, 2]}, "state.architects", "different players"),
        ({"revealed": ["rain"]}, "state.revealed[0]", "expected one of"),
        ({"revealed": ["instruction", "storm"]}, "state", "a Storm revealed after another card"),
        ({"spent": {"storm": 6}}, "state", "6 Storm cards revealed"),
        ({"spent": {"hail": 1}}, "state.spent.hail", "only the keys"),
        ({"seal_uses": [[0]]}, "state.seal_uses[0]", "list of 2"),
        ({"result": "nobody"}, "state.result", "expected one of"),
        ({"master": 1}, "state", "the master is among the architects"),
        ({"blueprint": {"name": "x", "cells": {}}}, "state.blueprint.cells", "at least one cell"),
    ],
)
def test_corrupt_states_name_the_key(tmp_path, changes, where, fragment):
    path = tmp_path / "babel.json"
    path.write_text(json.dumps(body(**changes)), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        saves.load(path)
    message = str(info.value)
    assert str(path) in message and where in message and fragment in message


def test_corrupt_moves_name_the_key():
    with pytest.raises(FormatError, match=r"kind: expected one of"):
        BabelState.move_from_json({"kind": "fly"})
    with pytest.raises(FormatError, match=r"cell: expected one of"):
        BabelState.move_from_json({"kind": "instruction", "cell": "D4", "cubes": 1})
    with pytest.raises(FormatError, match=r"cubes: expected a number ≤ 3"):
        BabelState.move_from_json({"kind": "instruction", "cell": "A1", "cubes": 5})
    with pytest.raises(FormatError, match=r"architects: missing"):
        BabelState.move_from_json({"kind": "appoint"})


def test_a_record_with_an_illegal_move_is_refused(tmp_path):
    data = saves.record_to_json(game(), [mv.Appoint((1, 2, 3)), mv.Instruction("C3", 3, "3-A")])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=r"moves\[1\]: this move is not legal .*babel.instruction"):
        saves.load(path)
