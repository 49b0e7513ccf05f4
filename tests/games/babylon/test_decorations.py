"""babylon.deco.*, the round tokens' icons, and the rulebook's decoration and scoring examples."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.babylon.moves import PlaceDecoration, PlacePillar

from .helpers import building, deco, new_turn, points, put

S = "stairs"
F = "fountain"
B = "bridge"
T = "statue"


def rules(state, *args, **kwargs):
    return state.check(PlaceDecoration(*args, **kwargs)).rule_ids


def test_rulebook_stairs_between_levels_one_and_two_is_3_vp():
    state = put(building(), 0, 0, 1, icons=(None, S, None, None))  # stairs on b1, level 1
    state = put(state, 0, 2, 2, icons=(S, None, None, None))  # stairs on c1, level 2
    state = deco(state, S, (0, 1), (0, 2))
    assert points(state, "stairs") == 3


def test_rulebook_stairs_between_levels_two_and_three_is_5_vp_and_statue_on_three_is_3_vp():
    state = put(building(), 4, 2, 1)
    state = put(state, 4, 4, 1)
    state = put(state, 4, 1, 2, icons=(None, S, None, None))  # stairs on c5 at level 2
    state = put(state, 4, 3, 3, icons=(S, None, T, None))  # stairs on d5 and a statue on e6, level 3
    state = deco(state, S, (4, 2), (4, 3))
    state = deco(state, T, (5, 4))
    assert points(state, "stairs") == 5
    assert points(state, "statue") == 3
    assert points(state, "highest") == 6


def test_rulebook_fountain_on_level_two_is_6_vp_and_highest_two_is_4():
    state = put(building(), 6, 6, 1)
    state = put(state, 0, 0, 2, icons=(None, F, None, None))
    state = put(state, 0, 2, 2, icons=(F, None, None, None))
    state = deco(state, F, (0, 1), (0, 2))
    assert points(state, "fountain") == 6
    assert points(state, "highest") == 4


def test_stairs_need_levels_one_apart():
    state = put(building(), 0, 0, 1, icons=(None, S, None, None))
    state = put(state, 0, 2, 1, icons=(S, None, None, None))
    assert rules(state, S, ((0, 1), (0, 2))) == ("babylon.deco.stairs",)


def test_fountain_needs_two_adjacent_icons_on_two_tiles_at_one_level():
    state = put(building(), 0, 0, 1, icons=(F, F, None, None))
    state = put(state, 0, 2, 1, icons=(F, None, None, F))
    state = put(state, 4, 4, 1)
    state = put(state, 2, 2, 2, icons=(F, None, None, None))  # level 2, below c1-d2's f on d2
    assert rules(state, F, ((0, 0), (0, 1))) == ("babylon.deco.fountain",)  # one tile
    assert rules(state, F, ((0, 0), (0, 2))) == ("babylon.deco.fountain",)  # not adjacent
    assert state.check(PlaceDecoration(F, ((0, 1), (0, 2)))).accepted


def test_decorations_never_diagonal_and_only_on_matching_free_icons():
    state = put(building(), 0, 0, 1, icons=(None, F, None, None))
    state = put(state, 1, 2, 1, icons=(F, S, None, None))
    assert rules(state, F, ((0, 1), (1, 2))) == ("babylon.deco.icon",)  # diagonal
    assert rules(state, S, ((0, 1), (0, 2))) == ("babylon.deco.icon",)  # b1 shows a fountain
    assert rules(state, T, ((5, 5),)) == ("babylon.deco.icon",)  # an empty recess
    state = put(state, 4, 4, 1, icons=(T, None, None, None))
    state = deco(state, T, (4, 4))
    assert rules(state, T, ((4, 4),)) == ("babylon.deco.icon",)  # already holds a statue
    assert state.check(PlacePillar((4, 4))).rule_ids == ("babylon.build.pillars",)


def test_decorations_only_after_a_tile_and_partly_on_a_tile_of_this_round():
    state = put(building(), 0, 0, 1, icons=(None, F, None, None))
    state = put(state, 0, 2, 1, icons=(F, None, None, None))
    later = new_turn(state)
    assert rules(later, F, ((0, 1), (0, 2))) == ("babylon.deco.when",)  # nothing placed yet
    later = put(later, 4, 4, 1)
    assert rules(later, F, ((0, 1), (0, 2))) == ("babylon.deco.when",)  # both tiles are old
    # One end on a tile of this round is enough.
    mixed = put(new_turn(put(building(), 0, 0, 1, icons=(None, F, None, None))), 0, 2, 1, icons=(F, None, None, None))
    assert mixed.check(PlaceDecoration(F, ((0, 1), (0, 2)))).accepted


def test_covered_icon_takes_no_decoration():
    state = put(building(), 0, 0, 1, icons=(None, F, None, None))
    state = put(state, 0, 2, 1, icons=(F, None, None, None))
    state = put(state, 4, 4, 1)
    state = put(state, 0, 1, 2)  # covers b1 and c1
    assert rules(state, F, ((0, 1), (0, 2))) == ("babylon.build.covered_space",)


def _bridge(reading: str, gap_tile: bool):
    state = building(bridge_gap=reading)
    if gap_tile:
        state = put(state, 0, 2, 1)  # a level-1 tile under the gap c1
        state = put(state, 0, 0, 2, icons=(None, B, None, None))
        state = put(state, 0, 3, 2, icons=(B, None, None, None))
    else:
        state = put(state, 0, 0, 1, icons=(None, B, None, None))
        state = put(state, 0, 3, 1, icons=(B, None, None, None))
    return state


def test_bridge_across_an_empty_gap_scores_3_per_level():
    state = _bridge("bridge_level", gap_tile=False)
    state = deco(state, B, (0, 1), (0, 3))
    bridge = state.me.board.decorations[-1]
    assert bridge.cells == ((0, 1), (0, 2), (0, 3))
    assert state.me.board.top.at((0, 2)).kind == "bridge"
    assert points(state, "bridge") == 3


@pytest.mark.parametrize(("reading", "accepted"), [("bridge_level", True), ("empty_to_board", False)])
def test_bridge_gap_reading_over_a_lower_tile(reading, accepted):
    state = _bridge(reading, gap_tile=True)
    ruling = state.check(PlaceDecoration(B, ((0, 1), (0, 3))))
    assert ruling.accepted is accepted
    if not accepted:
        assert ruling.rule_ids == ("babylon.deco.bridge",)
        assert "empty_to_board" in ruling.violations[0].message.render()


def test_bridge_rejects_a_blocked_gap_and_wrong_spacing():
    state = _bridge("bridge_level", gap_tile=False)
    blocked = state.apply(PlacePillar((0, 2)))
    assert rules(blocked, B, ((0, 1), (0, 3))) == ("babylon.deco.bridge",)
    near = put(building(), 0, 0, 1, icons=(None, B, None, None))
    near = put(near, 0, 2, 1, icons=(B, None, None, None))
    assert rules(near, B, ((0, 1), (0, 2))) == ("babylon.deco.bridge",)
    levels = put(building(), 6, 6, 1)
    levels = put(levels, 0, 0, 1, icons=(None, B, None, None))
    levels = put(levels, 0, 3, 2, icons=(B, None, None, None))
    assert rules(levels, B, ((0, 1), (0, 3))) == ("babylon.deco.bridge",)


def test_rulebook_statue_line_example():
    state = put(building(), 4, 4, 1, icons=(None, None, T, None))  # an earlier tile: statue icon on f6
    state = new_turn(state)
    state = put(state, 0, 0, 1, icons=(T, None, None, None))
    state = put(state, 0, 2, 1, icons=(None, T, None, None))
    state = put(state, 2, 1, 1, icons=(None, None, T, None))
    state = put(state, 4, 0, 1, icons=(None, None, None, T))
    state = deco(state, T, (0, 0))  # 1. the first statue goes on any statue icon
    state = deco(state, T, (0, 3))  # 2. the second in line with the first (row 1)
    assert rules(state, T, ((3, 2),)) == ("babylon.deco.statue",)  # 3. not in line with any
    state = deco(state, T, (5, 0))  # 4. in line with the first (column a)
    # The earlier tile's icon on f6 is now in line (row 6), but that tile is not of this round.
    assert rules(state, T, ((5, 5),)) == ("babylon.deco.when",)
    assert points(state, "statue") == 3


def test_deco_set_and_supply_limits():
    state = put(building(), 6, 6, 1)
    state = put(state, 0, 0, 1, icons=(None, S, T, F))
    state = put(state, 0, 2, 2, icons=(S, None, None, None))
    state = deco(state, S, (0, 1), (0, 2))
    state = deco(state, T, (1, 1))
    assert points(state, "deco_set") == 0
    empty = replace(state, supply=state.supply.add("fountain", -15))
    empty = put(empty, 2, 0, 1, icons=(F, None, None, None))
    assert rules(empty, F, ((1, 0), (2, 0))) == ("babylon.deco.when",)


@pytest.mark.parametrize("effect", ["icon_swap", "icon_blank"])
def test_round_token_icon_counts_as_another(effect):
    other = S if effect == "icon_swap" else None
    state = put(building(effect=effect), 0, 0, 1, icons=(None, F, None, None))
    state = put(state, 0, 2, 1, icons=(other, None, None, None))
    move = PlaceDecoration(F, ((0, 1), (0, 2)), ((0, 2), F))
    assert state.check(move).accepted
    after = state.apply(move)
    assert after.turn.wild_used and after.me.board.top.at((0, 2)).icon == F
    assert points(after, "fountain") == 3
    plain = put(building(), 0, 0, 1, icons=(None, F, None, None))
    plain = put(plain, 0, 2, 1, icons=(other, None, None, None))
    assert plain.check(move).rule_ids == ("babylon.round_token",)
    assert plain.check(PlaceDecoration(F, ((0, 1), (0, 2)))).rule_ids == ("babylon.deco.icon",)


def test_round_token_icon_only_once_per_turn():
    state = put(building(effect="icon_swap"), 0, 0, 1, icons=(None, F, None, F))
    state = put(state, 0, 2, 1, icons=(S, None, None, S))
    state = deco(state, F, (0, 1), (0, 2), wild=((0, 2), F))
    assert rules(state, F, ((1, 1), (1, 2)), ((1, 2), F)) == ("babylon.round_token",)
