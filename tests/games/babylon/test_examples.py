"""docs/examples/babylon-*.json are current, load, and work with `companion score` / `check`."""

from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.games import saves

from .make_examples import EXAMPLES, files, render


@pytest.mark.slow
def test_examples_are_what_the_generator_makes():
    for name, data in files().items():
        assert (EXAMPLES / name).read_text(encoding="utf-8") == render(data), (
            f"{name} is stale: run .venv/bin/python -m tests.games.babylon.make_examples"
        )


def test_game_record_loads_to_a_finished_two_player_game():
    record = saves.load(EXAMPLES / "babylon-2p-game.json")
    assert record.final.is_over and len(record.final.players) == 2
    assert record.final.round == 15


def test_companion_score_on_the_game(capsys):
    assert main(["score", str(EXAMPLES / "babylon-2p-game.json")]) == 0
    out = capsys.readouterr().out
    assert "final score" in out and "[babylon.score.highest]" in out and "winner:" in out
    assert main(["score", "--json", str(EXAMPLES / "babylon-midgame.json")]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["game"] == "babylon" and not sheet["final"]
    assert sum(line["points"] for line in sheet["lines"] if line["player"] == 0) == sheet["totals"][0]


def test_companion_check_accepts_the_example_move_and_refuses_a_bad_one(capsys):
    state = str(EXAMPLES / "babylon-midgame.json")
    assert main(["check", state, "@" + str(EXAMPLES / "babylon-move.json")]) == 0
    assert "ACCEPTED" in capsys.readouterr().out
    assert main(["check", state, '{"kind": "store", "singles": 9}']) == 1
    assert "[babylon.round]" in capsys.readouterr().out
    assert main(["check", state, '{"kind": "exchange", "give": "double"}']) == 1
    assert "[babylon.build.exchange]" in capsys.readouterr().out


def test_corrupt_files_are_one_line_errors(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    data = json.loads((EXAMPLES / "babylon-midgame.json").read_text(encoding="utf-8"))
    data["state"]["players"][0]["board"]["tiles"][0]["at"] = [9, 0]
    bad.write_text(json.dumps(data), encoding="utf-8")
    before = bad.read_text(encoding="utf-8")
    assert main(["score", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(bad) in err and "state.players[0].board.tiles[0].at[0]" in err and "\n" not in err
    assert bad.read_text(encoding="utf-8") == before  # never overwritten
