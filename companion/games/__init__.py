"""Rules engines, one package per game, behind one API (api.py). Pure Python by design."""

from .api import (
    GameSpec,
    GameState,
    IllegalMove,
    Message,
    Move,
    Option,
    RuleInfo,
    Ruling,
    ScoreLine,
    ScoreSheet,
    Violation,
)
from .registry import GAME_IDS, all_games, get

__all__ = [
    "GAME_IDS",
    "GameSpec",
    "GameState",
    "IllegalMove",
    "Message",
    "Move",
    "Option",
    "RuleInfo",
    "Ruling",
    "ScoreLine",
    "ScoreSheet",
    "Violation",
    "all_games",
    "get",
]
