"""Property tests: random legal play keeps every invariant, from set-up to the end of the game."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.babylon.consistency import problems
from companion.games.babylon.selfplay import play_random_game
from companion.games.babylon.state import new_game


def replay_checking(initial, moves):
    state = initial
    assert problems(state) == []
    for move in moves:
        ruling = state.check(move)
        assert ruling.accepted, (move.to_json(), ruling.rule_ids)
        state = state.apply(move)
        found = problems(state)
        assert found == [], (move.to_json(), found)
        sheet = state.score_sheet()
        for player in range(len(state.players)):
            assert sheet.total(player) == sum(line.points for line in sheet.lines_for(player))
            assert len(sheet.lines_for(player)) == 8
    return state


@pytest.mark.slow
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    greedy=st.floats(0, 1),
    bridge_gap=st.sampled_from(["bridge_level", "empty_to_board"]),
    exact_cover=st.sampled_from(["directly_beneath", "any_tile"]),
    statue_line=st.sampled_from(["row_or_column", "with_diagonals"]),
    decoration_height=st.sampled_from(["flat", "one_level"]),
)
def test_random_games_to_the_end_keep_every_invariant(
    seed, players, greedy, bridge_gap, exact_cover, statue_line, decoration_height
):
    initial, moves, final = play_random_game(
        players,
        seed=seed,
        greedy=greedy,
        bridge_gap=bridge_gap,
        exact_cover=exact_cover,
        statue_line=statue_line,
        decoration_height=decoration_height,
    )
    state = replay_checking(initial, moves)
    assert state == final and state.is_over
    assert state.round == {2: 15, 3: 13, 4: 11}[players]
    assert all(state.supply.count(k) >= 0 for k in state.supply.kinds())


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 80))
def test_uniform_random_granular_moves_are_accepted(seed, steps):
    """Any move legal_moves lists is accepted, and the state stays consistent (a short walk)."""
    import random

    rng = random.Random(seed)
    state = new_game(("A", "B"))
    for _ in range(steps):
        moves = list(state.legal_moves())
        assert moves
        move = rng.choice(moves)
        assert state.check(move).accepted
        state = state.apply(move)
        assert problems(state) == []
