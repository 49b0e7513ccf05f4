"""babylon.score.*: what is seen from above scores, one line per category, tie-break by recesses."""

from __future__ import annotations

from dataclasses import replace

from companion.games.babylon.model import Board
from companion.games.babylon.moves import PlacePillar
from companion.games.babylon.scoring import CATEGORIES
from companion.games.babylon.topview import covered_pieces, top_view, visible_pieces

from .helpers import building, deco, points, put

S, F, B, T = "stairs", "fountain", "bridge", "statue"


def test_empty_garden_scores_zero_with_every_line():
    sheet = building().score_sheet()
    assert sheet.totals() == (0, 0)
    assert [line.category for line in sheet.lines_for(0)] == [c for c, _, _ in CATEGORIES]
    assert all(line.rule_id.startswith("babylon.score.") for line in sheet.lines)
    assert sheet.tiebreak == (-64, -64) and sheet.tiebreak_rule == "babylon.score.tiebreak"


def test_highest_level_two_is_4_and_three_is_6():
    state = put(building(), 0, 0, 1)
    assert points(state, "highest") == 2
    state = put(state, 0, 1, 2)
    assert points(state, "highest") == 4
    state = put(put(state, 4, 0, 1), 4, 1, 2)
    line = next(line for line in state.score_sheet().lines_for(0) if line.category == "highest")
    assert line.detail.render() == "2 × highest level 2"


def test_a_wholly_covered_decoration_scores_nothing_a_partly_covered_one_scores():
    state = put(building(), 0, 0, 1, icons=(None, None, F, None))  # fountain icon on b2
    state = put(state, 0, 2, 1, icons=(None, None, None, F))  # fountain icon on c2
    state = deco(state, F, (1, 1), (1, 2))
    assert points(state, "fountain") == 3
    state = put(state, 1, 0, 2, skip=(1, 1))  # over a2-b3 at level 2, the fountain under b2
    assert points(state, "fountain") == 3  # still seen on c2
    fountain = next(d.id for d in state.me.board.decorations if d.kind == F)
    assert fountain in visible_pieces(state.me.board)
    state = put(state, 1, 2, 2, skip=(1, 2))  # now c2 is covered too
    assert points(state, "fountain") == 0
    assert fountain in covered_pieces(state.me.board)


def test_deco_set_needs_one_of_each_visible():
    state = put(building(), 6, 6, 1)
    state = put(state, 0, 0, 1, icons=(None, S, T, F))
    state = put(state, 0, 2, 2, icons=(S, None, None, None))
    state = put(state, 2, 0, 1, icons=(F, B, None, None))
    state = put(state, 2, 3, 1, icons=(B, None, None, None))
    state = deco(state, S, (0, 1), (0, 2))
    state = deco(state, T, (1, 1))
    state = deco(state, F, (1, 0), (2, 0))
    state = deco(state, B, (2, 1), (2, 3))
    sheet = state.score_sheet()
    assert points(state, "deco_set") == 4
    line = next(line for line in sheet.lines_for(0) if line.category == "deco_set")
    assert len(line.pieces) == 4


def test_flower_sets_count_visible_tiles_of_four_flowers():
    state = building()
    for index, flower in enumerate(("white", "pink", "yellow")):
        state = put(state, 0, 2 * index, 1, flower=flower)
    assert points(state, "flower_set") == 0
    state = put(state, 0, 6, 1, flower="blue")
    assert points(state, "flower_set") == 4
    for index, flower in enumerate(("white", "pink", "yellow")):
        state = put(state, 4, 2 * index, 1, flower=flower)
    assert points(state, "flower_set") == 4
    state = put(state, 4, 6, 1, flower="blue")
    assert points(state, "flower_set") == 8
    # A tile wholly covered stops counting: cover the blue g1 tile at levels 2 and 3.
    state = put(state, 0, 5, 2, skip=(0, 5))
    state = put(state, 0, 6, 3)  # the same footprint as the blue tile, a tile in between
    blue = next(t.id for t in state.me.board.tiles if t.flower == "blue" and t.row == 0)
    assert blue in covered_pieces(state.me.board)
    assert points(state, "flower_set") == 4


def test_total_is_the_sum_of_the_lines_and_tie_break_by_fewer_recesses():
    small = put(building(), 0, 0, 1)
    big = put(put(building(), 0, 0, 1), 0, 2, 1)
    state = replace(small, seats=(small.seats[0], replace(big.seats[0], name="John", flower="pink")))
    sheet = state.score_sheet()
    assert sheet.totals() == (2, 2)
    assert sheet.tiebreak == (-60, -56)
    assert sheet.leaders() == (1,) and sheet.tiebreak_decided()
    for player in (0, 1):
        assert sheet.total(player) == sum(line.points for line in sheet.lines_for(player))
    shared = replace(state, seats=(state.seats[0], replace(state.seats[0], name="John")))
    assert shared.score_sheet().leaders() == (0, 1)


def test_top_view_shows_each_cell_top_item():
    state = put(building(), 0, 0, 1, icons=(S, None, F, None), flower="pink")
    view = top_view(state.me.board)
    assert len(view) == 8 and all(len(row) == 8 for row in view)
    assert view[0][0].kind == "tile" and view[0][0].icon == S and view[0][0].flower == "pink"
    assert view[1][1].icon == F and view[1][1].level == 1
    assert view[5][5].kind == "recess" and view[5][5].level == 0
    state = state.apply(PlacePillar((0, 0), "double"))
    item = top_view(state.me.board)[0][0]
    assert (item.kind, item.level, item.height, item.tile_id) == ("pillar", 1, 2, state.me.board.tiles[0].id)
    pillars = {p.id for p in state.me.board.pillars[:4]}
    assert pillars <= covered_pieces(state.me.board)
    assert top_view(Board())[3][3].kind == "recess"


def test_a_hidden_belvedere_scores_nothing():
    state = put(building(), 0, 0, 1, skip=(1, 1))  # belvedere on b2 at level 1
    first = next(d.id for d in state.me.board.decorations if d.kind == "belvedere")
    state = put(state, 1, 1, 2, skip=(1, 1))  # over b2 at level 2: a new belvedere on b2 above
    assert first in covered_pieces(state.me.board)
    assert points(state, "belvedere") == 1  # only the new one


def test_each_line_cites_its_own_score_rule():
    state = put(building(), 0, 0, 1, skip=(1, 1))
    for line in state.score_sheet().lines:
        assert line.rule_id == f"babylon.score.{line.category}"
    by_rule = {line.rule_id: line for line in state.score_sheet().lines_for(0)}
    assert by_rule["babylon.score.highest"].points == 2
    assert by_rule["babylon.score.belvedere"].points == 1
    assert by_rule["babylon.score.belvedere"].pieces == ("belvedere5",)
