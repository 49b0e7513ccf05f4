"""How a game state looks from above, and which actions could explain a change on the table.

A `GameView` adapts one rules engine to the camera: `expected(state)` gives, per board region, the
reading an observer should make of every cell (labels of companion/vision/labels.py), and the
candidate generators propose the moves, legal or not, that the tracker weighs against what it sees.
The tracker itself knows nothing of any particular game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...games.api import GameState, Move


@dataclass(frozen=True)
class ExpectedCell:
    """The reading one cell should give. Only the attrs listed here are compared with a reading."""

    label: str
    attrs: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, label: str, **attrs: Any) -> ExpectedCell:
        return cls(label, tuple(sorted(attrs.items())))

    def attr(self, key: str, default: Any = None) -> Any:
        return dict(self.attrs).get(key, default)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "attrs": dict(self.attrs)}


Grid = tuple[tuple[ExpectedCell, ...], ...]
ExpectedView = Mapping[str, Grid]  # region name -> [row][col]


def grid_of(rows: int, cols: int, cell: ExpectedCell) -> list[list[ExpectedCell]]:
    return [[cell] * cols for _ in range(rows)]


def freeze(grid: list[list[ExpectedCell]]) -> Grid:
    return tuple(tuple(row) for row in grid)


def changed_cells(before: ExpectedView, after: ExpectedView) -> frozenset[tuple[str, int, int]]:
    """The (region, row, col) whose expected reading differs between two views."""
    out = set()
    for region, grid in after.items():
        old = before.get(region)
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if old is None or old[r][c] != cell:
                    out.add((region, r, c))
    return frozenset(out)


@dataclass
class GameView:
    """The camera's side of one game. Subclass per game (companion/referee/views/<game>.py).

    `max_chain` is how many moves one still scene may hold (a player may do several steps while
    their hand hides the board); `budget` caps the candidate states weighed per scene.
    """

    game: str
    regions: tuple[str, ...] = ()
    max_chain: int = 2
    budget: int = 4000
    options: dict[str, Any] = field(default_factory=dict)
    soft_attrs: tuple[str, ...] = ()  # attrs a sure misreading of which never rules a reading out

    def expected(self, state: GameState) -> ExpectedView:
        raise NotImplementedError

    def legal_candidates(self, state: GameState) -> Iterator[Move]:
        """Legal moves worth weighing (default: all of them)."""
        return state.legal_moves()

    def adapt(self, state: GameState, observations: Mapping[str, Any]) -> Mapping[str, Any]:
        """Rename observed regions to this view's regions (default: as they are)."""
        return observations

    def candidates_near(self, state: GameState, seen: frozenset[tuple[str, int, int]]) -> Iterable[Move]:
        """Legal moves that could change the `seen` cells (region, row, col); a view may narrow
        its search with them. Default: every legal candidate."""
        return self.legal_candidates(state)

    def scene_candidates(self, state: GameState, observations: Mapping[str, Any]) -> Iterable[Move]:
        """Moves suggested by what is seen (e.g. a tile whose icons only the camera can read);
        check() decides whether each is legal. Default: none."""
        return ()

    def illegal_candidates(self, state: GameState) -> Iterable[Move]:
        """Plausible physical actions the rules reject (check() gives the rule id). Default: none."""
        return ()

    def illegal_examples(self, state: GameState, rng: Any) -> Iterable[Move]:
        """Illegal actions a player might really make here, for the simulated table and the
        benchmark (the tracker finds them from the scene, or from illegal_candidates)."""
        return self.illegal_candidates(state)

    def physical_after(self, state: GameState, move: Move) -> ExpectedView | None:
        """What the table shows after `move` is physically done, legal or not.

        Default: the engine's unchecked `_apply_legal`, which for placement games is the physical
        result; a view overrides this where an engine cannot apply an illegal move.
        """
        try:
            return self.expected(state._apply_legal(move))
        except Exception:  # an engine may refuse an illegal move outright: then it cannot be seen
            return None

    def as_entered(self, state: GameState, move: Move) -> Move:
        """`move` as a player enters it on the screen when the camera missed it, in the terms the
        referee knows (e.g. a Babylon tile's icons as they lie, not a turn of icons it never read)."""
        return move

    def shows_later(self, state: GameState, move: Move) -> bool:
        """Will the table show later what tells `move` apart from the moves that look the same now?
        Then the referee accepts one of them provisionally instead of asking (Babylon: the flower
        of a tile just taken shows when it is placed). Default: no."""
        return False

    def still_unseen(self, state: GameState, move: Move) -> bool:
        """Can the table still show what `move` chose (made earlier, accepted provisionally)?
        When not, the players are asked. Default: no."""
        return False

    def observer_keywords(self, state: GameState) -> dict[str, dict[str, Any]]:
        """Per region, what the game in play tells its observer about the board (keyword arguments
        of the observer's constructor). Most boards need nothing."""
        return {}

    def region_shape(self, region: str) -> tuple[int, int]:
        raise NotImplementedError
