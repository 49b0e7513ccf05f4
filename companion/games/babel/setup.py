"""Set-up by player count (babel.setup.roles, babel.setup.specials, babel.setup.deck,
babel.round.appoint): what to take out of the box and how to build the deck."""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InvalidValue
from ...i18n import N_, NP_
from ..api import Message

MIN_PLAYERS = 5
MAX_PLAYERS = 10
HAND_SIZE = 3  # hand limit, and the size of the starting hand
INSTRUCTION_CARDS = 39  # 18 one-cube, 12 two-cube, 9 three-cube
LIGHTNING_CARDS = 5
STORM_CARDS = 5
DELIBERATION_CARDS = 4
PUNISHMENT_BY_PLAYERS = {5: 1, 6: 2, 7: 2, 8: 3, 9: 3, 10: 4}
SEAL_BY_PLAYERS = {5: 3, 6: 5, 7: 5, 8: 7, 9: 7, 10: 9}


@dataclass(frozen=True)
class BabelSetup:
    """Everything the set-up table of the rulebook gives for one player count."""

    players: int
    messengers: int
    architects: int
    max_fanatics: int  # architects a Divine Punishment card can turn (one per punishment card)
    punishment_cards: int
    seal_cards: int
    lightning_cards: int
    storm_cards: int
    deliberation_cards: int
    instruction_cards: int
    architects_per_round: int
    deck_before_dealing: int  # instruction + special cards without Divine Punishment
    dealt_from_deck: int  # players × 3 − 1, dealt together with 1 Divine Punishment card
    punishment_on_top: int  # 6+ players: the other punishment cards, mixed into the top players × 2
    deck_after_setup: int  # the draw pile once hands are dealt

    def steps(self) -> tuple[Message, ...]:
        """The deck-building steps, in words a player can follow."""
        steps = [
            Message.of(
                N_("Shuffle the {count} instruction and special cards without the Divine Punishment cards: the deck."),
                count=self.deck_before_dealing,
            ),
            Message.of(
                N_("Take {count} cards from the deck, add 1 Divine Punishment card, shuffle and deal 3 to each player."),
                count=self.dealt_from_deck,
            ),
        ]
        if self.punishment_on_top:
            steps.append(
                Message.of(
                    NP_(
                        "Take {top} cards from the deck, shuffle the other {count} Divine Punishment "
                        "card into them and put them back on top of the deck.",
                        "Take {top} cards from the deck, shuffle the other {count} Divine Punishment "
                        "cards into them and put them back on top of the deck.",
                    ),
                    top=self.players * 2,
                    count=self.punishment_on_top,
                )
            )
        return tuple(steps)


def architects_per_round(players: int) -> int:
    """babel.round.appoint: 3 architects with 6 players or fewer, 4 with 7 or more."""
    return 3 if players <= 6 else 4


def setup_for(players: int) -> BabelSetup:
    if players not in PUNISHMENT_BY_PLAYERS:
        raise InvalidValue(Message.of(N_("{game} is for {low} to {high} players, not {found}"), game="babel",
                                      low=MIN_PLAYERS, high=MAX_PLAYERS, found=players))
    punishment = PUNISHMENT_BY_PLAYERS[players]
    seals = SEAL_BY_PLAYERS[players]
    before = INSTRUCTION_CARDS + LIGHTNING_CARDS + STORM_CARDS + DELIBERATION_CARDS + seals
    dealt = players * HAND_SIZE - 1
    on_top = punishment - 1 if players >= 6 else 0
    return BabelSetup(
        players=players,
        messengers=1,
        architects=players - 1,
        max_fanatics=punishment,
        punishment_cards=punishment,
        seal_cards=seals,
        lightning_cards=LIGHTNING_CARDS,
        storm_cards=STORM_CARDS,
        deliberation_cards=DELIBERATION_CARDS,
        instruction_cards=INSTRUCTION_CARDS,
        architects_per_round=architects_per_round(players),
        deck_before_dealing=before,
        dealt_from_deck=dealt,
        punishment_on_top=on_top,
        deck_after_setup=before - dealt + on_top,
    )
