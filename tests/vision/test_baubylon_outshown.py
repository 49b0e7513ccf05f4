"""Baubylon: a stack is not read over a block whose outline it rules out (baubylon.stack).

A stack top allows the block levels below it over which its pawns show along the space's middle.
Where a block level it rules out so (below its top, its pawns not showing above that block)
shows its outline more than twice as much as every level the stack allows, that block is there,
bare: the top was another space's seen along the same ray (as _standless, which asks that no
allowed level show anything). Not where the stack may stand on the table: the table has no
outline to compare."""

from __future__ import annotations

import pytest

from tests.vision.bench_frames import assert_space_read_as_laid


@pytest.mark.parametrize(("seed", "n", "space", "height"), [
    (5, 12, (0, 3), 6),  # read 8 high under four yellow pawns, at 0.67; level 6 showed 1.56, level 8 0.18
    (5, 158, (8, 6), 4),  # read 8 high under a blue pawn; level 4 showed 3.66, level 8 nothing
    (4, 12, (4, 8), 2),  # read 8 high under four purple pawns; level 2 showed 2.89, level 8 0.11
])
def test_a_block_whose_outline_a_stack_rules_out_is_read_bare(seed, n, space, height):
    assert_space_read_as_laid("baubylon", seed, n, space, {"height": height, "pawns": []})
