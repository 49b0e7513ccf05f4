"""Property tests: random legal play never reaches a state the checker rejects, and every state
on the way round-trips through its save format."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import get, saves
from companion.games.babel.towers import TOTAL_CUBES

SPEC = get("babel")
DECLARED = {rule.id for rule in SPEC.rules}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(5, 10), data=st.data())
def test_random_legal_play_stays_consistent(players, data):
    state = SPEC.new_game(tuple(f"P{i}" for i in range(players)))
    for _ in range(60):
        if state.is_over and state.messenger is not None:
            break
        moves = list(state.legal_moves())
        assert moves, f"no legal move in phase {state.phase}"
        move = data.draw(st.sampled_from(moves))
        ruling = state.check(move)
        assert ruling.accepted
        state = state.apply(move)
        assert state.problems() == []
        assert 0 <= sum(state.towers) <= TOTAL_CUBES
        assert state.deck >= 0
        again = saves.parse_state(json.loads(json.dumps(saves.state_to_json(state))), "<rt>")
        assert again == state
        for line in state.score_sheet().lines:
            assert line.rule_id in DECLARED


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_refused_moves_cite_declared_rules(data):
    state = SPEC.new_game(tuple("ABCDEFG"))
    for _ in range(25):
        moves = list(state.legal_moves())
        if not moves:
            break
        move = data.draw(st.sampled_from(moves))
        state = state.apply(move)
        for violation in state.check(move).violations:
            assert violation.rule_id in DECLARED


def _helps_the_tower(state, move) -> bool:
    """Moves a cooperative table would make: build where the blueprint still needs cubes, or move on."""
    kind = move.kind
    if kind == "instruction":
        return move.cell in state.blueprint.missing(state.towers)
    return kind not in ("storm", "lightning", "punishment_confirmed", "seal", "instruction")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(5, 10), data=st.data())
def test_cooperative_play_reaches_the_end_phases_consistently(players, data):
    state = SPEC.new_game(tuple(f"P{i}" for i in range(players)))
    for _ in range(150):
        if state.is_over and state.messenger is not None:
            break
        moves = list(state.legal_moves())
        helpful = [m for m in moves if _helps_the_tower(state, m)] or moves
        state = state.apply(data.draw(st.sampled_from(helpful)))
        assert state.problems() == []
        assert saves.parse_state(json.loads(json.dumps(saves.state_to_json(state))), "<rt>") == state
    if state.is_over and state.end_rule == "babel.end.complete":
        assert state.blueprint.is_met(state.towers)
        m = state.messenger
        expected = "messenger" if state.punishments_on(m) >= state.seals_on(m) else "architects"
        assert state.result == expected
        assert set(state.winners).isdisjoint({m, *state.fanatics}) == (expected == "architects")
