"""Saved states, moves and game records: the versioned JSON envelopes of docs/formats.md."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ErrorText, FormatError, line_column, os_error_text
from ..i18n import N_
from .api import GameSpec, GameState, IllegalMove, Message, Move
from .jsonread import JsonReader
from .registry import GAME_IDS, get

FORMAT_VERSION = 1
STATE_FORMAT = "table-companion/state"
GAME_FORMAT = "table-companion/game"
MOVE_FORMAT = "table-companion/move"


@dataclass(frozen=True)
class GameRecord:
    """A whole game: the starting state and every move since, in order."""

    spec: GameSpec
    initial: GameState
    moves: tuple[Move, ...]
    final: GameState

    def states(self) -> list[GameState]:
        states = [self.initial]
        for move in self.moves:
            states.append(states[-1].apply(move))
        return states


def state_to_json(state: GameState) -> dict[str, Any]:
    return {"format": STATE_FORMAT, "version": FORMAT_VERSION, "game": state.game, "state": state.to_json()}


def move_to_json(game: str, move: Move) -> dict[str, Any]:
    return {"format": MOVE_FORMAT, "version": FORMAT_VERSION, "game": game, "move": move.to_json()}


def record_to_json(initial: GameState, moves: list[Move] | tuple[Move, ...]) -> dict[str, Any]:
    return {
        "format": GAME_FORMAT,
        "version": FORMAT_VERSION,
        "game": initial.game,
        "initial": initial.to_json(),
        "moves": [m.to_json() for m in moves],
    }


def read_json_file(path: str | Path) -> Any:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(str(path), "", os_error_text(exc)) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        # json's own words (exc.msg) are English and add little to the line and column: left out
        raise FormatError(str(path), line_column(exc.lineno, exc.colno), ErrorText.of(N_("not valid JSON"))) from None


def write_json_atomic(path: str | Path, data: Any) -> None:
    """Write via a temporary file and rename, so a power cut never leaves half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, ensure_ascii=False, indent=1)
            handle.write("\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _envelope(reader: JsonReader, expected_formats: tuple[str, ...]) -> tuple[str, GameSpec]:
    fmt = reader.get("format").str(expected_formats)
    version = reader.get("version").int(minimum=1)
    if version > FORMAT_VERSION:
        raise reader.get("version").fail(N_("expected version ≤ {limit} (a newer companion wrote it)"), limit=FORMAT_VERSION)
    game = reader.get("game").str(GAME_IDS)
    return fmt, get(game)


def _body(parse: Callable[[Any, str], Any], body: JsonReader) -> Any:
    """Parse an envelope's body; errors name the full key path in the file (`state.board[2]`)."""
    try:
        return parse(body.value, body.source)
    except FormatError as exc:
        if exc.source != body.source:
            raise
        where = body.path if exc.where in ("", "top level") else f"{body.path}.{exc.where}"
        if exc.where.startswith("["):
            where = f"{body.path}{exc.where}"
        raise FormatError(exc.source, where, exc.expected) from None


def parse_state(data: Any, source: str) -> GameState:
    reader = JsonReader(data, source)
    _, spec = _envelope(reader, (STATE_FORMAT,))
    return _body(spec.state_type.from_json, reader.get("state"))


def parse_move(data: Any, spec: GameSpec, source: str = "<move>") -> Move:
    """A move in its envelope, or a bare move object {"kind": ...} of the given game."""
    reader = JsonReader(data, source)
    if reader.has("format"):
        fmt, move_spec = _envelope(reader, (MOVE_FORMAT,))
        if move_spec.id != spec.id:
            raise reader.get("game").fail(N_("expected a move of {game}"), game=spec.id)
        return _body(spec.state_type.move_from_json, reader.get("move"))
    return spec.state_type.move_from_json(data, source)


def parse_record(data: Any, source: str) -> GameRecord:
    reader = JsonReader(data, source)
    _, spec = _envelope(reader, (GAME_FORMAT,))
    initial = _body(spec.state_type.from_json, reader.get("initial"))
    moves: list[Move] = []
    state = initial
    for move_reader in reader.get("moves").list():
        move = _body(spec.state_type.move_from_json, move_reader)
        try:
            state = state.apply(move)
        except IllegalMove as exc:
            reasons = tuple(Message.of(N_("{rule}: {reason}"), rule=v.rule_id, reason=v.message) for v in exc.ruling.violations)
            raise FormatError(source, move_reader.path, ErrorText.of(
                N_("this move is not legal in the game so far ({reasons})"), reasons=reasons)) from None
        moves.append(move)
    return GameRecord(spec, initial, tuple(moves), state)


def load(path: str | Path) -> GameRecord:
    """Load a saved state or a whole game record; a state loads as a record with no moves."""
    data = read_json_file(path)
    source = str(path)
    reader = JsonReader(data, source)
    fmt = reader.get("format").str((STATE_FORMAT, GAME_FORMAT))
    if fmt == GAME_FORMAT:
        return parse_record(data, source)
    state = parse_state(data, source)
    return GameRecord(get(state.game), state, (), state)
