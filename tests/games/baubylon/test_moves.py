"""Moves on the example field, from the rulebook's own examples first (baubylon.move, enter, stack,
knock, quake, blocker, goal)."""

from dataclasses import replace

from companion.games.baubylon import moves as mv
from companion.games.baubylon.field import Block, Field
from companion.games.baubylon.state import new_game

from .helpers import BLUE, GREEN, RED, YELLOW, game, position, rejected


def test_onto_a_lying_block_costs_3():
    state = position({}, roll=3)
    assert set(state.where_can_it_go("B3")) == {"C3"}
    assert state.where_can_it_go("B3")["C3"].path == ("C3",)
    assert state.check(mv.Step("B3", ("C3",))).accepted


def test_onto_a_standing_block_costs_5():
    assert set(position({}, roll=5).where_can_it_go("G2")) == {"G3"}
    assert position({}, roll=3).where_can_it_go("G2") == {}
    # From a lying block next to it: 2 up + 1 across.
    assert "G3" in position({"F3": (BLUE,)}, roll=3).where_can_it_go("F3")


def test_descending_costs_the_same_as_climbing():
    state = position({"D4": (BLUE,)}, roll=5)
    assert {"C4", "D3"} <= set(state.where_can_it_go("D4"))  # 6 → 2: 4 down + 1 across
    assert state.check(mv.Step("D4", ("C4",))).accepted
    assert rejected(position({"D4": (BLUE,)}, roll=4), mv.Step("D4", ("C4",))) == ("baubylon.move",)


def test_entering_needs_3_or_more():
    for roll in (1, 2):
        state = position({}, roll=roll)
        assert state.where_can_it_go("B3") == {}
        assert rejected(state, mv.Step("B3", ("C3",))) == ("baubylon.enter",)
    four = position({}, roll=4)
    assert set(four.where_can_it_go("B3")) == {"C4", "D3"}


def test_entering_needs_a_pawn_off_the_field():
    pieces = {s: (BLUE,) for s in ("C3", "C4", "C5", "C6", "D3", "D6")}
    assert rejected(position(pieces, roll=3), mv.Step("B3", ("C3",))) == ("baubylon.enter",)


def test_the_whole_roll_and_no_stopping_part_way_up():
    state = position({"C3": (BLUE,)}, roll=4)
    # C3 → C4 (1) → D4 would need 5 more: the pawn cannot stop half way up the step.
    assert "D4" not in state.where_can_it_go("C3")
    assert rejected(state, mv.Step("C3", ("C4",))) == ("baubylon.move",)  # uses 1 of 4
    assert state.check(mv.Step("C3", ("C4", "C5", "C6", "D6"))).accepted


def test_a_path_may_not_come_back():
    state = position({"C3": (BLUE,)}, roll=2)
    assert rejected(state, mv.Step("C3", ("C4", "C3"))) == ("baubylon.move",)
    assert "C3" not in state.where_can_it_go("C3")


def test_steps_are_orthogonal_and_on_the_field():
    state = position({"C3": (BLUE,)}, roll=2)
    assert rejected(state, mv.Step("C3", ("D4",))) == ("baubylon.move",)
    assert rejected(state, mv.Step("C3", ("B3",))) == ("baubylon.move",)  # the table
    assert rejected(state, mv.Step("C3", ("??",))) == ("baubylon.move",)


def test_climbing_a_pawn_costs_2():
    state = position({"C3": (BLUE,), "D3": (YELLOW,)}, roll=2)
    assert "D3" in state.where_can_it_go("C3")
    after = state.apply(mv.Step("C3", ("D3",)))
    assert after.stack("D3") == (YELLOW, BLUE)
    assert "D3" not in position({"C3": (BLUE,), "D3": (YELLOW,)}, roll=1).where_can_it_go("C3")


def test_a_pawn_under_others_cannot_move():
    state = position({"C4": (BLUE, YELLOW)}, roll=3)
    assert rejected(state, mv.Step("C4", ("C5", "C6", "D6"))) == ("baubylon.stack",)
    assert state.where_can_it_go("C4") == {}


def test_stacks_reach_at_most_5_pawns():
    five = (YELLOW, GREEN, YELLOW, GREEN, YELLOW)
    state = position({"C3": (BLUE,), "D3": five}, roll=6)
    assert rejected(state, mv.Step("C3", ("D3",))) == ("baubylon.stack",)
    # Knocking the top pawn off is still allowed: 1 across + 4 up onto the remaining 4.
    knock = position({"C3": (BLUE,), "D3": five}, roll=5)
    assert knock.check(mv.Step("C3", ("D3",), ("D3",))).accepted
    assert knock.apply(mv.Step("C3", ("D3",), ("D3",))).stack("D3") == (*five[:4], BLUE)


def test_rulebook_knock_off_example_5_instead_of_6():
    # Entering onto a stack of 3: climbing on top needs 2 + 3 up + 1 = 6; knocking the top pawn
    # off lets the pawn move with a 5.
    stack = (YELLOW, GREEN, YELLOW)
    assert position({"C3": stack}, roll=6).where_can_it_go("B3")["C3"].knocks == ()  # climbing: 6
    five = position({"C3": stack}, roll=5)
    reach = five.where_can_it_go("B3")["C3"]
    assert reach.knocks == ("C3",)
    after = five.apply(mv.Step("B3", ("C3",), ("C3",)))
    assert after.stack("C3") == (YELLOW, GREEN, BLUE)
    assert after.supply(1) == 5  # the top yellow pawn went home, the bottom one stays


def test_knocking_costs_less_than_climbing():
    pieces = {"C3": (BLUE,), "D3": (YELLOW, GREEN)}
    climb = position(pieces, roll=3).check(mv.Step("C3", ("D3",)))
    knock = position(pieces, roll=2).check(mv.Step("C3", ("D3",), ("D3",)))
    assert climb.accepted and knock.accepted
    # Passing over the stack: knock (2) then down to E3 (2) = 4; climbing over costs 3 + 3 = 6.
    assert position(pieces, roll=4).check(mv.Step("C3", ("D3", "E3"), ("D3",))).accepted
    assert position(pieces, roll=6).check(mv.Step("C3", ("D3", "E3"))).accepted
    assert rejected(position(pieces, roll=4), mv.Step("C3", ("D3", "E3"))) == ("baubylon.move",)


def test_only_a_stack_can_be_knocked():
    state = position({"C3": (BLUE,), "D3": (YELLOW,)}, roll=1)
    assert rejected(state, mv.Step("C3", ("D3",), ("D3",))) == ("baubylon.knock",)
    assert rejected(state, mv.Step("C3", ("C4",), ("D3",))) == ("baubylon.knock",)


def test_a_knocked_blocker_is_captured_and_can_reenter():
    state = position({"C3": (BLUE,), "D3": (YELLOW, RED)}, roll=2)
    after = state.apply(mv.Step("C3", ("D3",), ("D3",)))
    assert after.captured == (1, 0, 0)
    assert after.stack("D3") == (YELLOW, BLUE)
    # Later, blue brings the blocker back in from a start point.
    back = position({}, roll=3, captured=(1, 0, 0))
    assert back.check(mv.Step("G6", ("F6",), piece="blocker")).accepted
    done = back.apply(mv.Step("G6", ("F6",), piece="blocker"))
    assert done.stack("F6") == (RED,) and done.captured == (0, 0, 0)


def test_blockers_move_by_the_same_rules():
    state = position({"D6": (RED,)}, roll=2)
    assert state.check(mv.Step("D6", ("C6", "C5"))).accepted
    assert rejected(state, mv.Step("D6", ("C6",))) == ("baubylon.move",)
    # Only a captured blocker re-enters, and only an own pawn or a blocker on top moves.
    assert rejected(position({}, roll=3), mv.Step("B3", ("C3",), piece="blocker")) == ("baubylon.blocker",)
    assert rejected(position({"C3": (BLUE,)}, roll=1), mv.Step("C3", ("C4",), piece="blocker")) == (
        "baubylon.blocker",
    )


def test_a_blocker_on_the_goal_wins_nothing():
    state = position({"C4": (RED,)}, roll=5)
    after = state.apply(mv.Step("C4", ("D4",)))
    assert not after.is_over and after.stack("D4") == (RED,)


def test_another_players_pawn_does_not_move():
    assert rejected(position({"C3": (YELLOW,)}, roll=1), mv.Step("C3", ("C4",))) == ("baubylon.move",)
    assert rejected(position({}, roll=1), mv.Step("C3", ("C4",))) == ("baubylon.move",)


def test_earthquake_on_a_1_shakes_off_the_pawns_on_top():
    state = position({"C4": (BLUE, YELLOW, RED)}, roll=1)
    assert state.check(mv.Quake("C4", 0)).accepted
    after = state.apply(mv.Quake("C4", 0))
    assert after.stack("C4") == (BLUE,)
    assert after.captured == (1, 0, 0) and after.supply(1) == 6
    assert after.turn == 1 and after.roll is None  # the turn ends


def test_earthquake_needs_a_1_and_a_pinned_pawn():
    assert rejected(position({"C4": (BLUE, YELLOW)}, roll=2), mv.Quake("C4", 0)) == ("baubylon.quake",)
    assert rejected(position({"C4": (YELLOW, BLUE)}, roll=1), mv.Quake("C4", 1)) == ("baubylon.quake",)
    assert rejected(position({"C4": (YELLOW, BLUE)}, roll=1), mv.Quake("C4", 0)) == ("baubylon.quake",)


def test_first_pawn_on_the_highest_point_wins():
    state = position({"C4": (BLUE,)}, roll=5)
    ruling = state.check(mv.Step("C4", ("D4",)))
    assert ruling.accepted and "wins" in ruling.notes[-1].render()
    after = state.apply(mv.Step("C4", ("D4",)))
    assert after.is_over and after.winners == (0,) and after.phase == "over"
    sheet = after.score_sheet()
    assert sheet.final and sheet.totals() == (1, 0, 0) and sheet.lines[0].rule_id == "baubylon.goal"
    assert rejected(after, mv.Roll(3)) == ("baubylon.goal",)


def test_reaching_either_space_of_a_lying_goal_wins():
    # D5 (4) → D4 (6) costs 3, then on to E4 (6) 1 more: the goal is the whole top block D4–E4.
    assert position({"D5": (BLUE,)}, roll=4).apply(mv.Step("D5", ("D4", "E4"))).is_over
    assert position({"D5": (BLUE,)}, roll=3).apply(mv.Step("D5", ("D4",))).is_over


def test_passing_over_the_goal_is_not_reaching_it():
    # A corridor: B1–C1 lying (2), D1 standing (4, the goal), E1–F1 lying (2); start A1.
    corridor = Field.build(1, 7, (Block("B1", "lying", "east"), Block("D1", "standing"),
                                  Block("E1", "lying", "east")), ("A1", "G1"))
    state = replace(new_game(("P1", "P2"), field=corridor, blockers=()), stacks=(("C1", (BLUE,)),), roll=6)
    assert corridor.goal() == ("D1",)
    assert "E1" in state.where_can_it_go("C1")  # up 3 and down 3 over the goal
    crossed = state.apply(mv.Step("C1", ("D1", "E1")))
    assert not crossed.is_over
    assert replace(state, roll=3).apply(mv.Step("C1", ("D1",))).winners == (0,)


def test_rolls_turns_and_passes():
    state = game()
    assert rejected(state, mv.Step("B3", ("C3",))) == ("baubylon.move",)  # roll first
    assert rejected(state, mv.Roll(7)) == ("baubylon.move",)
    rolled = state.apply(mv.Roll(2))
    assert rolled.phase == "move" and rejected(rolled, mv.Roll(3)) == ("baubylon.move",)
    assert list(rolled.legal_moves()) == [mv.Pass()]  # no pawn on the field, a 2 cannot enter
    after = rolled.apply(mv.Pass())
    assert (after.turn, after.roll) == (1, None)
    can_move = position({"C3": (BLUE,)}, roll=2)
    assert rejected(can_move, mv.Pass()) == ("baubylon.move",)
    assert "roll the die" in game().guidance()[0].render()


def test_every_legal_move_is_accepted_and_distinct():
    state = position({"C3": (BLUE,), "D3": (YELLOW, GREEN), "D6": (RED,)}, roll=4)
    moves = list(state.legal_moves())
    assert moves and len(moves) == len(set(moves))
    assert all(state.check(m).accepted for m in moves)
    assert any(m.knocks for m in moves if isinstance(m, mv.Step))


def test_an_illegal_move_can_still_be_pictured():
    # The referee pictures what the table shows after an illegal move, to recognise it.
    state = position({"C3": (BLUE,)}, roll=2)
    move = mv.Step("C3", ("D3", "E3", "F3"))
    assert not state.check(move).accepted
    pictured = state._apply_legal(move)
    assert pictured.stack("F3") == (BLUE,) and pictured.stack("C3") == ()
