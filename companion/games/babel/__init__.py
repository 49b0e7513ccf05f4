"""Babel Builders (バベルの建築家たち): the public part of the game a companion can referee.

Modules: towers (the 3×3 base, what the camera sees), cards (blueprints and instruction cards as
data), setup (the set-up calculator), moves, state (rulings), rules (the DIGEST §3 rule ids).
"""

from __future__ import annotations

from ...errors import CompanionError
from ...i18n import N_
from ..api import GameSpec, Message, Option
from ..registry import register
from .cards import CardLibrary, library_path, load_library
from .rules import RULES
from .setup import MAX_PLAYERS, MIN_PLAYERS, setup_for
from .state import STORM_INSTRUCTIONS, STORM_RULES, BabelState, new_game
from .towers import as_grid, as_mapping

__all__ = ["SPEC", "BabelState", "CardLibrary", "cube_counts", "cube_grid", "new_game", "setup_for", "start"]


def start(players: tuple[str, ...], blueprint: str = "example", cards_file: str = "", first_master: int = 0,
          storm: str = STORM_INSTRUCTIONS) -> BabelState:
    """New game for the registry: the blueprint is looked up in the shipped examples and the
    players' card library file: `cards_file`, or else `babel-cards.json` under the state directory
    when there is one (docs/formats/babel.md)."""
    if not cards_file:
        from ...config import load_config  # the state directory of this device

        cards_file = str(library_path(load_config().state_dir()))
    library = load_library(cards_file)
    try:
        return new_game(tuple(players), blueprint=blueprint, library=library, first_master=first_master,
                        storm_rule=storm)
    except ValueError as exc:  # a bad option: one clear line, not a traceback
        raise CompanionError(message=Message.of(N_("cannot start {game}: {reason}"), game="babel",
                                                reason=getattr(exc, "message", None) or str(exc))) from None


def cube_counts(state: BabelState) -> dict[str, int]:
    """What the camera should see on the base card: cubes per cell A1 … C3."""
    return as_mapping(state.towers)


def cube_grid(state: BabelState) -> tuple[tuple[int, ...], ...]:
    """The same as a 3×3 grid: rows 1…3, columns A…C."""
    return as_grid(state.towers)


SPEC = register(
    GameSpec(
        id="babel",
        title=N_("Babel Builders"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        state_type=BabelState,
        new_game=start,
        options=(
            Option("blueprint", N_("The blueprint card in play (its name in the card library)"), "example"),
            Option("cards_file", N_("The players' card library file; empty = babel-cards.json in the state directory, if any"), ""),
            Option("first_master", N_("The first master (player number from 0)"), 0),
            Option("storm", N_("What a Storm cancels: instructions (Lightning still strikes) or tower (no change "
                               "to the tower at all that round)"), STORM_INSTRUCTIONS, STORM_RULES),
        ),
        rules=RULES,
    )
)
