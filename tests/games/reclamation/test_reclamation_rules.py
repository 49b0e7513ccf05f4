"""Every rule id of DIGEST.md §2 with an accepting and a rejecting case.

ACCEPT[rule] and REJECT[rule] each hold one check; the last test makes sure no rule is left out.
"""

from __future__ import annotations

import pytest

from companion.errors import CompanionError, FormatError
from companion.games.reclamation import rules as R
from companion.games.reclamation.audit import audit
from companion.games.reclamation.cards import EXAMPLE_BOOK, Card, CardBook, CardPatterns, Offset
from companion.games.reclamation.codec import state_from_json, state_to_json
from companion.games.reclamation.state import Turn, new_game

from .helpers import AHEAD, DIAGONALS, EXAMPLE, ROW_AHEAD, SIDES, TEST_CARDS, position, stacks_of

ACCEPT = {}
REJECT = {}


def accepts(rule):
    def deco(fn):
        ACCEPT[rule] = fn
        return fn
    return deco


def rejects(rule):
    def deco(fn):
        REJECT[rule] = fn
        return fn
    return deco


# -- set-up ------------------------------------------------------------------------------------
@accepts(R.SETUP)
def setup_accept():
    state = new_game(("Aki", "Bo"), cards=EXAMPLE_BOOK)
    assert stacks_of(state) == {"f1": "FFF", "a6": "VVV"}  # each player's own front right
    assert state.hands == (14, 14) and state.to_move == 0 and state.names == ("Aki", "Bo")
    assert state.players[0] == "Aki"  # the first player is Flower
    assert audit(state) == []


@rejects(R.SETUP)
def setup_reject():
    data = state_to_json(new_game(("Aki", "Bo"), cards=EXAMPLE_BOOK))
    data["hands"]["flower"] = 15  # 35 stones: one too many
    with pytest.raises(FormatError, match=R.SETUP):
        state_from_json(data, "game.json")
    data["hands"]["flower"] = 11
    data["board"]["c3"] = "FFF"  # a second stack of 3 in the Garden rules
    with pytest.raises(FormatError, match=R.SETUP):
        state_from_json(data, "game.json")


# -- winning and losing ---------------------------------------------------------------------------
ELEVEN = {"a1": "F", "b1": "F", "c1": "F", "d1": "F", "e1": "F", "a2": "F", "b2": "F", "c2": "F", "d2": "F", "e2": "F"}


@accepts(R.WIN_SQUARES)
def win_accept():
    state = position({**ELEVEN, "c4": "FFF", "a6": "VVV"}, cards=(EXAMPLE,), hand=3)
    assert len(state.squares(0)) == 11
    after = state.apply(Turn("c4", "c3", "example"))  # stones on b5 and d5: 13 squares
    assert after.is_over and after.winners == (0,) and after.outcome.rule_id == R.WIN_SQUARES
    assert after.current_player is None and after.phase == "over"
    sheet = after.score_sheet()
    assert sheet.final and sheet.total(0) == 13 and sheet.lines[0].rule_id == R.WIN_SQUARES


@rejects(R.WIN_SQUARES)
def win_reject():
    # 12 is enough (the gardener's square counts): 10 stones + gardener + 1 placed.
    state = position({**ELEVEN, "c4": "FFF", "a6": "VVV"}, cards=(EXAMPLE,), hand=1)
    after = state.apply(Turn("c4", "c3", "example", ("b5",)))
    assert len(after.squares(0)) == 12 and after.is_over
    # 11 is not: 9 stones + gardener + 1 placed.
    fewer = dict(ELEVEN)
    fewer.pop("e2")
    state = position({**fewer, "c4": "FFF", "a6": "VVV"}, cards=(EXAMPLE,), hand=1)
    after = state.apply(Turn("c4", "c3", "example", ("b5",)))
    assert len(after.squares(0)) == 11 and not after.is_over
    # A saved position where the player to move already stands on 12 squares is unreachable.
    stuck_on_12 = position({**ELEVEN, "e3": "F", "c4": "FFF", "a6": "VVV"}, cards=(EXAMPLE,), hand=3)
    assert R.WIN_SQUARES in {v.rule_id for v in audit(stuck_on_12)}


@accepts(R.LOSE_STUCK)
def stuck_accept():
    # Vine's gardener in the corner, every neighbour filled: Vine cannot move and loses.
    state = position({"a6": "VVV", "a5": "F", "b5": "F", "b6": "F", "f1": "FFF"}, to_move=1, cards=(EXAMPLE,))
    assert state.is_over and state.winners == (0,) and state.outcome.rule_id == R.LOSE_STUCK
    assert list(state.legal_moves()) == []
    # Vine can move but no reclaim of any card changes anything: Vine loses too.
    state = position({"a6": "VVV", "f1": "FFF"}, to_move=1, hand=0, cards=(EXAMPLE,))
    assert state.is_over and state.outcome.rule_id == R.LOSE_STUCK


@rejects(R.LOSE_STUCK)
def stuck_reject():
    state = position({"a6": "VVV", "a5": "F", "b5": "F", "b6": "F", "f1": "FFF"}, to_move=1, cards=(EXAMPLE,))
    ruling = state.check(Turn("a6", "a5", "example"))
    assert ruling.rule_ids == (R.LOSE_STUCK,)
    free = position({"a6": "VVV", "a5": "F", "b5": "F", "f1": "FFF"}, to_move=1, cards=(EXAMPLE,))
    assert not free.is_over  # b6 is open


# -- the gardener's move --------------------------------------------------------------------------
@accepts(R.MOVE)
def move_accept():
    state = position({"c3": "FFF", "f6": "VVV"}, cards=(SIDES,), hand=5)
    destinations = {m.to for m in state.legal_moves()}
    assert destinations == {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}  # all 8 directions


@rejects(R.MOVE)
def move_reject():
    state = position({"c3": "FFF", "c4": "V", "f6": "VVV"}, cards=(SIDES,), hand=5)
    assert state.check(Turn("c3", "c5", "sides")).rule_ids == (R.MOVE,)  # two squares
    assert state.check(Turn("c3", "c4", "sides")).rule_ids == (R.MOVE,)  # occupied
    assert state.check(Turn("c4", "c5", "sides")).rule_ids == (R.MOVE,)  # not a gardener
    assert state.check(Turn("f6", "f5", "sides")).rule_ids == (R.MOVE,)  # the opponent's gardener


# -- the reclaim ------------------------------------------------------------------------------------
@accepts(R.CARD)
def card_accept():
    state = position({"c2": "FFF", "f6": "VVV"}, hand=5)
    assert state.check(Turn("c2", "c3", "row-ahead")).accepted
    after = state.apply(Turn("c2", "c3", "row-ahead"))
    assert stacks_of(after) == {"c3": "FFF", "b5": "F", "c5": "F", "d5": "F", "f6": "VVV"}


@rejects(R.CARD)
def card_reject():
    state = position({"c2": "FFF", "f6": "VVV"}, hand=5)
    assert state.check(Turn("c2", "c3", "no-such-card")).rule_ids == (R.CARD,)


@accepts(R.ORDER)
def order_accept():
    state = position({"c2": "FFF", "d4": "F", "b4": "V", "b2": "VV", "f6": "VVV"}, cards=(DIAGONALS,), hand=5)
    assert state.check(Turn("c2", "c3", "diagonals", ("d2", "d4"))).accepted


@rejects(R.ORDER)
def order_reject():
    state = position({"c2": "FFF", "d4": "F", "b4": "V", "b2": "VV", "f6": "VVV"}, cards=(DIAGONALS,), hand=5)
    assert R.ORDER in state.check(Turn("c2", "c3", "diagonals", ("d4",))).rule_ids  # d2 left empty
    assert R.ORDER in state.check(Turn("c2", "c3", "diagonals", ("b4", "d2", "d4"))).rule_ids  # covers V
    assert R.ORDER in state.check(Turn("c2", "c3", "diagonals", ("d2", "d4", "e5"))).rule_ids  # no target


@accepts(R.SHORT)
def short_accept():
    # One stone, two empty targets: either may take it.
    state = position({"c2": "FFF", "f6": "VVV"}, cards=(AHEAD,), hand=1)
    assert {m.place for m in state.legal_moves() if m.to == "c3"} == {("b4",), ("d4",)}
    # No stone at all: steps 1–2 are skipped, the taking still happens.
    state = position({"c2": "FFF", "b4": "V", "f6": "VVV"}, cards=(AHEAD,), hand=0)
    after = state.apply(Turn("c2", "c3", "ahead", ()))
    assert stacks_of(after) == {"c3": "FFF", "f6": "VVV"} and after.hands[0] == 1


@rejects(R.SHORT)
def short_reject():
    state = position({"c2": "FFF", "b4": "V", "f6": "VVV"}, cards=(AHEAD,), hand=0)
    # The stone taken from b4 this turn cannot go onto d4 this turn.
    assert state.check(Turn("c2", "c3", "ahead", ("d4",))).rule_ids == (R.SHORT,)


@accepts(R.NO_EFFECT)
def no_effect_accept():
    take_only = position({"c2": "FFF", "b4": "V", "d4": "FF", "f6": "VVV"}, cards=(AHEAD,), hand=4)
    assert take_only.check(Turn("c2", "c3", "ahead", ())).accepted
    place_only = position({"c2": "FFF", "f6": "VVV"}, cards=(AHEAD,), hand=4)
    assert place_only.check(Turn("c2", "c3", "ahead", ("b4", "d4"))).accepted


@rejects(R.NO_EFFECT)
def no_effect_reject():
    state = position({"c2": "FFF", "d4": "FF", "b4": "VVV"}, cards=(AHEAD,), hand=5)
    assert R.NO_EFFECT in state.check(Turn("c2", "c3", "ahead", ())).rule_ids


@accepts(R.OFF_BOARD)
def off_board_accept():
    # From a3 the example card's "2 forward, 1 left" falls off the board and is ignored.
    state = position({"a2": "FFF", "f6": "VVV"}, cards=(EXAMPLE,), hand=5)
    after = state.apply(Turn("a2", "a3", "example"))
    assert stacks_of(after) == {"a3": "FFF", "b5": "F", "f6": "VVV"}


@rejects(R.OFF_BOARD)
def off_board_reject():
    state = position({"a4": "FFF", "f1": "VVV"}, cards=(EXAMPLE,), hand=5)
    ruling = state.check(Turn("a4", "a5", "example"))  # both targets on rank 7: off the board
    assert R.OFF_BOARD in ruling.rule_ids and R.NO_EFFECT in ruling.rule_ids


@accepts(R.CYCLE)
def cycle_accept():
    used = frozenset({"example", "diagonals", "row-ahead"})
    state = position({"c2": "FFF", "f6": "VVV"}, hand=6, used=(used, frozenset()))
    assert {m.card for m in state.legal_moves()} == {"sides"}
    after = state.apply(next(m for m in state.legal_moves()))
    assert after.used[0] == frozenset({"sides"})  # the other three are usable again
    assert {c.name for c in after.usable_cards(0)} == {"example", "diagonals", "row-ahead"}
    # One card used, three unused: it simply joins the used ones.
    fresh = position({"c2": "FFF", "f6": "VVV"}, hand=6)
    assert fresh.apply(Turn("c2", "c3", "sides")).used[0] == frozenset({"sides"})


@rejects(R.CYCLE)
def cycle_reject():
    state = position({"c2": "FFF", "f6": "VVV"}, hand=6, used=(frozenset({"sides"}), frozenset()))
    assert state.check(Turn("c2", "c3", "sides")).rule_ids == (R.CYCLE,)
    everything = position({"c2": "FFF", "f6": "VVV"}, hand=6, used=(frozenset(c.name for c in TEST_CARDS), frozenset()))
    assert R.CYCLE in {v.rule_id for v in audit(everything)}


# -- Throne -----------------------------------------------------------------------------------------
BOOK = CardBook((
    CardPatterns("example", garden=EXAMPLE.targets),
    CardPatterns("t1", throne=ROW_AHEAD.targets),
    CardPatterns("t2", throne=DIAGONALS.targets),
))


@accepts(R.THRONE_SETUP)
def throne_setup_accept():
    state = new_game(("Aki", "Bo"), variant="throne", cards=BOOK)
    assert state.hands == (15, 15) and stacks_of(state) == {"f1": "FFF", "a6": "VVV"}
    assert [c.name for c in state.cards] == ["t1", "t2"]  # red sides only
    assert state.cards_missing == 2 and any("4 card patterns" in m.msgid for m in state.guidance())
    assert audit(state) == []


@rejects(R.THRONE_SETUP)
def throne_setup_reject():
    with pytest.raises(CompanionError, match="no card patterns"):
        new_game(("Aki", "Bo"), variant="throne", cards=EXAMPLE_BOOK)  # no red side entered
    state = position({"f1": "FFF", "a6": "VVV"}, variant="throne", cards=(ROW_AHEAD,), hand=14, other_hand=14)
    assert R.THRONE_SETUP in {v.rule_id for v in audit(state)}  # 34 stones: the Garden count


@accepts(R.THRONE_GARDENERS)
def throne_gardeners_accept():
    state = position({"b2": "FFF", "e2": "FFF", "a6": "VVV"}, variant="throne", cards=(ROW_AHEAD,), hand=5)
    assert {m.gardener for m in state.legal_moves()} == {"b2", "e2"}


@rejects(R.THRONE_GARDENERS)
def throne_gardeners_reject():
    state = position({"b2": "FFF", "e2": "FF", "a6": "VVV"}, variant="throne", cards=(ROW_AHEAD,), hand=5)
    assert state.check(Turn("e2", "e3", "row-ahead")).rule_ids == (R.THRONE_GARDENERS,)


@accepts(R.THRONE_RECLAIM)
def throne_reclaim_accept():
    state = position({"c2": "FFF", "b4": "FF", "d4": "VVV", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=5)
    after = state.apply(Turn("c2", "c3", "ahead", ("b4",)))
    assert stacks_of(after) == {"c3": "FFF", "b4": "FFF", "d4": "VV", "a6": "VVV"}
    assert len(after.gardeners(0)) == 2 and after.captives[0] == 1


@rejects(R.THRONE_RECLAIM)
def throne_reclaim_reject():
    state = position({"c2": "FFF", "b4": "FFF", "d4": "V", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=5)
    assert state.check(Turn("c2", "c3", "ahead", ("b4",))).rule_ids == (R.THRONE_RECLAIM,)  # a 4th stone
    garden = position({"c2": "FFF", "b4": "FF", "d4": "VVV", "a6": "VVV"}, cards=(AHEAD,), hand=5)
    ruling = garden.check(Turn("c2", "c3", "ahead", ("b4",)))
    assert R.ORDER in ruling.rule_ids  # outside the Throne a 2-stack takes nothing (and d4 is safe)


@accepts(R.THRONE_CAPTIVE)
def throne_captive_accept():
    state = position({"c2": "FFF", "d4": "VVV", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=0)
    after = state.apply(Turn("c2", "c3", "ahead", ()))
    assert after.captives[0] == 1 and after.hands[0] == 0


@rejects(R.THRONE_CAPTIVE)
def throne_captive_reject():
    state = position({"c2": "FFF", "d4": "V", "a6": "VVV", "f6": "VVV"}, variant="throne", cards=(AHEAD,), hand=0, captives=(2, 0))
    ruling = state.check(Turn("c2", "c3", "ahead", ("b4",)))
    assert R.THRONE_CAPTIVE in ruling.rule_ids
    garden = position({"c2": "FFF", "a6": "VVV"}, cards=(AHEAD,), captives=(1, 0))
    assert R.THRONE_CAPTIVE in {v.rule_id for v in audit(garden)}


@accepts(R.THRONE_WIN)
def throne_win_accept():
    last = position({"c2": "FFF", "d4": "VVV"}, variant="throne", cards=(AHEAD,), hand=0)
    after = last.apply(Turn("c2", "c3", "ahead", ()))
    assert after.winners == (0,) and after.outcome.rule_id == R.THRONE_WIN  # no Vine gardener left
    third = position({"c2": "FFF", "d4": "VVV", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=0, captives=(2, 0))
    after = third.apply(Turn("c2", "c3", "ahead", ()))
    assert after.winners == (0,) and after.outcome.rule_id == R.THRONE_WIN and after.captives[0] == 3


@rejects(R.THRONE_WIN)
def throne_win_reject():
    state = position({"c2": "FFF", "d4": "VVV", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=0, captives=(1, 0))
    after = state.apply(Turn("c2", "c3", "ahead", ()))
    assert not after.is_over  # 2 captives, and a6 is still a gardener
    # Reading of the variant's own win conditions: 12 squares do not win the Throne game.
    many = {**ELEVEN, "e3": "F"}
    state = position({**many, "c4": "FFF", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=2, turn=11, to_move=1)
    assert not state.is_over


@pytest.mark.parametrize("rule", sorted({r.id for r in R.RULES}))
def test_accepting_case(rule):
    ACCEPT[rule]()


@pytest.mark.parametrize("rule", sorted({r.id for r in R.RULES}))
def test_rejecting_case(rule):
    REJECT[rule]()


def test_every_rule_has_both_cases():
    ids = {r.id for r in R.RULES}
    assert set(ACCEPT) == ids and set(REJECT) == ids


def test_player_facing_texts_are_messages():
    state = position({"c2": "FFF", "f6": "VVV"}, hand=5)
    for violation in state.check(Turn("c2", "c9", "sides")).violations:
        assert violation.message.render() and "{" not in violation.message.render()
    assert all("{" not in m.render() for m in state.guidance())


def test_card_patterns_are_data():
    # Any pattern the player enters works the same way, and mirrors for Vine.
    card = Card("long", (Offset(4, 4),))
    state = position({"a1": "FFF", "a6": "VVV"}, cards=(card,), hand=5)
    assert stacks_of(state.apply(Turn("a1", "b2", "long"))) == {"b2": "FFF", "f6": "F", "a6": "VVV"}
    state = position({"f1": "FFF", "f6": "VVV"}, cards=(card,), hand=5, to_move=1)
    assert stacks_of(state.apply(Turn("f6", "e5", "long"))) == {"f1": "FFF", "e5": "VVV", "a1": "V"}


def test_moves_reaching_explains_an_observed_board():
    state = position({"c2": "FFF", "d4": "F", "b4": "V", "b2": "VV", "f6": "VVV"}, cards=(DIAGONALS, AHEAD), hand=5)
    seen = state.apply(Turn("c2", "c3", "diagonals")).board
    assert state.moves_reaching(seen) == [Turn("c2", "c3", "diagonals", ("d2", "d4"))]
    assert state.moves_reaching(state.board) == []  # nothing changed: no legal turn explains it


def test_score_sheets_show_progress_and_the_winner_is_the_rules_winner():
    state = position({"c2": "FFF", "b4": "FF", "d4": "VVV", "a6": "VVV"}, variant="throne", cards=(AHEAD,), hand=5, captives=(1, 0))
    sheet = state.score_sheet()
    assert [(ln.player, ln.category, ln.points, ln.rule_id) for ln in sheet.lines] == [
        (0, "gardeners", 1, R.THRONE_GARDENERS), (0, "captives", 1, R.THRONE_WIN),
        (1, "gardeners", 2, R.THRONE_GARDENERS), (1, "captives", 0, R.THRONE_WIN),
    ]
    # Vine stuck in the corner while standing on more squares than Flower: Flower still wins.
    many_vines = {"a6": "VVV", "a5": "F", "b5": "F", "b6": "F", "f1": "FFF", "c1": "V", "c2": "V", "c3": "V", "c4": "V"}
    over = position(many_vines, to_move=1, cards=(EXAMPLE,))
    assert over.winners == (0,) and len(over.squares(1)) > len(over.squares(0))
