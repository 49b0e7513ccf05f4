"""The public state of a Babel Builders game and the referee's rulings on its public events.

What the companion keeps is only what the whole table sees: the towers on the base card, the
blueprint, the size of the draw pile, who is master, who was appointed, which cards were revealed,
and at the end the pointing of the seal and punishment phases. Hands and roles stay hidden; roles
enter the state only once players reveal them at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, ClassVar

from ...errors import FormatError, InvalidValue, listed
from ...i18n import N_, NP_
from ..api import GameState, Json, Message, Move, Ruling, ScoreLine, ScoreSheet, Violation
from ..jsonread import JsonReader
from . import moves as mv
from .cards import Blueprint, CardLibrary, InstructionCard
from .rules import RULE_OF_KIND
from .setup import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, BabelSetup, setup_for
from .towers import CELLS, EMPTY_TOWERS, TOTAL_CUBES, Towers, add_cubes, cell_index, tallest_cells

_ONLY_PUNISHMENT = NP_("This game has only {count} Divine Punishment card.",
                       "This game has only {count} Divine Punishment cards.")
_AT_MOST_FANATICS = NP_("There is at most {count} fanatic with {players} players.",
                        "There are at most {count} fanatics with {players} players.")

STAGES = ("appoint", "build", "name_master", "seal", "punishment", "messenger", "over")
BUILD_KINDS = ("storm", "instruction", "lightning", "deliberation", "seal", "finish", "punishment_confirmed")
STAGE_OF_KIND = {
    "appoint": ("appoint",),
    "name_master": ("name_master",),
    "use_seal": ("seal",),
    "use_punishment": ("punishment",),
    "reveal_messenger": ("messenger", "over"),
    **{kind: ("build",) for kind in BUILD_KINDS},
}
TEAMS = ("architects", "messenger")
# What a Storm cancels (「このフェーズに建築は行えなくなります。（つまり、場に出た指示書カードは無駄に
# なります。）」): tables may read it two ways.
STORM_INSTRUCTIONS = "instructions"  # only building: instructions are wasted, Lightning still strikes
STORM_TOWER = "tower"  # the tower does not change at all this round: Lightning removes nothing either
STORM_RULES = (STORM_INSTRUCTIONS, STORM_TOWER)
SPECIALS = ("storm", "lightning", "deliberation", "seal")  # special cards revealed face up
ONLY_KEYS = NP_("expected only the key {keys}", "expected only the keys {keys}")  # a save's key that is not one
REVEAL_KINDS = ("storm", "instruction", "lightning", "deliberation", "seal")
ALL_OUT = {
    "storm": N_("All {count} Storm cards of this game are already out."),
    "lightning": N_("All {count} Lightning cards of this game are already out."),
    "deliberation": N_("All {count} Deliberation cards of this game are already out."),
    "seal": N_("All {count} Seal cards of this game are already out."),
}
TOO_MANY_REVEALED = {  # a save's impossible count of one special card (babel.setup.specials)
    "storm": N_("{count} Storm cards revealed but the game has only {total} [{rule}]"),
    "lightning": N_("{count} Lightning cards revealed but the game has only {total} [{rule}]"),
    "deliberation": N_("{count} Deliberation cards revealed but the game has only {total} [{rule}]"),
    "seal": N_("{count} Seal cards revealed but the game has only {total} [{rule}]"),
}


def _v(rule: str, msgid: str, fix: str | None = None, where: tuple[str, ...] = (), **params: Any) -> Violation:
    return Violation.of(rule, msgid, fix=fix, where=where, **params)


@dataclass(frozen=True)
class BabelState(GameState):
    names: tuple[str, ...]
    blueprint: Blueprint
    instructions: tuple[InstructionCard, ...]
    towers: Towers = EMPTY_TOWERS
    deck: int = 0
    round: int = 1
    master: int = 0
    architects: tuple[int, ...] = ()
    stage: str = "appoint"
    revealed: tuple[str, ...] = ()  # kinds of the cards revealed this round, in order
    spent: tuple[int, ...] = (0, 0, 0, 0)  # special cards revealed so far (SPECIALS order): out of the game
    seal_uses: tuple[tuple[int, int], ...] = ()  # (user, target)
    punishment_uses: tuple[tuple[int, int, int], ...] = ()  # (fanatic, target, cards)
    messenger: int | None = None  # known only once revealed at the end
    fanatics: tuple[int, ...] = ()  # known only once revealed at the end
    result: str | None = None  # "architects" | "messenger" once the game is over
    end_rule: str | None = None
    storm_rule: str = STORM_INSTRUCTIONS  # STORM_RULES: the table's reading of the Storm card

    game: ClassVar[str] = "babel"

    # --- the shared API ------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    @property
    def setup(self) -> BabelSetup:
        return setup_for(len(self.names))

    @property
    def current_player(self) -> int | None:
        return self.master if self.stage in ("appoint", "build", "name_master") else None

    @property
    def phase(self) -> str:
        return self.stage

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def reveals(self) -> int:
        return len(self.revealed)

    @property
    def storm(self) -> bool:
        """A Storm was shown this round: no building."""
        return "storm" in self.revealed

    @property
    def built(self) -> bool:
        """A card other than a Storm was revealed this round."""
        return any(kind != "storm" for kind in self.revealed)

    @property
    def revealed_seals(self) -> int:
        return self.spent[SPECIALS.index("seal")]

    def special_cards(self, kind: str) -> int:
        """How many cards of a special kind this game has (babel.setup.specials)."""
        setup = self.setup
        return {"storm": setup.storm_cards, "lightning": setup.lightning_cards,
                "deliberation": setup.deliberation_cards, "seal": setup.seal_cards}[kind]

    @property
    def cubes_left(self) -> int:
        return TOTAL_CUBES - sum(self.towers)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning team's players, once roles are revealed (empty while they are hidden)."""
        if not self.is_over or self.messenger is None:
            return ()
        evil = {self.messenger, *self.fanatics}
        if self.result == "messenger":
            return tuple(sorted(evil))
        return tuple(p for p in range(len(self.names)) if p not in evil)

    def seals_on(self, player: int) -> int:
        return sum(1 for _, target in self.seal_uses if target == player)

    def punishments_on(self, player: int) -> int:
        return sum(cards for _, target, cards in self.punishment_uses if target == player)

    def card(self, card_id: str) -> InstructionCard | None:
        return next((c for c in self.instructions if c.id == card_id), None)

    # --- rulings -------------------------------------------------------------------------------
    def check(self, move: Move) -> Ruling:
        if not isinstance(move, tuple(mv.MOVE_TYPES.values())):
            return Ruling(move, (_v("babel.round.play", N_("This is not a Babel Builders move."),
                                             N_("Record what the table did: an appointment, a revealed card, "
                                                "the end of building, a new master or the end-game pointing.")),))
        kind = move.kind
        if kind == "end_phase":
            allowed: tuple[str, ...] = (move.phase,)  # type: ignore[attr-defined]
        else:
            allowed = STAGE_OF_KIND[kind]
        if self.stage not in allowed or (
            self.stage == "over" and not (self.result == "messenger" and self.messenger is None)
        ):
            return Ruling(move, (self._wrong_stage(kind),))
        violations = tuple(getattr(self, f"_check_{kind}")(move))
        return Ruling(move, violations, self._notes(move) if not violations else ())

    def _wrong_stage(self, kind: str) -> Violation:
        if self.stage == "over":
            return _v(self.end_rule or "babel.end.complete", N_("The game is over."), N_("Start a new game."))
        return _v(
            RULE_OF_KIND[kind],
            N_("Not now: this is the {stage} phase."),
            N_("Wait for the {stage} phase to end."),
            stage=self.stage,
        )

    def _player_problem(self, rule: str, player: int) -> Violation | None:
        if 0 <= player < len(self.names):
            return None
        return _v(rule, N_("There is no player {player}."), N_("Name a player from 1 to {count}."),
                  player=player + 1, count=len(self.names))

    def _check_appoint(self, move: mv.Appoint) -> Iterator[Violation]:
        rule = "babel.round.appoint"
        need = self.setup.architects_per_round
        for p in move.architects:
            if problem := self._player_problem(rule, p):
                yield problem
                return
        if len(move.architects) != need:
            yield _v(rule, NP_("The master appoints exactly {count} architect with {players} players.",
                               "The master appoints exactly {count} architects with {players} players."),
                     NP_("Hand out {count} architect token.", "Hand out {count} architect tokens."), count=need,
                     players=len(self.names))
        if len(set(move.architects)) != len(move.architects):
            yield _v(rule, N_("Each architect is appointed once."), NP_("Appoint {count} player.", "Appoint {count} different players."),
                     count=need)
        if self.master in move.architects:
            yield _v(rule, N_("The master receives the cards and cannot also be an architect."),
                     N_("Appoint players other than the master."))

    @property
    def reveal_limit(self) -> int:
        """How many cards this round can show: every played card but the one the master swaps into
        their hand (babel.round.play, 親方のアクション: 「残りのカードから1枚を選び、自分の手札のカード
        1枚と入れ替えます」). Only when every played card is a Storm is there nothing left to swap."""
        played = len(self.architects)
        return played if self.revealed.count("storm") == played else played - 1

    def _reveal_room(self, kind: str = "instruction") -> Iterator[Violation]:
        played = len(self.architects)
        if self.reveals >= played:
            yield _v("babel.round.play", NP_("Only {count} card was played to the master this round.",
                                             "Only {count} cards were played to the master this round."),
                     N_("Finish building: every played card is out."), count=played)
        elif kind != "storm" and self.reveals >= played - 1:
            # A Storm is shown before the swap; any other card only if the swap left it in play.
            yield _v("babel.round.play",
                     N_("The master swapped 1 of the {count} played cards into their hand, so only {left} are "
                        "revealed; {shown} already are."),
                     N_("Finish building: the last card went to the master's hand."),
                     count=played, left=played - 1, shown=self.reveals)
        if kind in SPECIALS and self.spent[SPECIALS.index(kind)] >= self.special_cards(kind):
            yield _v("babel.setup.specials", ALL_OUT[kind], N_("Look at the card again: it is another kind."),
                     count=self.special_cards(kind))

    def _check_storm(self, move: mv.Storm) -> Iterator[Violation]:
        yield from self._reveal_room("storm")
        if self.built:
            yield _v("babel.round.storm",
                     N_("A Storm is shown as soon as the master looks at the cards, before any other card."),
                     N_("Show a Storm first in a round; once other cards are out, record this one as it was."))

    def _check_instruction(self, move: mv.Instruction) -> Iterator[Violation]:
        yield from self._reveal_room()
        card = self.card(move.card) if move.card is not None else None
        if move.card is not None and card is None:
            yield _v("babel.instruction", N_("Instruction card {card} is not in the card library."),
                     N_("Add it to the card library, or leave the card out."), card=move.card)
            return
        if self.storm:
            if move.cell is not None:
                yield _v("babel.round.storm", N_("A Storm cancels all building this round: no cubes are placed."),
                         N_("Take the cubes off {cell}."), (move.cell,), cell=move.cell)
            return
        if move.cell is None:
            yield _v("babel.round.instruction", N_("An instruction card builds on one of its cells."),
                     N_("Say on which of the card's cells the cubes go."))
            return
        left = self.cubes_left
        if card is not None:
            if move.cell not in card.cells:
                yield _v("babel.instruction", N_("Card {card} builds only on {cells}, not on {cell}."),
                         N_("Move the cubes to one of {cells}."), (move.cell,),
                         card=card.id, cells=" / ".join(card.cells), cell=move.cell)
            expected = min(card.cubes, left)
            if move.cubes != expected:
                yield _v("babel.instruction", NP_("Card {card} builds {count} cube, not {cubes}.",
                                                  "Card {card} builds {count} cubes, not {cubes}."),
                         NP_("Place exactly {count} cube.", "Place exactly {count} cubes."), (move.cell,),
                         card=card.id, count=expected, cubes=move.cubes)
            return
        if move.cubes > left:
            yield _v("babel.instruction", NP_("Only {count} cube is left in the supply.",
                                              "Only {count} cubes are left in the supply."),
                     NP_("Place the {count} cube that is left.", "Place the {count} cubes that are left."), count=left)
        elif move.cubes == 0 and left > 0:
            yield _v("babel.instruction", N_("An instruction card builds 1, 2 or 3 cubes."),
                     N_("Place the cubes the card shows."))

    def _check_lightning(self, move: mv.Lightning) -> Iterator[Violation]:
        yield from self._reveal_room("lightning")
        tallest = tallest_cells(self.towers)
        if self.storm and self.storm_rule == STORM_TOWER:
            if move.cell is not None:
                yield _v("babel.round.storm", N_("This table reads the Storm as stopping every change to the tower "
                                                 "this round: Lightning removes nothing."),
                         N_("Put the cubes back on {cell}."), (move.cell,), cell=move.cell)
        elif not tallest:
            if move.cell is not None:
                yield _v("babel.round.lightning", N_("The base is empty: Lightning removes nothing."),
                         N_("Leave the base as it is."))
        elif move.cell not in tallest:
            yield _v("babel.round.lightning", N_("Lightning strikes the tallest tower: {cells}."),
                     N_("Take 2 cubes off {cells} instead."), (move.cell,) if move.cell else (),
                     cells=" / ".join(tallest))

    def _check_deliberation(self, move: mv.Deliberation) -> Iterator[Violation]:
        yield from self._reveal_room("deliberation")
        if move.architect not in self.architects:
            yield _v("babel.round.deliberation",
                     N_("Player {player} is not an architect of this round; only they have a discard to show."),
                     N_("Name one of this round's architects: {players}."),
                     player=move.architect + 1, players=", ".join(str(p + 1) for p in self.architects))

    def _check_seal(self, move: mv.SealInBuild) -> Iterator[Violation]:
        yield from self._reveal_room("seal")

    def _check_finish(self, move: mv.FinishBuilding) -> Iterator[Violation]:
        # The master's swap takes one received card into their hand; every other one is revealed.
        if self.reveals < len(self.architects) - 1:
            yield _v("babel.round.play",
                     N_("Reveal the played cards first: {count} revealed of {played} (all but the one the master "
                        "swapped into their hand)."),
                     N_("Reveal the remaining cards one by one, in the master's order."),
                     count=self.reveals, played=len(self.architects) - 1)

    def _check_punishment_confirmed(self, move: mv.ConfirmPunishment) -> Iterator[Violation]:
        rule = "babel.end.punishment"
        if self.built:
            yield _v(rule, N_("Divine Punishment is confirmed when the master looks at the cards, "
                              "before the others are revealed."),
                     N_("Go on with the round: a punishment card received now stays in the master's hand."))
        if move.cards < 2:
            yield _v(rule, N_("Confirming Divine Punishment shows at least 2 Divine Punishment cards."),
                     N_("With one card received, the master swaps it into their hand and the round goes on."))
        elif move.reason == "only_punishment" and move.cards < HAND_SIZE:
            # 「親方の手札に神罰カードしかない場合」: the master's whole hand (always 3 cards) is shown.
            yield _v(rule, N_("A master whose hand holds only Divine Punishment cards shows all {hand} of them, "
                              "and any received: at least {hand}, not {cards}."),
                     N_("Count every Divine Punishment card shown, the master's hand included."),
                     hand=HAND_SIZE, cards=move.cards)
        total = self.setup.punishment_cards
        if move.cards > total:
            yield _v("babel.setup.specials", _ONLY_PUNISHMENT,
                     N_("Count the Divine Punishment cards shown again."), count=total)
        if move.reason == "two_received" and move.cards > len(self.architects):
            yield _v("babel.round.punishment", NP_("The master received only {count} card this round.",
                                                   "The master received only {count} cards this round."),
                     N_("Count the Divine Punishment cards shown again."), count=len(self.architects))

    def _check_name_master(self, move: mv.NameMaster) -> Iterator[Violation]:
        if problem := self._player_problem("babel.round.appoint", move.player):
            yield problem
        elif move.player == self.master:
            yield _v("babel.round.appoint", N_("The master names another player as the next master."),
                     N_("Pass the master token to another player."))

    def _check_use_seal(self, move: mv.UseSeal) -> Iterator[Violation]:
        for p in (move.user, move.target):
            if problem := self._player_problem("babel.end.complete", p):
                yield problem
                return
        if any(user == move.user for user, _ in self.seal_uses):
            yield _v("babel.end.complete", N_("Each player uses at most 1 Seal card."),
                     N_("Record one Seal card per player."))
        available = self.setup.seal_cards - self.revealed_seals
        if len(self.seal_uses) >= available:
            yield _v("babel.setup.specials", NP_("Only {count} Seal card is left in this game.",
                                                 "Only {count} Seal cards are left in this game."),
                     N_("End the seal phase."), count=available)

    def _check_end_phase(self, move: mv.EndPhase) -> Iterator[Violation]:
        return iter(())

    def _check_use_punishment(self, move: mv.UsePunishment) -> Iterator[Violation]:
        for p in (move.fanatic, move.target):
            if problem := self._player_problem("babel.end.complete", p):
                yield problem
                return
        users = [f for f, _, _ in self.punishment_uses]
        if move.fanatic in users:
            yield _v("babel.end.complete", N_("Each fanatic points once."),
                     N_("Record all of a fanatic's cards in one pointing."))
        elif len(users) >= self.setup.max_fanatics:
            yield _v("babel.setup.roles", _AT_MOST_FANATICS,
                     N_("End the punishment phase."), count=self.setup.max_fanatics, players=len(self.names))
        used = sum(cards for _, _, cards in self.punishment_uses)
        if used + move.cards > self.setup.punishment_cards:
            yield _v("babel.setup.specials", _ONLY_PUNISHMENT,
                     N_("Count the Divine Punishment cards given again."), count=self.setup.punishment_cards)

    def _check_reveal_messenger(self, move: mv.RevealMessenger) -> Iterator[Violation]:
        for p in (move.player, *move.fanatics):
            if problem := self._player_problem("babel.setup.roles", p):
                yield problem
                return
        known = tuple(f for f, _, _ in self.punishment_uses) if self.stage == "messenger" else ()
        fanatics = set(move.fanatics) | set(known)
        if self.stage == "messenger" and move.fanatics and set(move.fanatics) != set(known):
            yield _v("babel.setup.roles", N_("The fanatics are the players who stood up in the punishment phase."),
                     N_("Leave the fanatics out: they are known already."))
        if len(set(move.fanatics)) != len(move.fanatics) or len(fanatics) > self.setup.max_fanatics:
            yield _v("babel.setup.roles", _AT_MOST_FANATICS,
                     N_("Name each fanatic once, at most {count}."),
                     count=self.setup.max_fanatics, players=len(self.names))
        if move.player in fanatics:
            yield _v("babel.setup.roles", N_("The Messenger of God is never a fanatic."),
                     N_("Name the player holding the Messenger of God role card."))

    def _notes(self, move: Move) -> tuple[Message, ...]:
        if isinstance(move, mv.Storm):
            return (Message.of(N_("Storm: no cubes are built this round.")),)
        if isinstance(move, mv.SealInBuild):
            return (Message.of(N_("A Seal played while building has no effect.")),)
        if isinstance(move, mv.FinishBuilding):
            after = self._apply_legal(move)
            assert isinstance(after, BabelState)
            if after.stage == "seal":
                return (Message.of(N_("The tower matches the blueprint: the architects win unless the punishment "
                                      "phase reverses it.")),)
            if after.stage == "over":
                return (Message.of(N_("The deck cannot refill the hands: the messenger's team wins.")),)
        return ()

    # --- applying ------------------------------------------------------------------------------
    def _apply_legal(self, move: Move) -> GameState:
        kind = move.kind
        if kind == "appoint":
            return replace(self, architects=move.architects, stage="build", revealed=())
        if kind in ("storm", "instruction", "lightning", "deliberation", "seal"):
            return self._reveal(move)
        if kind == "finish":
            return self._end_checks()
        if kind == "punishment_confirmed":
            return replace(self, stage="over", result="messenger", end_rule="babel.end.punishment")
        if kind == "name_master":
            return replace(self, master=move.player, round=self.round + 1, architects=(), stage="appoint",
                           revealed=())
        if kind == "use_seal":
            return replace(self, seal_uses=(*self.seal_uses, (move.user, move.target)))
        if kind == "use_punishment":
            return replace(self, punishment_uses=(*self.punishment_uses, (move.fanatic, move.target, move.cards)))
        if kind == "end_phase":
            return replace(self, stage="punishment" if move.phase == "seal" else "messenger")
        if kind == "reveal_messenger":
            if self.stage == "over":
                return replace(self, messenger=move.player, fanatics=tuple(sorted(move.fanatics)))
            messenger = move.player
            reversed_ = self.punishments_on(messenger) >= self.seals_on(messenger)
            fanatics = tuple(sorted(f for f, _, _ in self.punishment_uses))
            return replace(self, messenger=messenger, fanatics=fanatics, stage="over",
                           result="messenger" if reversed_ else "architects", end_rule="babel.end.complete")
        raise AssertionError(kind)

    def _reveal(self, move: Move) -> BabelState:
        spent = list(self.spent)
        if move.kind in SPECIALS:
            spent[SPECIALS.index(move.kind)] += 1
        state = replace(self, revealed=(*self.revealed, move.kind), spent=tuple(spent))
        if isinstance(move, mv.Instruction) and move.cell is not None and not self.storm:
            return replace(state, towers=add_cubes(self.towers, move.cell, move.cubes))
        if isinstance(move, mv.Lightning) and move.cell is not None:
            return replace(state, towers=add_cubes(self.towers, move.cell, -2))
        return state

    def _end_checks(self) -> BabelState:
        """babel.end.complete, then babel.end.deck; then the appointed architects refill to 3."""
        if self.blueprint.is_met(self.towers):
            return replace(self, stage="seal")
        need = 2 * len(self.architects)  # each architect played 1 and discarded 1
        if self.deck < need:
            return replace(self, stage="over", result="messenger", end_rule="babel.end.deck")
        return replace(self, deck=self.deck - need, stage="name_master")

    # --- moves ---------------------------------------------------------------------------------
    def legal_moves(self) -> Iterator[Move]:
        for move in self._candidates():
            if self.check(move).accepted:
                yield move

    def _candidates(self) -> Iterator[Move]:
        n = len(self.names)
        others = [p for p in range(n) if p != self.master]
        if self.stage == "appoint":
            for group in combinations(others, self.setup.architects_per_round):
                yield mv.Appoint(group)
        elif self.stage == "build":
            yield from self._build_candidates()
        elif self.stage == "name_master":
            for p in others:
                yield mv.NameMaster(p)
        elif self.stage == "seal":
            for user in range(n):
                for target in range(n):
                    yield mv.UseSeal(user, target)
            yield mv.EndPhase("seal")
        elif self.stage == "punishment":
            for fanatic in range(n):
                for target in range(n):
                    for cards in range(1, self.setup.punishment_cards + 1):
                        yield mv.UsePunishment(fanatic, target, cards)
            yield mv.EndPhase("punishment")
        elif self.stage == "messenger":
            for p in range(n):
                yield mv.RevealMessenger(p)
        elif self.stage == "over" and self.result == "messenger" and self.messenger is None:
            for p in range(n):
                rest = [q for q in range(n) if q != p]
                for size in range(self.setup.max_fanatics + 1):
                    for group in combinations(rest, size):
                        yield mv.RevealMessenger(p, group)

    def _build_candidates(self) -> Iterator[Move]:
        yield mv.Storm()
        for reason in mv.PUNISHMENT_REASONS:
            for cards in range(2, self.setup.punishment_cards + 1):
                yield mv.ConfirmPunishment(reason, cards)
        left = self.cubes_left
        for card in self.instructions:
            if self.storm:
                yield mv.Instruction(None, card.cubes, card.id)
            for cell in card.cells:
                yield mv.Instruction(cell, min(card.cubes, left), card.id)
        for cell in CELLS:
            for cubes in range(0, 4):
                yield mv.Instruction(cell, cubes)
        if self.storm:
            for cubes in range(1, 4):
                yield mv.Instruction(None, cubes)
        yield mv.Lightning(None)
        for cell in CELLS:
            yield mv.Lightning(cell)
        for p in self.architects:
            yield mv.Deliberation(p)
        yield mv.SealInBuild()
        yield mv.FinishBuilding()

    # --- what players read ---------------------------------------------------------------------
    def score_sheet(self) -> ScoreSheet:
        """Babel has no points: once the roles are known, 1 for each player of the winning team."""
        lines: list[ScoreLine] = []
        if self.is_over and self.messenger is not None:
            winners = set(self.winners)
            won = Message.of(
                N_("won with the Messenger's team") if self.result == "messenger" else N_("won with the Architects")
            )
            for p in range(len(self.names)):
                lines.append(ScoreLine(
                    player=p, category="result", label=Message.of(N_("Winning team")),
                    rule_id=self.end_rule or "babel.end.complete", points=1 if p in winners else 0,
                    detail=won if p in winners else None,
                ))
        return ScoreSheet(self.game, self.names, tuple(lines), final=self.is_over, ranked=False)

    def progress(self) -> dict[str, tuple[int, int]]:
        """Per cell of the blueprint: (cubes built, cubes the blueprint asks for)."""
        return {
            cell: (have, need)
            for cell, have, need in zip(CELLS, self.towers, self.blueprint.minimum, strict=True)
            if need
        }

    def guidance(self) -> tuple[Message, ...]:
        if self.stage == "appoint":
            appoint = Message.of(NP_("Master: appoint {count} architect.", "Master: appoint {count} architects."),
                                 count=self.setup.architects_per_round)
            if self.round == 1:  # the table is still setting up: say how
                setup = self.setup
                return (
                    Message.of(N_("Set-up for {players} players: 1 Messenger of God and {architects} Architect "
                                  "role cards; {punishment} Divine Punishment and {seals} Seal cards."),
                               players=setup.players, architects=setup.architects,
                               punishment=setup.punishment_cards, seals=setup.seal_cards),
                    *setup.steps(),
                    appoint,
                )
            return (appoint,)
        if self.stage == "build":
            return (Message.of(N_("Architects: play 1 card to the master and discard 1. Master: show any Storm, "
                                  "swap 1 card, then reveal the rest one by one.")),)
        if self.stage == "name_master":
            return (Message.of(N_("Master: name the next master.")),)
        if self.stage == "seal":
            return (Message.of(N_("Seal phase: holders of a Seal card point at the player they think is the "
                                  "Messenger of God.")),)
        if self.stage == "punishment":
            return (Message.of(N_("Punishment phase: fanatics stand up and point, without a word.")),)
        if self.stage == "messenger":
            return (Message.of(N_("The Messenger of God stands up.")),)
        missing = self.blueprint.missing(self.towers)
        return (Message.of(N_("Game over. Cubes still missing for the blueprint: {count}."),
                           count=sum(missing.values())),)

    # --- saving --------------------------------------------------------------------------------
    def to_json(self) -> Json:
        return {
            "players": list(self.names),
            "blueprint": self.blueprint.to_json(),
            "instructions": [card.to_json() for card in self.instructions],
            "towers": {cell: count for cell, count in zip(CELLS, self.towers, strict=True) if count},
            "deck": self.deck,
            "round": self.round,
            "master": self.master,
            "architects": list(self.architects),
            "stage": self.stage,
            "revealed": list(self.revealed),
            "spent": dict(zip(SPECIALS, self.spent, strict=True)),
            "seal_uses": [list(use) for use in self.seal_uses],
            "punishment_uses": [list(use) for use in self.punishment_uses],
            "messenger": self.messenger,
            "fanatics": list(self.fanatics),
            "result": self.result,
            "end_rule": self.end_rule,
            "rules": {"storm": self.storm_rule},
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> BabelState:
        r = JsonReader(data, source)  # saves.py prefixes the envelope key
        names = tuple(item.str() for item in r.get("players").list())
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise r.get("players").fail(N_("expected {low} to {high} players"), low=MIN_PLAYERS, high=MAX_PLAYERS)
        n = len(names)
        setup = setup_for(n)

        def player(reader: JsonReader) -> int:
            return reader.int(minimum=0, maximum=n - 1)

        instructions: list[InstructionCard] = []
        for item in r.get("instructions").list():
            card = InstructionCard.from_reader(item)
            if any(c.id == card.id for c in instructions):
                raise item.get("id").fail(N_("expected a card id not used before"))
            instructions.append(card)
        towers = [0] * len(CELLS)
        for cell, count in r.get("towers").items():
            if cell not in CELLS:
                raise count.fail(N_("expected a cell name {cells}"), cells=", ".join(CELLS))
            towers[cell_index(cell)] = count.int(minimum=0, maximum=TOTAL_CUBES)
        if sum(towers) > TOTAL_CUBES:
            raise r.get("towers").fail(NP_("expected at most {count} cube in all", "expected at most {count} cubes in all"),
                                             count=TOTAL_CUBES)
        stage = r.get("stage").str(STAGES)
        architects = tuple(player(item) for item in r.get("architects").list())
        if len(set(architects)) != len(architects) or len(architects) > setup.architects_per_round:
            raise r.get("architects").fail(NP_("expected up to {count} different player", "expected up to {count} different players"),
                                                count=setup.architects_per_round)
        revealed = tuple(item.str(REVEAL_KINDS) for item in r.get("revealed").list())
        if len(revealed) > len(architects):
            raise r.get("revealed").fail(NP_("expected at most {count} card (one per architect)",
                                                 "expected at most {count} cards (one per architect)"), count=len(architects))
        spent_reader = r.get("spent")
        spent = tuple(spent_reader.get(kind, 0).int(minimum=0) for kind in SPECIALS)
        for key, _ in spent_reader.items():
            if key not in SPECIALS:
                raise spent_reader.get(key).fail(ONLY_KEYS, count=len(SPECIALS), keys=", ".join(SPECIALS))
        messenger = r.get("messenger", None).optional()
        result = r.get("result", None).optional()
        end_rule = r.get("end_rule", None).optional()
        rules = r.get("rules", {})  # absent in saves made before the table option existed
        for key, _ in rules.items():
            if key != "storm":
                raise rules.get(key).fail(ONLY_KEYS, count=1, keys="storm")
        storm_rule = rules.get("storm", STORM_INSTRUCTIONS).str(STORM_RULES)
        state = cls(
            names=names,
            blueprint=Blueprint.from_reader(r.get("blueprint")),
            instructions=tuple(instructions),
            towers=tuple(towers),
            deck=r.get("deck").int(minimum=0, maximum=setup.deck_after_setup),
            round=r.get("round").int(minimum=1),
            master=player(r.get("master")),
            architects=architects,
            stage=stage,
            revealed=revealed,
            spent=spent,
            seal_uses=tuple(
                (player(u.list(2)[0]), player(u.list(2)[1])) for u in r.get("seal_uses").list()
            ),
            punishment_uses=tuple(
                (player(u.list(3)[0]), player(u.list(3)[1]), u.list(3)[2].int(minimum=1))
                for u in r.get("punishment_uses").list()
            ),
            messenger=player(messenger) if messenger else None,
            fanatics=tuple(player(item) for item in r.get("fanatics").list()),
            result=result.str(TEAMS) if result else None,
            end_rule=end_rule.str(("babel.end.complete", "babel.end.deck", "babel.end.punishment"))
            if end_rule else None,
            storm_rule=storm_rule,
        )
        problems = state.problems()
        if problems:
            raise FormatError(source, "state", Message.of(N_("not a position legal play can reach ({problems})"),
                                                           problems=listed(problems)))
        return state

    def problems(self) -> list[Message]:
        """What no legal game can reach, each citing its rule; empty for every state legal play produces."""
        out: list[Message] = []

        def problem(msgid: str, rule: str | None = None, **params: Any) -> None:
            out.append(Message.of(msgid, **params, **({"rule": rule} if rule else {})))

        setup = self.setup
        if sum(self.towers) > TOTAL_CUBES:
            problem(N_("{count} cubes on the base but the box holds only {total}"), count=sum(self.towers),
                    total=TOTAL_CUBES)
        if self.master in self.architects:
            problem(N_("the master is among the architects [{rule}]"), "babel.round.appoint")
        if self.stage == "build" and len(self.architects) != setup.architects_per_round:
            problem(N_("building needs {count} architects [{rule}]"), "babel.round.appoint",
                    count=setup.architects_per_round)
        if self.stage == "appoint" and (self.revealed or self.architects):
            problem(N_("cards revealed or architects appointed before the appointment [{rule}]"),
                    "babel.round.appoint")
        if len(self.revealed) > self.reveal_limit and self.architects:
            problem(N_("more cards revealed than the master's swap leaves in play [{rule}]"), "babel.round.play")
        if "storm" in self.revealed[self.revealed.count("storm"):]:
            problem(N_("a Storm revealed after another card [{rule}]"), "babel.round.storm")
        for kind, count in zip(SPECIALS, self.spent, strict=True):
            if count > self.special_cards(kind):
                problem(TOO_MANY_REVEALED[kind], "babel.setup.specials", count=count, total=self.special_cards(kind))
        if len(self.seal_uses) > setup.seal_cards - self.revealed_seals:
            problem(N_("more Seal cards used than the game has [{rule}]"), "babel.setup.specials")
        if len({u for u, _ in self.seal_uses}) != len(self.seal_uses):
            problem(N_("a player used 2 Seal cards [{rule}]"), "babel.end.complete")
        if sum(c for _, _, c in self.punishment_uses) > setup.punishment_cards:
            problem(N_("more Divine Punishment cards given than the game has [{rule}]"), "babel.setup.specials")
        if len(self.fanatics) > setup.max_fanatics:
            problem(N_("more fanatics than Divine Punishment cards [{rule}]"), "babel.setup.roles")
        if self.messenger is not None and self.messenger in self.fanatics:
            problem(N_("the messenger is also a fanatic [{rule}]"), "babel.setup.roles")
        if (self.stage == "over") != (self.result is not None) or (self.result is None) != (self.end_rule is None):
            problem(N_("a result without the game being over (or the reverse)"))
        if (self.seal_uses and self.stage not in ("seal", "punishment", "messenger", "over")) or (
            self.punishment_uses and self.stage not in ("punishment", "messenger", "over")
        ):
            problem(N_("end-game pointing before the end game [{rule}]"), "babel.end.complete")
        return out

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        return mv.parse_move(data, source)


def new_game(
    players: tuple[str, ...],
    blueprint: str = "example",
    library: CardLibrary | None = None,
    first_master: int = 0,
    storm_rule: str = STORM_INSTRUCTIONS,
) -> BabelState:
    """A game at its start: empty base, the chosen blueprint, the deck as set-up leaves it."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidValue(Message.of(N_("{game} is for {low} to {high} players, not {found}"), game="babel",
                                      low=MIN_PLAYERS, high=MAX_PLAYERS, found=len(players)))
    if not 0 <= first_master < len(players):
        raise ValueError(f"first_master must be a player index 0 to {len(players) - 1}")
    if storm_rule not in STORM_RULES:
        raise ValueError(f"storm must be one of {', '.join(STORM_RULES)}, not {storm_rule!r}")
    library = library or CardLibrary()
    return BabelState(
        names=tuple(players),
        blueprint=library.blueprint(blueprint),
        instructions=library.instructions,
        deck=setup_for(len(players)).deck_after_setup,
        master=first_master,
        storm_rule=storm_rule,
    )
