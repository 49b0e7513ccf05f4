"""The turn and the rounds: babylon.round, setup.board/rounds, store.*, round_token."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.errors import CompanionError
from companion.games.babylon.model import Tile
from companion.games.babylon.moves import EndBuild, Exchange, PlacePillar, Reveal, Store, Take, Trim
from companion.games.babylon.state import new_game

from .helpers import put


def started(players=("A", "B")):
    state = new_game(players)
    place = 0
    while state.phase == "trim":
        state = state.apply(Trim((place // 4, place % 4)))
        place += 1
    return state


def take_and_end_build(state, place=(3, 3), flower="yellow"):
    return state.apply(Take(place, flower, None)).apply(EndBuild())


def test_setup_boards_and_round_counts():
    for count, rounds in ((2, 15), (3, 13), (4, 11)):
        state = new_game(tuple(f"P{i}" for i in range(count)))
        assert state.rounds_total == rounds
        for seat in state.seats:
            assert seat.slot.material == "start" and seat.slot.flower == seat.flower
    with pytest.raises(CompanionError, match="babylon.setup.rounds"):
        new_game(("A", "B", "C", "D", "E"))
    pink_first = new_game(("A", "B"), flowers="pink, white, yellow, blue")
    assert [seat.flower for seat in pink_first.seats] == ["pink", "white"]
    with pytest.raises(CompanionError, match="babylon.setup.board"):
        new_game(("A", "B"), flowers=("white", "white", "pink", "blue"))


def test_a_turn_is_quarry_build_store_then_the_next_player():
    state = started()
    assert state.phase == "quarry" and state.current_player == 0
    assert state.check(EndBuild()).rule_ids == ("babylon.round",)
    assert state.check(Store(0)).rule_ids == ("babylon.round",)
    state = state.apply(Take((3, 3), "white"))
    assert state.check(Take((3, 2), "white")).rule_ids == ("babylon.round",)
    state = state.apply(EndBuild())
    assert state.phase == "store"
    assert state.check(PlacePillar((0, 0))).rule_ids == ("babylon.round",)
    state = state.apply(Store(state.me.singles))
    assert state.phase == "quarry" and state.current_player == 1


def test_round_end_reveals_a_token_and_the_game_ends_after_15_rounds():
    state = started()
    for round_number in range(1, 16):
        assert state.round == round_number
        for player in (0, 1):
            assert state.current_player == player
            place = state.quarry.visible_places()[0]
            state = take_and_end_build(state, place)
            state = state.apply(Store(min(6, state.me.singles)))
        if round_number < 15:
            assert state.phase == "reveal" and state.current_player == 1
            assert state.check(Take((0, 0), "white")).rule_ids == ("babylon.round_token",)
            state = state.apply(Reveal("none"))
    assert state.is_over and state.phase == "over" and state.current_player is None
    assert state.score_sheet().final
    assert state.check(Reveal("none")).rule_ids == ("babylon.round_token",)


def test_round_token_pillars_apply_at_the_start_of_each_next_turn():
    state = started()
    for _ in range(2):
        state = take_and_end_build(state, state.quarry.visible_places()[0])
        state = state.apply(Store(0))
    state = state.apply(Reveal("double_pillar"))
    assert state.seats[0].doubles == 1 and state.supply.double == 59
    state = take_and_end_build(state, state.quarry.visible_places()[0])
    state = state.apply(Store(0))
    assert state.seats[0].doubles == 0 and state.supply.double == 59  # returned; now B's turn
    assert state.seats[1].doubles == 1
    state = take_and_end_build(state, state.quarry.visible_places()[0])
    state = state.apply(Store(0))
    state = state.apply(Reveal("single_pillar"))
    assert state.seats[0].singles == 1 and state.seats[1].singles == 0


def test_store_at_most_six_singles_and_no_doubles():
    state = started().apply(Take((3, 3), "white")).with_me(singles=9, doubles=1).apply(EndBuild())
    assert state.check(Store(7)).rule_ids == ("babylon.store.pillars",)
    assert state.check(Store(6)).accepted
    after = state.apply(Store(6))
    assert (after.seats[0].singles, after.seats[0].doubles) == (6, 0)
    assert after.supply.single == state.supply.single + 3
    assert after.supply.double == state.supply.double + 1
    short = started().apply(Take((3, 3), "white")).with_me(singles=2).apply(EndBuild())
    assert short.check(Store(3)).rule_ids == ("babylon.store.pillars",)


def test_starting_tile_blocks_storing_another_until_removed():
    state = started().apply(Take((3, 3), "white")).apply(EndBuild())
    ruling = state.check(Store(0, store_new=True))
    assert ruling.rule_ids == ("babylon.store.starting_tile",)
    assert state.check(Store(0, store_new=True, discard_slot=True)).accepted
    kept = state.apply(Store(0))  # the starting tile may stay; the new tile leaves the game
    assert kept.seats[0].slot.material == "start"
    swapped = state.apply(Store(0, store_new=True, discard_slot=True))
    assert swapped.seats[0].slot.id == "clay-33"


def test_store_one_tile_at_most():
    state = started().apply(Take((3, 3), "white")).apply(EndBuild())
    state = state.with_me(slot=Tile("granite-00", "granite", "pink", None))
    assert state.check(Store(0, store_new=True)).rule_ids == ("babylon.store.tile",)
    assert state.check(Store(0, store_new=True, discard_slot=True)).accepted
    empty = state.with_me(slot=None)
    assert empty.check(Store(0, discard_slot=True)).rule_ids == ("babylon.store.tile",)
    assert empty.check(Store(0, store_new=True)).accepted
    placed = put(replace(started(), stage="build").with_me(singles=8), 0, 0, 1).apply(EndBuild())
    assert placed.check(Store(0, store_new=True)).rule_ids == ("babylon.store.tile",)


def test_exchange_is_allowed_before_the_quarry_too():
    state = started().with_me(singles=2)
    assert state.check(Exchange()).accepted
    assert state.apply(Take((3, 3), "white")).with_me(singles=0).check(Exchange()).rule_ids == (
        "babylon.build.exchange",
    )


def test_guidance_names_the_phase_and_the_token():
    state = replace(started(), effect="fewer_pillars")
    texts = [m.render() for m in state.guidance()]
    assert texts[0].startswith("Take one visible tile") and "1 pillar fewer" in texts[-1]
    assert texts[1] == "Most pillars: the tile at quarry place 1,1 gives 3 (4 if it shows your flower)."  # a granite corner: 4 edges, less 1 for the token
