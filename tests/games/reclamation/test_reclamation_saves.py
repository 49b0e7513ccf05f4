"""Saved states, moves and records of The Reclamation: examples, round trips, corrupt input."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import FormatError
from companion.games import saves
from companion.games.reclamation.codec import move_from_json, state_from_json
from companion.games.reclamation.state import Turn, new_game

from .helpers import TEST_CARDS

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "docs" / "examples"
DOC = REPO / "docs" / "formats" / "reclamation.md"


def test_examples_load_and_agree():
    record = saves.load(EXAMPLES / "reclamation-game.json")
    state = saves.load(EXAMPLES / "reclamation-state.json").final
    assert record.final == state and len(record.moves) == 8 and not state.is_over
    move = saves.parse_move(saves.read_json_file(EXAMPLES / "reclamation-move.json"), record.spec)
    assert state.check(move).accepted


def test_state_body_in_the_format_doc_is_valid():
    text = DOC.read_text(encoding="utf-8")
    body = re.search(r"## State body\s+```json\n(.*?)```", text, re.S).group(1)
    state = state_from_json(json.loads(body), "reclamation.md")
    assert state.to_move == 1 and not state.is_over
    start = new_game(("Aki", "Bo"), cards=state.cards)
    assert start.apply(Turn("f1", "e2", "example")) == state


def test_score_and_check_commands_work_on_saved_games(capsys):
    assert main(["score", str(EXAMPLES / "reclamation-game.json")]) == 0
    out = capsys.readouterr().out
    assert "reclamation.garden.win.squares" in out and "of 12 needed" in out
    assert main(["check", str(EXAMPLES / "reclamation-state.json"), "@" + str(EXAMPLES / "reclamation-move.json")]) == 0
    assert "ACCEPTED" in capsys.readouterr().out
    bad = '{"kind": "turn", "gardener": "a6", "to": "a5", "card": "example"}'
    assert main(["check", str(EXAMPLES / "reclamation-state.json"), bad, "--json"]) == 1
    ruling = json.loads(capsys.readouterr().out)
    assert ruling["violations"][0]["rule"] == "reclamation.garden.move"


def test_record_with_an_illegal_move_names_it(tmp_path):
    data = saves.read_json_file(EXAMPLES / "reclamation-game.json")
    data["moves"][3]["card"] = "missing-card"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=r"moves\[3\].*reclamation.garden.reclaim.card"):
        saves.load(path)


BASE = saves.state_to_json(new_game(("Aki", "Bo"), cards=TEST_CARDS))["state"]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.pop("board"), "board"),
        (lambda d: d.update(variant="chess"), "variant"),
        (lambda d: d.update(players=["solo"]), "players"),
        (lambda d: d["board"].update(g7="F"), "board.g7"),
        (lambda d: d["board"].update(c3="FV"), "board.c3"),
        (lambda d: d["board"].update(c3="FFFF"), "board.c3"),
        (lambda d: d["board"].update(c3=2), "board.c3"),
        (lambda d: d["hands"].update(flower=-1), "hands.flower"),
        (lambda d: d["hands"].update(red=1), "hands.red"),
        (lambda d: d["used"].update(flower=["nope"]), "used.flower[0]"),
        (lambda d: d.update(to_move="black"), "to_move"),
        (lambda d: d["cards"][0].update(targets=[{"forward": 0, "right": 0}]), "cards[0].targets"),
        (lambda d: d.update(cards=[]), "cards"),
        (lambda d: d["hands"].update(flower=13), "state"),  # stones no longer add up
    ],
)
def test_corrupt_states_are_format_errors_naming_the_key(change, where):
    data = copy.deepcopy(BASE)
    change(data)
    with pytest.raises(FormatError) as info:
        state_from_json(data, "save.json")
    assert info.value.source == "save.json" and info.value.where == where, str(info.value)


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"kind": "build"}, "kind"),
        ({"kind": "turn", "to": "a5", "card": "x"}, "gardener"),
        ({"kind": "turn", "gardener": "z9", "to": "a5", "card": "x"}, "gardener"),
        ({"kind": "turn", "gardener": "a6", "to": "a5", "card": 3}, "card"),
        ({"kind": "turn", "gardener": "a6", "to": "a5", "card": "x", "place": "a4"}, "place"),
        ({"kind": "turn", "gardener": "a6", "to": "a5", "card": "x", "take": []}, "take"),
        ("turn", "top level"),
    ],
)
def test_corrupt_moves_are_format_errors(data, where):
    with pytest.raises(FormatError) as info:
        move_from_json(data, "move.json")
    assert info.value.where == where, str(info.value)


def test_a_corrupt_save_file_is_never_overwritten(tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_text('{"format": "table-companion/state", "version": 1, "game": "reclamation", "state": {}}', encoding="utf-8")
    before = path.read_bytes()
    assert main(["score", str(path)]) == 2
    assert "save.json: state.variant: missing" in capsys.readouterr().err
    assert path.read_bytes() == before
