"""The twin's built Baubylon fields (sim/baubylon_field.py): built from the box's blocks, each
resting flat on the table or on blocks (baubylon.units), passing the game's own field check
(baubylon.field: one highest point, every place reachable), pawns in stacks of at most 5
(baubylon.stack), and their in-play build laying the blocks in the order they were built."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.baubylon.field import MAX_BLOCKS, Field, check_field, parse_space
from companion.sim import builds
from companion.sim.baubylon_field import built_baubylon
from companion.vision.observers.dimensions import BAUBYLON

SEEDS = range(60)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_built_field_passes_the_games_field_check(seed):
    layout = built_baubylon(np.random.default_rng(seed))
    field_ = layout.field
    assert 0 < len(field_.blocks) <= MAX_BLOCKS
    assert check_field(field_) == ()  # baubylon.field: a goal, every place reachable, start points beside
    assert len(field_.goal()) in (1, 2)  # baubylon.goal: one block's top (1 space standing, 2 lying)
    # the blocks stack as laid (Field.build raises on a lying block over a step: baubylon.units)
    again = Field.build(field_.rows, field_.cols, field_.blocks, field_.starts)
    for r, row in enumerate(layout.cells):
        for c, (height, pawns) in enumerate(row):
            assert height == again.height(f"{'ABCDEFGHIJKL'[c]}{r + 1}")
            assert len(pawns) <= BAUBYLON.max_pawns  # baubylon.stack
            assert not pawns or height > 0  # pawns stand on blocks


def test_built_fields_are_drawn_by_the_rng():
    assert built_baubylon(np.random.default_rng(7)) == built_baubylon(np.random.default_rng(7))
    assert built_baubylon(np.random.default_rng(7)) != built_baubylon(np.random.default_rng(8))


def test_built_fields_have_stacks_of_five_and_goals_above_eight():
    layouts = [built_baubylon(np.random.default_rng(seed)) for seed in SEEDS]
    assert any(len(p) == BAUBYLON.max_pawns for layout in layouts for row in layout.cells for _, p in row)
    goals = [max(layout.field.heights.values()) for layout in layouts]
    assert sum(goal > 8 for goal in goals) > len(goals) / 2  # a staircase of blocks rises above 8


def test_the_observer_reads_as_high_as_nearly_every_built_goal():
    goals = [max(built_baubylon(np.random.default_rng(seed)).field.heights.values()) for seed in range(400)]
    assert sum(goal <= BAUBYLON.max_block_height for goal in goals) >= 0.99 * len(goals)


@pytest.mark.parametrize("seed", range(4))
def test_the_in_play_build_lays_the_blocks_in_their_order_then_the_pawns(seed):
    layout = built_baubylon(np.random.default_rng(seed))
    states = builds.build_states(layout, np.random.default_rng(seed), scenes=10)
    assert len(states) == 10 and states[-1].cells == layout.cells
    blocks = layout.field.blocks
    laid = 0
    for state in states:
        heights = {(r, c): h for r, row in enumerate(state.cells) for c, (h, _) in enumerate(row)}
        # the heights are those of the field's first k blocks, for some k, never fewer than before
        for k in range(laid, len(blocks) + 1):
            prefix = Field.build(layout.field.rows, layout.field.cols, blocks[:k], ())
            if all(prefix.height(s) == heights[parse_space(s)] for s in prefix.spaces()):
                laid = k
                break
        else:
            pytest.fail("a scene's field is no prefix of the build")
        pawns = sum(len(p) for row in state.cells for _, p in row)
        assert laid == len(blocks) or pawns == 0  # the field stands before any pawn comes
