"""Property tests: random legal play never reaches a state the checker rejects; every state
round-trips; every destination offered is a move the checker accepts."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import get, saves
from companion.games.baubylon import moves as mv
from companion.games.baubylon.paths import MAX_STACK

SPEC = get("baubylon")
DECLARED = {rule.id for rule in SPEC.rules}


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), data=st.data())
def test_random_legal_play_stays_consistent(players, data):
    state = SPEC.new_game(tuple(f"P{i}" for i in range(players)))
    for _ in range(80):
        if state.is_over:
            assert state.winner is not None and state.winners == (state.winner,)
            break
        moves = list(state.legal_moves())
        assert moves
        move = data.draw(st.sampled_from(moves))
        assert state.check(move).accepted
        before_pieces = sum(len(p) for _, p in state.stacks)
        state = state.apply(move)
        assert state.problems() == []
        assert all(1 <= len(p) <= MAX_STACK for _, p in state.stacks)
        if isinstance(move, mv.Step):
            assert sum(len(p) for _, p in state.stacks) <= before_pieces + 1
        assert saves.parse_state(json.loads(json.dumps(saves.state_to_json(state))), "<rt>") == state
        for line in state.score_sheet().lines:
            assert line.rule_id in DECLARED


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_offered_destinations_are_accepted_and_others_refused(data):
    state = SPEC.new_game(("A", "B", "C"))
    for _ in range(30):
        if state.is_over:
            break
        if state.roll is not None:
            origins = [s for s, p in state.stacks if p[-1] in (state.colours[state.turn], "red")]
            origins += list(state.field.starts)
            origin = data.draw(st.sampled_from(origins))
            piece = "pawn" if origin in state.field.starts or state.stack(origin)[-1] != "red" else "blocker"
            found = state.where_can_it_go(origin, piece=piece)
            for end, reach in found.items():
                assert reach.end == end and reach.cost == state.roll
                assert state.check(mv.Step(origin, reach.path, reach.knocks, piece)).accepted
            for space in state.field.neighbours(origin):
                if space not in found:
                    ruling = state.check(mv.Step(origin, (space,), (), piece))
                    assert not ruling.accepted
                    assert set(ruling.rule_ids) <= DECLARED
        state = state.apply(data.draw(st.sampled_from(list(state.legal_moves()))))
