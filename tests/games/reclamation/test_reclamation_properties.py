"""Properties over random play (hypothesis): the checker, the saves and the fast search engine all
agree with the readable rules engine."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import saves
from companion.games.reclamation import board as geo
from companion.games.reclamation.audit import audit
from companion.games.reclamation.fast import FastRules
from companion.games.reclamation.state import ReclamationState, Turn, new_game

from .helpers import AHEAD, DIAGONALS, EXAMPLE, ROW_AHEAD, SIDES, TEST_CARDS

CARD_SETS = (TEST_CARDS, (EXAMPLE,), (AHEAD, SIDES), (DIAGONALS, ROW_AHEAD, SIDES))
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw, max_turns: int = 40) -> list[ReclamationState]:
    """A game played by random legal turns; the list of every state on the way."""
    variant = draw(st.sampled_from(("garden", "throne")))
    cards = draw(st.sampled_from(CARD_SETS))
    state = new_game(("Aki", "Bo"), variant=variant, cards=cards)
    states = [state]
    for _ in range(draw(st.integers(0, max_turns))):
        moves = list(state.legal_moves())
        if not moves:
            break
        state = state.apply(moves[draw(st.integers(0, len(moves) - 1))])
        states.append(state)
    return states


@SETTINGS
@given(games())
def test_random_play_never_reaches_a_state_the_checker_rejects(states):
    for state in states:
        assert audit(state) == [], state.to_json()
        assert state.is_over == (not list(state.legal_moves()))
        if state.is_over:
            assert state.winners == (1 - state.to_move,)


@SETTINGS
@given(games())
def test_states_and_moves_round_trip_through_json(states):
    for state in states:
        data = json.loads(json.dumps(saves.state_to_json(state)))
        again = saves.parse_state(data, "<roundtrip>")
        assert again == state and again.to_json() == state.to_json()
    last = states[-1]
    for move in list(last.legal_moves())[:10]:
        data = json.loads(json.dumps(saves.move_to_json("reclamation", move)))
        assert saves.parse_move(data, saves.get("reclamation")) == move


@SETTINGS
@given(games(), st.data())
def test_check_agrees_with_legal_moves(states, data):
    state = states[-1]
    legal = set(state.legal_moves())
    for move in legal:
        assert state.check(move).accepted
    names = [c.name for c in state.cards] + ["nonsense"]
    mine = list(state.gardeners(state.to_move)) or [0]
    for _ in range(20):
        gardener = data.draw(st.sampled_from(mine + [data.draw(st.integers(0, 35))]))
        to = data.draw(st.sampled_from(list(geo.NEIGHBOURS[gardener]) + [data.draw(st.integers(0, 35))]))
        card = data.draw(st.sampled_from(names))
        place = data.draw(st.none() | st.lists(st.integers(0, 35), max_size=4, unique=True))
        move = Turn(geo.name(gardener), geo.name(to), card, None if place is None else tuple(geo.name(s) for s in place))
        ruling = state.check(move)
        if move.place is None:
            same = [m for m in legal if (m.gardener, m.to, m.card) == (move.gardener, move.to, move.card)]
            assert ruling.accepted == (len(same) == 1)
        else:
            assert ruling.accepted == (move in legal), (move, ruling.rule_ids)
        if not ruling.accepted:
            assert ruling.violations and all(v.rule_id.startswith("reclamation.") for v in ruling.violations)


def reference_score(child, mover: int, throne: bool) -> int:
    """The static score of fast.py, recomputed from scratch (the generator counts incrementally)."""
    masks = [child[0:3], child[3:6]]
    mine, theirs = masks[mover], masks[1 - mover]

    def count(m):
        return m.bit_count()

    squares = count(mine[0] | mine[1] | mine[2]) - count(theirs[0] | theirs[1] | theirs[2])
    twos = count(mine[1]) - count(theirs[1])
    if throne:
        caps = child[8 + mover] - child[9 - mover]
        return 60 * (count(mine[2]) - count(theirs[2])) + 45 * caps + 6 * twos + 2 * squares
    return 10 * squares + 3 * twos + min(child[6 + mover], 4) - min(child[7 - mover], 4)


@SETTINGS
@given(games())
def test_fast_engine_generates_exactly_the_legal_successors(states):
    for state in states[:: max(1, len(states) // 6)]:
        rules = FastRules(state.cards, state.throne)
        pos = rules.encode(state)
        assert rules.decode(pos, state) == state
        fast = {}
        for successor in rules.successors(pos):
            fast[rules.turn_of(successor)] = (successor[2], successor[1])
            assert successor[0] == reference_score(successor[2], state.to_move, state.throne)
        expected = {m: state.apply(m) for m in state.legal_moves()} if not state.is_over else {}
        if state.is_over:
            continue  # the fast engine has no notion of a game already won
        assert set(fast) == set(expected)
        for move, after in expected.items():
            child, win = fast[move]
            assert rules.encode(after) == child
            assert win == (after.outcome is not None and after.outcome.winner == state.to_move
                           and after.outcome.rule_id != "reclamation.garden.lose.stuck")
