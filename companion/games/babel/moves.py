"""The public events of a Babel Builders round, as moves. Hidden hands and roles never appear here:
only what the whole table sees (appointments, revealed cards, cubes placed, end-game pointing)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...i18n import N_, NP_
from ..api import Json, Message, Move
from ..jsonread import JsonReader
from .towers import CELLS

PUNISHMENT_REASONS = ("only_punishment", "two_received")


@dataclass(frozen=True)
class Appoint(Move):
    """babel.round.appoint: the master hands out the architect tokens."""

    architects: tuple[int, ...]
    kind: ClassVar[str] = "appoint"

    def to_json(self) -> Json:
        return {"kind": self.kind, "architects": list(self.architects)}

    def describe(self) -> Message:
        return Message.of(N_("appoint architects {players}"), players=", ".join(str(p + 1) for p in self.architects))


@dataclass(frozen=True)
class Storm(Move):
    """babel.round.storm: a Storm card among the received cards is shown at once."""

    kind: ClassVar[str] = "storm"

    def to_json(self) -> Json:
        return {"kind": self.kind}

    def describe(self) -> Message:
        return Message.of(N_("reveal a Storm card"))


@dataclass(frozen=True)
class Instruction(Move):
    """babel.round.instruction: a revealed instruction card builds `cubes` cubes on `cell`.

    `card` names a card of the library when the table says which one it is; without it the
    companion checks only the count (1 to 3). Under a Storm the card is wasted: cell is None."""

    cell: str | None
    cubes: int
    card: str | None = None
    kind: ClassVar[str] = "instruction"

    def to_json(self) -> Json:
        data: Json = {"kind": self.kind, "cell": self.cell, "cubes": self.cubes}
        if self.card is not None:
            data["card"] = self.card
        return data

    def describe(self) -> Message:
        if self.cell is None:
            return Message.of(N_("reveal an instruction card (wasted)"))
        return Message.of(NP_("build {count} cube on {cell}", "build {count} cubes on {cell}"), count=self.cubes,
                          cell=self.cell)


@dataclass(frozen=True)
class Lightning(Move):
    """babel.round.lightning: 2 cubes come off the tallest tower (`cell`; None on an empty base)."""

    cell: str | None
    kind: ClassVar[str] = "lightning"

    def to_json(self) -> Json:
        return {"kind": self.kind, "cell": self.cell}

    def describe(self) -> Message:
        if self.cell is None:
            return Message.of(N_("reveal a Lightning card (nothing to remove)"))
        return Message.of(N_("Lightning: remove 2 cubes from {cell}"), cell=self.cell)


@dataclass(frozen=True)
class Deliberation(Move):
    """babel.round.deliberation: the master makes one of this round's architects show their discard."""

    architect: int
    kind: ClassVar[str] = "deliberation"

    def to_json(self) -> Json:
        return {"kind": self.kind, "architect": self.architect}

    def describe(self) -> Message:
        return Message.of(N_("Deliberation: player {player} shows their discard"), player=self.architect + 1)


@dataclass(frozen=True)
class SealInBuild(Move):
    """babel.round.seal_in_build: a Seal card revealed while building; it does nothing."""

    kind: ClassVar[str] = "seal"

    def to_json(self) -> Json:
        return {"kind": self.kind}

    def describe(self) -> Message:
        return Message.of(N_("reveal a Seal card (no effect while building)"))


@dataclass(frozen=True)
class FinishBuilding(Move):
    """The last card is revealed: the end checks and the refill follow (babel.end.*)."""

    kind: ClassVar[str] = "finish"

    def to_json(self) -> Json:
        return {"kind": self.kind}

    def describe(self) -> Message:
        return Message.of(N_("end the building phase"))


@dataclass(frozen=True)
class ConfirmPunishment(Move):
    """babel.end.punishment: the master shows the Divine Punishment cards; the messenger's team wins."""

    reason: str  # only_punishment | two_received
    cards: int
    kind: ClassVar[str] = "punishment_confirmed"

    def to_json(self) -> Json:
        return {"kind": self.kind, "reason": self.reason, "cards": self.cards}

    def describe(self) -> Message:
        return Message.of(NP_("Divine Punishment confirmed ({count} card shown)",
                              "Divine Punishment confirmed ({count} cards shown)"), count=self.cards)


@dataclass(frozen=True)
class NameMaster(Move):
    """The master names the next master, never themselves."""

    player: int
    kind: ClassVar[str] = "name_master"

    def to_json(self) -> Json:
        return {"kind": self.kind, "player": self.player}

    def describe(self) -> Message:
        return Message.of(N_("player {player} becomes the master"), player=self.player + 1)


@dataclass(frozen=True)
class UseSeal(Move):
    """Seal phase: one holder points at a player and gives them a Seal card (one card each)."""

    user: int
    target: int
    kind: ClassVar[str] = "use_seal"

    def to_json(self) -> Json:
        return {"kind": self.kind, "user": self.user, "target": self.target}

    def describe(self) -> Message:
        return Message.of(N_("player {user} seals player {target}"), user=self.user + 1, target=self.target + 1)


@dataclass(frozen=True)
class UsePunishment(Move):
    """Punishment phase: a fanatic points at a player and gives them their Divine Punishment card(s)."""

    fanatic: int
    target: int
    cards: int = 1
    kind: ClassVar[str] = "use_punishment"

    def to_json(self) -> Json:
        return {"kind": self.kind, "fanatic": self.fanatic, "target": self.target, "cards": self.cards}

    def describe(self) -> Message:
        return Message.of(
            NP_("fanatic {fanatic} gives {count} Divine Punishment card to player {target}",
                "fanatic {fanatic} gives {count} Divine Punishment cards to player {target}"),
            fanatic=self.fanatic + 1,
            count=self.cards,
            target=self.target + 1,
        )


@dataclass(frozen=True)
class EndPhase(Move):
    """Closes the seal phase (`seal`) or the punishment phase (`punishment`)."""

    phase: str
    kind: ClassVar[str] = "end_phase"

    def to_json(self) -> Json:
        return {"kind": self.kind, "phase": self.phase}

    def describe(self) -> Message:
        if self.phase == "seal":
            return Message.of(N_("end the seal phase"))
        return Message.of(N_("end the punishment phase"))


@dataclass(frozen=True)
class RevealMessenger(Move):
    """The Messenger of God stands up (and, after an early end, the fanatics too)."""

    player: int
    fanatics: tuple[int, ...] = ()
    kind: ClassVar[str] = "reveal_messenger"

    def to_json(self) -> Json:
        return {"kind": self.kind, "player": self.player, "fanatics": list(self.fanatics)}

    def describe(self) -> Message:
        return Message.of(N_("player {player} is the Messenger of God"), player=self.player + 1)


MOVE_TYPES: dict[str, type[Move]] = {
    cls.kind: cls
    for cls in (
        Appoint,
        Storm,
        Instruction,
        Lightning,
        Deliberation,
        SealInBuild,
        FinishBuilding,
        ConfirmPunishment,
        NameMaster,
        UseSeal,
        UsePunishment,
        EndPhase,
        RevealMessenger,
    )
}


def _players(reader: JsonReader) -> tuple[int, ...]:
    return tuple(item.int(minimum=0) for item in reader.list())


def _cell(reader: JsonReader) -> str | None:
    return None if reader.value is None else reader.str(CELLS)


def parse_move(data: Any, source: str = "<move>") -> Move:
    reader = JsonReader(data, source)
    kind = reader.get("kind").str(tuple(MOVE_TYPES))
    if kind == "appoint":
        return Appoint(_players(reader.get("architects")))
    if kind == "instruction":
        card = reader.get("card", None).optional()
        return Instruction(
            _cell(reader.get("cell")), reader.get("cubes").int(minimum=0, maximum=3), card.str() if card else None
        )
    if kind == "lightning":
        return Lightning(_cell(reader.get("cell")))
    if kind == "deliberation":
        return Deliberation(reader.get("architect").int(minimum=0))
    if kind == "punishment_confirmed":
        return ConfirmPunishment(reader.get("reason").str(PUNISHMENT_REASONS), reader.get("cards").int(minimum=1))
    if kind == "name_master":
        return NameMaster(reader.get("player").int(minimum=0))
    if kind == "use_seal":
        return UseSeal(reader.get("user").int(minimum=0), reader.get("target").int(minimum=0))
    if kind == "use_punishment":
        return UsePunishment(
            reader.get("fanatic").int(minimum=0),
            reader.get("target").int(minimum=0),
            reader.get("cards", 1).int(minimum=1),
        )
    if kind == "end_phase":
        return EndPhase(reader.get("phase").str(("seal", "punishment")))
    if kind == "reveal_messenger":
        return RevealMessenger(reader.get("player").int(minimum=0), _players(reader.get("fanatics", [])))
    return MOVE_TYPES[kind]()
