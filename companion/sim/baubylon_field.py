"""A Baubylon field built the way players build one (baubylon.field, baubylon.units, baubylon.stack).

Blocks come out of the box one at a time: a lying block covers two neighbouring spaces and adds
2 pawn heights to both (it must rest flat), a standing block covers one and adds 4. Each rests on
the table beside the field or on top of it, so the field grows out and up. A block is only laid
where the field stays one piece that a pawn can walk over (every step between neighbouring places
at most 4 pawn heights: step_cost ≤ MAX_STEP). The single highest point is the goal; where the
build leaves two equally high, one more block crowns one of them (a field that cannot be crowned is
drawn again). The players then mark start points on the table beside the field and the pawns come,
in stacks of up to 5. The game's own check (`check_field`) passes on every field this gives.

Players build a hill, not a carpet: after a base on the table (`BASE`) a block more often goes on
top of the field than beside it, on top more often where the field is already high (`HIGH_BIAS`),
beside most often where the field is round the space on several sides. Over 1000 fields (19-48
blocks, 34 on average, covering 35 spaces) the goals stand 6-18 pawn heights high: ≤ 8 in 24 %,
≤ 10 in 64 %, ≤ 12 in 88 %, ≤ 14 in 98.2 %, ≤ 16 in 99.8 % (example_field's, of 11 blocks, at 6).
"""

from __future__ import annotations

import math
from bisect import bisect
from collections import deque
from dataclasses import dataclass
from itertools import accumulate

import numpy as np

from ..games.baubylon.field import (
    LYING_HEIGHT,
    MAX_BLOCKS,
    MAX_STEP,
    STANDING_HEIGHT,
    Block,
    Field,
    check_field,
    space_name,
)
from ..vision.observers.dimensions import BAUBYLON as BAU
from .boards import PAWN_COLOURS, BaubylonLayout

SIZE = 12  # the bench region's 12 × 12 spaces
MAX_CLIMB = MAX_STEP - 1  # pawn heights a step may climb (step_cost = 1 + climb)
BLOCKS = (20, MAX_BLOCKS)  # blocks drawn (one fewer used where the field has its goal without the last)
STANDING = 0.25  # share of blocks set standing
BASE = 6  # the first blocks lie on the table: a base to build on
ON_TOP = 0.55  # then this share of blocks goes on the field rather than beside it on the table
HIGH_BIAS = 0.15  # on top, a place's weight grows as exp(HIGH_BIAS · its height)
PAWNS = (6, 20)
PILE_ON = 0.3  # a pawn joins a stack already there (a pawn in the way, baubylon.stack)
STARTS = (2, 4)
_TRIES = 40  # candidate placements drawn per block before the build stops
_NEIGHBOURS = tuple(tuple((r + dr) * SIZE + c + dc for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                          if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE)
                    for r in range(SIZE) for c in range(SIZE))
_EAST, _SOUTH = 1, SIZE
_WEIGHT = [math.exp(HIGH_BIAS * h) for h in range(MAX_BLOCKS * STANDING_HEIGHT + 1)]


@dataclass(frozen=True)
class BuiltBaubylonLayout(BaubylonLayout):
    """A BaubylonLayout with the field it was built as: `field.blocks` in the order they were laid
    (each on what was already there), so an in-play build can lay them again."""

    field: Field | None = None


class _Build:
    """The field's heights while it is built (flat space index r·SIZE + c)."""

    def __init__(self) -> None:
        self.height = [0] * (SIZE * SIZE)
        self.top_block = [-1] * (SIZE * SIZE)
        self.placed: list[int] = []  # the field's spaces, in the order they were first covered
        self.blocks: list[Block] = []

    def footprint(self, at: int, shape: str, toward: int) -> tuple[int, ...] | None:
        if shape == "standing":
            return (at,)
        other = at + toward
        if other >= SIZE * SIZE or (toward == _EAST and other % SIZE == 0):
            return None
        return (at, other)

    def fits(self, spaces: tuple[int, ...], size: int) -> bool:
        """Flat underneath, joined to the field by a walkable step, and the field still one piece."""
        h = self.height
        base = h[spaces[0]]
        if any(h[s] != base for s in spaces):
            return False
        top = base + size
        joined = not self.blocks
        cut = False
        for s in spaces:
            for n in _NEIGHBOURS[s]:
                if n in spaces or h[n] == 0:
                    continue
                joined = joined or abs(h[n] - top) <= MAX_CLIMB
                cut = cut or (abs(h[n] - base) <= MAX_CLIMB < abs(h[n] - top))
        if not joined:
            return False
        if base and cut:  # a step that was walkable no longer is: is the field still one piece?
            return self._one_piece({s: top for s in spaces})
        return True

    def _one_piece(self, raised: dict[int, int]) -> bool:
        h = [raised.get(i, v) for i, v in enumerate(self.height)]
        places = [i for i, v in enumerate(h) if v]
        seen = {places[0]}
        queue = deque(seen)
        while queue:
            s = queue.popleft()
            for n in _NEIGHBOURS[s]:
                if h[n] and n not in seen and abs(h[n] - h[s]) <= MAX_CLIMB:
                    seen.add(n)
                    queue.append(n)
        return len(seen) == len(places)

    def lay(self, spaces: tuple[int, ...], shape: str, toward: int) -> None:
        size = STANDING_HEIGHT if shape == "standing" else LYING_HEIGHT
        for s in spaces:
            if not self.height[s]:
                self.placed.append(s)
            self.height[s] += size
            self.top_block[s] = len(self.blocks)
        at = divmod(spaces[0], SIZE)
        self.blocks.append(Block(space_name(*at), shape, None if shape == "standing" else
                                 ("east" if toward == _EAST else "south")))


def _place(build: _Build, rng: np.random.Generator) -> tuple[tuple[int, ...], str, int] | None:
    """One block's place drawn at random: its spaces, shape and direction; None if it fits nowhere
    tried there (a lying block is tried all four ways round the space drawn)."""
    h = build.height
    shape = "standing" if rng.random() < STANDING else "lying"
    placed = build.placed
    if not placed:
        at = int(rng.integers(3, SIZE - 3)) * SIZE + int(rng.integers(3, SIZE - 3))
    elif len(build.blocks) >= BASE and rng.random() < ON_TOP:
        weights = list(accumulate(_WEIGHT[h[s]] for s in placed))
        at = placed[min(bisect(weights, rng.random() * weights[-1]), len(placed) - 1)]
    else:  # beside, on the table: most often where the field is round it on several sides (fills in)
        beside = sorted({n for s in placed for n in _NEIGHBOURS[s] if not h[n]})
        weights = list(accumulate(sum(1 for m in _NEIGHBOURS[n] if h[m]) ** 2 for n in beside))
        at = beside[min(bisect(weights, rng.random() * weights[-1]), len(beside) - 1)]
    if shape == "standing":
        return ((at,), shape, _EAST) if build.fits((at,), STANDING_HEIGHT) else None
    for k in rng.permutation(4):
        toward = _EAST if k % 2 else _SOUTH
        start = at - toward if k >= 2 else at  # the block may reach back from `at`
        spaces = build.footprint(start, shape, toward) if 0 <= start < SIZE * SIZE else None
        if spaces and build.fits(spaces, LYING_HEIGHT):
            return spaces, shape, toward
    return None


def _crown(build: _Build) -> bool:
    """The goal: the highest place, one block's top above all others (baubylon.goal); if the
    field has none yet, one block laid on its highest place makes it."""
    h = build.height
    top = max(h)
    summit = [s for s, v in enumerate(h) if v == top]
    if len({build.top_block[s] for s in summit}) == 1:
        return True
    for s in summit:
        for toward in (_EAST, _SOUTH):
            spaces = build.footprint(s, "lying", toward)
            if spaces and build.fits(spaces, LYING_HEIGHT):
                build.lay(spaces, "lying", toward)
                return True
    for s in summit:
        if build.fits((s,), STANDING_HEIGHT):
            build.lay((s,), "standing", _EAST)
            return True
    return False


def _starts(build: _Build, rng: np.random.Generator) -> tuple[str, ...]:
    """Table spaces beside places a pawn can climb onto from the table (baubylon.enter)."""
    h = build.height
    low = sorted({n for s in build.placed if h[s] <= MAX_CLIMB for n in _NEIGHBOURS[s] if not h[n]})
    if not low:
        return ()
    count = min(len(low), int(rng.integers(STARTS[0], STARTS[1] + 1)))
    return tuple(space_name(*divmod(low[i], SIZE)) for i in sorted(rng.choice(len(low), count, replace=False)))


def build_field(rng: np.random.Generator) -> Field:
    """A random field that passes baubylon.field (drawn again, from the same rng, until one does)."""
    while True:
        build = _Build()
        wanted = int(rng.integers(BLOCKS[0], BLOCKS[1] + 1)) - 1  # the last one crowns the goal
        misses = 0
        while len(build.blocks) < wanted and misses < _TRIES:
            place = _place(build, rng)
            if place:
                build.lay(*place)
                misses = 0
            else:
                misses += 1
        if not _crown(build):
            continue
        starts = _starts(build, rng)
        field_ = Field.build(SIZE, SIZE, tuple(build.blocks), starts)
        if starts and not check_field(field_):
            return field_


def _stacks(field_: Field, rng: np.random.Generator) -> dict[str, list[str]]:
    places = list(field_.heights)  # the field's spaces (pawns stand on blocks), in the order laid
    stacks: dict[str, list[str]] = {}
    for _ in range(int(rng.integers(PAWNS[0], PAWNS[1] + 1))):
        piled = [s for s, p in stacks.items() if len(p) < BAU.max_pawns]
        space = (piled[int(rng.integers(len(piled)))] if piled and rng.random() < PILE_ON
                 else places[int(rng.integers(len(places)))])
        stack = stacks.setdefault(space, [])
        if len(stack) < BAU.max_pawns:
            stack.append(str(rng.choice(PAWN_COLOURS)))
    return stacks


def built_baubylon(rng: np.random.Generator) -> BuiltBaubylonLayout:
    """A built field with pawns on it, as the bench's layout."""
    field_ = build_field(rng)
    stacks = _stacks(field_, rng)
    cells = tuple(tuple((field_.height(space_name(r, c)), tuple(stacks.get(space_name(r, c), ())))
                        for c in range(SIZE)) for r in range(SIZE))
    return BuiltBaubylonLayout(cells, field_)
