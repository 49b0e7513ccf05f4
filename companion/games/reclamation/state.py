"""The Reclamation (箱庭の国): the readable game state, its one move (a whole turn) and the referee.

A turn is one `Turn` move: which gardener moves where, which card reclaims, and (when the player is
short of stones and has a choice) which targets get stones. Everything else a turn does follows from
the rules, so the engine works it out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from ...i18n import N_, NP_
from ..api import GameState, Message, Move, Ruling, ScoreLine, ScoreSheet, Violation
from . import board as geo
from . import rules as R
from .cards import CARDS_PER_PLAYER, Card
from .reclaim import (
    Board,
    ReclaimPlan,
    Stack,
    board_after_move,
    gardeners_of,
    plan_reclaim,
    play,
    squares_of,
)

VARIANTS = ("garden", "throne")
STONES_EACH = {"garden": 17, "throne": 18}


def names(squares: tuple[int, ...] | list[int]) -> str:
    return ", ".join(geo.name(s) for s in sorted(squares)) or "-"


@dataclass(frozen=True)
class Turn(Move):
    """One whole turn: move the gardener on `gardener` to `to`, then reclaim with `card`.

    `place` lists the squares that receive a stone. It may be left out (None) whenever the rules
    leave no choice; it is needed only when the player is short of stones (reclaim.short).
    """

    kind: ClassVar[str] = "turn"
    gardener: str
    to: str
    card: str
    place: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.place is not None:  # one spelling per move, so equal moves compare equal
            object.__setattr__(self, "place", tuple(sorted(self.place)))

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "gardener": self.gardener, "to": self.to, "card": self.card}
        if self.place is not None:
            data["place"] = list(self.place)
        return data

    def describe(self) -> Message:
        if self.place:
            return Message.of(
                N_("gardener {gardener} → {to}, card {card}, stones on {place}"),
                gardener=self.gardener, to=self.to, card=self.card, place=", ".join(self.place),
            )
        return Message.of(N_("gardener {gardener} → {to}, card {card}"), gardener=self.gardener, to=self.to, card=self.card)


@dataclass(frozen=True)
class Outcome:
    winner: int
    rule_id: str
    reason: Message


@dataclass(frozen=True)
class ReclamationState(GameState):
    """A position of The Reclamation. Player 0 is Flower (moves first), player 1 is Vine."""

    game: ClassVar[str] = "reclamation"

    variant: str
    names: tuple[str, str]
    cards: tuple[Card, ...]  # the card side in use, same patterns for both players
    board: Board  # 36 squares, index = (rank-1)*6 + file, see board.py
    hands: tuple[int, int]  # placeable stones in hand, own face up
    captives: tuple[int, int] = (0, 0)  # Throne: stones taken from opponent gardeners
    used: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    to_move: int = 0
    turn: int = 0  # whole turns played so far

    # -- the API ---------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    @property
    def throne(self) -> bool:
        return self.variant == "throne"

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.to_move

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "turn"

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def winners(self) -> tuple[int, ...]:
        # The Reclamation is won by a condition, not by points: the score sheet only shows progress.
        return (self.outcome.winner,) if self.outcome is not None else ()

    def card(self, name: str) -> Card | None:
        return next((c for c in self.cards if c.name == name), None)

    def usable_cards(self, player: int | None = None) -> tuple[Card, ...]:
        player = self.to_move if player is None else player
        return tuple(c for c in self.cards if c.name not in self.used[player])

    @property
    def cards_missing(self) -> int:
        return max(0, CARDS_PER_PLAYER - len(self.cards))

    def gardeners(self, player: int) -> tuple[int, ...]:
        return gardeners_of(self.board, player)

    def squares(self, player: int) -> tuple[int, ...]:
        return squares_of(self.board, player)

    # -- rules -----------------------------------------------------------------------------
    def plan(self, gardener: int, to: int, card: Card) -> ReclaimPlan:
        after = board_after_move(self.board, gardener, to)
        return plan_reclaim(after, self.to_move, self.throne, to, card, self.hands[self.to_move])

    def _destinations(self, gardener: int) -> tuple[int, ...]:
        return tuple(s for s in geo.NEIGHBOURS[gardener] if self.board[s] is None)

    def _plans(self) -> Iterator[tuple[int, int, Card, ReclaimPlan]]:
        for gardener in self.gardeners(self.to_move):
            for to in self._destinations(gardener):
                for card in self.usable_cards():
                    yield gardener, to, card, self.plan(gardener, to, card)

    def legal_moves(self) -> Iterator[Turn]:
        if self.is_over:
            return
        yield from self._turns()

    def _turns(self) -> Iterator[Turn]:
        for gardener, to, card, plan in self._plans():
            if not plan.has_effect:
                continue
            for placement in plan.placement_options():
                yield Turn(geo.name(gardener), geo.name(to), card.name, tuple(geo.name(s) for s in placement))

    def moves_reaching(self, board: Board) -> list[Turn]:
        """The legal turns that leave exactly `board`: how the referee explains an observed change."""
        found = []
        for move in self.legal_moves():
            if self._apply_legal(move).board == board:
                found.append(move)
        return found

    def _has_turn(self) -> bool:
        return any(plan.has_effect for *_, plan in self._plans())

    def check(self, move: Move) -> Ruling:
        return Ruling(move, tuple(self._violations(move)))

    def _violations(self, move: Move) -> Iterator[Violation]:
        if not isinstance(move, Turn):
            yield Violation(R.MOVE, Message.of(N_("This is not a move of The Reclamation.")),
                            fix=Message.of(N_("Give a whole turn: the gardener's square, where it moves, and the card.")))
            return
        if self.outcome is not None:
            yield Violation(
                self.outcome.rule_id,
                self.outcome.reason,
                fix=Message.of(N_("The game is over: {winner} has won."), winner=self.names[self.outcome.winner]),
            )
            return
        me = self.to_move
        gardener_rule = R.THRONE_GARDENERS if self.throne else R.MOVE
        gardener = geo.parse(move.gardener)
        mine = self.gardeners(me)
        if gardener is None or gardener not in mine:
            yield Violation(
                gardener_rule,
                Message.of(
                    N_("There is no gardener of yours on {square}: yours stands on {gardeners}."),
                    square=move.gardener, gardeners=names(mine),
                ),
                fix=Message.of(N_("Move a gardener of yours (a stack of 3 of your stones).")),
                where=(move.gardener,),
            )
            return
        to = geo.parse(move.to)
        if to is None or to not in geo.NEIGHBOURS[gardener]:
            yield Violation(
                R.MOVE,
                Message.of(N_("{to} is not next to the gardener on {gardener}: it moves one square, in any of 8 directions."), to=move.to, gardener=move.gardener),
                fix=Message.of(N_("Move the gardener to one of: {squares}."), squares=names(self._destinations(gardener))),
                where=(move.gardener, move.to),
            )
            return
        if self.board[to] is not None:
            yield Violation(
                R.MOVE,
                Message.of(N_("{to} is not empty: the gardener moves only to an empty square."), to=move.to),
                fix=Message.of(N_("Move the gardener to one of: {squares}."), squares=names(self._destinations(gardener))),
                where=(move.to,),
            )
            return
        card = self.card(move.card)
        if card is None:
            yield Violation(
                R.CARD,
                Message.of(N_("There is no card named {card}; the cards are: {cards}."), card=move.card, cards=", ".join(c.name for c in self.cards)),
                fix=Message.of(N_("Use one of your unused cards: {cards}."), cards=", ".join(c.name for c in self.usable_cards()) or "-"),
                where=(move.card,),
            )
            return
        if card.name in self.used[me]:
            usable = ", ".join(c.name for c in self.usable_cards()) or "-"
            yield Violation(
                R.CYCLE,
                Message.of(N_("Card {card} is used; it comes back when you play your last unused card."), card=card.name),
                fix=Message.of(N_("Use one of your unused cards: {cards}."), cards=usable),
                where=(card.name,),
            )
            return
        plan = self.plan(gardener, to, card)
        yield from self._placement_violations(move, plan)
        if not plan.has_effect:
            if not plan.targets:
                yield Violation(
                    R.OFF_BOARD,
                    Message.of(N_("Every target of card {card} from {to} lies off the board, and off-board targets are ignored."), card=card.name, to=move.to),
                    fix=Message.of(N_("Use a card whose targets from {to} lie on the board."), to=move.to),
                )
            working = [c.name for c in self.usable_cards() if self.plan(gardener, to, c).has_effect]
            if working:
                fix = Message.of(N_("From {to}, reclaim with a card that places or takes a stone: {cards}."), to=move.to, cards=", ".join(working))
            else:
                # A gardener moved here cannot complete the turn; the companion lets it be taken back
                # (docs/formats/reclamation.md, "Dead-end square").
                fix = Message.of(N_("No unused card changes the board from {to}: move the gardener to another square."), to=move.to)
            yield Violation(
                R.NO_EFFECT,
                Message.of(N_("This reclaim would change nothing on the board, so it may not be made.")),
                fix=fix,
                where=tuple(geo.name(s) for s in plan.targets),
            )

    def _placement_violations(self, move: Turn, plan: ReclaimPlan) -> Iterator[Violation]:
        order_rule = R.THRONE_RECLAIM if self.throne else R.ORDER
        if move.place is None:
            if plan.forced_placements() is None:
                yield Violation(
                    R.SHORT,
                    Message.of(NP_("You have {count} stone in hand for {targets} targets: say which target gets it.",
                                   "You have {count} stones in hand for {targets} targets: say which targets get them."),
                               count=plan.hand, targets=len(plan.add) + len(plan.empty)),
                    fix=_short_fix(plan),
                    where=tuple(geo.name(s) for s in plan.add + plan.empty),
                )
            return
        chosen = [geo.parse(s) for s in move.place]
        if None in chosen or len(set(chosen)) != len(chosen):
            yield Violation(order_rule, Message.of(N_("Each target gets at most one stone: {place}."), place=", ".join(move.place)),
                            fix=Message.of(N_("List each square that gets a stone once.")))
            return
        for square in chosen:
            assert square is not None
            if square in plan.add or square in plan.empty:
                continue
            where = (geo.name(square),)
            if square in plan.full:
                text = N_("{square} takes no stone: it already holds the most your stones may hold there.")
            elif square in plan.take or square in plan.guarded:
                text = N_("{square} holds your opponent's stones: they are taken, never covered.")
            else:
                text = N_("{square} is not a target of this card from the gardener's new square.")
            yield Violation(order_rule, Message.of(text, square=geo.name(square)), where=where,
                            fix=Message.of(N_("Place stones only on {squares}."), squares=names(plan.add + plan.empty)))
        placed = [s for s in chosen if s in plan.add or s in plan.empty]
        if len(placed) != len(chosen):
            return
        if len(placed) > plan.hand:
            yield Violation(
                R.SHORT,
                Message.of(NP_("You place {count} stone but hold only {hand}; stones taken this turn cannot be placed this turn.",
                               "You place {count} stones but hold only {hand}; stones taken this turn cannot be placed this turn."),
                           count=len(placed), hand=plan.hand),
                fix=_short_fix(plan),
            )
            if self.throne and self.captives[self.to_move]:
                yield Violation(
                    R.THRONE_CAPTIVE,
                    Message.of(NP_("The {count} stone you took from gardeners stays in your hand and is never placed.",
                                   "The {count} stones you took from gardeners stay in your hand and are never placed."),
                               count=self.captives[self.to_move]),
                    fix=Message.of(N_("Keep them aside, showing your opponent's face.")),
                )
            return
        if len(placed) < plan.placeable:
            missing = [s for s in plan.add + plan.empty if s not in placed]
            rule = R.SHORT if plan.is_short else order_rule
            yield Violation(
                rule,
                Message.of(N_("Every target you can fill gets a stone: {count} to place, also on one of {squares}."), count=plan.placeable, squares=names(missing)),
                fix=Message.of(N_("Put a stone on {squares} as well."), squares=names(missing)),
                where=tuple(geo.name(s) for s in missing),
            )
            return
        # Step 1 before step 2: no empty square gets a stone while one of your stacks goes without.
        if any(s in plan.empty for s in placed) and any(s not in placed for s in plan.add):
            yield Violation(
                order_rule,
                Message.of(NP_("Your own stacks come first: with {count} stone, add it to {squares} before empty squares.",
                               "Your own stacks come first: with {count} stones, add them to {squares} before empty squares."),
                           count=plan.hand, squares=names(plan.add)),
                fix=Message.of(N_("Move the stones from the empty squares onto {squares}."), squares=names(plan.add)),
                where=tuple(geo.name(s) for s in plan.add),
            )

    def _apply_legal(self, move: Move) -> ReclamationState:
        assert isinstance(move, Turn)
        me = self.to_move
        gardener, to = geo.parse(move.gardener), geo.parse(move.to)
        card = self.card(move.card)
        assert gardener is not None and to is not None and card is not None
        plan = self.plan(gardener, to, card)
        if move.place is None:
            placement = plan.forced_placements()
            assert placement is not None
        else:
            placement = tuple(geo.parse(s) for s in move.place)  # type: ignore[misc]
        result = play(self.board, me, gardener, to, plan, placement)
        hands = list(self.hands)
        hands[me] += result.gained - result.placed
        captives = list(self.captives)
        captives[me] += result.captured
        used = list(self.used)
        used[me] = next_used(self.cards, self.used[me], card.name)
        return ReclamationState(
            self.variant, self.names, self.cards, result.board, (hands[0], hands[1]),
            (captives[0], captives[1]), (used[0], used[1]), 1 - me, self.turn + 1,
        )

    # -- the end of the game -----------------------------------------------------------------
    @cached_property
    def outcome(self) -> Outcome | None:
        """Who has won and why, judged at the start of `to_move`'s turn."""
        me, last = self.to_move, 1 - self.to_move
        if self.turn > 0:
            if self.throne:
                if not self.gardeners(me):
                    return Outcome(last, R.THRONE_WIN, Message.of(N_("{player} has no gardener left."), player=self.names[me]))
                if self.captives[last] >= 3:
                    return Outcome(last, R.THRONE_WIN, Message.of(N_("{player} holds 3 stones taken from gardeners."), player=self.names[last]))
            elif len(self.squares(last)) >= R.WIN_SQUARE_COUNT:
                return Outcome(last, R.WIN_SQUARES, Message.of(N_("{player} has stones on {count} squares (12 needed)."), player=self.names[last], count=len(self.squares(last))))
        if not any(self._destinations(g) for g in self.gardeners(me)):
            return Outcome(last, R.LOSE_STUCK, Message.of(N_("{player}'s gardener has no empty square to move to, so {player} loses."), player=self.names[me]))
        if not self._has_turn():
            return Outcome(last, R.LOSE_STUCK, Message.of(N_("{player} has no reclaim that changes the board, so {player} loses."), player=self.names[me]))
        return None

    # -- display -----------------------------------------------------------------------------
    def score_sheet(self) -> ScoreSheet:
        lines = []
        for player in (0, 1):
            if self.throne:
                gardeners = self.gardeners(player)
                lines.append(ScoreLine(
                    player, "gardeners", Message.of(N_("Gardeners")), R.THRONE_GARDENERS, len(gardeners),
                    tuple(geo.name(s) for s in gardeners),
                ))
                lines.append(ScoreLine(
                    player, "captives", Message.of(N_("Stones taken from gardeners")), R.THRONE_WIN, self.captives[player],
                    detail=Message.of(N_("{count} of 3 needed"), count=self.captives[player]),
                ))
            else:
                squares = self.squares(player)
                lines.append(ScoreLine(
                    player, "squares", Message.of(N_("Squares occupied")), R.WIN_SQUARES, len(squares),
                    tuple(geo.name(s) for s in squares),
                    detail=Message.of(NP_("{squares} of 12 needed; {count} stone in hand",
                                             "{squares} of 12 needed; {count} stones in hand"),
                                         squares=len(squares), count=self.hands[player]),
                ))
        return ScoreSheet(self.game, self.names, tuple(lines), final=self.is_over)

    def guidance(self) -> tuple[Message, ...]:
        out: list[Message] = []
        if self.outcome is not None:
            out.append(Message.of(N_("{winner} wins."), winner=self.names[self.outcome.winner]))
            out.append(self.outcome.reason)
        else:
            me = self.to_move
            text = (
                N_("{player} (Flower): move a gardener ({gardeners}) to an adjacent empty square, then reclaim with an unused card: {cards}."),
                N_("{player} (Vine): move a gardener ({gardeners}) to an adjacent empty square, then reclaim with an unused card: {cards}."),
            )[me]
            out.append(Message.of(
                text, player=self.names[me], gardeners=names(self.gardeners(me)),
                cards=", ".join(c.name for c in self.usable_cards()),
            ))
        if self.cards_missing:
            out.append(Message.of(
                N_("Only {count} of 4 card patterns are entered for this side ({cards}); enter the others once with `companion cards add`."),
                count=len(self.cards), cards=", ".join(c.name for c in self.cards),
            ))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        from .codec import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> ReclamationState:
        from .codec import state_from_json

        return state_from_json(data, source)

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Turn:
        from .codec import move_from_json

        return move_from_json(data, source)


def _short_fix(plan: ReclaimPlan) -> Message:
    """How a player short of stones places them: own stacks first (step 1), then empty squares."""
    if plan.hand <= len(plan.add):
        return Message.of(
            NP_("Put your {count} stone on one of your stacks {squares}, and list it with the move.",
                "Put your {count} stones on {count} of your stacks {squares}, and list them with the move."),
            count=plan.hand, squares=names(plan.add),
        )
    if not plan.add:
        return Message.of(
            NP_("Put your {count} stone on one of the empty squares {squares}, and list it with the move.",
                "Put your {count} stones on {count} of the empty squares {squares}, and list them with the move."),
            count=plan.hand, squares=names(plan.empty),
        )
    return Message.of(
        NP_("Add a stone to each of {own}, put the other {count} on one of {squares}, and list them with the move.",
            "Add a stone to each of {own}, put the other {count} on {count} of {squares}, and list them with the move."),
        own=names(plan.add), count=plan.hand - len(plan.add), squares=names(plan.empty),
    )


def next_used(cards: tuple[Card, ...], used: frozenset[str], played: str) -> frozenset[str]:
    """reclamation.garden.cards.cycle: a played card is used; playing the last unused card makes the
    others usable again while it stays used. With a single card entered (an incomplete set) there
    are no others, so that card stays usable: otherwise a practice game would stop after one turn."""
    unused = [c.name for c in cards if c.name not in used and c.name != played]
    if unused:
        return used | {played}
    return frozenset({played}) if len(cards) > 1 else frozenset()


def new_game(players: tuple[str, ...] = ("Flower", "Vine"), variant: str = "garden", cards: Any = None) -> ReclamationState:
    """A game set up by reclamation.garden.setup (or reclamation.throne.setup).

    `cards` is a CardBook, a sequence of Card, or None for the player's card file in the state
    directory (the built-in example card when they have not entered theirs yet).
    """
    from ...errors import CompanionError
    from .cards import CardBook, checked_cards, default_book

    if variant not in VARIANTS:
        raise CompanionError(message=Message.of(N_("unknown variant {value}: expected one of {choices}"),
                                                value=repr(variant), choices=", ".join(VARIANTS)))
    if len(players) != 2:
        raise CompanionError(message=Message.of(NP_("{game} is for {count} player, got {found}",
                                                    "{game} is for {count} players, got {found}"),
                                                game="reclamation", count=2, found=len(players)))
    if cards is None:
        cards = default_book()
    if isinstance(cards, CardBook):
        source = cards.source
        cards = cards.for_side(variant)
    else:
        source = "<cards>"
    cards = checked_cards(cards, source)
    squares: list[Stack | None] = [None] * geo.SQUARES
    for player in (geo.FLOWER, geo.VINE):
        squares[geo.START_SQUARE[player]] = Stack(player, 3)
    hand = STONES_EACH[variant] - 3
    return ReclamationState(variant, (players[0], players[1]), tuple(cards), tuple(squares), (hand, hand))
