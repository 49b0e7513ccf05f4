"""Costing a path and finding every place a piece can reach with a roll (baubylon.move,
baubylon.stack, baubylon.knock). Pure functions over a field and the pawn stacks on it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...i18n import N_
from ..api import Violation
from .field import Field, parse_space, step_cost

MAX_STACK = 5  # pawns in one stack, blockers included

# How "no stepping back and forth" (「行って戻って、といった足踏み移動手段は取れない」) is read; the
# translation adds 「一筆書きのような移動方法なら多分問題ない」, so tables may choose:
NO_REVISIT = "no_revisit"  # a path never enters the same space twice (the origin included)
ONE_STROKE = "one_stroke"  # 一筆書き: never the same step twice, either way; may cross itself, never end where it began
PATH_RULES = (NO_REVISIT, ONE_STROKE)

Stacks = Mapping[str, tuple[str, ...]]


@dataclass(frozen=True)
class Reach:
    """One way to end on `end`: the spaces entered, where a top pawn is knocked off, the cost."""

    end: str
    path: tuple[str, ...]
    knocks: tuple[str, ...]
    cost: int


def _v(rule: str, msgid: str, where: tuple[str, ...] = (), fix: str | None = None, **params: Any) -> Violation:
    return Violation.of(rule, msgid, fix=fix, where=where, **params)


def _adjacent(a: str, b: str) -> bool:
    (ra, ca), (rb, cb) = parse_space(a), parse_space(b)
    return abs(ra - rb) + abs(ca - cb) == 1


def trace(
    field: Field, stacks: Stacks, origin: str, level: int, path: tuple[str, ...], knocks: tuple[str, ...],
    path_rule: str = NO_REVISIT,
) -> tuple[int, list[Violation]]:
    """The cost of walking `path` from `origin` (feet at `level`), and what is wrong with it.
    `stacks` must not hold the moving piece itself (it has left `origin`)."""
    problems: list[Violation] = []
    for space in knocks:
        if space not in path:
            problems.append(_v("baubylon.knock", N_("{space} is not on the path: only a stack passed on the way "
                                                    "can be knocked."), (space,), space=space))
    if len(set(knocks)) != len(knocks):
        problems.append(_v("baubylon.knock", N_("Each stack's top pawn is knocked off once.")))
    visited = {origin}
    steps: set[frozenset[str]] = set()
    knocked: set[str] = set()
    here, cost = origin, 0
    for space in path:
        try:
            parse_space(space)
            near = _adjacent(here, space)
        except ValueError:
            problems.append(_v("baubylon.move", N_("{space} is not a space name like C4."), (), space=space))
            return cost, problems
        if not near:
            problems.append(_v("baubylon.move", N_("{space} is not next to {here}: pawns move one space at a time, "
                                                   "not diagonally."), (here, space), space=space, here=here))
            return cost, problems
        if not field.is_field(space):
            problems.append(_v("baubylon.move", N_("{space} is not part of the field."), (space,), space=space))
            return cost, problems
        step = frozenset((here, space))
        if path_rule == ONE_STROKE and step in steps:
            problems.append(_v("baubylon.move", N_("The path walks the step between {here} and {space} twice: no "
                                                   "stepping back and forth."), (here, space), space=space,
                               here=here))
            return cost, problems
        if path_rule != ONE_STROKE and space in visited:
            problems.append(_v("baubylon.move", N_("The path comes back to {space}: no stepping back and forth."),
                               (space,), space=space))
            return cost, problems
        visited.add(space)
        steps.add(step)
        stack = stacks.get(space, ())
        if space in knocked:  # passing again (one-stroke paths): its top piece is already gone
            stack = stack[:-1]
        if space in knocks and space not in knocked:
            knocked.add(space)
            if len(stack) < 2:
                problems.append(_v("baubylon.knock", N_("Only a stack (2 or more pawns) can have its top pawn "
                                                        "knocked off; {space} holds {count}."), (space,),
                                   space=space, count=len(stack)))
                return cost, problems
            landing = field.height(space) + len(stack) - 1
        else:
            if len(stack) >= MAX_STACK:
                problems.append(_v("baubylon.stack", N_("The stack on {space} already has 5 pawns: nobody climbs "
                                                        "on top."), (space,), N_("Knock off its top pawn instead."),
                                   space=space))
                return cost, problems
            landing = field.height(space) + len(stack)
        cost += step_cost(level, landing)
        here, level = space, landing
    if path and here == origin:
        problems.append(_v("baubylon.move", N_("The path ends where it began: no stepping back and forth."),
                           (origin,), space=origin))
    return cost, problems


def reaches(field: Field, stacks: Stacks, origin: str, level: int, roll: int,
            path_rule: str = NO_REVISIT) -> list[Reach]:
    """Every distinct outcome (end space, knocked stacks) of a roll, each with one path; fewest knocks
    first. `stacks` must not hold the moving piece itself."""
    found: dict[tuple[str, tuple[str, ...]], Reach] = {}
    one_stroke = path_rule == ONE_STROKE

    def walk(here: str, level: int, left: int, visited: frozenset, path: tuple[str, ...],
             knocks: tuple[str, ...]) -> None:
        for space in field.neighbours(here):
            step = frozenset((here, space))
            if (step if one_stroke else space) in visited or not field.is_field(space):
                continue
            stack = stacks.get(space, ())
            if space in knocks:  # a stack loses its top piece once; walking it again climbs the rest
                stack = stack[:-1]
            options = []
            if len(stack) < MAX_STACK:
                options.append((field.height(space) + len(stack), knocks))
            # A knock names a space, not a visit: like trace(), it happens on the path's first visit there.
            if len(stack) >= 2 and space not in knocks and space not in path:
                options.append((field.height(space) + len(stack) - 1, (*knocks, space)))
            for landing, new_knocks in options:
                cost = step_cost(level, landing)
                if cost > left:
                    continue
                new_path = (*path, space)
                if cost == left:
                    if space == origin:
                        continue  # a move never ends where it began
                    key = (space, tuple(sorted(new_knocks)))
                    found.setdefault(key, Reach(space, new_path, new_knocks, roll))
                else:
                    walk(space, landing, left - cost, visited | {step if one_stroke else space}, new_path,
                         new_knocks)

    walk(origin, level, roll, frozenset() if one_stroke else frozenset({origin}), (), ())
    return sorted(found.values(), key=lambda r: (len(r.knocks), r.end, r.path))


def destinations(field: Field, stacks: Stacks, origin: str, level: int, roll: int,
                 path_rule: str = NO_REVISIT) -> dict[str, Reach]:
    """The referee's answer to "where can this piece go with this roll?": each end space with one
    path that proves it (one that knocks nobody off when there is one)."""
    best: dict[str, Reach] = {}
    for reach in reaches(field, stacks, origin, level, roll, path_rule):
        best.setdefault(reach.end, reach)
    return dict(sorted(best.items()))
