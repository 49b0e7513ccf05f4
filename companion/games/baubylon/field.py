"""The Baubylon field: blocks on a grid of spaces, their heights in pawn heights, start points,
the goal, and the field check (baubylon.units, baubylon.field).

Spaces are named column letter + row number ("A1" top left, "C4" = third column, fourth row).
A block is 1 × 1 × 2 spaces: lying it covers 2 spaces and is 2 pawn heights high; standing it covers
1 space and is 4 pawn heights high. A block rests on whatever is below it; a lying block must rest
flat (both spaces at the same height). Spaces with no block are the table: not part of the field,
except start points, the table places a pawn enters from.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ...i18n import N_
from ..api import Message, Violation
from ..jsonread import JsonReader

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LYING_HEIGHT = 2  # pawn heights: one space is 2 pawn heights
STANDING_HEIGHT = 4
MAX_BLOCKS = 48  # in the box (40 in the Clemens Gerhards edition)
MAX_STEP = 5  # the die's 6 cannot be needed for one step: a step costing 6+ cannot be climbed
SHAPES = ("lying", "standing")
DIRECTIONS = ("east", "south")  # where a lying block's second space is, from `at`


class FieldError(ValueError):
    """A block that cannot lie where it is said to lie; `index` is its place in the block list."""

    def __init__(self, index: int, message: Message, rule_id: str = "baubylon.units"):
        self.index = index
        self.rule_id = rule_id
        self.message = message  # for the player; str(error) is its English
        super().__init__(message.render("en"))


def space_name(row: int, col: int) -> str:
    return f"{LETTERS[col]}{row + 1}"


@lru_cache(maxsize=4096)
def parse_space(name: str) -> tuple[int, int]:
    """(row, col) from 'C4'; ValueError for anything else."""
    if not isinstance(name, str) or len(name) < 2 or name[0] not in LETTERS or not name[1:].isdigit():
        raise ValueError(f"{name!r} is not a space name like 'C4'")
    return int(name[1:]) - 1, LETTERS.index(name[0])


@dataclass(frozen=True)
class Block:
    at: str
    shape: str  # lying | standing
    toward: str | None = None  # lying only: east or south

    def footprint(self) -> tuple[str, ...]:
        if self.shape == "standing":
            return (self.at,)
        row, col = parse_space(self.at)
        other = space_name(row, col + 1) if self.toward == "east" else space_name(row + 1, col)
        return (self.at, other)

    @property
    def height(self) -> int:
        return STANDING_HEIGHT if self.shape == "standing" else LYING_HEIGHT

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"at": self.at, "shape": self.shape}
        if self.toward is not None:
            data["toward"] = self.toward
        return data


@dataclass(frozen=True)
class Field:
    rows: int
    cols: int
    blocks: tuple[Block, ...]
    starts: tuple[str, ...]
    # Derived: height of each space's top (pawn heights) and the index of the block on top.
    heights: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)
    top_block: dict[str, int] = field(default_factory=dict, compare=False, hash=False, repr=False)

    @classmethod
    def build(cls, rows: int, cols: int, blocks: tuple[Block, ...], starts: tuple[str, ...]) -> Field:
        """Stack the blocks in order; FieldError names the first block that cannot lie there."""
        if not 1 <= cols <= len(LETTERS) or rows < 1:
            raise FieldError(-1, Message.of(N_("the grid must be 1 to {most} columns and at least 1 row"),
                                            most=len(LETTERS)))
        if len(blocks) > MAX_BLOCKS:
            raise FieldError(len(blocks) - 1, Message.of(N_("{found} blocks: the box holds {most}"),
                                                         found=len(blocks), most=MAX_BLOCKS))
        heights: dict[str, int] = {}
        top: dict[str, int] = {}
        for index, block in enumerate(blocks):
            if block.shape not in SHAPES:
                raise FieldError(index, Message.of(N_("shape must be one of {choices}"), choices=", ".join(SHAPES)))
            if (block.shape == "lying") != (block.toward in DIRECTIONS):
                raise FieldError(index, Message.of(N_("a lying block needs toward (east or south); a standing block none")))
            try:
                spaces = block.footprint()
                cells = [parse_space(s) for s in spaces]
            except (ValueError, IndexError):
                raise FieldError(index, Message.of(N_("block at {space} lies off the grid"), space=block.at)) from None
            if any(not (0 <= r < rows and 0 <= c < cols) for r, c in cells):
                raise FieldError(index, Message.of(N_("block at {space} lies off the {rows}×{cols} grid"), space=block.at,
                                                   rows=rows, cols=cols))
            bases = {heights.get(s, 0) for s in spaces}
            if len(bases) > 1:
                low, high = sorted(heights.get(s, 0) for s in spaces)
                raise FieldError(index, Message.of(N_("the lying block at {space} would rest on a step (heights {low} "
                                                      "and {high}); it must lie flat"), space=block.at, low=low,
                                                   high=high))
            base = bases.pop()
            for s in spaces:
                heights[s] = base + block.height
                top[s] = index
        for start in starts:
            try:
                r, c = parse_space(start)
            except ValueError:
                raise FieldError(-1, Message.of(N_("start point {value} is not a space name"), value=repr(start)),
                                 "baubylon.enter") from None
            if not (0 <= r < rows and 0 <= c < cols):
                raise FieldError(-1, Message.of(N_("start point {space} lies off the grid"), space=start), "baubylon.enter")
        if len(set(starts)) != len(starts):
            raise FieldError(-1, Message.of(N_("a start point is listed twice")), "baubylon.enter")
        return cls(rows, cols, tuple(blocks), tuple(starts), heights, top)

    # --- geometry ------------------------------------------------------------------------------
    def height(self, space: str) -> int:
        return self.heights.get(space, 0)

    def is_field(self, space: str) -> bool:
        """A space with a block on it: the only places a pawn may stand."""
        return self.heights.get(space, 0) > 0

    def spaces(self) -> Iterator[str]:
        for row in range(self.rows):
            for col in range(self.cols):
                yield space_name(row, col)

    def neighbours(self, space: str) -> tuple[str, ...]:
        """The 4 orthogonal neighbours inside the grid (pawns do not move diagonally)."""
        return _neighbours(self.rows, self.cols, space)

    def summit(self) -> tuple[str, ...]:
        """The spaces at the greatest height, in grid order."""
        if not self.heights:
            return ()
        top = max(self.heights.values())
        return tuple(s for s in self.spaces() if self.heights.get(s, 0) == top)

    def goal(self) -> tuple[str, ...]:
        """The goal: the top of the single highest block (1 space standing, 2 lying); () if not unique."""
        summit = self.summit()
        return summit if len({self.top_block[s] for s in summit}) == 1 else ()

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "blocks": [b.to_json() for b in self.blocks],
            "starts": list(self.starts),
        }

    @classmethod
    def from_reader(cls, reader: JsonReader) -> Field:
        from ...errors import FormatError

        rows = reader.get("rows").int(minimum=1, maximum=99)
        cols = reader.get("cols").int(minimum=1, maximum=len(LETTERS))
        blocks = []
        for item in reader.get("blocks").list():
            shape = item.get("shape").str(SHAPES)
            toward = item.get("toward", None).optional()
            blocks.append(Block(item.get("at").str(), shape, toward.str(DIRECTIONS) if toward else None))
        starts = tuple(item.str() for item in reader.get("starts").list())
        try:
            return cls.build(rows, cols, tuple(blocks), starts)
        except FieldError as exc:
            where = reader.get("blocks").list()[exc.index].path if exc.index >= 0 else reader.path
            raise FormatError(reader.source, where, Message.of(N_("{reason} [{rule}]"), reason=exc.message,
                                                               rule=exc.rule_id)) from None


@lru_cache(maxsize=4096)
def _neighbours(rows: int, cols: int, space: str) -> tuple[str, ...]:
    row, col = parse_space(space)
    return tuple(
        space_name(row + dr, col + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= row + dr < rows and 0 <= col + dc < cols
    )


def step_cost(from_level: int, to_level: int) -> int:
    """baubylon.move: 1 for the space, plus 1 per pawn height up or down."""
    return 1 + abs(to_level - from_level)


def _issue(msgid: str, where: tuple[str, ...] = (), fix: str | None = None, **params: Any) -> Violation:
    return Violation("baubylon.field", Message.of(msgid, **params), Message.of(fix, **params) if fix else None, where)


def steep_steps(field_: Field) -> tuple[Violation, ...]:
    """Steps between neighbouring places (or a start point and a place) needing 6 or more: no roll
    climbs them. They are allowed when another way leads up (「作り直すか、それ以下で登れる道を増やして
    ください」), so they are notes, and issues of check_field only where a place cannot be reached."""
    found: list[Violation] = []
    seen: set[frozenset[str]] = set()
    for space in [*field_.starts, *(s for s in field_.spaces() if field_.is_field(s))]:
        for other in field_.neighbours(space):
            pair = frozenset((space, other))
            if not field_.is_field(other) or pair in seen:
                continue
            seen.add(pair)
            cost = step_cost(field_.height(space), field_.height(other))
            if cost > MAX_STEP:
                low, high = sorted((space, other), key=field_.height)
                found.append(_issue(N_("The step from {low} up to {high} needs {cost}; no die roll climbs it."),
                                    (low, high), N_("Build it lower, or another way up to {high} that needs 5 or "
                                                    "less."), low=low, high=high, cost=cost))
    return tuple(found)


def check_field(field_: Field) -> tuple[Violation, ...]:
    """baubylon.field: places no start point reaches (and the steps needing 6 or more that cut them
    off), a non-unique summit, and start points that are not table places beside the field.

    A step needing 6 or more is not wrong in itself: the rulebook asks to rebuild it *or* to add a
    way up needing less, so it is an issue only when it borders a place that cannot be reached."""
    issues: list[Violation] = []
    if not field_.blocks:
        return (_issue(N_("The field has no blocks."), (), N_("Build the field with at least one block.")),)
    if not field_.starts:
        issues.append(_issue(N_("The field has no start point."), (),
                             N_("Mark a table place beside the field as a start point.")))
    for start in field_.starts:
        if field_.is_field(start):
            issues.append(_issue(N_("Start point {space} is on a block; start points are table places beside "
                                    "the field."), (start,), N_("Move start point {space} to the table."),
                                 space=start))
        elif not any(field_.is_field(n) for n in field_.neighbours(start)):
            issues.append(_issue(N_("Start point {space} does not touch the field."), (start,),
                                 N_("Move start point {space} next to a block."), space=start))
    unreachable = sorted(set(s for s in field_.spaces() if field_.is_field(s)) - reachable_places(field_))
    if unreachable and field_.starts:
        cut_off = set(unreachable)
        issues.extend(v for v in steep_steps(field_) if cut_off & set(v.where))
        issues.append(_issue(N_("These places cannot be reached from any start point: {spaces}."),
                             tuple(unreachable), N_("Add a way up to them that needs 5 or less, or a start point "
                                                    "beside them."), spaces=", ".join(unreachable)))
    if not field_.goal():
        summit = field_.summit()
        issues.append(_issue(N_("The highest point is not unique: {spaces} are equally high."), summit,
                             N_("Make one place higher than all the others: the goal."),
                             spaces=", ".join(summit)))
    return tuple(issues)


def reachable_places(field_: Field) -> set[str]:
    """Field spaces a pawn can reach from the start points with steps of at most 5 (no pawns)."""
    queue = deque(field_.starts)
    found: set[str] = set()
    while queue:
        space = queue.popleft()
        for other in field_.neighbours(space):
            if other in found or not field_.is_field(other):
                continue
            if step_cost(field_.height(space), field_.height(other)) <= MAX_STEP:
                found.add(other)
                queue.append(other)
    return found


def example_field() -> Field:
    """A small field for demos and tests (8×8): a 4×4 platform of lying blocks, a second layer in its
    middle and a lying block on top as the goal (D4–E4, 6 pawn heights); a standing block at G3;
    start points B3, C7, G6 and G2."""
    blocks = [Block(f"{c}{r}", "lying", "east") for r in range(3, 7) for c in ("C", "E")]
    blocks += [Block("D4", "lying", "east"), Block("D5", "lying", "east"), Block("D4", "lying", "east")]
    blocks.append(Block("G3", "standing"))
    return Field.build(8, 8, tuple(blocks), ("B3", "C7", "G6", "G2"))
