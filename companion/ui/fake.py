"""A fake referee for tests, screenshots and `python -m companion.ui --demo`.

It implements `RefereeControls`, records every call, and answers the way the real referee does:
by pushing events into the feed. `DemoState` is a tiny Babylon-like position so the screens have
real `GameState`, `Ruling` and `ScoreSheet` objects to show; it is no rules engine.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from ..games.api import GameState, Json, Message, Move, Ruling, ScoreLine, ScoreSheet, Violation
from ..i18n import N_
from ..referee.events import (
    AskPlayer,
    GameOver,
    MoveAccepted,
    OverrideRecorded,
    SaveFailed,
    ScoreChanged,
    SourceStatus,
    TurnGuidance,
    ViolationFound,
)
from ..referee.journal import JournalWriteError
from ..referee.startup import PREPARING
from .controller import (
    Answer,
    CalibrationProgress,
    CameraSwitch,
    CameraView,
    DeviceStatus,
    EventFeed,
    GameSetup,
    Mark,
)

DEMO_PLAYERS = ("Aiko", "Ben", "陳美玲")


@dataclass(frozen=True)
class DemoMove(Move):
    kind: ClassVar[str] = "place_tile"
    cells: tuple[str, ...]
    level: int = 1

    def to_json(self) -> Json:
        return {"kind": self.kind, "cells": list(self.cells), "level": self.level}

    def describe(self) -> Message:
        return Message.of(N_("Place a tile on {cells} at level {level}"), cells=" ".join(self.cells), level=self.level)


@dataclass(frozen=True)
class DemoState(GameState):
    game: ClassVar[str] = "babylon"
    names: tuple[str, ...] = DEMO_PLAYERS
    turn: int = 0
    moves: int = 0
    finished: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    def legal_moves(self) -> Iterator[Move]:
        yield DemoMove(("r2c2", "r2c3", "r3c2", "r3c3"), 1)
        yield DemoMove(("r5c5", "r5c6", "r6c5", "r6c6"), 1)
        yield DemoMove(("r2c4", "r2c5", "r3c4", "r3c5"), 2)

    def check(self, move: Move) -> Ruling:
        if isinstance(move, DemoMove) and move.level > 2:
            return Ruling(move, (demo_violation(),))
        return Ruling(move, notes=(Message.of(N_("The tile rests on 4 pillars at the same height.")),))

    def _apply_legal(self, move: Move) -> GameState:
        return DemoState(self.names, (self.turn + 1) % len(self.names), self.moves + 1, self.finished)

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.turn

    @property
    def phase(self) -> str:
        return "over" if self.finished else "build"

    @property
    def is_over(self) -> bool:
        return self.finished

    def score_sheet(self) -> ScoreSheet:
        return demo_sheet(self.names, final=self.finished)

    def guidance(self) -> tuple[Message, ...]:
        return demo_guidance()

    def to_json(self) -> Json:
        return {"players": list(self.names), "turn": self.turn, "moves": self.moves, "over": self.finished}

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> GameState:
        return cls(tuple(data["players"]), data["turn"], data["moves"], data["over"])

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        return DemoMove(tuple(data["cells"]), data["level"])


def demo_violation() -> Violation:
    return Violation(
        "babylon.build.support",
        Message.of(N_("A tile must rest on 3 or 4 pillars whose tops are at the same height; here {count} pillars carry it."), count=2),
        Message.of(N_("Add pillars under the tile, or take the tile back.")),
        ("r3c4", "r3c5", "r4c4", "r4c5"),
    )


def demo_guidance() -> tuple[Message, ...]:
    return (
        Message.of(N_("Take one visible tile from the quarry.")),
        Message.of(N_("You may place the tile you took and the tile in your storage slot.")),
    )


_CATEGORIES = (
    ("highest", N_("Highest tile"), "babylon.score.highest"),
    ("statue", N_("Statues"), "babylon.score.statue"),
    ("fountain", N_("Fountains"), "babylon.score.fountain"),
    ("bridge", N_("Bridges"), "babylon.score.bridge"),
    ("stairs", N_("Stairs"), "babylon.score.stairs"),
    ("deco_set", N_("Decoration sets"), "babylon.score.deco_set"),
    ("flower_set", N_("Flower sets"), "babylon.score.flower_set"),
    ("belvedere", N_("Belvederes"), "babylon.score.belvedere"),
)
_POINTS = ((6, 3, 6, 3, 5, 4, 4, 2), (6, 2, 9, 0, 5, 0, 8, 3), (4, 5, 3, 6, 4, 4, 4, 1))
_PIECES = {
    "statue": ("r1c1", "r1c5"),
    "fountain": ("r3c3", "r3c4"),
    "bridge": ("r5c2", "r5c4"),
    "stairs": ("r6c6", "r6c7"),
    "highest": ("r2c2", "r2c3", "r3c2", "r3c3"),
}


def demo_sheet(players: tuple[str, ...] = DEMO_PLAYERS, final: bool = False) -> ScoreSheet:
    lines = []
    for p in range(len(players)):
        points = _POINTS[p % len(_POINTS)]
        for (key, label, rule), value in zip(_CATEGORIES, points, strict=True):
            lines.append(ScoreLine(p, key, Message.of(label), rule, value, _PIECES.get(key, ())))
    # Ben and Aiko tie on 33; the tie-break (fewer visible recesses) decides for Ben.
    return ScoreSheet(
        "babylon",
        players,
        tuple(lines),
        tiebreak=tuple(-r for r in (12, 9, 20)[: len(players)]),
        tiebreak_rule="babylon.score.tiebreak",
        tiebreak_label=Message.of(N_("Fewer visible recesses")),
        final=final,
    )


def demo_camera_image(width: int = 640, height: int = 480) -> np.ndarray:
    """A synthetic top-down table: a wooden board with an 8 × 8 recess grid and a few tiles."""
    image = np.full((height, width, 3), (60, 90, 130), np.uint8)  # BGR: brown table
    top, left, size = 40, (width - 400) // 2, 400
    image[top : top + size, left : left + size] = (120, 170, 200)
    step = size // 8
    for i in range(9):
        image[top + i * step : top + i * step + 2, left : left + size] = (50, 70, 90)
        image[top : top + size, left + i * step : left + i * step + 2] = (50, 70, 90)
    for r, c, colour in ((2, 2, (90, 160, 90)), (5, 5, (160, 160, 160)), (3, 4, (80, 80, 200))):
        y, x = top + r * step, left + c * step
        image[y + 4 : y + 2 * step - 4, x + 4 : x + 2 * step - 4] = colour
    return image


def demo_marks(width: int = 640) -> tuple[Mark, ...]:
    left, top, step = (width - 400) // 2, 40, 50
    return (
        Mark(left + 3 * step, top + 3 * step, "2", "ok"),
        Mark(left + 6 * step, top + 6 * step, "1", "ok"),
        Mark(left + 5 * step, top + 4 * step, "!", "bad", 30),
    )


@dataclass(frozen=True)
class BabylonScenario:
    """A real Babylon game from the engine's seeded self-play: a position, an illegal tile
    placement there (shifted one space off a legal one), and the finished game."""

    before: GameState
    illegal: Move
    final: GameState
    moves: int


@cache
def babylon_scenario(seed: int = 2) -> BabylonScenario | None:
    """None when the Babylon engine is not installed (the screens then show DemoState only)."""
    try:
        from ..games.babylon.moves import PlaceTile
        from ..games.babylon.selfplay import play_random_game
    except ImportError:
        return None
    initial, moves, final = play_random_game(2, seed=seed)
    state = initial
    for index, move in enumerate(moves):
        if isinstance(move, PlaceTile) and index > 40:
            for d_row, d_col in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                shifted = dataclasses.replace(move, row=move.row + d_row, col=move.col + d_col)
                if 0 <= shifted.row <= 6 and 0 <= shifted.col <= 6 and state.check(shifted).violations:
                    return BabylonScenario(state, shifted, final, len(moves))
        state = state.apply(move)
    return None


@dataclass
class FakeReferee:
    """Implements RefereeControls; every call is recorded in `calls` as (name, args)."""

    feed: EventFeed = field(default_factory=EventFeed)
    calls: list[tuple[str, tuple[Any, ...]]] = field(default_factory=list)
    state: DemoState = field(default_factory=DemoState)
    moves: int = 0
    calibration_step: int = 0
    calibration_steps: int = 10
    volume: float = 0.8
    sound: bool = True
    camera: str = "sim"
    saved: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    with_camera: bool = True
    games: tuple[str, ...] = ("babylon", "reclamation", "babel", "baubylon")  # what start_game accepts
    broken_cameras: tuple[str, ...] = ()  # sources set_camera fails to open
    switch: CameraSwitch | None = None  # a camera switch: under way until finish_camera_switch()

    # --- RefereeControls -----------------------------------------------------------------------
    def start_game(self, setup: GameSetup) -> Answer:
        self.calls.append(("start_game", (setup,)))
        if setup.game not in self.games:
            return Answer(False, Message.of(N_("This game cannot start: {reason}"), reason=Message.of(
                N_("the simulated table has no recorded game of {game}"), game=setup.game)))
        self.state = DemoState(setup.players)
        self.moves = 0
        self._guidance()
        self.feed.push(ScoreChanged(setup.game, 0, self.state.score_sheet()))
        return Answer(True)

    def accept_correction(self) -> None:
        self.calls.append(("accept_correction", ()))
        self.feed.push(OverrideRecorded("babylon", self.moves, "correct", Message.of(N_("The players put the pieces back."))))
        self._guidance()

    def override(self) -> None:
        self.calls.append(("override", ()))
        self.feed.push(OverrideRecorded("babylon", self.moves, "confirm", Message.of(N_("The players overruled the referee; the move stands."))))
        self._accept(DemoMove(("r3c4", "r3c5", "r4c4", "r4c5"), 1))

    def correct(self, move: Move) -> None:
        self.calls.append(("correct", (move,)))
        self._accept(move)

    def choose(self, index: int) -> None:
        self.calls.append(("choose", (index,)))
        moves = list(self.state.legal_moves())
        self._accept(moves[index % len(moves)])

    def undo(self) -> None:
        self.calls.append(("undo", ()))
        self.moves = max(0, self.moves - 1)
        self.feed.push(OverrideRecorded("babylon", self.moves, "undo", Message.of(N_("The last move was taken back."))))
        self._guidance()

    def end_game(self) -> None:
        self.calls.append(("end_game", ()))
        self.state = DemoState(self.state.names, self.state.turn, self.state.moves, True)
        sheet = self.state.score_sheet()
        self.feed.push(GameOver("babylon", self.moves, sheet, sheet.leaders()))

    def play(self, move: Move) -> None:
        self.calls.append(("play", (move,)))
        ruling = self.state.check(move)
        if ruling.violations:
            self.feed.push(ViolationFound("babylon", self.moves, ruling, self.state))
            return
        self._accept(move)

    def camera_view(self) -> CameraView | None:
        if not self.with_camera:
            return None
        return CameraView(demo_camera_image(), demo_marks())

    def start_calibration(self) -> None:
        self.calls.append(("start_calibration", ()))
        self.calibration_step = 0

    def stop_calibration(self) -> None:
        self.calls.append(("stop_calibration", ()))

    def calibration_progress(self) -> CalibrationProgress:
        self.calibration_step = min(self.calibration_step + 1, self.calibration_steps)
        fraction = self.calibration_step / self.calibration_steps
        done = self.calibration_step >= self.calibration_steps
        return CalibrationProgress(
            fraction,
            CameraView(demo_camera_image(), demo_marks()),
            step=None if done else Message.of(N_("Tilt the sheet a little and hold it still.")),
            verdict=Message.of(N_("Good: the camera sees the board within {error} px."), error=0.4) if done else None,
            ok=True if done else None,
        )

    def device_status(self) -> DeviceStatus:
        return DeviceStatus(
            camera=self.camera,
            calibrated=True,
            calibration_detail=Message.of(N_("reprojection error {error} px"), error=0.4),
            pins=(("led_red", 17), ("led_green", 27), ("led_blue", 22), ("buzzer", 18), ("button_confirm", 23), ("button_undo", 24)),
            volume=self.volume,
            sound=self.sound,
            version="0.1.0",
            extra=(("display", "800×480"), ("referee", "fake")),
            switch=self.switch,
        )

    def set_sound(self, enabled: bool, volume: float) -> None:
        self.calls.append(("set_sound", (enabled, volume)))
        self.sound, self.volume = enabled, volume

    def set_camera(self, source: str) -> Answer:
        """As the real referee: answered at once, the camera's readers built in the background (the
        "preparing" line on the feed) until finish_camera_switch(); the old camera runs meanwhile."""
        self.calls.append(("set_camera", (source,)))
        if self.switch is not None and self.switch.done is None:
            return Answer(False, Message.of(N_("Still switching to camera {source}: wait until it is ready."),
                                            source=self.switch.source))
        self.switch = CameraSwitch(source)
        self.feed.push(SourceStatus("babylon", self.moves, "preparing", Message.of(PREPARING)))
        if source == "sim":
            return Answer(True, Message.of(N_("Switching to the simulated table.")))
        return Answer(True, Message.of(N_("Switching to camera {source}…"), source=source))

    def finish_camera_switch(self) -> None:
        """The switch's readers are built (or the camera failed: one of `broken_cameras`)."""
        switch = self.switch
        if switch is None or switch.done is not None:
            return
        self.feed.push(SourceStatus("babylon", self.moves, "ready"))
        if switch.source in self.broken_cameras:
            self.switch = CameraSwitch(switch.source, False, Message.of(
                N_("Camera {source} could not be used: {reason}. Still using {current}."),
                source=switch.source, current=self.camera, reason=Message.of(
                    N_("it gives no picture (check its cable, and that no other program is using it)"))))
            return
        self.camera = switch.source
        self.switch = CameraSwitch(switch.source, True, Message.of(N_("Now using the simulated table."))
                                   if switch.source == "sim" else Message.of(N_("Now using camera {source}."),
                                                                             source=switch.source))

    def save_editor_data(self, kind: str, data: dict[str, Any]) -> Message:
        self.calls.append(("save_editor_data", (kind, data)))
        self.saved.setdefault(kind, []).append(data)
        return Message.of(N_("Saved."))

    # --- scripted referee events, for tests and screenshots --------------------------------------
    def play_move(self) -> None:
        self._accept(next(iter(self.state.legal_moves())))

    def find_violation(self) -> None:
        move = DemoMove(("r3c4", "r3c5", "r4c4", "r4c5"), 3)
        self.feed.push(ViolationFound("babylon", self.moves, self.state.check(move), self.state))

    def ask(self) -> None:
        candidates = tuple(self.state.legal_moves())[:2]
        self.feed.push(AskPlayer("babylon", self.moves, Message.of(N_("Which move was made?")), candidates, (0.55, 0.41)))

    def save_failed(self) -> None:
        """The journal refused the last change (a full card), as the real referee reports it."""
        error = JournalWriteError.of(Path("journal.sqlite"), sqlite3.OperationalError("database or disk is full"))
        self.feed.push(SaveFailed("babylon", self.moves, error.message))

    def real_violation(self) -> bool:
        """A violation the Babylon engine itself finds in a self-played game (False without it)."""
        scenario = babylon_scenario()
        if scenario is None:
            return False
        ruling = scenario.before.check(scenario.illegal)
        self.feed.push(ViolationFound("babylon", self.moves, ruling, scenario.before))
        return True

    def real_game_over(self) -> bool:
        """The end of a Babylon game the engine played against itself, scored by the engine."""
        scenario = babylon_scenario()
        if scenario is None:
            return False
        final = scenario.final
        self.moves = scenario.moves
        self.feed.push(MoveAccepted("babylon", self.moves, Ruling(DemoMove(("a1",))), final))
        sheet = final.score_sheet()
        self.feed.push(ScoreChanged("babylon", self.moves, sheet))
        self.feed.push(GameOver("babylon", self.moves, sheet, final.winners))
        return True

    def _accept(self, move: Move) -> None:
        ruling = self.state.check(move)
        self.state = DemoState(self.state.names, (self.state.turn + 1) % len(self.state.names), self.state.moves + 1)
        self.moves += 1
        self.feed.push(MoveAccepted("babylon", self.moves, ruling, self.state))
        self.feed.push(ScoreChanged("babylon", self.moves, self.state.score_sheet()))
        self._guidance()

    def _guidance(self) -> None:
        self.feed.push(TurnGuidance("babylon", self.moves, self.state.current_player, self.state.phase, self.state.guidance()))
