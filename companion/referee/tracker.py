"""The tracker: keeps the confirmed game state and rules on each still scene.

For every still scene it asks `inference.explain` which chains of moves (legal, or one illegal action
at the end) explain what the camera sees, and `inference.decide` picks: accept, violation, ask the
players, wait (an action is still under way) or nothing. Confirmed moves and every override go to the
journal *before* the events that make the LED say so are emitted. A violation is only called after
`violation_confirmations` still scenes in a row agree, so a single misread never blames a player.
"""

from __future__ import annotations

import functools
import itertools
import math
import sqlite3
from collections.abc import Callable, Mapping
from contextlib import nullcontext
from dataclasses import dataclass, field, fields, replace

from ..games.api import GameState, Message, Move, Ruling
from ..i18n import N_
from ..vision.types import Observation
from . import inference
from .events import (
    AskPlayer,
    Event,
    GameOver,
    MoveAccepted,
    OverrideRecorded,
    ScoreChanged,
    SourceStatus,
    TurnGuidance,
    ViolationCleared,
    ViolationFound,
)
from .journal import Journal, JournalWriteError
from .rejections import RejectedReadings
from .views.base import ExpectedView, GameView, changed_cells

Emit = Callable[[Event], None]


def _durably(method):
    """One journal transaction for everything the call changes (moves, undos, notes, the rejection
    memory), committed before any of its events reaches the sinks (the LED, the screen)."""

    @functools.wraps(method)
    def durable(self: Tracker, *args, **kwargs):
        if self._held is not None:  # called inside another durable call: its transaction
            return method(self, *args, **kwargs)
        self._held = []
        memory = self._memory()
        try:
            with self.journal.transaction() if self.journal is not None else nullcontext():
                result = method(self, *args, **kwargs)
                changes = self.rejected.drain()
                if self.journal is not None:
                    self.journal.record_rejections(self.game_id, changes)
            held = self._held
        except sqlite3.Error as exc:  # the journal kept nothing of the call: neither may the memory
            self._restore(memory)
            raise JournalWriteError.of(self.journal.path, exc) from exc
        except BaseException:
            self._restore(memory)
            raise
        finally:
            self._held = None
        for event in held:
            for sink in self.sinks:
                sink(event)
        return result

    return durable


# what the tracker was given, not what it remembers (a failed journal write restores the rest)
_NOT_MEMORY = frozenset({"initial", "view", "journal", "game_id", "settings", "sinks", "_held"})


def _copied(value):
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, (_Pending, _Provisional)):
        return replace(value)
    if isinstance(value, RejectedReadings):
        return value.copy()
    return value  # immutable: states, moves, rulings, numbers


BRANCH_BUDGET = 300  # candidate states weighed per open alternative of a provisional choice
MAX_OPEN_BRANCHES = 9  # open alternatives over all provisional choices (3 flower choices of 4)


@dataclass
class TrackerSettings:
    margin: float = math.log(8)  # log-likelihood gap under which readings count as "similar"
    min_confidence: float = 0.6  # a changed cell read less surely than this makes the players confirm
    violation_confirmations: int = 2  # still scenes in a row that must show the same illegal action
    ask_confirmations: int = 2  # still scenes in a row that must be unsure the same way
    # still scenes in a row that must show the same chain of several moves (one look's confident
    # misread beside a real move could otherwise slip in as a second move nobody made); a single
    # move is accepted at the first look. 2 and 1 gave the same twin-bench figures with the same
    # observers (32 questions, 0 phantoms, 18/30 illegal caught): 2 guards at the cost of one look
    chain_confirmations: int = 2
    auto_advance: bool = True  # apply a sole legal move that changes nothing the camera sees


@dataclass
class _Pending:
    kind: str  # "violation" or "ask"
    key: tuple
    explanations: tuple[inference.Explanation, ...]
    emitted: bool = False
    seen: int = 1


@dataclass(eq=False)
class _Provisional:
    """A choice the camera cannot see yet but will (Babylon: the flower of a tile just taken shows
    when the tile is placed): the move at `at` was accepted as one of the readings that look the
    same; the others stay weighed against every later scene until the table tells them apart."""

    at: int  # index of the provisional move in Tracker.moves
    alternatives: tuple[Move, ...]
    player: int | None = None  # whose choice it was


def _provisional_note(choice: _Provisional) -> dict:
    return {"provisional": [m.to_json() for m in choice.alternatives]}


@dataclass
class Tracker:
    """The referee's memory. Feed it still scenes with `observe`; overrides with confirm/correct/undo."""

    initial: GameState
    view: GameView
    journal: Journal | None = None
    game_id: int | None = None
    settings: TrackerSettings = field(default_factory=TrackerSettings)
    sinks: list[Emit] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)
    actors: list[str] = field(default_factory=list)  # who confirmed each move: camera, player, auto
    pending: _Pending | None = None
    waiting: bool = False
    last_ruling: Ruling | None = None
    correctable: bool = False  # the last thing that happened is a camera-accepted move
    provisionals: list[_Provisional] = field(default_factory=list)  # open, oldest first
    revisions: int = 0  # provisional choices settled by what the camera saw later
    rejected: RejectedReadings = field(default_factory=RejectedReadings)  # misreads the players rejected
    paused: bool = False  # the table shows something else (the calibration layout): no rulings
    resyncing: bool = False  # after a pause: rule again once the table shows the game as it was
    _faint_looks: int = 0
    _latest: dict[str, Observation] = field(default_factory=dict)  # the newest look at each region
    _held: list[Event] | None = None  # events of a durable call, sent once its transaction commits

    def __post_init__(self) -> None:
        if not self.states:
            self.states = [self.initial]
        if len(self.actors) != len(self.moves):
            self.actors = ["journal"] * len(self.moves)
        if self.journal is not None and self.game_id is None:
            self.game_id = self.journal.start_game(self.initial)
        self._base_view: ExpectedView = self.view.expected(self.state)

    # --- state ----------------------------------------------------------------------------------

    def _memory(self) -> dict:
        """A copy of everything a call may change in memory (game states, moves and readings are
        immutable: the lists that hold them are copied, not they)."""
        memory = {f.name: _copied(getattr(self, f.name)) for f in fields(self) if f.name not in _NOT_MEMORY}
        memory["_base_view"] = self._base_view
        return memory

    def _restore(self, memory: dict) -> None:
        for name, value in memory.items():
            setattr(self, name, value)

    @property
    def wants_another_look(self) -> bool:
        """A ruling waits for a second look at the still table (a violation or a question not yet
        called): the frame loop reads the next still frame instead of waiting for a change."""
        return (self.pending is not None and not self.pending.emitted) or 0 < self._faint_looks <= 2

    @property
    def state(self) -> GameState:
        return self.states[-1]

    @property
    def game(self) -> str:
        return self.initial.game

    def expected_view(self) -> ExpectedView:
        return self._base_view

    def _emit(self, event: Event) -> Event:
        if self._held is not None:
            self._held.append(event)  # sent when the journal has it (_durably)
            return event
        for sink in self.sinks:
            sink(event)
        return event

    def _set_state_after(self, new_states: list[GameState]) -> None:
        self.states = new_states
        self._base_view = self.view.expected(self.state)

    # --- scenes ---------------------------------------------------------------------------------

    @_durably
    def observe(self, observations: Mapping[str, Observation] | Observation) -> list[Event]:
        """Rule on one still scene (one Observation per region the camera reads)."""
        if isinstance(observations, Observation):
            observations = {observations.region: observations}
        if self.state.is_over or self.paused:
            return []
        observations = self.view.adapt(self.state, observations)
        self._latest.update(observations)
        # a cell still showing a reading the players rejected carries no evidence (rejections.py)
        observations, masked = self.rejected.mask(observations, self._base_view, inference.STRONG)
        events: list[Event] = []
        explanations = inference.explain(self.state, self.view, observations, self._base_view)
        decision = inference.decide(explanations, self.settings.margin, self.settings.min_confidence)
        if self.resyncing:
            return self._resync(decision)
        if self.provisionals and (decision.kind not in ("accept", "none") or self._branches_differ()):
            # the scene may tell the open alternatives apart (else weighing them costs for nothing)
            revised, weighed = self._weigh_provisional(observations, explanations)
            events += revised
            if weighed is not explanations:
                decision = inference.decide(weighed, self.settings.margin, self.settings.min_confidence)
        if decision.kind != "wait":
            self.waiting = False
        # a faint reading of a change (nothing ruled) earns up to two more looks at the still table,
        # unless it rests only on readings the players rejected (looking again shows them again)
        faint = decision.kind == "none" and any(c.changed - masked for c in decision.candidates)
        self._faint_looks = self._faint_looks + 1 if faint else 0
        if decision.kind == "none":
            if self.pending is not None and self.pending.kind == "violation" and self.pending.emitted:
                events.append(self._emit(ViolationCleared(self.game, len(self.moves), self.state)))
                events.append(self._guidance())
            self.pending = None
        elif decision.kind == "accept" and not self._chain_agreed(decision.chosen):
            pass  # a chain of moves seen once: the next look (asked for at once) must agree
        elif decision.kind == "accept":
            self.pending = None
            events += self._accept(decision.chosen, actor="camera")
            self.correctable = True
        elif decision.kind == "violation":
            events += self._violation(decision.chosen)
        elif decision.kind == "ask":
            events += self._ask(decision.candidates, decision.immediate)
        elif decision.kind == "wait" and decision.chosen is not None:
            # an unsure reading of an illegal action: no ruling yet, but ask for another look
            key = ("violation", inference._view_key(decision.chosen.view))
            if self.pending is None or self.pending.key != key:
                self.pending = _Pending("violation", key, (decision.chosen,), seen=0)
        elif decision.kind == "wait" and not self.waiting:
            self.waiting = True
            events.append(self._emit(SourceStatus(
                self.game, len(self.moves), "waiting",
                Message.of(N_("Waiting for the action on the table to finish")),
            )))
        return events

    def _chain_agreed(self, chosen: inference.Explanation) -> bool:
        """A single move is accepted at once; a chain of several only when looks in a row agree."""
        if len(chosen.moves) < 2 or self.settings.chain_confirmations < 2:
            return True
        key = ("chain", inference._view_key(chosen.view))  # the same table (noise may change the moves' details)
        if self.pending is not None and self.pending.key == key:
            self.pending.seen += 1
        else:
            self.pending = _Pending("chain", key, (chosen,))
        return self.pending.seen >= self.settings.chain_confirmations

    # --- pause (the calibration layout on the table) ---------------------------------------------

    def pause_rulings(self) -> list[Event]:
        """Stop ruling: the table shows something that is not the game (the calibration wizard's
        layout). The confirmed game stays as it is; nothing seen meanwhile counts."""
        if self.paused:
            return []
        self.paused, self.resyncing = True, False
        self.pending, self._faint_looks, self.waiting = None, 0, False
        return [self._emit(SourceStatus(self.game, len(self.moves), "paused", Message.of(
            N_("The referee is paused while the camera is calibrated"))))]

    def resume_rulings(self) -> list[Event]:
        """Rule again once a look shows the game as it was before the pause (the calibration
        pieces cleared away): until then the table is not ruled on, so they make no moves."""
        if not self.paused:
            return []
        self.paused, self.resyncing = False, True
        return [self._emit(SourceStatus(self.game, len(self.moves), "waiting", Message.of(
            N_("Put the game back as it was: the referee goes on when the table shows it"))))]

    def _resync(self, decision: inference.Decision) -> list[Event]:
        if decision.kind != "none":
            return []  # calibration pieces still lying there, or the game not yet set back
        self.resyncing = False
        return [self._emit(SourceStatus(self.game, len(self.moves), "ok", Message.of(
            N_("The table shows the game again: the referee goes on")))), self._guidance()]

    def _accept(self, chosen: inference.Explanation, actor: str, override: str | None = None,
                note: dict | None = None) -> list[Event]:
        events: list[Event] = []
        state = self.state
        for move, ruling in zip(chosen.moves, chosen.rulings, strict=True):
            if not ruling.accepted:
                break
            events += self._commit(state, move, ruling, actor, override, note)
            note, state = None, self.state
        return events + self._after_moves()

    def _commit(self, state: GameState, move: Move, ruling: Ruling, actor: str, override: str | None,
                extra: dict | None = None) -> list[Event]:
        if self.journal is not None:  # durable before anything tells the players
            note = {"override": override} if override else {}
            note.update(extra or {})
            self.journal.record_move(self.game_id, move, actor=actor, note=note)
        self.moves.append(move)
        self.actors.append(actor)
        before = self._base_view
        self._set_state_after(self.states + [state.apply(move) if actor != "camera" else state._apply_legal(move)])
        self.rejected.forget(changed_cells(before, self._base_view))  # a move explains those cells now
        self.last_ruling = ruling
        return [self._emit(MoveAccepted(self.game, len(self.moves), ruling, self.state))]

    def _after_moves(self) -> list[Event]:
        events: list[Event] = []
        if self.settings.auto_advance:
            events += self._auto_advance()
        events += self._settle_provisional()
        events.append(self._emit(ScoreChanged(self.game, len(self.moves), self.state.score_sheet())))
        if self.state.is_over:
            if self.journal is not None:
                self.journal.finish_game(self.game_id)
            sheet = self.state.score_sheet()
            events.append(self._emit(GameOver(self.game, len(self.moves), sheet, self.state.winners)))
        else:
            events.append(self._guidance())
        return events

    def _auto_advance(self) -> list[Event]:
        """Moves nobody can see (end of a phase with one way on) are applied so play can go on."""
        events: list[Event] = []
        for _ in range(8):
            if self.state.is_over:
                break
            legal = list(itertools.islice(self.state.legal_moves(), 2))
            if len(legal) != 1:
                break
            after = self.state._apply_legal(legal[0])
            if self.view.expected(after) != self._base_view:
                break
            events += self._commit(self.state, legal[0], Ruling(legal[0]), "auto", None)
        return events

    def _guidance(self) -> Event:
        state = self.state
        return self._emit(TurnGuidance(self.game, len(self.moves), state.current_player, state.phase, state.guidance()))

    def _violation(self, chosen: inference.Explanation) -> list[Event]:
        """Call an illegal action once two looks agree; legal steps before it in the same scene
        are accepted only then (a first look may be a misread)."""
        events: list[Event] = []
        key = ("violation", inference._view_key(chosen.view))
        if self.pending is not None and self.pending.key == key:
            self.pending.seen += 1
        else:
            self.pending = _Pending("violation", key, (chosen,))
        if self.pending.emitted or self.pending.seen < self.settings.violation_confirmations:
            return events
        if len(chosen.moves) > 1:  # the legal steps before the illegal one stand
            prefix = inference.Explanation(
                chosen.moves[:-1], chosen.rulings[:-1], chosen.states, chosen.view, 0.0, 0, 1.0, frozenset()
            )
            events += self._accept(prefix, actor="camera")
            self.pending = _Pending("violation", ("violation", inference._view_key(chosen.view)), (chosen,))
        self.pending.emitted = True
        self.last_ruling = chosen.rulings[-1]
        events.append(self._emit(ViolationFound(self.game, len(self.moves), chosen.rulings[-1], self.state)))
        return events

    def _ask(self, candidates: tuple[inference.Explanation, ...], immediate: bool = False) -> list[Event]:
        """Ask when two still scenes in a row are unsure the same way (a single noisy reading is
        usually read right the next time), or at once when looking again cannot help."""
        key = ("ask", frozenset(c.moves for c in candidates))
        ready = immediate
        if self.pending is not None and self.pending.kind == "ask" and (self.pending.key == key or not immediate):
            self.pending.seen += 1
            if not self.pending.emitted:
                # noise may change which near readings are listed from one look to the next: ask
                # when two looks agree on the likeliest one, or after one more unsure look,
                # with the latest readings first, then the earlier looks'
                same_top = self.pending.explanations[0].moves == candidates[0].moves
                enough = self.pending.seen >= self.settings.ask_confirmations
                ready = ready or (enough and (self.pending.key == key or same_top)) or (
                    self.pending.seen > self.settings.ask_confirmations)
                listed = {c.moves for c in candidates}
                earlier = tuple(c for c in self.pending.explanations if c.moves not in listed)
                self.pending.key = key
                self.pending.explanations = candidates = (*candidates, *earlier)[:8]
        else:
            self.pending = _Pending("ask", key, candidates)
        if self.pending.emitted or not ready:
            return []
        if self._can_defer(candidates):
            return self._accept_provisional(candidates)
        # one line per move shown: of chains shown by the same move, the shortest (a longer one
        # would add a step the players cannot see in the list)
        shown: dict[Move, inference.Explanation] = {}
        for c in candidates:
            key_move = c.moves[0]
            if key_move not in shown or len(c.moves) < len(shown[key_move].moves):
                shown[key_move] = c
        candidates = tuple(shown.values())
        self.pending.explanations = candidates
        self.pending.emitted = True
        moves = tuple(c.moves[0] for c in candidates)
        confidences = tuple(round(c.weakest, 3) for c in candidates)
        if immediate:
            question = Message.of(N_("The camera cannot see this choice: please say which it was."))
        else:
            question = Message.of(N_("What was played? The camera is not sure: please choose."))
        return [self._emit(AskPlayer(self.game, len(self.moves), question, moves, confidences))]

    # --- choices the camera sees later (provisional moves) ---------------------------------------

    @property
    def provisional(self) -> _Provisional | None:
        """The oldest open provisional choice (None when none is open)."""
        return self.provisionals[0] if self.provisionals else None

    def _open_branches(self) -> int:
        return sum(len(p.alternatives) for p in self.provisionals)

    def _can_defer(self, candidates: tuple[inference.Explanation, ...]) -> bool:
        """A question about readings that look the same from above, whose answer the table will
        show later: don't ask it (within the budget of open alternatives)."""
        # one open choice per player: two hidden choices of the same player (two tiles in hand)
        # could be told apart the wrong way round (the tile placed read as the other one)
        player = self.state.current_player
        return (len(candidates) > 1 and self._open_branches() + len(candidates) - 1 <= MAX_OPEN_BRANCHES
                and all(p.player != player for p in self.provisionals)
                and len({inference._view_key(c.view) for c in candidates}) == 1
                and all(len(c.moves) == 1 and c.legal for c in candidates)
                and all(self.view.shows_later(self.state, c.moves[0]) for c in candidates))

    def _accept_provisional(self, candidates: tuple[inference.Explanation, ...]) -> list[Event]:
        self.pending = None
        choice = _Provisional(len(self.moves), tuple(c.moves[0] for c in candidates[1:]), self.state.current_player)
        self.provisionals.append(choice)
        # the open alternatives go with the move into the journal: a restart reopens the choice
        events = self._accept(candidates[0], actor="camera", note=_provisional_note(choice))
        self.correctable = True
        return events

    def _close(self, choice: _Provisional, journal: bool = True) -> None:
        """The choice is settled (or its move taken back): journaled so a restart keeps it final."""
        if choice in self.provisionals:
            self.provisionals.remove(choice)
            if journal and self.journal is not None and len(self.moves) > choice.at:
                self.journal._append(self.game_id, "note", "referee", None, {"settled": choice.at})

    def _drop_taken_back(self) -> None:
        for choice in [p for p in self.provisionals if len(self.moves) <= p.at]:
            self._close(choice, journal=False)  # the undo took the move (and its note) away

    def _branch(self, choice: _Provisional, move: Move) -> list[GameState] | None:
        """The states if the provisional move had been `move` (the later moves replayed), or None
        when a later move would not be legal after it."""
        at = choice.at
        states = self.states[: at + 1]
        for later in (move, *self.moves[at + 1:]):
            if not states[-1].check(later).accepted:
                return None
            states.append(states[-1]._apply_legal(later))
        return states

    def _branches_differ(self) -> bool:
        """Does any open alternative look different on the table from the history as it stands
        (the tile has been placed)? Alternatives later moves rule out are dropped."""
        self._drop_taken_back()
        differ = False
        for choice in list(self.provisionals):
            live = []
            for move in choice.alternatives:
                states = self._branch(choice, move)
                if states is None:
                    continue
                live.append(move)
                differ = differ or self.view.expected(states[-1]) != self._base_view
            choice.alternatives = tuple(live)
            if not live:
                self._close(choice)
        return differ

    def _weigh_provisional(self, observations, explanations: list[inference.Explanation]):
        """Weigh every still-open alternative against this scene, one open choice at a time (the
        others as they stand): the one the table explains clearly better becomes the history
        (revised in the journal); ones it rules out are dropped."""
        self._drop_taken_back()
        events: list[Event] = []
        margin = self.settings.margin
        for choice in list(self.provisionals):
            if choice not in self.provisionals:
                continue
            current = self.moves[choice.at]
            branches: list[tuple[float, Move, list[GameState] | None, list[inference.Explanation]]] = [
                (_quality(explanations), current, None, explanations)]
            for move in choice.alternatives:
                states = self._branch(choice, move)
                if states is None:
                    continue  # the later moves rule it out
                # a smaller search than the main one: the branches differ in one hidden choice, and
                # what tells them apart is a reading of the table the first candidates already weigh
                found = inference.explain(states[-1], self.view, observations, self.view.expected(states[-1]),
                                          budget=min(self.view.budget, BRANCH_BUDGET))
                branches.append((_quality(found), move, states, found))
            best = max(q for q, *_ in branches)
            kept = [b for b in branches if b[0] >= best - margin] if best > -math.inf else branches
            winner = max(kept, key=lambda b: b[0])
            left = tuple(b[1] for b in kept if b[1] not in (current, winner[1]))
            if winner[1] != current and winner[0] > branches[0][0] + margin:
                choice.alternatives = left
                events += self._revise(choice, winner[1], winner[2])
                explanations = winner[3]
            else:
                choice.alternatives = tuple(b[1] for b in kept if b[1] != current)
            if not choice.alternatives:
                self._close(choice)
        return events, explanations

    def _revise(self, choice: _Provisional, move: Move, states: list[GameState] | None) -> list[Event]:
        """Rewrite history from the provisional move on (journaled in one transaction, each later
        open choice re-recorded with its alternatives)."""
        assert states is not None
        at = choice.at
        tail = [(move, "camera"), *zip(self.moves[at + 1:], self.actors[at + 1:], strict=True)]
        if self.journal is not None:
            open_at = {p.at: p for p in self.provisionals}
            self.journal.revise(self.game_id, len(self.moves) - at, [
                (m, actor, _provisional_note(open_at[at + i]) if at + i in open_at else {})
                for i, (m, actor) in enumerate(tail)], {"revise": "seen later"})
        self.moves = [*self.moves[:at], *(m for m, _ in tail)]
        self.actors = [*self.actors[:at], *(a for _, a in tail)]
        self._set_state_after(states)
        self.revisions += 1
        self.last_ruling = Ruling(move)
        return [self._emit(ScoreChanged(self.game, len(self.moves), self.state.score_sheet()))]

    def _revise_for(self, move: Move) -> list[Event]:
        """A move the players declare that only an open alternative allows (Babylon: the pillars
        stored show that the tile taken was of the player's own flower) settles the choice."""
        self._drop_taken_back()
        if not self.provisionals or self.state.check(move).accepted:
            return []
        for choice in reversed(self.provisionals):  # the latest choice first: the move follows it
            for alternative in choice.alternatives:
                states = self._branch(choice, alternative)
                if states is not None and states[-1].check(move).accepted:
                    rest = tuple(m for m in choice.alternatives if m != alternative
                                 and (b := self._branch(choice, m)) is not None and b[-1].check(move).accepted)
                    choice.alternatives = rest
                    events = self._revise(choice, alternative, states)
                    if not rest:
                        self._close(choice)
                    return events
        return []

    def _settle_provisional(self) -> list[Event]:
        """When the table can no longer show a choice (the tile left play unseen), the players say."""
        if self.pending is not None and self.pending.kind == "revise":
            return []
        self._drop_taken_back()
        for choice in list(self.provisionals):
            current = self.moves[choice.at]
            if self.view.still_unseen(self.state, current) and not self.state.is_over:
                continue
            # a choice that left no trace in the game (a removed tile's flower) needs no answer
            live = [m for m in choice.alternatives
                    if (states := self._branch(choice, m)) is not None and states[-1] != self.state]
            if not live:
                self._close(choice)
                continue
            options = (current, *live)
            self.pending = _Pending("revise", ("revise", choice.at, options), tuple(
                inference.Explanation((m,), (Ruling(m),), (), self._base_view, 0.0, 0, 1.0, frozenset())
                for m in options), emitted=True)
            question = Message.of(N_("The camera could not see this choice: please say which it was."))
            return [self._emit(AskPlayer(self.game, len(self.moves), question, options, (1.0,) * len(options)))]
        return []

    def _answer_provisional(self, move: Move) -> list[Event]:
        at = self.pending.key[1] if self.pending is not None else None
        self.pending = None
        choice = next((p for p in self.provisionals if p.at == at), None)
        if choice is None or len(self.moves) <= choice.at:
            return []
        if self.moves[choice.at] == move:
            self._close(choice)
            return []
        states = self._branch(choice, move)
        if states is None:
            self._close(choice)
            return []
        choice.alternatives = ()
        events = self._revise(choice, move, states)
        self._close(choice)
        events.append(self._emit(OverrideRecorded(self.game, len(self.moves), "confirm",
                                                  Message.of(N_("A player confirmed the move")))))
        return events

    @classmethod
    def resume(cls, game, view: GameView, journal: Journal, **kwargs) -> Tracker:
        """Pick up a journaled game (journal.JournalGame) where it stood."""
        states = list(game.states) if game.states else [game.initial]
        tracker = cls(game.initial, view, journal=journal, game_id=game.id, moves=list(game.moves),
                      states=states, **kwargs)
        # provisional choices still open when the journal stopped (restart, power cut) reopen
        parse = game.spec.state_type.move_from_json
        for at, note in enumerate(getattr(game, "notes", ()) or ()):
            listed = note.get("provisional") if isinstance(note, dict) else None
            if listed and at < len(tracker.moves):
                alternatives = tuple(parse(m, f"{journal.path}: move {at + 1} provisional") for m in listed)
                tracker.provisionals.append(_Provisional(at, alternatives, tracker.states[at].current_player))
        # readings the players rejected before the restart stay rejected
        tracker.rejected = RejectedReadings.replayed(getattr(game, "rejections", ()) or ())
        return tracker

    # --- overrides (touchscreen or buttons) -------------------------------------------------------

    @_durably
    def play(self, move: Move, expected_moves: int | None = None) -> list[Event]:
        """A player declares a move the camera cannot see (end of a build, what went to storage).

        A declaration of a move the tracker has just applied by itself (the only way on) is not
        applied twice. `expected_moves` is accepted for callers that count; it is not needed.
        """
        recent = list(zip(self.moves[-3:], self.actors[-3:], strict=True))
        if not self.state.check(move).accepted and any(m == move and a == "auto" for m, a in recent):
            return []
        self.pending = None
        self.correctable = False
        self.resyncing = False  # the players say what the table shows
        return self._revise_for(move) + self._accept_override((move,), "declare")

    @_durably
    def confirm(self, index: int = 0) -> list[Event]:
        """A player confirms one of the candidates of the pending question."""
        if self.pending is not None and self.pending.kind == "revise" and 0 <= index < len(self.pending.explanations):
            return self._answer_provisional(self.pending.explanations[index].moves[0])
        if self.pending is None or self.pending.kind != "ask" or not 0 <= index < len(self.pending.explanations):
            return []
        chosen = self.pending.explanations[index]
        self.pending = None
        self.correctable = False
        # the players confirmed the move they were shown (a chain's first step): the camera sees
        # the rest, if there is more, at the next look (asked for at once)
        events = self._accept_override(chosen.moves[:1], "confirm")
        if len(chosen.moves) > 1:
            self._faint_looks = 1
        events.append(self._emit(OverrideRecorded(self.game, len(self.moves), "confirm",
                                                  Message.of(N_("A player confirmed the move")))))
        return events

    @_durably
    def correct(self, move: Move) -> list[Event]:
        """A player says what was really played: it replaces a question, a violation or the last
        accepted move (which is taken back first)."""
        wrong: list[frozenset] = []  # what the camera read instead, less what the move changes
        if self.pending is not None and self.pending.emitted and self.pending.kind in ("ask", "violation"):
            wrong = [c.changed for c in self.pending.explanations]
        if self.pending is None and self.correctable and self.moves:
            wrong = [self._last_camera_change()]
            self._undo_one("correct")
        self.pending = None
        self.correctable = False
        self.resyncing = False
        if wrong and self.state.check(move).accepted:
            right = changed_cells(self._base_view, self.view.expected(self.state._apply_legal(move)))
            self._reject(cells - right for cells in wrong)
        events = self._revise_for(move) + self._accept_override((move,), "correct")
        events.append(self._emit(OverrideRecorded(self.game, len(self.moves), "correct",
                                                  Message.of(N_("A player corrected the ruling")))))
        return events

    @_durably
    def undo(self) -> list[Event]:
        """A player takes back the last confirmed move."""
        self.correctable = False
        if self.pending is not None and self.pending.emitted:  # the players saw a ruling: drop it
            if self.pending.kind in ("ask", "violation"):  # none of the readings shown was right
                self._reject(c.changed for c in self.pending.explanations)
            self.pending = None
            self._record_override_note("dismiss")
            return [self._emit(OverrideRecorded(self.game, len(self.moves), "undo",
                                                Message.of(N_("A player dismissed the ruling"))))]
        self.pending = None
        if not self.moves:
            return []
        rejected = self._last_camera_change()
        self._undo_one("undo")
        self._reject([rejected])
        return [
            self._emit(OverrideRecorded(self.game, len(self.moves), "undo",
                                        Message.of(N_("A player took back the last move")))),
            self._emit(ScoreChanged(self.game, len(self.moves), self.state.score_sheet())),
            self._guidance(),
        ]

    @_durably
    def accept_correction(self) -> list[Event]:
        """After a violation: the players agree and will put the pieces back (the camera sees it)."""
        if self.pending is None or self.pending.kind != "violation":
            return []
        self._record_override_note("accept_correction")
        return [self._emit(OverrideRecorded(self.game, len(self.moves), "accept_correction",
                                            Message.of(N_("The players agreed to put the pieces back"))))]

    @_durably
    def overrule(self) -> list[Event]:
        """After a violation: the players overrule the referee and the action stands as played.

        The move is applied without the rules (the engine's physical result) and journaled as an
        override, so a restart replays it the same way."""
        if self.pending is None or self.pending.kind != "violation" or not self.pending.emitted:
            return []
        chosen = self.pending.explanations[0]
        move = chosen.moves[-1]
        self.pending = None
        self.correctable = False
        if self.journal is not None:
            self.journal.record_move(self.game_id, move, actor="player", note={"override": "overrule"})
        self.moves.append(move)
        self.actors.append("player")
        self._set_state_after(self.states + [self.state._apply_legal(move)])
        events = [self._emit(OverrideRecorded(self.game, len(self.moves), "override",
                                              Message.of(N_("The players overruled the referee: the move stands"))))]
        return events + self._after_moves()

    @_durably
    def end_game(self) -> list[Event]:
        """The players stop now: the score as it stands is the result."""
        if self.journal is not None:
            self._record_override_note("end_game")
            self.journal.finish_game(self.game_id)
        sheet = self.state.score_sheet()
        return [self._emit(GameOver(self.game, len(self.moves), sheet, sheet.leaders()))]

    def _last_camera_change(self) -> frozenset:
        """The cells the last move changed, if the camera accepted it (else none)."""
        if not self.moves or self.actors[-1] != "camera" or len(self.states) < 2:
            return frozenset()
        return changed_cells(self.view.expected(self.states[-2]), self._base_view)

    def _reject(self, cell_sets) -> None:
        """The players rejected readings resting on these cells: remember what they show now."""
        cells: set = set()
        for changed in cell_sets:
            cells |= changed
        if cells:
            self.rejected.remember(sorted(cells), self._latest)

    def _undo_one(self, why: str) -> None:
        """Take back the last move, with the unseen moves applied automatically after it."""
        while self.moves:
            if self.journal is not None:
                self.journal.record_undo(self.game_id, actor="player", note={"override": why})
            self.moves.pop()
            actor = self.actors.pop()
            self.states.pop()
            if actor != "auto":
                break
        self._set_state_after(self.states)
        self._drop_taken_back()

    def _accept_override(self, moves: tuple[Move, ...], why: str) -> list[Event]:
        events: list[Event] = []
        for move in moves:
            ruling = self.state.check(move)
            if not ruling.accepted:  # a player may not override the rules themselves
                events.append(self._emit(ViolationFound(self.game, len(self.moves), ruling, self.state)))
                return events
            events += self._commit(self.state, move, ruling, "player", why)
        return events + self._after_moves()

    def _record_override_note(self, why: str) -> None:
        if self.journal is not None:
            self.journal._append(self.game_id, "note", "player", None, {"override": why})


def _quality(explanations: list[inference.Explanation]) -> float:
    """How well the best legal reading (a change or none) fits the scene; -inf when none fits."""
    return max((e.log_likelihood for e in explanations if e.legal and e.strong_mismatches == 0), default=-math.inf)
