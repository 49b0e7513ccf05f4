"""What the screens show, kept from the referee's events (plain Python, no Kivy).

The app feeds every event to `Session.apply`, which returns the screen that should come forward
(a violation or a question interrupts whatever is showing; game over brings the score sheet), or
None to stay where the players are.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games.api import GameState, Message, Move, Ruling, ScoreSheet
from ..referee.events import (
    AskPlayer,
    Event,
    GameOver,
    GameResumed,
    MoveAccepted,
    OverrideRecorded,
    SaveFailed,
    ScoreChanged,
    SourceStatus,
    TurnGuidance,
    ViolationFound,
)
from ..referee.startup import PREPARING, PREPARING_STATUS, READY_STATUS

HISTORY_LIMIT = 30  # the live view lists recent rulings; older ones stay in the journal


@dataclass(frozen=True)
class Question:
    """An open AskPlayer: the question and its candidates with their confidences."""

    text: Message
    candidates: tuple[Move, ...]
    confidences: tuple[float, ...]


@dataclass
class Session:
    game: str | None = None
    players: tuple[str, ...] = ()
    move_number: int = 0
    state: GameState | None = None
    current_player: int | None = None
    phase: str = ""
    guidance: tuple[Message, ...] = ()
    last_ruling: Ruling | None = None
    pending_violation: Ruling | None = None
    question: Question | None = None
    sheet: ScoreSheet | None = None
    winners: tuple[int, ...] | None = None  # set at game over
    source_status: str = "ok"
    source_detail: Message | None = None
    # The board readers are being built (at start-up, or for a camera chosen in Settings while the
    # old one keeps refereeing): said until they are ready, whatever the running source reports.
    preparing: Message | None = None
    save_problem: Message | None = None  # the last change could not be saved; cleared by the next save
    history: list[Message] = field(default_factory=list)  # newest last
    revision: int = 0  # bumped when something shown changes, so the app re-renders only then

    def reset(self, game: str, players: tuple[str, ...]) -> None:
        preparing = self.preparing  # a build under way goes on across games
        self.__init__()  # type: ignore[misc]
        self.preparing = preparing
        self.game = game
        self.players = players

    @property
    def over(self) -> bool:
        return self.winners is not None

    def apply(self, event: Event) -> str | None:
        """Take in one event; return the name of the screen to bring forward, if any."""
        if isinstance(event, SourceStatus) and (event.status, event.detail) == (self.source_status, self.source_detail):
            return None  # the scene stirs and settles many times a minute: nothing new to show
        if isinstance(event, SourceStatus) and event.status in (PREPARING_STATUS, READY_STATUS):
            self.revision += 1
            self.game = event.game
            self.preparing = (event.detail or Message.of(PREPARING)) if event.status == PREPARING_STATUS else None
            return None
        self.revision += 1
        self.game = event.game
        if isinstance(event, MoveAccepted | OverrideRecorded | GameOver):
            self.save_problem = None  # journaled before it was sent: saving works again
        self.move_number = event.move_number
        if isinstance(event, MoveAccepted):
            self._set_state(event.state)
            self.last_ruling = event.ruling
            self.pending_violation = None
            self.question = None
            self._log(event.ruling.move.describe())
            return None
        if isinstance(event, ViolationFound):
            self._set_state(event.state)
            self.last_ruling = event.ruling
            self.pending_violation = event.ruling
            for violation in event.ruling.violations:
                self._log(violation.message)
            return "ruling"
        if isinstance(event, AskPlayer):
            self.question = Question(event.question, event.candidates, event.confidences)
            return "ruling"
        if isinstance(event, TurnGuidance):
            self.current_player = event.player
            self.phase = event.phase
            self.guidance = event.guidance
            return None
        if isinstance(event, ScoreChanged):
            self.sheet = event.sheet
            self.players = event.sheet.players or self.players
            return None
        if isinstance(event, GameOver):
            self.sheet = event.sheet
            self.winners = event.winners
            self.current_player = None
            self.pending_violation = None
            self.question = None
            return "score"
        if isinstance(event, OverrideRecorded):
            self.pending_violation = None
            self.question = None
            self._log(event.detail)
            return "live"
        if isinstance(event, SourceStatus):
            self.source_status = event.status
            self.source_detail = event.detail
            return None
        if isinstance(event, SaveFailed):  # not kept: the players must know before they go on
            self.save_problem = event.detail
            self._log(event.detail)
            return "live"
        if isinstance(event, GameResumed):  # picked up from the journal: show where it stands
            self._set_state(event.state)
            if event.detail is not None:
                self._log(event.detail)
            return None
        return None

    def _set_state(self, state: GameState) -> None:
        if self.winners is not None and not state.is_over:
            self.winners = None  # a new game (or an undone ending) is under way again
        self.state = state
        self.players = state.players
        self.current_player = state.current_player
        self.phase = state.phase

    def note(self, message: Message) -> None:
        """Something the players should read that no event carries (e.g. the referee's answer)."""
        self.revision += 1
        self._log(message)

    def _log(self, message: Message) -> None:
        self.history.append(message)
        del self.history[:-HISTORY_LIMIT]
