"""Events the referee emits, consumed by the feedback layer (LED, buzzer) and the UI.

They are plain immutable data: the UI and feedback never call back into the tracker except through
the explicit `Override` commands the tracker accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..games.api import GameState, Message, Move, Ruling, ScoreSheet


@dataclass(frozen=True)
class Event:
    game: str
    move_number: int  # confirmed moves so far


@dataclass(frozen=True)
class MoveAccepted(Event):
    ruling: Ruling
    state: GameState  # the confirmed state after the move


@dataclass(frozen=True)
class ViolationFound(Event):
    ruling: Ruling  # rejected: its violations carry rule ids, messages and fixes
    state: GameState  # the confirmed state the players should return to


@dataclass(frozen=True)
class AskPlayer(Event):
    """Several readings explain the change, or the reading is unsure: let a player choose."""

    question: Message
    candidates: tuple[Move, ...]
    confidences: tuple[float, ...] = ()


@dataclass(frozen=True)
class TurnGuidance(Event):
    player: int | None
    phase: str
    guidance: tuple[Message, ...] = ()


@dataclass(frozen=True)
class ScoreChanged(Event):
    sheet: ScoreSheet


@dataclass(frozen=True)
class GameOver(Event):
    sheet: ScoreSheet
    winners: tuple[int, ...]


@dataclass(frozen=True)
class OverrideRecorded(Event):
    action: str  # "confirm", "correct", "undo"
    detail: Message


@dataclass(frozen=True)
class SourceStatus(Event):
    """The camera (or other source) went away, came back, or the scene is busy (hand, motion)."""

    status: str  # "ok", "lost", "retrying", "busy", "still", "preparing" (its board readers being built), "ready"
    detail: Message | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ViolationCleared(Event):
    """After a violation the table shows the confirmed state again: the players undid the action."""

    state: GameState


@dataclass(frozen=True)
class GameResumed(Event):
    """`companion run` picked a game up from the journal (after a restart, a crash, a power cut)."""

    state: GameState
    detail: Message | None = None


@dataclass(frozen=True)
class SaveFailed(Event):
    """The journal could not be written (a full or failing card): the change was not kept, in the
    file or in the referee's memory, and the next look at the table tries again."""

    detail: Message
