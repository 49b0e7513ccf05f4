"""legal_placements and suggest agree with the checker: every listed placement replays legally,
its points are the real score change and its decorations are accepted afterwards."""

from __future__ import annotations

import json
import random

from companion.games.babylon.hints import legal_placements, suggest
from companion.games.babylon.moves import PlaceTile

from .helpers import building, deco, hold, new_turn, put
from .make_examples import midgame


def total(state) -> int:
    return state.score_sheet().total(state.turn_of)


def test_every_sampled_placement_replays_with_its_points_and_decorations():
    state = midgame()
    placements = legal_placements(state)
    assert len(placements) > 50
    rng = random.Random(1)
    for placement in rng.sample(placements, 40):
        after = state
        for move in placement.moves:
            ruling = after.check(move)
            assert ruling.accepted, (move.to_json(), ruling.rule_ids)
            after = after.apply(move)
        assert total(after) - total(state) == placement.points
        for move, points in placement.decorations:
            assert after.check(move).accepted, move.to_json()
            decorated = after.apply(move)
            gained = total(decorated) - total(after)
            assert gained in (points, points + 4), (move.to_json(), gained, points)  # +4: a set


def test_placements_are_all_the_legal_tile_positions_with_pillars_in_hand():
    state = hold(building(singles=4, doubles=0), icons=("stairs", None, "fountain", None))
    found = {(p.row, p.col, p.level) for p in legal_placements(state)}
    assert found == {(r, c, 1) for r in range(7) for c in range(7)}
    # 2 singles only: two exchanges impossible, so nothing; 3 singles: tiles on 3 pillars only.
    three = hold(building(singles=3, doubles=0), icons=("stairs", None, None, None))
    assert {len(p.pillars) for p in legal_placements(three)} == {3}
    assert all(p.belvedere is not None for p in legal_placements(three))
    assert legal_placements(hold(building(singles=2, doubles=0), icons=("stairs",) + (None,) * 3)) == []


def test_exchanges_and_statues_are_used():
    state = put(building(), 0, 0, 1, icons=(None, "statue", None, None))
    state = deco(state, "statue", (0, 1))
    state = put(state, 0, 2, 1)
    state = hold(state.with_me(singles=7, doubles=0), icons=("bridge", None, None, None))
    placements = legal_placements(state)
    with_statue = [p for p in placements if p.statues]
    assert with_statue and all(p.level == 2 for p in with_statue)
    assert any(p.exchanges for p in placements)
    for placement in (with_statue[0], next(p for p in placements if p.exchanges)):
        after = state
        for move in placement.moves:
            after = after.apply(move)
        assert isinstance(placement.moves[-1], PlaceTile)


def test_suggest_ranks_by_value_with_a_reason():
    state = put(building(), 6, 6, 1)
    state = put(state, 0, 0, 2, icons=(None, "fountain", None, None))
    state = hold(state, icons=(None, None, None, "fountain"))
    best = suggest(state, 3)
    assert len(best) == 3
    placement, reason = best[0]
    assert placement.best_decorations, "the fountain next to b1 at level 2 should be found"
    assert placement.value >= best[1][0].value >= best[2][0].value
    assert "VP" in reason.render()
    data = json.loads(json.dumps(placement.to_json()))
    assert data["value"] == placement.value and data["moves"][-1]["kind"] == "tile"


def test_round_token_icons_enable_decorations_in_placements():
    state = put(building(effect="icon_blank"), 0, 0, 1, icons=(None, "fountain", None, None))
    state = hold(new_turn(state), icons=("stairs", None, None, None))  # a blank TR, TL shows stairs
    found = [
        (p, move)
        for p in legal_placements(state)
        if (p.row, p.col, p.level) == (0, 2, 1)
        for move, _ in p.decorations
        if move.piece == "fountain"
    ]
    assert found and all(move.wild is not None for _, move in found)
    placement, move = found[0]
    after = state
    for step in placement.moves:
        after = after.apply(step)
    assert after.check(move).accepted
    # The best set takes the 3-VP fountain and no second round-token icon (one per turn).
    assert [m for m, _ in placement.best_decorations if m.wild is not None] == [move]
