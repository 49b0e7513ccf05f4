"""The rulebook's own examples of a reclaim (箱庭の国, 「開拓」の例 1–3, 「玉座」ルールにおける手番の例).

Flower sits at rank 1, so Flower's "upper right" of the gardener is one rank up and one file right.
"""

from __future__ import annotations

from companion.games.reclamation import rules as R
from companion.games.reclamation.state import Turn

from .helpers import AHEAD, DIAGONALS, EXAMPLE, ROW_AHEAD, position, stacks_of


def test_example_card_targets_two_forward_one_left_and_right():
    # The card shown: "2 forward, 1 left" and "2 forward, 1 right" of the gardener (Flower: up).
    state = position({"c2": "FFF", "a6": "VVV"}, cards=(EXAMPLE,), hand=5)
    after = state.apply(Turn("c2", "c3", "example"))
    assert stacks_of(after) == {"c3": "FFF", "b5": "F", "d5": "F", "a6": "VVV"}
    # Vine's forward is Flower's backward, and Vine's right is Flower's left: the card is not turned.
    state = position({"f1": "FFF", "d5": "VVV"}, cards=(EXAMPLE,), to_move=1, hand=5)
    after = state.apply(Turn("d5", "d4", "example"))
    assert stacks_of(after) == {"f1": "FFF", "d4": "VVV", "c2": "V", "e2": "V"}


def test_example_1_add_place_take_single_and_top_of_two():
    # Upper right: one of your stones (add one); lower right: empty (place one); upper left: one
    # opponent stone (taken, the square empties); lower left: two opponent stones (take the top).
    state = position(
        {"c2": "FFF", "d4": "F", "b4": "V", "b2": "VV", "f6": "VVV"}, cards=(DIAGONALS,), hand=5
    )
    ruling = state.check(Turn("b1", "c3", "diagonals"))
    assert not ruling.accepted  # (sanity: b1 holds no gardener)
    move = Turn("c2", "c3", "diagonals", ("d2", "d4"))
    assert state.check(move).accepted
    after = state.apply(move)
    assert stacks_of(after) == {"c3": "FFF", "d4": "FF", "d2": "F", "b2": "V", "f6": "VVV"}
    assert after.hands[0] == 5 - 2 + 2  # two placed, two taken and turned to Flower's face
    assert after.to_move == 1
    # The place list may be left out when the rules leave no choice.
    assert state.apply(Turn("c2", "c3", "diagonals")) == after


def test_example_2_reclaim_without_effect_is_refused():
    # Upper right: already 2 of your stones (takes nothing); no empty target; upper left: the
    # opponent's gardener (never taken from). Nothing would change: the reclaim is not allowed.
    state = position({"c2": "FFF", "d4": "FF", "b4": "VVV"}, cards=(AHEAD,), hand=5)
    ruling = state.check(Turn("c2", "c3", "ahead"))
    assert not ruling.accepted
    assert R.NO_EFFECT in ruling.rule_ids
    assert Turn("c2", "c3", "ahead", ()) not in set(state.legal_moves())
    # Putting a stone on the 2-stack anyway is refused under the reclaim order.
    assert R.ORDER in state.check(Turn("c2", "c3", "ahead", ("d4",))).rule_ids


def test_example_3_one_stone_in_hand():
    # One stone in hand; upper right and upper left hold your single stones, lower left is empty,
    # lower right an opponent stone. The stone goes on one of your stacks (choice: upper right);
    # the empty square gets nothing; the opponent stone is taken, so one stone is in hand again.
    state = position(
        {"c2": "FFF", "d4": "F", "b4": "F", "d2": "V", "f6": "VVV"}, cards=(DIAGONALS,), hand=1
    )
    chosen = Turn("c2", "c3", "diagonals", ("d4",))
    assert state.check(chosen).accepted
    after = state.apply(chosen)
    assert stacks_of(after) == {"c3": "FFF", "d4": "FF", "b4": "F", "f6": "VVV"}
    assert after.hands[0] == 1
    # Both choices are legal moves; nothing else is.
    turns = {m for m in state.legal_moves() if m.to == "c3" and m.card == "diagonals"}
    assert turns == {chosen, Turn("c2", "c3", "diagonals", ("b4",))}
    # Not choosing is refused: the player must say which target gets the stone.
    assert state.check(Turn("c2", "c3", "diagonals")).rule_ids == (R.SHORT,)
    # The stone taken this turn cannot be placed this turn.
    assert R.SHORT in state.check(Turn("c2", "c3", "diagonals", ("b4", "d4"))).rule_ids
    # Your stacks come first: the empty square cannot take the only stone.
    assert R.ORDER in state.check(Turn("c2", "c3", "diagonals", ("b2",))).rule_ids


def test_throne_example_new_gardener_and_stone_from_opponent_gardener():
    # Throne: the right-hand gardener moves to the lower left, then reclaims. A stack of 2 of yours
    # ahead-right takes a stone and becomes a gardener; the empty square ahead gets a stone; the
    # opponent's gardener ahead-left loses its top stone, which you keep with its face unchanged.
    state = position(
        {"b2": "FFF", "e4": "FFF", "e5": "FF", "c5": "VVV", "a6": "VVV"},
        cards=(ROW_AHEAD,), variant="throne", hand=4,
    )
    move = Turn("e4", "d3", "row-ahead", ("d5", "e5"))
    assert state.check(move).accepted
    after = state.apply(move)
    assert stacks_of(after) == {"b2": "FFF", "d3": "FFF", "e5": "FFF", "d5": "F", "c5": "VV", "a6": "VVV"}
    assert after.gardeners(0) == tuple(sorted(after.gardeners(0)))
    assert len(after.gardeners(0)) == 3 and len(after.gardeners(1)) == 1
    assert after.captives[0] == 1 and after.hands[0] == 4 - 2  # the captive is not a placeable stone
