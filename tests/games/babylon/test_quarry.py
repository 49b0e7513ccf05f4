"""babylon.setup.quarry, quarry_trim, quarry.visible and quarry.reward, with the rulebook's examples."""

from __future__ import annotations

from dataclasses import replace

from companion.games.babylon.moves import Take, Trim
from companion.games.babylon.quarry import Quarry
from companion.games.babylon.state import new_game


def quarry_with(**heights) -> Quarry:
    """A full quarry with some places lowered: quarry_with(p11=2) sets row 1, col 1 to height 2."""
    values = [3] * 16
    for key, height in heights.items():
        values[int(key[1]) * 4 + int(key[2])] = height
    return Quarry(tuple(values))


def linda_and_john():
    state = new_game(("Linda", "John"), flowers=("white", "pink", "yellow", "blue"))
    return replace(state, stage="quarry", trims_done=6)


def test_rulebook_linda_takes_granite_tile_a_for_3_pillars():
    # A (granite, layer 2) at row 1, col 1: granite of the same layer to its right, a lower basalt
    # tile above it, the bottom below it, and a higher clay tile to its left.
    quarry = quarry_with(p11=2, p12=2, p01=1, p21=0)
    findings = dict(quarry.edge_findings((1, 1)))
    assert findings == {"right": "same", "top": "lower", "bottom": "bottom", "left": "higher"}
    state = replace(linda_and_john(), quarry=quarry)
    ruling = state.check(Take((1, 1), "yellow"))
    assert ruling.accepted
    texts = [n.render() for n in ruling.notes]
    assert "Left edge touches a tile of a higher layer: nothing." in texts
    assert texts[-1] == "Quarry reward: 3 single pillars."
    after = state.apply(Take((1, 1), "yellow"))
    assert after.seats[0].singles == 3 and after.supply.single == 145
    assert after.turn.new_tile.material == "granite" and after.phase == "build"


def test_rulebook_john_takes_basalt_tile_b_for_3_pillars():
    # B (basalt, layer 1) at row 2, col 0: the wall to its left, basalt of its layer above it,
    # granite to its right and clay below it (both higher), and John's own pink flower.
    quarry = quarry_with(p20=1, p10=1, p21=2, p30=3)
    state = replace(linda_and_john(), quarry=quarry, turn_of=1)
    ruling = state.check(Take((2, 0), "pink"))
    texts = [n.render() for n in ruling.notes]
    assert "Left edge touches the quarry wall: +1 pillar." in texts
    assert "Your own flower: +1 pillar." in texts
    assert texts[-1] == "Quarry reward: 3 single pillars."
    assert state.apply(Take((2, 0), "pink")).seats[1].singles == 3
    # The camera sees how many pillars John takes: 3 is right, 4 is not.
    assert state.check(Take((2, 0), "pink", pillars=3)).accepted
    wrong = state.check(Take((2, 0), "pink", pillars=4))
    assert wrong.rule_ids == ("babylon.quarry.reward",)
    assert wrong.violations[0].message.render() == "This tile gives 3 single pillars, not 4."


def test_reward_with_tokens_exact():
    quarry = quarry_with(p11=2, p01=3, p10=3, p12=3, p21=1)  # 1 pillar from the edges
    assert quarry.reward((1, 1), own_flower=True).pillars == 2
    assert quarry.reward((1, 1), own_flower=True, effect="flower_double").pillars == 3
    assert quarry.reward((1, 1), own_flower=False, effect="flower_double").pillars == 1
    assert quarry.reward((1, 1), own_flower=False, effect="fewer_pillars").pillars == 0
    assert quarry.reward((1, 1), own_flower=True, effect="fewer_pillars").pillars == 1


def test_only_visible_tiles_can_be_taken():
    state = replace(linda_and_john(), quarry=quarry_with(p33=0))
    assert state.check(Take((3, 3), "white")).rule_ids == ("babylon.quarry.visible",)
    assert state.check(Take((3, 2), "white")).accepted


def test_take_checks_what_was_read():
    state = linda_and_john()
    assert state.check(Take((0, 0), "green")).rule_ids == ("babylon.setup.quarry",)
    bad = Take((0, 0), "white", ("stairs", "stairs", "statue", None))  # clay shows 2 icons
    assert state.check(bad).rule_ids == ("babylon.setup.quarry",)
    good = Take((0, 0), "white", ("stairs", None, "statue", None))
    assert state.check(good).accepted


def test_set_up_quarry_is_three_full_layers():
    state = new_game(("A", "B", "C", "D"))
    assert state.quarry.heights == (3,) * 16 and state.quarry.tiles_left() == 48
    assert state.phase == "quarry"  # 4 players remove nothing
    assert all(state.quarry.top_material(p) == "clay" for p in state.quarry.visible_places())


def test_two_players_trim_six_clay_tiles_alternately():
    state = new_game(("A", "B"))
    assert state.phase == "trim"
    order = []
    for index in range(6):
        order.append(state.current_player)
        state = state.apply(Trim((0, index % 4) if index < 4 else (1, index % 4)))
    assert order == [0, 1, 0, 1, 0, 1]
    assert state.phase == "quarry" and state.quarry.tiles_left() == 42 and state.current_player == 0


def test_three_players_trim_three():
    state = new_game(("A", "B", "C"))
    for index in range(3):
        assert state.current_player == index
        state = state.apply(Trim((index, 0)))
    assert state.phase == "quarry"


def test_trim_rejects_non_clay_and_out_of_phase_moves():
    state = new_game(("A", "B")).apply(Trim((0, 0)))
    assert state.check(Trim((0, 0))).rule_ids == ("babylon.setup.quarry_trim",)  # granite now
    assert state.check(Take((1, 1), "white")).rule_ids == ("babylon.setup.quarry_trim",)
    four = new_game(("A", "B", "C", "D"))
    assert four.check(Trim((0, 0))).rule_ids == ("babylon.setup.quarry_trim",)
