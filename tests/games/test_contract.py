"""The one-API contract, checked the same way for every registered game.

For each game: a fresh game round-trips through its save format; a seeded random walk of legal
moves never meets a move its own checker rejects; every state on the way round-trips; every ruling
and score line cites a rule id the game declares; and the declared ids are exactly DIGEST.md's.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.games import all_games, saves
from companion.games.api import GameSpec, GameState

from ..conftest import SHARED_RULES

SPECS = all_games()
WALK_MOVES = 60


def digest_rule_ids(prefix: str) -> set[str]:
    text = (SHARED_RULES / "DIGEST.md").read_text(encoding="utf-8")
    # `babylon.build.support` is a rule; `babylon.build.*` is a group heading; `babylon.ja.txt` a file.
    found = re.findall(r"`(" + re.escape(prefix) + r"\.[a-z_.]*[a-z_])`", text)
    return {rule_id for rule_id in found if not re.search(r"\.(txt|md)$", rule_id)}


def players_for(spec: GameSpec, count: int) -> tuple[str, ...]:
    return tuple(f"P{i + 1}" for i in range(count))


def roundtrip(state: GameState) -> GameState:
    data = json.loads(json.dumps(saves.state_to_json(state)))
    return saves.parse_state(data, "<roundtrip>")


def random_walk(spec: GameSpec, seed: int, count: int) -> list[GameState]:
    rng = random.Random(seed)
    state = spec.new_game(players_for(spec, count))
    states = [state]
    for _ in range(WALK_MOVES):
        if state.is_over:
            break
        moves = list(state.legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        ruling = state.check(move)
        assert ruling.accepted, f"{spec.id}: legal move {move.to_json()} rejected: {ruling.rule_ids}"
        assert spec.state_type.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        state = state.apply(move)
        states.append(state)
    return states


@pytest.fixture(params=SPECS, ids=[s.id for s in SPECS])
def spec(request) -> GameSpec:
    return request.param


def test_four_games_are_registered():
    assert {s.id for s in SPECS} == {"babylon", "reclamation", "babel", "baubylon"}


def test_declared_rules_match_the_digest(spec):
    if not (SHARED_RULES / "DIGEST.md").exists():
        pytest.skip("shared/rules/DIGEST.md is not beside this checkout")
    declared = {rule.id for rule in spec.rules}
    assert len(declared) == len(spec.rules), "a rule id is declared twice"
    missing = digest_rule_ids(spec.id) - declared
    assert not missing, f"rule ids of DIGEST.md the engine does not declare: {sorted(missing)}"
    assert all(rule.title for rule in spec.rules)


@pytest.mark.parametrize("which", ["min", "max"])
def test_new_game_roundtrips(spec, which):
    count = spec.min_players if which == "min" else spec.max_players
    state = spec.new_game(players_for(spec, count))
    assert state.players == players_for(spec, count)
    again = roundtrip(state)
    assert again == state
    assert again.to_json() == state.to_json()
    assert not state.is_over


@pytest.mark.parametrize("seed", [1, 2])
def test_random_legal_play_is_consistent(spec, seed):
    declared = {rule.id for rule in spec.rules}
    for state in random_walk(spec, seed, spec.min_players):
        assert roundtrip(state) == state
        sheet = state.score_sheet()
        assert sheet.totals() == tuple(
            sum(line.points for line in sheet.lines if line.player == p) for p in range(len(state.players))
        )
        for line in sheet.lines:
            assert line.rule_id in declared, f"score line cites undeclared rule {line.rule_id}"
        assert isinstance(state.phase, str) and state.phase


def test_rejections_cite_declared_rules(spec):
    """Replaying a legal move after it was made is (almost always) illegal; it must cite a rule."""
    declared = {rule.id for rule in spec.rules}
    cited = 0
    for state in random_walk(spec, 3, spec.min_players)[:-1]:
        moves = list(state.legal_moves())
        after = state.apply(moves[0])
        ruling = after.check(moves[0])
        for violation in ruling.violations:
            assert violation.rule_id in declared, f"violation cites undeclared rule {violation.rule_id}"
            assert violation.message.render()
            cited += 1
    assert cited > 0, "no rejected move seen on the walk"
