"""End checks (babel.end.*), the seal and punishment phases and the final reversal count."""

from dataclasses import replace

import pytest

from companion.games.babel import moves as mv
from companion.games.babel.towers import from_mapping

from .helpers import building, play, rejected

COMPLETE = from_mapping({"C1": 3, "B2": 7, "A3": 3})  # one cube short of the example blueprint


def completed(players: int = 6):
    """The example blueprint met in the building phase: the game goes to the seal phase."""
    state = play(building(players, towers=COMPLETE), mv.Instruction("B2", 1), mv.Instruction("C3", 1))
    state = state.apply(mv.FinishBuilding())
    assert state.phase == "seal"
    return state


def test_blueprint_met_goes_to_the_seal_phase():
    state = play(building(towers=COMPLETE), mv.Instruction("B2", 1), mv.Instruction("C3", 1))
    ruling = state.check(mv.FinishBuilding())
    assert ruling.accepted and "blueprint" in ruling.notes[0].render()
    after = state.apply(mv.FinishBuilding())
    assert after.phase == "seal" and not after.is_over and after.current_player is None


def test_blueprint_not_met_continues():
    state = play(building(towers=COMPLETE), mv.Instruction("C3", 1), mv.Instruction("C3", 1))
    assert state.apply(mv.FinishBuilding()).phase == "name_master"


def test_deck_that_cannot_refill_ends_the_game():
    state = play(replace(building(), deck=5), mv.Instruction("C3", 1), mv.Instruction("C3", 1))
    after = state.apply(mv.FinishBuilding())
    assert after.is_over and after.result == "messenger" and after.end_rule == "babel.end.deck"
    assert after.winners == ()  # roles still hidden
    enough = play(replace(building(), deck=6), mv.Instruction("C3", 1), mv.Instruction("C3", 1))
    assert enough.apply(mv.FinishBuilding()).deck == 0
    # Once over, nothing but the role reveal is accepted.
    assert rejected(after, mv.NameMaster(2)) == ("babel.end.deck",)


def test_roles_revealed_after_an_early_end_name_the_winners():
    state = play(replace(building(), deck=0), mv.Instruction("C3", 1), mv.Instruction("C3", 1), mv.FinishBuilding())
    assert "babel.setup.roles" in rejected(state, mv.RevealMessenger(2, (2,)))
    assert "babel.setup.roles" in rejected(state, mv.RevealMessenger(2, (1, 3)))  # 5 players: 1 fanatic
    done = state.apply(mv.RevealMessenger(2, (4,)))
    assert done.winners == (2, 4)
    sheet = done.score_sheet()
    assert sheet.final and sheet.totals() == (0, 0, 1, 0, 1)
    assert {line.rule_id for line in sheet.lines} == {"babel.end.deck"}


@pytest.mark.parametrize(("reason", "cards"), [("two_received", 2), ("only_punishment", 3)])
def test_punishment_confirmed_ends_the_game(reason, cards):
    state = building(8)  # 3 punishment cards
    after = state.apply(mv.ConfirmPunishment(reason, cards))
    assert after.is_over and after.end_rule == "babel.end.punishment" and after.result == "messenger"


def test_a_hand_of_only_punishment_cards_shows_the_whole_hand():
    # babel.end.punishment: 「偶然にも親方の手札に神罰カードしかない場合…全ての神罰カードを公開し」; a hand is
    # refilled to 3 (「手札が 3 枚になるまで」), so such a hand shows 3 cards, plus any received.
    state = building(8)
    ruling = state.check(mv.ConfirmPunishment("only_punishment", 2))
    assert ruling.rule_ids == ("babel.end.punishment",)
    assert "at least 3" in ruling.violations[0].message.render() and ruling.violations[0].fix is not None
    # With 6 or 7 players only 2 punishment cards exist: a hand of only punishment cannot happen.
    assert "babel.setup.specials" in rejected(building(7), mv.ConfirmPunishment("only_punishment", 3))


def test_punishment_confirmation_needs_the_cards_to_exist():
    assert "babel.setup.specials" in rejected(building(5), mv.ConfirmPunishment("two_received", 2))
    assert "babel.end.punishment" in rejected(building(8), mv.ConfirmPunishment("two_received", 1))
    # 10 players, 4 architects: the master cannot receive more cards than were played.
    assert building(10).check(mv.ConfirmPunishment("two_received", 4)).accepted
    state = replace(building(10), architects=(1, 2, 3, 4))
    assert state.check(mv.ConfirmPunishment("only_punishment", 4)).accepted
    small = replace(building(10), architects=(1, 2, 3))
    assert "babel.round.punishment" in rejected(small, mv.ConfirmPunishment("two_received", 4))


def test_punishment_is_confirmed_before_the_cards_are_revealed():
    state = play(building(8), mv.Instruction("A1", 1))
    assert rejected(state, mv.ConfirmPunishment("two_received", 2)) == ("babel.end.punishment",)
    after_storm = play(building(8), mv.Storm())
    assert after_storm.check(mv.ConfirmPunishment("two_received", 2)).accepted


def test_architects_win_when_seals_outnumber_punishment():
    state = completed(6)  # 5 seals, 2 punishment cards
    state = play(state, mv.UseSeal(0, 3), mv.UseSeal(1, 3), mv.UseSeal(2, 4), mv.EndPhase("seal"))
    state = play(state, mv.UsePunishment(4, 3), mv.EndPhase("punishment"))
    assert state.phase == "messenger"
    # Player 4 (index 3) is the messenger: 2 seals against 1 punishment card.
    done = state.apply(mv.RevealMessenger(3))
    assert done.is_over and done.result == "architects" and done.end_rule == "babel.end.complete"
    assert done.fanatics == (4,)
    assert done.winners == (0, 1, 2, 5)


def test_equal_punishment_and_seals_reverse_the_victory():
    state = completed(6)
    state = play(state, mv.UseSeal(0, 3), mv.EndPhase("seal"))
    state = play(state, mv.UsePunishment(4, 3), mv.EndPhase("punishment"))
    done = state.apply(mv.RevealMessenger(3))
    assert done.result == "messenger" and done.winners == (3, 4)


def test_no_seal_and_no_punishment_is_a_reversal_too():
    # The rulebook: punishment cards ≥ seal cards → the tower falls; 0 ≥ 0.
    state = play(completed(6), mv.EndPhase("seal"), mv.EndPhase("punishment"))
    assert state.apply(mv.RevealMessenger(1)).result == "messenger"


def test_seal_phase_limits():
    state = completed(5)  # 3 seals
    state = state.apply(mv.UseSeal(0, 2))
    assert rejected(state, mv.UseSeal(0, 3)) == ("babel.end.complete",)  # one seal per player
    state = play(state, mv.UseSeal(1, 2), mv.UseSeal(3, 2))
    assert rejected(state, mv.UseSeal(4, 2)) == ("babel.setup.specials",)
    revealed = replace(completed(5), spent=(0, 0, 0, 3))  # all played while building
    assert rejected(revealed, mv.UseSeal(0, 1)) == ("babel.setup.specials",)


def test_messenger_is_never_a_fanatic():
    state = play(completed(6), mv.EndPhase("seal"), mv.UsePunishment(2, 1), mv.EndPhase("punishment"))
    assert rejected(state, mv.RevealMessenger(2)) == ("babel.setup.roles",)
    assert rejected(state, mv.RevealMessenger(1, (3,))) == ("babel.setup.roles",)
    assert state.check(mv.RevealMessenger(1, (2,))).accepted


def test_pointing_out_of_order_is_refused():
    state = completed(6)
    assert rejected(state, mv.UsePunishment(1, 2)) == ("babel.end.complete",)
    assert rejected(state, mv.RevealMessenger(1)) == ("babel.end.complete",)
    assert rejected(state, mv.EndPhase("punishment")) == ("babel.end.complete",)
