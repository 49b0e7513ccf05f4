"""Saved states and moves: round trips, and corrupt input as a FormatError naming the key."""

from __future__ import annotations

import copy
import functools
import json

import pytest

from companion.errors import FormatError
from companion.games import saves
from companion.games.babylon.moves import (
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
    Reveal,
    Store,
    Take,
    Trim,
)
from companion.games.babylon.selfplay import play_random_game
from companion.games.babylon.state import BabylonState

MOVES = [
    Trim((0, 3)),
    Take((1, 2), "pink"),
    Take((1, 2), "pink", ("stairs", None, "bridge", "statue"), 3),
    Exchange(),
    Exchange("double"),
    PlacePillar((7, 0), "double"),
    PlacePillar((7, 0), "single", level=2),
    RemovePillar((3, 4)),
    PlaceTile("new", 6, 6, 2),
    PlaceTile("slot", 0, 1, 1, ("fountain", None, None, None), 3),
    PlaceDecoration("bridge", ((0, 1), (0, 3))),
    PlaceDecoration("statue", ((5, 5),), ((5, 5), "statue")),
    EndBuild(),
    Store(4, True, True),
    Reveal("icon_blank"),
]


@pytest.mark.parametrize("move", MOVES, ids=lambda m: m.kind)
def test_moves_round_trip(move):
    data = json.loads(json.dumps(move.to_json()))
    assert BabylonState.move_from_json(data) == move


def test_states_round_trip_through_a_game():
    initial, moves, final = play_random_game(2, seed=5, stop_after=90)
    state = initial
    for index, move in enumerate(moves):
        state = state.apply(move)
        if index % 7 == 0 or index == len(moves) - 1:
            data = json.loads(json.dumps(saves.state_to_json(state)))
            again = saves.parse_state(data, "<test>")
            assert again == state
            assert again.to_json() == state.to_json()
    assert state == final


@functools.cache
def _state_json():
    _, _, state = play_random_game(2, seed=6, stop_after=60)
    return saves.state_to_json(state)


@pytest.mark.parametrize(
    ("path", "value", "where"),
    [
        (("state", "quarry"), [3] * 15, "quarry"),
        (("state", "phase"), "dance", "phase"),
        (("state", "options", "bridge_gap"), "rope", "options.bridge_gap"),
        (("state", "players", 0, "board", "tiles", 0, "level"), 0, "players[0].board.tiles[0].level"),
        (("state", "players", 1, "board", "pillars", 0, "kind"), "triple", "players[1].board.pillars[0].kind"),
        (("state", "players", 0, "board", "tiles", 0, "placed_icons"), ["stairs"], "players[0].board.tiles[0].placed_icons"),
        (("state", "supply", "single"), -1, "supply.single"),
        (("state", "turn", "wild_used"), "no", "turn.wild_used"),
    ],
)
def test_corrupt_state_names_the_key(path, value, where):
    data = copy.deepcopy(_state_json())
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(FormatError) as info:
        saves.parse_state(data, "save.json")
    assert info.value.source == "save.json"
    assert info.value.where.startswith(f"state.{where}")  # the envelope key leads the path


def test_missing_key_and_bad_moves():
    data = copy.deepcopy(_state_json())
    del data["state"]["turn"]
    with pytest.raises(FormatError, match="turn"):
        saves.parse_state(data, "save.json")
    for bad, where in [
        ({"kind": "fly"}, "kind"),
        ({"kind": "take", "place": [4, 0], "flower": "pink"}, "place[0]"),
        ({"kind": "tile", "tile": "new", "at": [0, 7], "level": 1}, "at[1]"),
        ({"kind": "decoration", "piece": "stairs", "cells": [[0, 0]]}, "cells"),
        ({"kind": "store", "singles": "six"}, "singles"),
        ({"kind": "take", "place": [0, 0], "flower": "pink", "icons": ["cat", None, None, None]}, "icons[0]"),
    ]:
        with pytest.raises(FormatError) as info:
            BabylonState.move_from_json(bad, "move.json")
        assert info.value.where == where, bad


def test_duplicate_piece_ids_are_rejected():
    data = copy.deepcopy(_state_json())
    board = data["state"]["players"][0]["board"]
    board["pillars"].append(dict(board["pillars"][0]))
    with pytest.raises(FormatError, match="unique"):
        saves.parse_state(data, "save.json")


def test_an_impossible_position_is_refused_with_the_reason():
    data = copy.deepcopy(_state_json())
    data["state"]["supply"]["single"] += 1  # a pillar out of nowhere
    with pytest.raises(FormatError, match="149 single pillars accounted for but the game has 148") as info:
        saves.parse_state(data, "save.json")
    assert info.value.where == "state"
    data = copy.deepcopy(_state_json())
    tiles = data["state"]["players"][0]["board"]["tiles"]
    tiles[0]["level"] = 5  # floating in the air, no level 4 below
    with pytest.raises(FormatError, match="rests on 0 pillars"):
        saves.parse_state(data, "save.json")
