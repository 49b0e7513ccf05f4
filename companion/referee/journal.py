"""The game journal: every confirmed move and every override, in SQLite, before any feedback.

One file holds every game played on the device. A game row keeps the starting state; entry rows
keep, in order, each move confirmed (by the camera or by a player) and each undo. The state of a
game is its starting state with the entries replayed, so after a crash, a power cut or a restart
the referee resumes exactly where the journal stands. WAL mode with synchronous=FULL: a commit has
reached the disk when `record_*` returns, which is what lets the LED say "accepted" afterwards.

Rows of the `rejections` table (schema 2) keep the referee's memory of readings the players
rejected (referee/rejections.py): each picture remembered and each cell forgotten, written in the
same transaction as what caused it (the undo, the dismissal, the move that explains the cell), so a
power cut does not bring a phantom back. A schema-1 journal (without the table) is upgraded when it
is opened; its games simply have no rejections.

A journal that cannot be read is never silently replaced: it is renamed aside with a timestamp,
reported, and a fresh one is started.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import CompanionError, ErrorText, FormatError, got
from ..games import saves
from ..games.api import GameSpec, GameState, IllegalMove, Message, Move
from ..games.registry import get as get_spec
from ..i18n import N_

SCHEMA_VERSION = 2
OLDER_SCHEMAS = ("1",)  # opened and upgraded in place (the new table is added, nothing rewritten)
SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    initial TEXT NOT NULL,          -- the starting state (GameState.to_json)
    started REAL NOT NULL,
    finished REAL                   -- NULL while the game is running
);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,             -- 'move', 'undo' or 'note'
    actor TEXT NOT NULL,            -- 'camera' or 'player'
    move TEXT,                      -- Move.to_json for 'move'
    note TEXT NOT NULL DEFAULT '{}',
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_game ON entries(game_id, seq);
CREATE TABLE IF NOT EXISTS rejections (
    seq INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    action TEXT NOT NULL,           -- 'remember' (a picture of a cell) or 'forget' (the cell)
    region TEXT NOT NULL,
    row INTEGER NOT NULL,
    col INTEGER NOT NULL,
    picture TEXT,                   -- for 'remember': JSON [label, attrs] (rejections.picture)
    created REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rejections_game ON rejections(game_id, seq);
"""

# one change of the rejection memory: ('remember', (region, row, col), picture) or ('forget', cell, None)
RejectionChange = tuple[str, tuple[str, int, int], str | None]


@dataclass(frozen=True)
class JournalGame:
    """A game as the journal holds it, replayed."""

    id: int
    spec: GameSpec
    initial: GameState
    moves: tuple[Move, ...]
    state: GameState
    finished: bool
    states: tuple[GameState, ...] = ()  # initial, then after each move (for undo after a restart)
    # each move's note as journaled (e.g. {"provisional": [...]}: a choice still open), with
    # {"settled": i} notes applied (the choice of move i became final)
    notes: tuple[dict[str, Any], ...] = ()
    # the rejection memory's changes in the order they were made (replayed by RejectedReadings)
    rejections: tuple[RejectionChange, ...] = ()


@dataclass(frozen=True)
class SetAside:
    """A journal that could not be read and was renamed out of the way."""

    original: Path
    moved_to: Path
    reason: str  # English, for logs
    shown: Any = None  # the reason in the player's language (a FormatError renders itself); None: `reason`


class JournalWriteError(CompanionError):
    """The journal could not be written (a full or failing card). Nothing of the call that wrote
    was kept, in the file or in the referee's memory: the next look at the table tries again."""

    @classmethod
    def of(cls, path: Path, exc: sqlite3.Error) -> JournalWriteError:
        text = Message.of(N_("The game could not be saved to {file} ({detail}); the last change was not "
                             "kept and the referee will look again. Free some space on the storage, or "
                             "check that it is not failing."), file=path.name, detail=str(exc))
        return cls(f"{path}: {text.render('en')}", message=text)


class Journal:
    """An open journal file. Not thread-safe: the referee loop owns it."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time,
                 resolve: Callable[[str], GameSpec] = get_spec):
        self.path = Path(path)
        self.clock = clock
        self.resolve = resolve  # game id -> GameSpec (tests pass their own games)
        self.set_aside: SetAside | None = None
        self._depth = 0  # nesting of transaction(): only the outermost commits
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = self._open()
        except (sqlite3.DatabaseError, FormatError) as exc:
            self.set_aside = _move_aside(self.path, exc)
            self._db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=5.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")  # a commit is on disk before feedback is given
            check = db.execute("PRAGMA quick_check").fetchone()
            if not check or check[0] != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
            db.executescript(SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] in OLDER_SCHEMAS:  # the script above added what is new: say so
                db.execute("UPDATE meta SET value=? WHERE key='schema'", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise FormatError(str(self.path), "meta.schema", got(N_("expected journal schema {schema} (a newer companion "
                                                                         "wrote it?)"), row[0], schema=SCHEMA_VERSION))
        except BaseException:
            db.close()
            raise
        return db

    def close(self) -> None:
        self._db.close()

    # --- writing --------------------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside is committed together (durably) when the outermost block ends,
        or not at all: a power cut never leaves half of it. Nothing written: no transaction."""
        outer = self._depth == 0
        self._depth += 1
        try:
            yield
        except BaseException:
            self._depth -= 1
            if outer and self._db.in_transaction:
                self._db.rollback()
            raise
        self._depth -= 1
        if outer and self._db.in_transaction:
            try:
                self._db.commit()  # synchronous=FULL: on disk when this returns
            except sqlite3.Error:
                with suppress(sqlite3.Error):  # a failed commit may leave it open
                    self._db.rollback()
                raise

    def _begin(self) -> None:
        if not self._db.in_transaction:
            self._db.execute("BEGIN IMMEDIATE")

    def start_game(self, initial: GameState) -> int:
        with self.transaction():
            self._begin()
            cur = self._db.execute(
                "INSERT INTO games (game, initial, started) VALUES (?, ?, ?)",
                (initial.game, json.dumps(initial.to_json(), ensure_ascii=False), self.clock()),
            )
        return int(cur.lastrowid)

    def record_move(self, game_id: int, move: Move, actor: str = "camera", note: dict[str, Any] | None = None) -> int:
        return self._append(game_id, "move", actor, json.dumps(move.to_json(), ensure_ascii=False), note)

    def record_undo(self, game_id: int, actor: str = "player", note: dict[str, Any] | None = None) -> int:
        return self._append(game_id, "undo", actor, None, note)

    def finish_game(self, game_id: int) -> None:
        with self.transaction():
            self._begin()
            self._db.execute("UPDATE games SET finished=? WHERE id=?", (self.clock(), game_id))

    def revise(self, game_id: int, undo: int, moves: list[tuple], note: dict[str, Any]) -> None:
        """Take back the last `undo` moves and record `moves` (move, actor) or (move, actor, its own
        note) in their place, in one transaction: a power cut leaves either the old history or the
        new one, never half of it."""
        now = self.clock()
        rows = [(game_id, "undo", "referee", None, json.dumps(note, ensure_ascii=False), now)] * undo
        for move, actor, *own in moves:
            row_note = {**note, **(own[0] if own else {})}
            rows.append((game_id, "move", actor, json.dumps(move.to_json(), ensure_ascii=False),
                         json.dumps(row_note, ensure_ascii=False), now))
        with self.transaction():
            self._begin()
            self._db.executemany(
                "INSERT INTO entries (game_id, kind, actor, move, note, created) VALUES (?, ?, ?, ?, ?, ?)", rows)

    def _append(self, game_id: int, kind: str, actor: str, move: str | None, note: dict[str, Any] | None) -> int:
        with self.transaction():  # commits (synchronous=FULL: durable) before returning
            self._begin()
            cur = self._db.execute(
                "INSERT INTO entries (game_id, kind, actor, move, note, created) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, kind, actor, move, json.dumps(note or {}, ensure_ascii=False), self.clock()),
            )
        return int(cur.lastrowid)

    def record_rejections(self, game_id: int, changes: Iterable[RejectionChange]) -> None:
        """Changes of the rejection memory (inside the transaction of what caused them, if one is open)."""
        now = self.clock()
        rows = [(game_id, action, region, r, c, picture, now) for action, (region, r, c), picture in changes]
        if rows:
            with self.transaction():
                self._begin()
                self._db.executemany(
                    "INSERT INTO rejections (game_id, action, region, row, col, picture, created) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    # --- reading --------------------------------------------------------------------------------

    def latest_game_id(self, running_only: bool = True) -> int | None:
        sql = "SELECT id FROM games" + (" WHERE finished IS NULL" if running_only else "") + " ORDER BY id DESC LIMIT 1"
        row = self._db.execute(sql).fetchone()
        return None if row is None else int(row[0])

    def entries(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT seq, kind, actor, move, note, created FROM entries WHERE game_id=? ORDER BY seq", (game_id,)
        ).fetchall()
        return [
            {"seq": seq, "kind": kind, "actor": actor, "move": json.loads(move) if move else None,
             "note": json.loads(note), "created": created}
            for seq, kind, actor, move, note, created in rows
        ]

    def load_game(self, game_id: int) -> JournalGame:
        """Replay a game; a journal whose moves no longer replay raises FormatError naming the entry."""
        row = self._db.execute("SELECT game, initial, finished FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise FormatError(str(self.path), f"games[{game_id}]", ErrorText.of(N_("no such game in the journal")))
        game, initial_text, finished = row
        source = f"{self.path}: game {game_id}"
        spec = self.resolve(game)
        try:
            initial = spec.state_type.from_json(json.loads(initial_text), source)
        except json.JSONDecodeError:
            raise FormatError(source, "initial", ErrorText.of(N_("not valid JSON"))) from None
        states = [initial]
        moves: list[Move] = []
        notes: list[dict[str, Any]] = []
        listed: list | None = None  # an older journal's provisional note, before its move
        for entry in self.entries(game_id):
            where = f"entry {entry['seq']}"
            if entry["kind"] == "undo":
                if moves:
                    moves.pop()
                    states.pop()
                    notes.pop()
                continue
            if entry["kind"] != "move":  # a note (a dismissed ruling, a settled choice): no change
                settled = entry["note"].get("settled")
                if isinstance(settled, int) and 0 <= settled < len(notes):
                    notes[settled] = {k: v for k, v in notes[settled].items() if k != "provisional"}
                listed = entry["note"].get("provisional")
                continue
            move = spec.state_type.move_from_json(entry["move"], f"{source}, {where}")
            note = dict(entry["note"]) if isinstance(entry["note"], dict) else {}
            if listed and "provisional" not in note and entry["move"] in listed:  # the older form
                note["provisional"] = [m for m in listed if m != entry["move"]]
            listed = None
            try:
                if entry["note"].get("override") == "overrule":  # the players let it stand
                    states.append(states[-1]._apply_legal(move))
                else:
                    states.append(states[-1].apply(move))
            except IllegalMove as exc:
                raise FormatError(source, _entry(entry["seq"]), _does_not_replay(exc)) from None
            except Exception as exc:  # an overruled move the engine cannot apply any more
                raise FormatError(source, _entry(entry["seq"]), ErrorText.of(N_("this overruled move does not replay ({detail})"),
                                                              detail=repr(exc))) from None
            moves.append(move)
            notes.append(note)
        return JournalGame(game_id, spec, initial, tuple(moves), states[-1], finished is not None, tuple(states),
                           tuple(notes), self.rejections(game_id))

    def rejections(self, game_id: int) -> tuple[RejectionChange, ...]:
        """The game's rejection-memory changes in order; a row that is not one raises FormatError
        naming it (the file is left as it is)."""
        rows = self._db.execute(
            "SELECT seq, action, region, row, col, picture FROM rejections WHERE game_id=? ORDER BY seq", (game_id,)
        ).fetchall()
        source = f"{self.path}: game {game_id}"
        changes: list[RejectionChange] = []
        for seq, action, region, r, c, picture in rows:
            where = f"rejections row {seq}"
            if action not in ("remember", "forget"):
                raise FormatError(source, f"{where}.action", got(N_("expected one of {choices}"), action,
                                                                 choices="'remember', 'forget'"))
            if not isinstance(region, str) or not region:
                raise FormatError(source, f"{where}.region", got(N_("expected a region name"), region))
            for key, value in (("row", r), ("col", c)):
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise FormatError(source, f"{where}.{key}", got(N_("expected a whole number ≥ {limit}"), value, limit=0))
            if action == "remember":
                picture = _picture_text(picture, source, f"{where}.picture")
            changes.append((action, (region, r, c), picture if action == "remember" else None))
        return tuple(changes)

    def export_record(self, game_id: int) -> dict[str, Any]:
        """The game in the saves.py record format (docs/formats.md)."""
        game = self.load_game(game_id)
        return saves.record_to_json(game.initial, game.moves)

    def export(self, game_id: int, directory: str | Path) -> tuple[Path, Path]:
        """Write the record and its score sheet as JSON files beside each other; never overwrite."""
        game = self.load_game(game_id)
        directory = Path(directory)
        stem = f"{game.spec.id}-game{game_id}-{time.strftime('%Y%m%d-%H%M%S', time.localtime(self.clock()))}"
        record_path = _free_path(directory / f"{stem}.json")
        sheet_path = _free_path(directory / f"{stem}.score.json")
        saves.write_json_atomic(record_path, saves.record_to_json(game.initial, game.moves))
        saves.write_json_atomic(sheet_path, game.state.score_sheet().to_json())
        return record_path, sheet_path


def _picture_text(text: Any, source: str, where: str) -> str:
    """A remembered picture as rejections.picture writes it: JSON [label, attrs]."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except json.JSONDecodeError:
        value = None
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], dict)):
        raise FormatError(source, where, got(N_("expected JSON [label, attributes] of a cell reading"), text))
    return json.dumps(value, sort_keys=True, default=str)


def _free_path(path: Path) -> Path:
    n = 1
    candidate = path
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
    return candidate


def _move_aside(path: Path, exc: Exception) -> SetAside:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = _free_path(path.with_name(f"{path.name}.corrupt-{stamp}"))
    path.rename(target)
    for suffix in ("-wal", "-shm"):  # the WAL belongs to the broken file: keep it with it
        side = path.with_name(path.name + suffix)
        if side.exists():
            side.rename(target.with_name(target.name + suffix))
    return SetAside(path, target, str(exc), exc if isinstance(exc, CompanionError) else None)


def open_or_set_aside(path: str | Path, loader: Callable[[Journal], Any],
                      resolve: Callable[[str], GameSpec] = get_spec) -> tuple[Journal, Any]:
    """Open a journal and load from it; when loading fails (a move no longer replays, a bad row),
    set the file aside and start afresh. Returns the journal and the loader's result (None if the
    old journal was set aside by loading)."""
    journal = Journal(path, resolve=resolve)
    try:
        return journal, loader(journal)
    except (sqlite3.DatabaseError, FormatError) as exc:
        journal.close()
        aside = _move_aside(Path(path), exc)
        fresh = Journal(path, resolve=resolve)
        fresh.set_aside = aside
        return fresh, None


def _entry(seq: int) -> ErrorText:
    """Where in a game a move that does not replay is (a FormatError's `where`, in the player's language)."""
    return ErrorText.of(N_("entry {number}"), number=seq)


def _does_not_replay(exc: IllegalMove) -> ErrorText:
    """Why a journaled move no longer replays: its first violation, in the player's language."""
    if not exc.ruling.violations:
        return ErrorText.of(N_("this move does not replay ({detail})"), detail=str(exc))
    first = exc.ruling.violations[0]
    return ErrorText.of(N_("this move does not replay: {reason} [{rule}]"), reason=first.message, rule=first.rule_id)
