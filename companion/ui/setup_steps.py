"""The set-up wizard's steps per game and player count, each citing its rule id (plain Python).

The counts are the rulebooks' (see shared/rules/DIGEST.md). Where a game's engine has its own
set-up tables (Babylon's rounds and quarry trim, Babel's `setup_for`, Baubylon's `check_field`),
the wizard uses them, so the screen and the referee can never disagree; the tables here are the
fallback for a device without that engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..games.api import Message
from ..i18n import N_, NP_

BABYLON_ROUND_TOKENS = {2: 14, 3: 12, 4: 10}  # babylon.setup.rounds
BABYLON_ROUNDS = {2: 15, 3: 13, 4: 11}  # babylon.round
BABYLON_CLAY_REMOVED = {2: 6, 3: 3, 4: 0}  # babylon.setup.quarry_trim
BABEL_PUNISHMENT = {5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}  # babel.setup.specials
BABEL_SEALS = {5: 3, 6: 5, 7: 5, 8: 7, 9: 7, 10: 9}
BABEL_FANATICS = {5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}  # babel.setup.roles
RECLAMATION_STONES = {"garden": 17, "throne": 18}  # reclamation.garden.setup / throne.setup

PLAYER_RANGE = {"babylon": (2, 4), "reclamation": (2, 2), "babel": (5, 10), "baubylon": (2, 6)}


@dataclass(frozen=True)
class SetupStep:
    title: Message
    lines: tuple[Message, ...]
    rule_id: str


def _m(msgid: str, **params: Any) -> Message:
    return Message.of(msgid, **params)


def _babylon_counts(players: int) -> tuple[int, int, int]:
    """(rounds, round tokens, clay tiles removed), from the engine's own tables when installed."""
    try:
        from ..games.babylon.state import ROUNDS, TRIMS
    except ImportError:
        return BABYLON_ROUNDS[players], BABYLON_ROUND_TOKENS[players], BABYLON_CLAY_REMOVED[players]
    return ROUNDS[players], ROUNDS[players] - 1, TRIMS[players]  # one token per round but the last


def _babel_setup(players: int) -> Any | None:
    try:
        from ..games.babel.setup import setup_for
    except ImportError:
        return None
    return setup_for(players)


def field_check(state: Any) -> tuple[Message, ...] | None:
    """Baubylon's field check (baubylon.field) on the field the referee sees, in the engine's words;
    None when there is no Baubylon field to check yet."""
    field_ = getattr(state, "field", None)
    if field_ is None or getattr(state, "game", None) != "baubylon":
        return None
    try:
        from ..games.baubylon.field import check_field
    except ImportError:
        return None
    lines: list[Message] = []
    for issue in check_field(field_):
        lines.append(issue.message)
        if issue.fix is not None:
            lines.append(issue.fix)
    return tuple(lines) or (_m(N_("The field passes the check: every step can be climbed, every place reached, one goal.")),)


def camera_lens_notice(camera: str | None, lens_measured: bool) -> Message | None:
    """The board-location step's advice when the camera's lens is not measured (no intrinsics in the
    state folder, DeviceStatus.lens_measured): with them a misread marker bends the board about a
    third as often (docs/calibration.md). None when they are stored, or on the simulated table."""
    from ..diagnostics import CAMERA_NOT_MEASURED

    if camera == "sim" or lens_measured:
        return None
    return _m(CAMERA_NOT_MEASURED)


def steps_for(game: str, players: int, variant: str = "standard") -> tuple[SetupStep, ...]:
    low, high = PLAYER_RANGE[game]
    if not low <= players <= high:
        raise ValueError(f"{game} is for {low} to {high} players, not {players}")
    builder = {"babylon": _babylon, "reclamation": _reclamation, "babel": _babel, "baubylon": _baubylon}
    return builder[game](players, variant)


def _babylon(n: int, variant: str) -> tuple[SetupStep, ...]:
    rounds, tokens, clay = _babylon_counts(n)
    trim = (
        _m(N_("Remove {count} clay tiles from the top layer, one player at a time from the first player clockwise."), count=clay)
        if clay
        else _m(N_("With 4 players no tile is removed from the quarry."))
    )
    return (
        SetupStep(
            _m(N_("Build the quarry")),
            (
                _m(N_("Stack 16 basalt tiles at the bottom, 16 granite tiles on them and 16 clay tiles on top, material side up.")),
                _m(N_("Each layer is a 4 × 4 square; keep the three layers in line.")),
            ),
            "babylon.setup.quarry",
        ),
        SetupStep(_m(N_("Trim the quarry")), (trim,), "babylon.setup.quarry_trim"),
        SetupStep(
            _m(N_("Player boards")),
            (
                _m(N_("Each of the {count} players takes a player board and the starting tile of the same flower."), count=n),
                _m(N_("Put the starting tile garden side up in the tile slot of the storage area.")),
            ),
            "babylon.setup.board",
        ),
        SetupStep(
            _m(N_("Round tokens")),
            (
                _m(N_("Shuffle the round tokens face down and stack {count} of them on the game-end token."), count=tokens),
                _m(N_("The game lasts {rounds} rounds."), rounds=rounds),
                _m(N_("Choose a start player; the stack goes in front of the player to their right.")),
            ),
            "babylon.setup.rounds",
        ),
    )


def _reclamation(n: int, variant: str) -> tuple[SetupStep, ...]:
    throne = variant == "throne"
    stones = RECLAMATION_STONES["throne" if throne else "garden"]
    rule = "reclamation.throne.setup" if throne else "reclamation.garden.setup"
    card_side = _m(N_("Lay out your 4 cards red side up.")) if throne else _m(N_("Lay out your 4 cards black side up."))
    return (
        SetupStep(
            _m(N_("Stones")),
            (
                _m(N_("The first player plays Flower, the second Vine.")),
                _m(N_("Each player takes {count} stones, own face up."), count=stones),
            ),
            rule,
        ),
        SetupStep(
            _m(N_("Gardeners")),
            (
                _m(N_("Each player stacks 3 stones on the square at their own front right: a stack of 3 is a gardener.")),
                _m(N_("Any stack of 3 is a gardener; gardeners come and go.")) if throne else _m(N_("Each player has exactly one gardener.")),
            ),
            "reclamation.throne.gardeners" if throne else rule,
        ),
        SetupStep(_m(N_("Cards")), (card_side,), rule),
    )


def _babel(n: int, variant: str) -> tuple[SetupStep, ...]:
    engine = _babel_setup(n)
    if engine is not None:  # the engine's own table and deck-building words
        punishment, seals, fanatics = engine.punishment_cards, engine.seal_cards, engine.max_fanatics
        appointed = engine.architects_per_round
        deck_lines = list(engine.steps())
    else:
        punishment, seals, fanatics = BABEL_PUNISHMENT[n], BABEL_SEALS[n], BABEL_FANATICS[n]
        appointed = 3 if n <= 6 else 4
        deck_lines = [
            _m(N_("Shuffle the instruction and special cards except Divine Punishment.")),
            _m(N_("Take {count} cards, add 1 Divine Punishment, shuffle and deal 3 to each player."), count=n * 3 - 1),
        ]
        if n >= 6:
            deck_lines.append(_m(N_("Take {count} more cards, shuffle the remaining Divine Punishment cards into them and put them back on top."), count=n * 2))
    return (
        SetupStep(
            _m(N_("Roles")),
            (
                _m(N_("1 Messenger of God and {count} Architects."), count=n - 1),
                _m(NP_("Up to {count} Architect can become a Fanatic through Divine Punishment.",
                       "Up to {count} Architects can become Fanatics through Divine Punishment."), count=fanatics),
            ),
            "babel.setup.roles",
        ),
        SetupStep(
            _m(N_("Special cards")),
            (
                _m(N_("Divine Punishment: {count}"), count=punishment),
                _m(N_("Seal: {count}"), count=seals),
                _m(N_("Lightning 5, Storm 5, Deliberation 4: always all of them.")),
            ),
            "babel.setup.specials",
        ),
        SetupStep(_m(N_("Deck")), tuple(deck_lines), "babel.setup.deck"),
        SetupStep(
            _m(N_("Base card and cubes")),
            (
                _m(N_("Put the 3 × 3 base card under the camera with the 25 cubes beside it.")),
                _m(NP_("Each round the master appoints {count} architect.",
                       "Each round the master appoints {count} architects."), count=appointed),
            ),
            "babel.round.appoint",
        ),
    )


def _baubylon(n: int, variant: str) -> tuple[SetupStep, ...]:
    return (
        SetupStep(
            _m(N_("Pawns")),
            (_m(N_("Each of the {count} players takes the 6 pawns of one colour; the 6 red blockers stay beside the field."), count=n),),
            "baubylon.blocker",
        ),
        SetupStep(
            _m(N_("Build the field")),
            (
                _m(N_("Build one field together from the 48 blocks, with exactly one highest point: the goal.")),
                _m(N_("No step may need 6 or more points to climb, and every place must be reachable.")),
            ),
            "baubylon.field",
        ),
        SetupStep(
            _m(N_("Start points")),
            (_m(N_("Mark the start points: entering the field from one needs a climb of 3 or more.")),),
            "baubylon.enter",
        ),
        SetupStep(
            _m(N_("Field check")),
            (_m(N_("Show the field to the camera: the companion checks the steps, the reachability and the goal.")),),
            "baubylon.field",
        ),
    )
