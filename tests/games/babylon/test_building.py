"""babylon.build.* and babylon.level: every rule accepts and rejects, with the rulebook's examples."""

from __future__ import annotations

import pytest

from companion.games.babylon.moves import (
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
)

from .helpers import building, deco, hold, new_turn, pillars_for, points, put


def rules(ruling) -> tuple[str, ...]:
    return ruling.rule_ids


def test_tile_on_four_single_pillars_is_level_one():
    state = put(building(), 0, 0, 1)
    tile = state.me.board.tiles[0]
    assert tile.level == 1
    assert {p.top for p in state.me.board.pillars} == {1}
    assert state.check(EndBuild()).accepted


def test_support_needs_three_or_four_pillars():
    state = hold(building())
    state = state.apply(PlacePillar((0, 0))).apply(PlacePillar((0, 1)))
    ruling = state.check(PlaceTile("new", 0, 0, 1))
    assert rules(ruling) == ("babylon.build.support",)
    assert "2 pillars" in ruling.violations[0].message.render()


def test_three_pillars_give_a_belvedere_on_the_open_space():
    state = hold(building())
    state = pillars_for(state, 2, 2, 1, skip=(3, 3))
    ruling = state.check(PlaceTile("new", 2, 2, 1))
    assert ruling.accepted and "belvedere" in ruling.notes[0].render()
    state = state.apply(PlaceTile("new", 2, 2, 1))
    belvedere = [d for d in state.me.board.decorations if d.kind == "belvedere"]
    assert [(b.cells, b.levels) for b in belvedere] == [(((3, 3),), (1,))]
    assert state.supply.belvedere == 37
    assert points(state, "belvedere") == 1


def test_rulebook_mixed_support_level_two_on_singles_and_doubles():
    """A level-2 tile on two single pillars on level 1 plus two double pillars on the board."""
    state = put(building(), 0, 0, 1)  # a level-1 tile on a1,b1,a2,b2
    state = hold(state)
    state = state.apply(PlacePillar((0, 1), "single")).apply(PlacePillar((1, 1), "single"))
    state = state.apply(PlacePillar((0, 2), "double")).apply(PlacePillar((1, 2), "double"))
    assert state.check(PlaceTile("new", 0, 1, 2)).accepted
    state = state.apply(PlaceTile("new", 0, 1, 2))
    assert state.me.board.tiles[-1].level == 2
    assert points(state, "highest") == 4


def test_mixed_support_rejects_tops_that_do_not_meet():
    state = put(building(), 0, 0, 1)
    state = hold(state)
    state = state.apply(PlacePillar((0, 1), "single")).apply(PlacePillar((1, 1), "single"))
    state = state.apply(PlacePillar((0, 2), "single")).apply(PlacePillar((1, 2), "single"))
    ruling = state.check(PlaceTile("new", 0, 1, 2))
    assert rules(ruling) == ("babylon.build.mixed_support",)
    assert ruling.violations[0].fix is not None


def test_one_level_at_a_time():
    state = hold(building())
    for cell in ((4, 4), (4, 5), (5, 4), (5, 5)):
        state = state.apply(PlacePillar(cell, "double"))
    assert rules(state.check(PlaceTile("new", 4, 4, 2))) == ("babylon.build.one_level_at_a_time",)
    # With a level-1 tile elsewhere (they need not touch) the same tile is fine.
    other = put(building(), 0, 0, 1)
    other = hold(other)
    for cell in ((4, 4), (4, 5), (5, 4), (5, 5)):
        other = other.apply(PlacePillar(cell, "double"))
    assert other.check(PlaceTile("new", 4, 4, 2)).accepted


@pytest.mark.parametrize("reading", ["directly_beneath", "any_tile"])
def test_no_exact_cover_of_the_tile_directly_beneath(reading):
    state = put(building(exact_cover=reading), 0, 0, 1)
    state = hold(state)
    state = pillars_for(state, 0, 0, 2)
    ruling = state.check(PlaceTile("new", 0, 0, 2))
    assert rules(ruling) == ("babylon.build.no_exact_cover",)
    shifted = pillars_for(hold(put(building(exact_cover=reading), 0, 0, 1)), 0, 1, 2)
    assert shifted.check(PlaceTile("new", 0, 1, 2)).accepted


def _three_storeys(reading: str):
    """Level-1 tile at a1, a level-2 tile at b1 over part of it, then a level-3 tile over a1 again."""
    state = put(building(exact_cover=reading), 0, 0, 1)
    state = put(state, 0, 2, 1)  # c1: somewhere for the level-2 tile's right pillars
    state = put(state, 0, 1, 2)  # b1..c2 at level 2, partly over a1's tile
    state = put(state, 2, 0, 1)  # more level-1 support below row 3
    state = hold(state)
    # Level-3 tile exactly over the level-1 tile at a1, with the level-2 tile in between.
    state = state.apply(PlacePillar((0, 1), "single")).apply(PlacePillar((1, 1), "single"))
    state = state.apply(PlacePillar((0, 0), "double")).apply(PlacePillar((1, 0), "double"))
    return state


def test_exact_cover_readings_differ_with_a_tile_in_between():
    beneath = _three_storeys("directly_beneath")
    assert beneath.check(PlaceTile("new", 0, 0, 3)).accepted
    any_tile = _three_storeys("any_tile")
    assert rules(any_tile.check(PlaceTile("new", 0, 0, 3))) == ("babylon.build.no_exact_cover",)


def test_no_bare_pillar_at_the_end_of_the_build():
    state = hold(building())
    state = state.apply(PlacePillar((6, 6)))
    ruling = state.check(EndBuild())
    assert rules(ruling) == ("babylon.build.no_bare_pillar",)
    assert ruling.violations[0].where == ("g7",)
    state = state.apply(RemovePillar((6, 6)))
    assert state.check(EndBuild()).accepted
    assert state.me.singles == 40


def test_only_pillars_of_this_turn_without_a_tile_can_be_taken_back():
    state = put(building(), 0, 0, 1)
    assert rules(state.check(RemovePillar((0, 0)))) == ("babylon.build.pillars",)


def test_pillars_go_on_empty_recesses_or_free_tile_spaces():
    state = put(building(), 0, 0, 1, icons=("fountain", None, None, None))
    state = put(state, 0, 2, 1, icons=(None, None, None, "fountain"))
    assert state.check(PlacePillar((0, 0))).accepted  # on the tile's space, level 1
    assert state.check(PlacePillar((5, 5))).accepted  # on an empty recess
    no_pillars = state.with_me(singles=0)
    ruling = no_pillars.check(PlacePillar((5, 5)))
    assert rules(ruling) == ("babylon.build.pillars",)
    with_pillar = state.apply(PlacePillar((5, 5)))
    assert rules(with_pillar.check(PlacePillar((5, 5)))) == ("babylon.build.pillars",)


def test_covered_space_takes_no_pillar():
    state = put(building(), 0, 0, 1)
    ruling = state.check(PlacePillar((0, 0), "single", level=0))
    assert rules(ruling) == ("babylon.build.covered_space",)
    assert state.check(PlacePillar((0, 0), "single", level=1)).accepted


def test_levels_are_counted_from_the_board():
    state = put(building(), 0, 0, 1)
    assert state.check(PlacePillar((5, 5), "single", level=0)).accepted
    assert rules(state.check(PlacePillar((5, 5), "single", level=1))) == ("babylon.level",)
    state = state.apply(PlacePillar((0, 0), "double"))
    assert state.me.board.pillars[-1].base == 1 and state.me.board.pillars[-1].top == 3


def test_exchange_two_singles_for_a_double_never_the_reverse():
    state = building(singles=2, doubles=0)
    assert state.check(Exchange("singles")).accepted
    after = state.apply(Exchange("singles"))
    assert (after.me.singles, after.me.doubles) == (0, 1)
    assert after.supply.single == state.supply.single + 2
    assert after.supply.double == state.supply.double - 1
    assert rules(after.check(Exchange("double"))) == ("babylon.build.exchange",)
    assert rules(after.check(Exchange("singles"))) == ("babylon.build.exchange",)


def test_statue_serves_as_a_pillar_and_is_no_longer_a_statue():
    state = put(building(), 0, 0, 1, icons=(None, "statue", None, None))
    state = deco(state, "statue", (0, 1))
    assert points(state, "statue") == 1
    state = new_turn(state)
    state = put(state, 0, 2, 1)  # c1–d2: a level-1 tile beside it
    state = hold(state)
    # a level-2 tile over b1-c2: the statue on b1 (level 1, one level tall) is its fourth pillar.
    state = state.apply(PlacePillar((1, 1))).apply(PlacePillar((0, 2))).apply(PlacePillar((1, 2)))
    ruling = state.check(PlaceTile("new", 0, 1, 2))
    assert ruling.accepted, ruling.rule_ids
    state = state.apply(PlaceTile("new", 0, 1, 2))
    assert not [d for d in state.me.board.decorations if d.kind == "statue"]
    assert [p.kind for p in state.me.board.pillars].count("statue") == 1
    assert points(state, "statue") == 0
    assert state.supply.statue == 37  # it stays on the board, as a pillar


def test_a_former_statue_does_not_count_for_the_statue_line():
    state = put(building(), 0, 0, 1, icons=(None, "statue", None, None))
    state = deco(state, "statue", (0, 1))  # statue A on b1
    state = put(state, 4, 0, 1, icons=(None, "statue", None, None))
    state = deco(state, "statue", (4, 1))  # statue B on b5, in line with A (column b)
    state = new_turn(state)
    state = put(state, 0, 2, 1)
    state = hold(state)
    state = state.apply(PlacePillar((1, 1))).apply(PlacePillar((0, 2))).apply(PlacePillar((1, 2)))
    state = state.apply(PlaceTile("new", 0, 1, 2))  # statue A now carries a tile: a pillar
    state = put(state, 0, 5, 1, icons=(None, "statue", None, None))  # icon on g1: row 1, like A only
    state = put(state, 4, 5, 1, icons=(None, "statue", None, None))  # icon on g5: row 5, like B
    ruling = state.check(PlaceDecoration("statue", ((0, 6),)))
    assert rules(ruling) == ("babylon.build.statue_pillar",)
    assert state.check(PlaceDecoration("statue", ((4, 6),))).accepted


def test_which_tiles_can_be_placed():
    state = building()
    assert rules(state.check(PlaceTile("new", 0, 0, 1, icons=(None,) * 4))) == ("babylon.build.which",)
    state = hold(state, icons=("stairs", "fountain", None, None))
    state = pillars_for(state, 0, 0, 1)
    bad = PlaceTile("new", 0, 0, 1, icons=("stairs", "stairs", None, None))
    assert rules(state.check(bad)) == ("babylon.build.which",)
    turned = PlaceTile("new", 0, 0, 1, icons=(None, "stairs", "fountain", None))
    assert state.check(turned).accepted
    state = state.apply(turned)
    assert state.me.board.tiles[0].icons == (None, "stairs", "fountain", None)
    assert rules(state.check(PlaceTile("new", 4, 4, 1))) == ("babylon.build.which",)
    # The stored starting tile may be placed too; its icons are read as it is placed.
    state = pillars_for(state, 4, 4, 1)
    assert rules(state.check(PlaceTile("slot", 4, 4, 1))) == ("babylon.build.which",)
    read = PlaceTile("slot", 4, 4, 1, icons=("bridge", None, None, "statue"))
    assert state.check(read).accepted
    state = state.apply(read)
    assert state.me.slot is None and state.me.board.tiles[-1].flower == "white"


def test_tile_cannot_lie_on_a_higher_piece_or_off_the_board():
    state = hold(building())
    state = state.apply(PlacePillar((0, 0), "double"))
    state = pillars_for(state, 0, 0, 1, skip=(0, 0))
    assert rules(state.check(PlaceTile("new", 0, 0, 1))) == ("babylon.build.support",)
    assert rules(state.check(PlaceTile("new", 7, 7, 1))) == ("babylon.build.support",)
