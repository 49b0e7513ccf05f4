"""The hint search: alpha–beta gives the exact minimax value, and hints are legal, with reasons."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.cli import main
from companion.games.reclamation import rules as R
from companion.games.reclamation.fast import FastRules
from companion.games.reclamation.search import WIN, Searcher, suggest
from companion.games.reclamation.state import new_game

from .helpers import AHEAD, EXAMPLE, TEST_CARDS, position


def minimax(rules: FastRules, pos, depth: int, ply: int = 1) -> int:
    """Plain negamax without pruning, the reference for alpha–beta."""
    children = rules.successors(pos)
    if not children:
        return -WIN + ply
    if any(s[1] for s in children):
        return WIN - ply
    if depth <= 1:
        return max(s[0] for s in children)
    return max(-minimax(rules, s[2], depth - 1, ply + 1) for s in children)


def sample_states(variant: str, seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game(("A", "B"), variant=variant, cards=TEST_CARDS)
        for _ in range(rng.randrange(0, 24)):
            moves = list(state.legal_moves())
            if not moves:
                break
            state = state.apply(rng.choice(moves))
        if not state.is_over:
            out.append(state)
    return out


@pytest.mark.parametrize("variant", ["garden", "throne"])
def test_alpha_beta_finds_the_minimax_value(variant):
    for state in sample_states(variant, seed=7, count=5):
        rules = FastRules(state.cards, state.throne)
        pos = rules.encode(state)
        for depth in (1, 2, 3):
            ranked = Searcher(rules).root(pos, depth)
            assert ranked[0][0] == minimax(rules, pos, depth), (variant, depth, state.to_json())


def test_hint_takes_an_immediate_win_and_says_why():
    eleven = {"a1": "F", "b1": "F", "c1": "F", "d1": "F", "e1": "F", "a2": "F", "b2": "F", "c2": "F", "d2": "F", "e2": "F"}
    state = position({**eleven, "c4": "FFF", "a6": "VVV"}, cards=(EXAMPLE, AHEAD), hand=3)
    hint = suggest(state, max_depth=3, seconds=5)
    after = state.apply(hint.move)
    assert after.winners == (0,)
    assert hint.rule_id == R.WIN_SQUARES and "wins now" in hint.reason.render()
    assert hint.details == (after.outcome.reason,)


def test_hint_in_the_throne_takes_the_last_gardener():
    state = position({"c2": "FFF", "d4": "VVV", "e6": "V"}, variant="throne", cards=(AHEAD, EXAMPLE), hand=2)
    hint = suggest(state, max_depth=2, seconds=5)
    assert state.apply(hint.move).winners == (0,)
    assert hint.rule_id == R.THRONE_WIN


def test_hint_sees_a_forced_loss_coming():
    # Vine's gardener in the corner with one way out: Flower can close it at once (a6's last
    # neighbour b6 gets a stone from a4), so the search reports a forced win, not just a score.
    state = position({"a6": "VVV", "a5": "F", "b5": "F", "b3": "FFF", "f1": "V"}, cards=(EXAMPLE, AHEAD), hand=4)
    hint = suggest(state, max_depth=3, seconds=5)
    after = state.apply(hint.move)
    assert after.is_over and after.winners == (0,) and after.outcome.rule_id == R.LOSE_STUCK
    assert hint.value >= WIN - 2


def test_hints_are_legal_and_cite_rules():
    for variant in ("garden", "throne"):
        for state in sample_states(variant, seed=3, count=4):
            hint = suggest(state, max_depth=3, seconds=5)
            assert state.check(hint.move).accepted
            assert hint.rule_id.startswith("reclamation.") and "{" not in hint.reason.render()
            assert hint.positions > 0 and hint.depth >= 1


def test_no_time_still_gives_a_legal_hint_and_a_finished_game_none():
    state = new_game(("A", "B"), cards=TEST_CARDS)
    hint = suggest(state, max_depth=6, seconds=0.0)
    assert state.check(hint.move).accepted and hint.depth >= 1
    over = position({"a6": "VVV", "a5": "F", "b5": "F", "b6": "F", "f1": "FFF"}, to_move=1, cards=(EXAMPLE,))
    assert suggest(over) is None


def test_bench_topic_gives_a_hint_for_a_saved_game(capsys):
    example = Path(__file__).resolve().parents[3] / "docs" / "examples" / "reclamation-state.json"
    assert main(["bench", "reclamation", "--hint", str(example), "--seconds", "0.2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["move"]["kind"] == "turn" and out["rule"].startswith("reclamation.") and out["positions"] > 0
