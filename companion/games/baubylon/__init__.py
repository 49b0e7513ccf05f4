"""Baubylon (Reinhold Wittig): a free-form block field, pawns racing to its single highest point.

Modules: field (blocks, heights, the field check), paths (costing a path, where a piece can go),
moves, state (rulings), setupfile (the players' field as a file), rules (DIGEST §4 rule ids).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import CompanionError
from ...i18n import N_
from ..api import GameSpec, Message, Option
from ..registry import register
from .field import Block, Field, check_field, example_field
from .paths import NO_REVISIT, PATH_RULES
from .rules import RULES
from .setupfile import load_field_setup
from .state import COLOURS, GOAL_END, GOAL_RULES, MAX_PLAYERS, MIN_PLAYERS, BaubylonState, new_game

__all__ = [
    "SPEC", "BaubylonState", "Block", "Field", "SpaceView", "check_field", "example_field", "new_game",
    "start", "top_view",
]


@dataclass(frozen=True)
class SpaceView:
    """What a camera looking down sees on one space: the block top height (pawn heights, 0 = table),
    the pieces stacked there bottom to top ("red" = blocker), and whether it is a start point."""

    height: int
    pawns: tuple[str, ...]
    start: bool

    def attrs(self) -> dict:
        """The `field` label attrs of companion.vision.labels."""
        return {"height": self.height, "pawns": list(self.pawns), "start": self.start}


def top_view(state: BaubylonState) -> dict[str, SpaceView]:
    """Every space of the grid as the camera should see it."""
    stacks = state.stack_map()
    return {
        space: SpaceView(state.field.height(space), stacks.get(space, ()), space in state.field.starts)
        for space in state.field.spaces()
    }


def start(players: tuple[str, ...], field_file: str = "", colours: str = "", first_player: int = 0,
          path: str = NO_REVISIT, goal: str = GOAL_END) -> BaubylonState:
    """New game for the registry: the example field, or the players' field file; `path` and `goal`
    are the table's readings of the rules the translation leaves open (docs/formats/baubylon.md)."""
    chosen = tuple(c.strip() for c in colours.split(",") if c.strip())[: len(players)] or None
    try:
        if field_file:
            setup = load_field_setup(field_file)
            return new_game(tuple(players), setup.field, chosen, setup.blockers, first_player, path, goal)
        return new_game(tuple(players), colours=chosen, first_player=first_player, path_rule=path, goal_rule=goal)
    except ValueError as exc:  # a bad option: one clear line, not a traceback
        raise CompanionError(message=Message.of(N_("cannot start {game}: {reason}"), game="baubylon",
                                                reason=getattr(exc, "message", None) or str(exc))) from None


SPEC = register(
    GameSpec(
        id="baubylon",
        title=N_("Baubylon"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        state_type=BaubylonState,
        new_game=start,
        options=(
            Option("field_file", N_("The field the players built (baubylon-field JSON); empty = the example field"), ""),
            Option("colours", N_("Pawn colours in seat order, comma separated (the first ones are used)"),
                   ",".join(COLOURS)),
            Option("first_player", N_("Who starts (player number from 0)"), 0),
            Option("path", N_("No stepping back and forth: no_revisit (never the same space twice) or one_stroke "
                              "(never the same step twice, like drawing in one stroke)"), NO_REVISIT, PATH_RULES),
            Option("goal", N_("Reaching the goal: end (the move ends on it) or touch (a move that enters it "
                              "wins there)"), GOAL_END, GOAL_RULES),
        ),
        rules=RULES,
    )
)
