"""One game API for four games, modelled on python-chess and OpenSpiel.

A `GameState` is immutable. It lists its legal moves, checks a move and returns a `Ruling`
(accepted, or violations each citing a rule id of shared/rules/DIGEST.md), applies a legal move to
give the next state, says whose turn and which phase it is, whether the game is over and who won, and
produces a `ScoreSheet` whose every line cites its rule id.

Everything a player reads is a `Message`: an English gettext msgid plus parameters, translated only
when shown (see companion.i18n). This package stays pure Python: no cv2, kivy or gpiozero.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..i18n import identifier_name, translate

Json = dict[str, Any]


def _freeze(params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(params.items()))


@dataclass(frozen=True)
class Message:
    """A translatable text: a msgid with `{name}` placeholders and the values to put in them."""

    msgid: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, msgid: str, **params: Any) -> Message:
        return cls(msgid, _freeze(params))

    def render(self, lang: str | None = None) -> str:
        # A parameter may itself be a Message (a rule title, a piece name): same language throughout.
        # Identifiers (a phase, a flower) are shown by their names in that language.
        params = {k: v.render(lang) if isinstance(v, Message) else identifier_name(k, v, lang) for k, v in self.params}
        return translate(self.msgid, lang, params)

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> Json:
        params = {k: v.to_json() if isinstance(v, Message) else v for k, v in self.params}
        return {"msgid": self.msgid, "params": params, "text": self.render()}


@dataclass(frozen=True)
class Violation:
    """Why a move is not allowed: the rule it breaks, in words, and how to put it right."""

    rule_id: str
    message: Message
    fix: Message | None = None
    where: tuple[str, ...] = ()  # game-specific names of the cells or pieces involved, for overlays

    @classmethod
    def of(cls, rule_id: str, msgid: str, *, fix: str | None = None, where: tuple[str, ...] = (),
           **params: Any) -> Violation:
        """A violation whose message and fix share the same parameters (the usual case)."""
        return cls(rule_id, Message.of(msgid, **params), Message.of(fix, **params) if fix else None, where)

    def to_json(self) -> Json:
        data: Json = {"rule": self.rule_id, "message": self.message.to_json()}
        if self.fix is not None:
            data["fix"] = self.fix.to_json()
        if self.where:
            data["where"] = list(self.where)
        return data


class Move(ABC):
    """A small immutable action. Subclasses are frozen dataclasses with a class-level `kind`."""

    kind: ClassVar[str]

    @abstractmethod
    def to_json(self) -> Json:
        """A JSON object with at least {"kind": self.kind}."""

    def describe(self) -> Message:
        return Message.of("{kind}", kind=self.kind)


@dataclass(frozen=True)
class Ruling:
    """The referee's answer to one move: accepted, or the violations it commits."""

    move: Move
    violations: tuple[Violation, ...] = ()
    notes: tuple[Message, ...] = ()  # explanations of an accepted move ("3 pillars: an edge to ...")

    @property
    def accepted(self) -> bool:
        return not self.violations

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(v.rule_id for v in self.violations)

    def to_json(self) -> Json:
        return {
            "move": self.move.to_json(),
            "accepted": self.accepted,
            "violations": [v.to_json() for v in self.violations],
            "notes": [n.to_json() for n in self.notes],
        }


class IllegalMove(Exception):
    """Raised by `GameState.apply` for a move its ruling rejects; carries that ruling."""

    def __init__(self, ruling: Ruling):
        self.ruling = ruling
        reasons = "; ".join(f"{v.rule_id}: {v.message}" for v in ruling.violations)
        super().__init__(f"illegal move {ruling.move.to_json()}: {reasons}")


@dataclass(frozen=True)
class ScoreLine:
    """One line of the score pad: a player's points in one category, with the rule behind them."""

    player: int
    category: str  # stable key, e.g. "fountain"
    label: Message  # what the paper score pad calls it
    rule_id: str
    points: int
    pieces: tuple[str, ...] = ()  # the pieces that earned the points, so the UI can highlight them
    detail: Message | None = None

    def to_json(self) -> Json:
        data: Json = {
            "player": self.player,
            "category": self.category,
            "label": self.label.to_json(),
            "rule": self.rule_id,
            "points": self.points,
            "pieces": list(self.pieces),
        }
        if self.detail is not None:
            data["detail"] = self.detail.to_json()
        return data


@dataclass(frozen=True)
class ScoreSheet:
    """Every player's score, line by line; totals are always the sum of the lines."""

    game: str
    players: tuple[str, ...]
    lines: tuple[ScoreLine, ...]
    # Tie-break keys per player, higher is better, compared after the total (e.g. -visible recesses).
    tiebreak: tuple[int, ...] = ()
    tiebreak_rule: str | None = None
    tiebreak_label: Message | None = None
    final: bool = False
    # False for games won by a condition rather than by points (Babel Builders, Baubylon): the
    # totals are then informative only, and nobody "leads" by them.
    ranked: bool = True

    def total(self, player: int) -> int:
        return sum(line.points for line in self.lines if line.player == player)

    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(p) for p in range(len(self.players)))

    def lines_for(self, player: int) -> tuple[ScoreLine, ...]:
        return tuple(line for line in self.lines if line.player == player)

    def categories(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for line in self.lines:
            seen.setdefault(line.category, None)
        return tuple(seen)

    def _key(self, player: int) -> tuple[int, ...]:
        extra = (self.tiebreak[player],) if self.tiebreak else ()
        return (self.total(player), *extra)

    def leaders(self) -> tuple[int, ...]:
        """The players ranked first (several when the tie-break leaves them equal); none if unranked."""
        if not self.players or not self.ranked:
            return ()
        best = max(self._key(p) for p in range(len(self.players)))
        return tuple(p for p in range(len(self.players)) if self._key(p) == best)

    def tiebreak_decided(self) -> bool:
        """True when the totals tie at the top and the tie-break separates them."""
        if not self.tiebreak:
            return False
        top = max(self.totals())
        return sum(1 for t in self.totals() if t == top) > len(self.leaders())

    def to_json(self) -> Json:
        return {
            "game": self.game,
            "players": list(self.players),
            "final": self.final,
            "lines": [line.to_json() for line in self.lines],
            "totals": list(self.totals()),
            "tiebreak": list(self.tiebreak),
            "tiebreak_rule": self.tiebreak_rule,
            "ranked": self.ranked,
            "leaders": list(self.leaders()),
        }


class GameState(ABC):
    """An immutable position of one game. Subclasses are frozen dataclasses."""

    game: ClassVar[str]

    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """Player names in seat order; players are referred to by their index."""

    @abstractmethod
    def legal_moves(self) -> Iterator[Move]:
        """Every legal move here (a generator: some games have many)."""

    @abstractmethod
    def check(self, move: Move) -> Ruling:
        """Rule on a move without applying it."""

    @abstractmethod
    def _apply_legal(self, move: Move) -> GameState:
        """The next state, for a move `check` has accepted."""

    def apply(self, move: Move) -> GameState:
        ruling = self.check(move)
        if not ruling.accepted:
            raise IllegalMove(ruling)
        return self._apply_legal(move)

    def is_legal(self, move: Move) -> bool:
        return self.check(move).accepted

    @property
    @abstractmethod
    def current_player(self) -> int | None:
        """Whose turn it is, or None when the game is over (or nobody in particular acts)."""

    @property
    @abstractmethod
    def phase(self) -> str:
        """A stable key of the turn phase, e.g. 'quarry', 'build', 'store', 'over'."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning players once the game is over (shared victories give several)."""
        return self.score_sheet().leaders() if self.is_over else ()

    @abstractmethod
    def score_sheet(self) -> ScoreSheet: ...

    def guidance(self) -> tuple[Message, ...]:
        """What the current player should do now, for new players. Engines may say more."""
        return ()

    @abstractmethod
    def to_json(self) -> Json:
        """The game-specific body of a saved state (see docs/formats.md)."""

    @classmethod
    @abstractmethod
    def from_json(cls, data: Any, source: str = "<state>") -> GameState:
        """Parse `to_json` output; raise FormatError naming the bad key."""

    @classmethod
    @abstractmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        """Parse a move; raise FormatError naming the bad key."""


@dataclass(frozen=True)
class RuleInfo:
    """A rule of DIGEST.md as this engine knows it."""

    id: str
    title: str  # msgid: a short English title
    status: str = "enforced"  # enforced | scored | setup | guidance | not-watched


@dataclass(frozen=True)
class Option:
    """A game option a player can set at the start (besides the player names)."""

    name: str
    help: str  # msgid
    default: Any
    choices: tuple[Any, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """A registered game: what it is, its options, its rules and how to start or load it."""

    id: str
    title: str  # msgid
    min_players: int
    max_players: int
    state_type: type[GameState]
    new_game: Callable[..., GameState]  # new_game(players: tuple[str, ...], **options)
    variants: tuple[str, ...] = ("standard",)
    options: tuple[Option, ...] = ()
    rules: tuple[RuleInfo, ...] = field(default_factory=tuple)

    def rule(self, rule_id: str) -> RuleInfo | None:
        return next((r for r in self.rules if r.id == rule_id), None)
