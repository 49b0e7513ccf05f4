"""Which moves explain what the camera sees: likelihoods of candidate states against an Observation.

Each cell reading is scored against the reading a candidate state should give: the reading's own
confidence when it agrees, an alternative's confidence when one agrees, a small miss probability
otherwise. An explanation's log-likelihood is the sum over cells; only the cells a candidate changes
need re-scoring, so hundreds of candidates cost little. `decide` turns the ranked explanations into
one of: nothing changed, accept, violation, ask the player, or wait (nothing explains the scene yet:
an action is still under way).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from ..games.api import GameState, Move, Ruling
from ..vision.types import CellReading, Observation
from .views.base import ExpectedCell, ExpectedView, GameView, changed_cells

MISS_FLOOR = 0.005  # probability that a confident reading is wrong in a way no alternative names
STRONG = 0.75  # a reading at least this sure that matches nothing a candidate expects rules it out
Cell = tuple[str, int, int]


def attrs_agree(observed: Mapping[str, Any], expected: ExpectedCell) -> bool:
    """Expected attrs must agree where the reading gives them; a missing attr is no evidence."""
    return all(observed.get(key, value) == value for key, value in expected.attrs)


def cell_probability(reading: CellReading, expected: ExpectedCell, soft: tuple[str, ...] = ()) -> tuple[float, bool]:
    """(probability that this reading comes from the expected cell, strong mismatch?).

    A sure reading that differs from the expected cell only in a `soft` attr (one the camera reads
    less reliably than the piece itself, e.g. a Babylon tile's icon) weighs against it but never
    rules it out: a misread there must not leave the whole scene unexplained.
    """
    if reading.label == expected.label and attrs_agree(reading.attrs, expected):
        return max(reading.confidence, MISS_FLOOR), False
    for label, attrs, confidence in reading.alternatives:
        if label == expected.label and attrs_agree(attrs, expected):
            return max(confidence, MISS_FLOOR), False
    rest = 1.0 - reading.confidence - sum(a[2] for a in reading.alternatives)
    strong = reading.confidence >= STRONG
    if strong and soft and reading.label == expected.label:
        strong = not all(reading.attrs.get(k, v) == v for k, v in expected.attrs if k not in soft)
    return max(MISS_FLOOR, rest / 4), strong


@dataclass
class Scorer:
    """Scores expected views against one scene (a set of observations, one per region)."""

    observations: Mapping[str, Observation]
    soft: tuple[str, ...] = ()  # attrs whose sure misreading does not rule a reading out (GameView.soft_attrs)
    _cache: dict[tuple[Cell, ExpectedCell], tuple[float, bool]] = field(default_factory=dict)

    def cell(self, where: Cell, expected: ExpectedCell) -> tuple[float, bool]:
        key = (where, expected)
        hit = self._cache.get(key)
        if hit is None:
            region, r, c = where
            p, strong = cell_probability(self.observations[region].cell(r, c), expected, self.soft)
            hit = (math.log(p), strong)
            self._cache[key] = hit
        return hit

    def full(self, view: ExpectedView) -> tuple[float, int]:
        total, strong = 0.0, 0
        for region, grid in view.items():
            if region not in self.observations:
                continue  # a region the camera does not see this time carries no evidence
            for r, row in enumerate(grid):
                for c, expected in enumerate(row):
                    ll, s = self.cell((region, r, c), expected)
                    total += ll
                    strong += s
        return total, strong

    def seen_changes(self, view: ExpectedView) -> frozenset[Cell]:
        """Cells the players may have changed: the best reading disagrees with the view, or is unsure."""
        out = set()
        for region, grid in view.items():
            obs = self.observations.get(region)
            if obs is None:
                continue
            for r, row in enumerate(grid):
                for c, expected in enumerate(row):
                    reading = obs.cell(r, c)
                    same = reading.label == expected.label and attrs_agree(reading.attrs, expected)
                    if not same or reading.confidence < STRONG:
                        out.add((region, r, c))
        return frozenset(out)


@dataclass(frozen=True)
class Explanation:
    """A chain of moves from the confirmed state that would give the scene (empty: no change)."""

    moves: tuple[Move, ...]
    rulings: tuple[Ruling, ...]  # one per move; only the last may be rejected
    states: tuple[GameState, ...]  # state after each legal move of the chain
    view: ExpectedView
    log_likelihood: float
    strong_mismatches: int
    weakest: float  # lowest match probability among the cells the chain changes (1.0 if none)
    changed: frozenset[Cell]

    @property
    def legal(self) -> bool:
        return all(r.accepted for r in self.rulings)

    @property
    def no_change(self) -> bool:
        return not self.moves


def _score(scorer: Scorer, base: ExpectedView, base_ll: float, base_strong: int,
           view: ExpectedView) -> tuple[float, int, float, frozenset[Cell]]:
    changed = changed_cells(base, view)
    ll, strong, weakest = base_ll, base_strong, 1.0
    for region, r, c in changed:
        if region not in scorer.observations:
            continue
        old_ll, old_strong = scorer.cell((region, r, c), base[region][r][c])
        new_ll, new_strong = scorer.cell((region, r, c), view[region][r][c])
        ll += new_ll - old_ll
        strong += new_strong - old_strong
        weakest = min(weakest, math.exp(new_ll))
    return ll, strong, weakest, changed


def explain(state: GameState, view: GameView, observations: Mapping[str, Observation],
            base_view: ExpectedView | None = None, budget: int | None = None) -> list[Explanation]:
    """Every explanation worth weighing, best first.

    Chains are grown breadth-first up to `view.max_chain` moves; a chain is only extended when every
    cell it changes is a cell the camera sees changed, which keeps the search small.
    """
    scorer = Scorer(observations, soft=getattr(view, "soft_attrs", ()))
    base = base_view if base_view is not None else view.expected(state)
    base_ll, base_strong = scorer.full(base)
    seen = scorer.seen_changes(base)
    out = [Explanation((), (), (), base, base_ll, base_strong, 1.0, frozenset())]
    if not seen:
        return out
    frontier: list[Explanation] = [out[0]]
    budget = view.budget if budget is None else budget  # candidate states weighed at most
    for _depth in range(view.max_chain):
        next_frontier: list[Explanation] = []
        for parent in frontier:
            here = parent.states[-1] if parent.states else state
            for move, ruling, after_state, after_view in _successors(here, view, observations, seen):
                budget -= 1
                if budget < 0:
                    break
                ll, strong, weakest, changed = _score(scorer, base, base_ll, base_strong, after_view)
                if not changed <= seen:
                    continue  # it would change a cell the camera sees unchanged
                exp = Explanation(
                    parent.moves + (move,), parent.rulings + (ruling,),
                    parent.states + ((after_state,) if after_state is not None else ()),
                    after_view, ll, strong, min(weakest, parent.weakest), changed,
                )
                if changed != parent.changed:
                    out.append(exp)  # a move that changes nothing visible only links a chain
                if ruling.accepted and after_state is not None:
                    next_frontier.append(exp)
        frontier = next_frontier
        if not frontier or budget < 0:
            break
    out.sort(key=lambda e: (-e.log_likelihood, len(e.moves)))
    return _dedupe(_discount_untouched(scorer, base, out))


def _discount_untouched(scorer: Scorer, base: ExpectedView, out: list[Explanation]) -> list[Explanation]:
    """A sure reading no candidate explains, in a region no candidate changes while candidates do
    change another region (Babylon: a misread in the other player's garden while the player to move
    builds), is the same for every reading of the scene: it cannot tell them apart, so it does not
    rule them all out (the scene would wait for ever)."""
    touched = {region for e in out for region, _r, _c in e.changed}
    if not touched:
        return out
    strong = 0
    for region, grid in base.items():
        if region in touched or region not in scorer.observations:
            continue
        for r, row in enumerate(grid):
            for c, expected in enumerate(row):
                strong += scorer.cell((region, r, c), expected)[1]
    if not strong:
        return out
    return [replace(e, strong_mismatches=max(0, e.strong_mismatches - strong)) for e in out]


def _successors(state: GameState, view: GameView, observations: Mapping[str, Observation],
                seen: frozenset[Cell]) -> Iterable[tuple[Move, Ruling, GameState | None, ExpectedView]]:
    legal: set[Move] = set()
    for move in view.candidates_near(state, seen):
        legal.add(move)
        after = state._apply_legal(move)
        yield move, Ruling(move), after, view.expected(after)
    seen: set[Move] = set()
    scene = [(m, True) for m in view.scene_candidates(state, observations)]
    for move, from_scene in _chain(scene, ((m, False) for m in view.illegal_candidates(state))):
        if move in legal or move in seen:
            continue
        seen.add(move)
        ruling = state.check(move)
        if ruling.accepted:
            if from_scene:  # a legal move only the scene could suggest (e.g. icons read)
                after = state._apply_legal(move)
                yield move, ruling, after, view.expected(after)
            continue  # an "illegal" proposal that is legal after all: already weighed above
        after_view = view.physical_after(state, move)
        if after_view is not None:
            yield move, ruling, None, after_view


def _chain(*iterables: Iterable[Any]) -> Iterable[Any]:
    for iterable in iterables:
        yield from iterable


def _view_key(view: ExpectedView) -> tuple:
    return tuple(sorted((region, grid) for region, grid in view.items()))


def _dedupe(explanations: list[Explanation]) -> list[Explanation]:
    """Of chains giving the same picture, keep the shortest (and a legal one before an illegal one)."""
    best: dict[tuple, Explanation] = {}
    for exp in explanations:
        key = _view_key(exp.view)
        kept = best.get(key)
        if kept is None or (len(exp.moves), not exp.legal) < (len(kept.moves), not kept.legal):
            best[key] = exp
    # several equally short legal chains to the same picture are a real ambiguity: keep them all
    out = []
    for exp in explanations:
        kept = best[_view_key(exp.view)]
        if exp is kept or (exp.legal and kept.legal and len(exp.moves) == len(kept.moves)):
            out.append(exp)
    return out


@dataclass(frozen=True)
class Decision:
    kind: str  # "none", "accept", "violation", "ask", "wait"
    chosen: Explanation | None = None
    candidates: tuple[Explanation, ...] = ()
    immediate: bool = False  # an ask no second look can settle (the candidates look the same)


def decide(explanations: list[Explanation], margin: float = math.log(8),
           min_confidence: float = 0.6) -> Decision:
    """Turn ranked explanations into one ruling. Among near-equal readings a legal move wins.

    A legal reading that no other reading comes near is accepted even if some of its cells are
    read unsurely (the rules pick it out). Otherwise legal readings whose changed cells are all
    read surely are "confident": one of them is
    accepted; several that look the same from above (a choice the camera cannot see, e.g. the
    flower of a tile just taken) are asked at once; several that look different are asked after a
    second look. Readings resting on unsure cells only ask when nothing confident competes.
    """
    viable = [e for e in explanations if e.strong_mismatches == 0]
    if not viable:
        return Decision("wait")  # something is on the table that no candidate explains yet
    best = viable[0]
    near = [e for e in viable if best.log_likelihood - e.log_likelihood <= margin]
    legal_near = [e for e in near if e.legal]
    if legal_near:
        moves = [e for e in legal_near if not e.no_change]
        if not moves:
            return Decision("none", legal_near[0])
        if len(near) == 1:
            return Decision("accept", moves[0])  # unsure cells, but nothing else comes close
        confident = [e for e in moves if e.weakest >= min_confidence]
        if confident:
            looks = {_view_key(e.view) for e in confident}
            if len(confident) == 1:
                return Decision("accept", confident[0])
            return Decision("ask", None, tuple(confident), immediate=len(looks) == 1)
        if best.no_change:
            return Decision("none", best, tuple(moves))  # a faint reading of a change: look again
        return Decision("ask", moves[0], tuple(moves))
    # nothing legal comes close, and every near reading breaks the same rules: the action is illegal
    # whichever of them it was, even if some cells are read unsurely
    same_rules = {e.rulings[-1].rule_ids for e in near} == {best.rulings[-1].rule_ids}
    alone = same_rules and best.weakest >= min_confidence / 4
    if best.weakest < min_confidence and not alone:
        return Decision("wait", best)  # an unsure reading of an illegal action: look again
    return Decision("violation", best)
