"""The rule ids of DIGEST.md §2 as this engine knows them, and how each is applied."""

from __future__ import annotations

from ...i18n import N_
from ..api import RuleInfo

SETUP = "reclamation.garden.setup"
WIN_SQUARES = "reclamation.garden.win.squares"
LOSE_STUCK = "reclamation.garden.lose.stuck"
MOVE = "reclamation.garden.move"
CARD = "reclamation.garden.reclaim.card"
ORDER = "reclamation.garden.reclaim.order"
SHORT = "reclamation.garden.reclaim.short"
NO_EFFECT = "reclamation.garden.reclaim.no_effect"
OFF_BOARD = "reclamation.garden.reclaim.off_board"
CYCLE = "reclamation.garden.cards.cycle"
THRONE_SETUP = "reclamation.throne.setup"
THRONE_GARDENERS = "reclamation.throne.gardeners"
THRONE_RECLAIM = "reclamation.throne.reclaim"
THRONE_CAPTIVE = "reclamation.throne.captive"
THRONE_WIN = "reclamation.throne.win"

WIN_SQUARE_COUNT = 12

RULES: tuple[RuleInfo, ...] = (
    RuleInfo(SETUP, N_("Set-up: Flower first, 17 stones each, a gardener of 3 at each player's front right"), "setup"),
    RuleInfo(WIN_SQUARES, N_("Win with your stones on 12 or more squares"), "enforced"),
    RuleInfo(LOSE_STUCK, N_("A player who cannot complete their turn loses"), "enforced"),
    RuleInfo(MOVE, N_("The gardener moves to an adjacent empty square (8 directions)"), "enforced"),
    RuleInfo(CARD, N_("Reclaim with an unused card; its targets are relative to the gardener, forward away from you"), "enforced"),
    RuleInfo(ORDER, N_("Reclaim in order: add to your single stones, fill empty targets, take opponents' top stones"), "enforced"),
    RuleInfo(SHORT, N_("Short of stones: choose the targets; stones taken this turn cannot be placed"), "enforced"),
    RuleInfo(NO_EFFECT, N_("A reclaim that changes nothing may not be made"), "enforced"),
    RuleInfo(OFF_BOARD, N_("Targets off the board are ignored"), "enforced"),
    RuleInfo(CYCLE, N_("Used cards wait until the last unused card is played"), "enforced"),
    RuleInfo(THRONE_SETUP, N_("Throne set-up: 18 stones each, red card sides"), "setup"),
    RuleInfo(THRONE_GARDENERS, N_("Throne: every stack of 3 is a gardener; pick one to act"), "enforced"),
    RuleInfo(THRONE_RECLAIM, N_("Throne reclaim: add to stacks of 1 or 2, take from gardeners too"), "enforced"),
    RuleInfo(THRONE_CAPTIVE, N_("Throne: stones taken from gardeners are kept and cannot be placed"), "enforced"),
    RuleInfo(THRONE_WIN, N_("Throne: win when the opponent has no gardener or you hold 3 gardener stones"), "enforced"),
)
