"""The registry of games. Each game package registers its GameSpec when imported."""

from __future__ import annotations

import importlib

from ..errors import CompanionError, ErrorText
from ..i18n import N_
from .api import GameSpec

GAME_IDS = ("babylon", "reclamation", "babel", "baubylon")
_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    _GAMES[spec.id] = spec
    return spec


def _load(game_id: str) -> None:
    if game_id not in _GAMES:
        importlib.import_module(f"companion.games.{game_id}")


class EngineMissing(CompanionError):
    """A known game whose rules engine is not part of this installation."""


def get(game_id: str) -> GameSpec:
    if game_id not in GAME_IDS:
        raise CompanionError(message=ErrorText.of(N_("unknown game {value}: expected one of {choices}"),
                                                  value=repr(game_id), choices=", ".join(GAME_IDS)))
    try:
        _load(game_id)
    except ModuleNotFoundError as exc:
        if exc.name != f"companion.games.{game_id}":
            raise  # a bug inside an engine must not look like a missing engine
        raise EngineMissing(f"the rules engine for {game_id!r} is not installed") from None
    return _GAMES[game_id]


def all_games() -> tuple[GameSpec, ...]:
    specs = []
    for game_id in GAME_IDS:
        try:
            specs.append(get(game_id))
        except EngineMissing:
            continue  # a game whose engine is not installed on this device
    return tuple(specs)
