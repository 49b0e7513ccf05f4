"""`bench referee`'s injector passes over "illegal" actions a legal reading looks exactly like:
a statue on a space without the statue icon is legal when this round's token lets one space count
as another icon (babylon.round_token, icon_swap) — the referee rightly accepts it."""

from __future__ import annotations

import random
from collections import Counter

import pytest

pytest.importorskip("companion.games.babylon")

from companion.benchmarking.referee import _legal_lookalike, _pick_illegal  # noqa: E402
from companion.games.babylon.moves import PlaceDecoration  # noqa: E402
from companion.games.babylon.selfplay import play_random_game  # noqa: E402
from companion.referee.views.babylon import BabylonView  # noqa: E402


def test_a_statue_a_round_token_makes_legal_is_not_injected():
    initial, moves, _ = play_random_game(players=2, seed=4)
    state = initial
    for move in moves:  # seed 4, move 30: a statue on a space counted as a statue by the token
        if isinstance(move, PlaceDecoration) and move.wild is not None and move.piece == "statue":
            break
        state = state.apply(move)
    plain = PlaceDecoration("statue", move.cells)  # the same statue, the token not declared
    ruling = state.check(plain)
    assert not ruling.accepted and state.check(move).accepted
    view = BabylonView()
    shown = view.physical_after(state, plain)
    assert _legal_lookalike(view, state, shown)
    # a truly illegal statue on the same table (another space: no icon, token already spoken for)
    others = [m for m in view.illegal_examples(state, random.Random(0))
              if isinstance(m, PlaceDecoration) and m.cells != move.cells and not state.check(m).accepted]
    truly = next(m for m in others if not _legal_lookalike(view, state, view.physical_after(state, m)))
    skipped: Counter = Counter()
    options = [(plain, ruling, shown), (truly, state.check(truly), view.physical_after(state, truly))]
    for seed in range(4):
        picked = _pick_illegal(view, state, random.Random(seed), options, skipped)
        assert picked is not None and picked[0] == truly
    assert sum(skipped.values()) >= 1 and set(skipped) == {"+".join(ruling.rule_ids)}
