"""The granular legal_moves list: complete for what is standing, and every listed move accepted."""

from __future__ import annotations

from companion.games.babylon.moves import (
    EndBuild,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
)

from .helpers import building, hold, pillars_for, put


def test_tile_moves_appear_once_pillars_stand():
    state = hold(building(singles=4, doubles=0), icons=("stairs", "fountain", None, None))
    assert not [m for m in state.legal_moves() if isinstance(m, PlaceTile)]
    state = pillars_for(state, 3, 3, 1)
    tiles = [m for m in state.legal_moves() if isinstance(m, PlaceTile)]
    assert {(m.row, m.col, m.level) for m in tiles} == {(3, 3, 1)}
    assert sorted(m.rotation for m in tiles) == [0, 1, 2, 3]
    assert all(state.check(m).accepted for m in tiles)
    moves = list(state.legal_moves())
    assert EndBuild() not in moves  # four bare pillars
    assert RemovePillar((3, 3)) in moves
    assert not [m for m in moves if isinstance(m, PlacePillar)]  # no pillars left in hand


def test_decorations_listed_include_the_round_token_icon():
    state = put(building(effect="icon_swap"), 0, 0, 1, icons=(None, "fountain", None, None))
    state = put(state, 0, 2, 1, icons=("stairs", None, None, None))
    decos = [m for m in state.legal_moves() if isinstance(m, PlaceDecoration)]
    assert PlaceDecoration("fountain", ((0, 1), (0, 2)), ((0, 2), "fountain")) in decos
    assert PlaceDecoration("stairs", ((0, 1), (0, 2)), ((0, 1), "stairs")) not in decos  # same level
    assert all(state.check(m).accepted for m in decos)
    plain = put(building(), 0, 0, 1, icons=(None, "fountain", None, None))
    plain = put(plain, 0, 2, 1, icons=("fountain", None, None, None))
    assert [m for m in plain.legal_moves() if isinstance(m, PlaceDecoration)] == [
        PlaceDecoration("fountain", ((0, 1), (0, 2)))
    ]
