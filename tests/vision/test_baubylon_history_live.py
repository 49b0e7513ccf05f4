"""Baubylon history on the live path: the simulated table (`companion run`'s TwinReader, which
hands each region's observer its last reading as BoardReader does at a real table) reads the field
seen before the pawns came."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim import boards
from companion.vision.observers.baubylon_history import FIELD

pytestmark = pytest.mark.slow


def test_the_simulated_table_remembers_the_field_from_read_to_read():
    from companion.demo.twin import TwinReader

    reader = TwinReader("baubylon", seed=0)
    layout = boards.random_baubylon(np.random.default_rng(5))
    field = boards.BaubylonLayout(tuple(tuple((h, ()) for h, _ in row) for row in layout.cells))
    first = reader.observe("baubylon", field, 1)  # setup: the field, no pawn yet
    second = reader.observe("baubylon", layout, 2)  # the pawns have come
    assert FIELD not in first.extras  # read without history: the frame alone
    memory = second.extras[FIELD]
    assert len(memory) == 144
    heights = [h for row in layout.cells for h, _ in row]
    # the field remembered is the field (a hidden space or two may be misread, never most)
    assert sum(h == int(kept) for (kept, _), h in zip(memory, heights, strict=True)) >= 140
    # and it goes on: the next read is given this one
    third = reader.observe("baubylon", layout, 3)
    assert third.extras[FIELD] is not memory and len(third.extras[FIELD]) == 144
