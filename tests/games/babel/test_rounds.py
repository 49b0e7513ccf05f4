"""One round of Babel Builders: every babel.round.* and babel.instruction rule, accepted and refused."""

from dataclasses import replace

from companion.games.babel import moves as mv
from companion.games.babel.towers import from_mapping

from .helpers import building, game, play, rejected


def test_rulebook_instruction_examples_build_on_their_cells():
    state = building()
    # 1-cube card: A1 or A2 or A3; 2-cube: A1 or A2; 3-cube: A1.
    for cell in ("A1", "A2", "A3"):
        assert state.check(mv.Instruction(cell, 1, "1-A")).accepted
    assert state.check(mv.Instruction("A2", 2, "2-A")).accepted
    after = state.apply(mv.Instruction("A1", 3, "3-A"))
    assert after.towers == from_mapping({"A1": 3})


def test_instruction_elsewhere_or_of_the_wrong_count_is_a_violation():
    state = building()
    ruling = state.check(mv.Instruction("A3", 2, "2-A"))
    assert ruling.rule_ids == ("babel.instruction",)
    assert ruling.violations[0].where == ("A3",)
    assert "A1 / A2" in ruling.violations[0].message.render()
    assert rejected(state, mv.Instruction("A1", 2, "3-A")) == ("babel.instruction",)
    assert rejected(state, mv.Instruction("A1", 1, "9-Z")) == ("babel.instruction",)
    assert rejected(state, mv.Instruction("B2", 0)) == ("babel.instruction",)


def test_an_instruction_without_a_card_name_checks_the_supply():
    state = building(towers=from_mapping({"B2": 24}))
    assert state.check(mv.Instruction("C3", 1)).accepted
    assert rejected(state, mv.Instruction("C3", 2)) == ("babel.instruction",)
    # A named card gives what is left when the supply runs short.
    assert state.check(mv.Instruction("A1", 1, "3-A")).accepted


def test_an_instruction_must_name_its_cell_without_a_storm():
    assert rejected(building(), mv.Instruction(None, 1, "1-A")) == ("babel.round.instruction",)


def test_storm_cancels_the_rounds_building():
    state = play(building(), mv.Storm())
    assert state.storm
    wasted = state.apply(mv.Instruction(None, 2, "2-A"))
    assert wasted.towers == state.towers
    assert rejected(state, mv.Instruction("A1", 2, "2-A")) == ("babel.round.storm",)


def test_storm_is_shown_before_any_other_card():
    state = play(building(), mv.Instruction("A1", 1, "1-A"))
    assert rejected(state, mv.Storm()) == ("babel.round.storm",)


def test_lightning_removes_two_cubes_from_the_tallest_tower():
    state = building(towers=from_mapping({"B2": 5, "A1": 2}))
    after = state.apply(mv.Lightning("B2"))
    assert after.towers == from_mapping({"B2": 3, "A1": 2})
    assert rejected(state, mv.Lightning("A1")) == ("babel.round.lightning",)
    assert rejected(state, mv.Lightning(None)) == ("babel.round.lightning",)


def test_lightning_master_picks_among_equal_towers_and_empty_base():
    state = building(towers=from_mapping({"B2": 4, "C3": 4, "A1": 1}))
    assert state.check(mv.Lightning("B2")).accepted and state.check(mv.Lightning("C3")).accepted
    one = building(towers=from_mapping({"C1": 1}))
    assert one.apply(mv.Lightning("C1")).towers == from_mapping({})
    empty = building()
    assert empty.check(mv.Lightning(None)).accepted
    assert rejected(empty, mv.Lightning("B2")) == ("babel.round.lightning",)


def test_lightning_still_strikes_under_a_storm():
    state = play(building(towers=from_mapping({"B2": 3})), mv.Storm())
    assert state.apply(mv.Lightning("B2")).towers == from_mapping({"B2": 1})


def test_deliberation_names_an_architect_of_this_round():
    state = building()
    assert state.check(mv.Deliberation(2)).accepted
    assert rejected(state, mv.Deliberation(4)) == ("babel.round.deliberation",)
    assert rejected(state, mv.Deliberation(0)) == ("babel.round.deliberation",)  # the master


def test_a_seal_while_building_does_nothing():
    state = building(towers=from_mapping({"B2": 3}))
    after = state.apply(mv.SealInBuild())
    assert after.towers == state.towers and after.revealed_seals == 1
    notes = state.check(mv.SealInBuild()).notes
    assert notes and "no effect" in notes[0].render()
    # Only 3 seals with 5 players.
    assert rejected(replace(state, spent=(0, 0, 0, 3)), mv.SealInBuild()) == ("babel.setup.specials",)
    # Not outside the building phase.
    assert rejected(game(), mv.SealInBuild()) == ("babel.round.seal_in_build",)


def test_no_more_cards_revealed_than_were_played():
    # Changed with the mandatory swap (below): Storm, Seal and Deliberation would be all 3 played cards.
    state = play(building(), mv.Storm(), mv.SealInBuild())
    assert rejected(state, mv.Deliberation(1)) == ("babel.round.play",)
    assert state.check(mv.FinishBuilding()).accepted
    # Three Storms: nothing is left to swap, all three are shown; a fourth card never is.
    storms = play(building(), mv.Storm(), mv.Storm(), mv.Storm())
    assert storms.check(mv.FinishBuilding()).accepted
    assert rejected(storms, mv.Storm()) == ("babel.round.play",)


def test_the_master_swaps_one_played_card_so_it_is_never_revealed():
    # babel.round.play, 親方のアクション: 「親方は残りのカードから 1 枚を選び、自分の手札のカード 1 枚と
    # 入れ替えます。交換したカードは裏向きで場に捨てます。」 then 「残ったカードを 1 枚ずつ公開し」.
    # Of 3 played cards 2 are revealed; a third revealed card is refused.
    state = play(building(), mv.Instruction("A1", 1, "1-A"), mv.Instruction("A2", 1, "1-A"))
    ruling = state.check(mv.Instruction("A3", 1, "1-A"))
    assert ruling.rule_ids == ("babel.round.play",)
    assert "swapped" in ruling.violations[0].message.render() and ruling.violations[0].fix is not None
    assert rejected(state, mv.Lightning("A1")) == ("babel.round.play",)
    # A Storm is shown before the swap: Storm + 1 more of 3 played cards.
    stormy = play(building(), mv.Storm(), mv.Instruction(None, 2, "2-A"))
    assert rejected(stormy, mv.Lightning(None)) == ("babel.round.play",)
    # 7 players: 4 architects, 3 cards revealed.
    four = play(building(7), mv.Instruction("A1", 1), mv.Instruction("A1", 1), mv.Instruction("A1", 1))
    assert rejected(four, mv.Instruction("A1", 1)) == ("babel.round.play",)
    assert four.check(mv.FinishBuilding()).accepted


def test_building_ends_only_when_the_played_cards_are_revealed():
    state = building()
    assert rejected(state, mv.FinishBuilding()) == ("babel.round.play",)
    one = state.apply(mv.Instruction("A1", 1, "1-A"))
    assert rejected(one, mv.FinishBuilding()) == ("babel.round.play",)
    two = one.apply(mv.Instruction("A2", 1, "1-A"))  # the third card left through the master's swap
    assert two.check(mv.FinishBuilding()).accepted


def test_a_round_ends_with_refill_and_a_new_master():
    state = play(building(), mv.Instruction("A1", 1), mv.Instruction("A2", 2))  # the third was swapped
    after = state.apply(mv.FinishBuilding())
    assert after.phase == "name_master"
    assert after.deck == 42 - 6  # 3 architects draw 2 each
    assert rejected(after, mv.NameMaster(0)) == ("babel.round.appoint",)
    nxt = after.apply(mv.NameMaster(3))
    assert (nxt.master, nxt.round, nxt.phase, nxt.architects, nxt.reveals) == (3, 2, "appoint", (), 0)
    assert nxt.current_player == 3


def test_moves_out_of_their_phase_cite_their_rule():
    state = game()
    assert rejected(state, mv.Instruction("A1", 1)) == ("babel.round.instruction",)
    assert rejected(state, mv.Storm()) == ("babel.round.storm",)
    assert rejected(state, mv.NameMaster(2)) == ("babel.round.appoint",)
    assert rejected(building(), mv.Appoint((1, 2, 3))) == ("babel.round.appoint",)


def test_guidance_says_what_to_do():
    first = [m.render() for m in game(8).guidance()]
    assert "3 Divine Punishment and 7 Seal" in first[0] and "appoint 4" in first[-1]
    assert len(first) == 5  # set-up line, 3 deck steps (8 players), appoint
    later = play(building(), mv.Instruction("A1", 1), mv.Instruction("A1", 1), mv.FinishBuilding())
    assert "name the next master" in later.guidance()[0].render()
    assert [m.render() for m in later.apply(mv.NameMaster(2)).guidance()] == ["Master: appoint 3 architects."]
    assert "Storm" in building().guidance()[0].render()


def test_special_cards_run_out():
    # 5 Lightning, 5 Storm, 4 Deliberation in every game; revealed cards leave the game.
    state = building(7, towers=from_mapping({"B2": 5}))  # 4 architects: 3 cards revealed after the swap
    assert rejected(replace(state, spent=(0, 5, 0, 0)), mv.Lightning("B2")) == ("babel.setup.specials",)
    assert rejected(replace(state, spent=(5, 0, 0, 0)), mv.Storm()) == ("babel.setup.specials",)
    assert rejected(replace(state, spent=(0, 0, 4, 0)), mv.Deliberation(1)) == ("babel.setup.specials",)
    after = play(state, mv.Storm(), mv.Lightning("B2"), mv.Deliberation(1))
    assert after.spent == (1, 1, 1, 0) and after.revealed == ("storm", "lightning", "deliberation")
    assert play(after, mv.FinishBuilding(), mv.NameMaster(2)).spent == (1, 1, 1, 0)
