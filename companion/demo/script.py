"""A table script made from a recorded game: what the camera would see, scene by scene.

For each recorded move: a hand comes (busy scenes), the piece is put down, the hand goes and the
scene is still (two still scenes, as the motion gate reports a settled table). A move the camera
cannot see (the end of a build, what goes to storage) is declared by the player, as with an "end
turn" button. On top of the record the script injects, once each: an illegal action (seen, called,
then undone by the player), a correction (a different legal move, taken back with the undo button,
then the recorded move), and the camera dropping out and coming back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..games.api import GameState, Message, Move
from ..i18n import N_
from ..referee.session import Scene
from ..referee.views.base import ExpectedView, GameView
from .observed import Noise, read_view


@dataclass
class ScriptPlan:
    illegal_at: int | None = None  # before which recorded move the illegal action happens
    correction_at: int | None = None
    camera_drop_at: int | None = None
    hands: tuple[int, int] = (1, 3)  # busy scenes per action (min, max)
    stills: int = 1  # the motion gate reads a settled table once; more when the referee asks


@dataclass
class InjectedIllegal:
    before_move: int
    move: Move
    rule_ids: tuple[str, ...]


@dataclass
class DemoScript:
    view: GameView
    initial: GameState
    moves: tuple[Move, ...]
    seed: int = 0
    start: int = 0  # resume: the first recorded move still to play
    noise: Noise = field(default_factory=Noise)
    plan: ScriptPlan = field(default_factory=ScriptPlan)
    look_again: Callable[[], bool] = lambda: False  # the referee wants another still scene
    # how many moves the referee has confirmed (not counting the unseen ones it applied by itself
    # since): when it missed one the players saw done, they enter it by hand (the screen's "the
    # camera misread" list); when it accepted one nobody made, they take it back (undo)
    confirmed: Callable[[], int] | None = None
    injected: list[InjectedIllegal] = field(default_factory=list)
    corrected: list[tuple[int, Move]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.tick = 0
        self.intent: Move | None = None  # what the players are doing off the record (a correction)
        self.entered_by_hand: list[int] = []  # recorded moves the referee missed and a player entered
        self.made = 0  # recorded moves physically done on the table so far
        self.phantoms_undone: list[int] = []  # moves the referee accepted that nobody made, undone
        self.last_truth: ExpectedView | None = None  # what the table really shows (for the twin)
        # the same as a game state and, for an illegal action, the move physically done on top of it
        # (the twin draws whole pieces from it where an expected view is not enough: Babylon)
        self.last_physical: tuple[GameState, Move | None] | None = None

    def states(self) -> list[GameState]:
        states = [self.initial]
        for move in self.moves:
            states.append(states[-1].apply(move))
        return states

    # --- scenes ---------------------------------------------------------------------------------

    def _busy(self, note: Message) -> Iterator[Scene]:
        for _ in range(self.rng.randint(*self.plan.hands)):
            self.tick += 1
            yield Scene("busy", note=note)

    def _still(self, view: ExpectedView, note: Message, count: int | None = None,
               physical: tuple[GameState, Move | None] | None = None) -> Iterator[Scene]:
        """The settled table read once (or `count` times), and again while the referee asks."""
        extra = 0
        for n in range(64):
            if n >= (count or self.plan.stills) and not (self.look_again() and extra < 4):
                return
            if n >= (count or self.plan.stills):
                extra += 1
            self.tick += 1
            self.last_truth = view
            self.last_physical = physical
            yield Scene("still", read_view(view, self.rng, self.noise, self.tick, self.tick), note=note)

    def scenes(self) -> Iterator[Scene]:
        states = self.states()
        view = self.view
        yield from self._still(view.expected(states[self.start]), Message.of(N_("the table is set up")),
                               physical=(states[self.start], None))
        for i, move in enumerate(self.moves):
            if i < self.start:
                continue
            before, after = states[i], states[i + 1]
            before_view, after_view = view.expected(before), view.expected(after)
            note = Message.of(N_("move {number}/{total}"), number=i + 1, total=len(self.moves))
            if i == self.plan.camera_drop_at:
                for _ in range(3):
                    yield Scene("lost", note=Message.of(N_("camera unplugged")))
                yield Scene("ok", note=Message.of(N_("camera back")))
            if self.plan.illegal_at is not None and i >= self.plan.illegal_at and not self.injected:
                yield from self._illegal(i, before, before_view)  # at the first move that allows one
            if self.plan.correction_at is not None and i >= self.plan.correction_at and not self.corrected:
                yield from self._correction(i, before, before_view, after_view)
            if after_view == before_view:  # nothing the camera can see: the player says it
                self.made = i + 1
                yield Scene("player", command=("play", (i, move)), note=note)
                continue
            yield from self._busy(note)
            self.made = i + 1
            yield from self._still(after_view, note, physical=(after, None))
            if self.confirmed is not None and self.confirmed() > i + 1:
                # the referee accepted a move nobody made (a misread): the players take it back
                self.phantoms_undone.append(i)
                yield Scene("player", command=("undo", None), note=Message.of(N_("{scene}: a move nobody made, taken back"),
                                                                               scene=note))
            if self.confirmed is not None and self.confirmed() < i + 1:
                self.entered_by_hand.append(i)
                entered = view.as_entered(before, move)
                yield Scene("player", command=("play", (i, entered)), note=Message.of(
                    N_("{scene}: the camera missed it, entered by hand"), scene=note))

    def _illegal(self, i: int, state: GameState, before_view: ExpectedView) -> Iterator[Scene]:
        options = []
        for move in self.view.illegal_examples(state, self.rng):
            ruling = state.check(move)
            if ruling.accepted:
                continue
            seen = self.view.physical_after(state, move)
            if seen is None or seen == before_view:
                continue
            options.append((move, ruling.rule_ids, seen))
            if len(options) >= 40:
                break
        if not options:
            return
        move, rule_ids, seen = self.rng.choice(options)
        self.injected.append(InjectedIllegal(i, move, rule_ids))
        yield from self._busy(Message.of(N_("an illegal action")))
        yield from self._still(seen, Message.of(N_("illegal: {rules}"), rules=", ".join(rule_ids)), physical=(state, move))
        yield from self._busy(Message.of(N_("the player takes it back")))
        yield from self._still(before_view, Message.of(N_("taken back")), physical=(state, None))

    def _correction(self, i: int, state: GameState, before_view: ExpectedView,
                    recorded_view: ExpectedView) -> Iterator[Scene]:
        """A legal move the camera reads unambiguously, accepted, then taken back with undo."""
        looks: dict[tuple, list[tuple[Move, ExpectedView]]] = {}
        for move in self.view.legal_candidates(state):
            seen = self.view.expected(state.apply(move))
            if seen not in (before_view, recorded_view):
                looks.setdefault(_key(seen), []).append((move, seen))
        unique = [options[0] for options in looks.values() if len(options) == 1]
        if not unique:
            return
        move, seen = self.rng.choice(unique)
        self.corrected.append((i, move))
        self.intent = move
        yield from self._busy(Message.of(N_("a move the player will take back")))
        yield from self._still(seen, Message.of(N_("played, then regretted")), physical=(state.apply(move), None))
        yield Scene("player", command=("undo", None), note=Message.of(N_("undo button")))
        self.intent = None
        yield from self._busy(Message.of(N_("the player takes it back")))
        yield from self._still(before_view, Message.of(N_("taken back")), physical=(state, None))


def _key(view: ExpectedView) -> tuple:
    return tuple(sorted(view.items()))


UNSEEN_FIELDS = ("icons", "rotation", "pillars")  # read or derived, not chosen by the player


def answer_index(candidates: tuple[Move, ...], intended: Move) -> int | None:
    """The candidate a player who made `intended` would tap, or None if it is not offered."""
    def key(move: Move) -> dict:
        return {k: v for k, v in move.to_json().items() if k not in UNSEEN_FIELDS}

    for i, candidate in enumerate(candidates):
        if candidate == intended:
            return i
    wanted = key(intended)
    for i, candidate in enumerate(candidates):
        if key(candidate) == wanted:
            return i
    return None


def answer_for(candidates: tuple[Move, ...], recorded: tuple[Move, ...] | list[Move], done: int,
               earlier: bool = False) -> int | None:
    """The candidate the players tap: what they are doing now (`recorded[done]`), or with `earlier`
    (the referee asks about a choice made before, e.g. the flower of a tile taken a few moves ago)
    the latest earlier move of theirs among the candidates."""
    if done < len(recorded):
        index = answer_index(candidates, recorded[done])
        if index is not None or not earlier:
            return index
    for earlier in range(min(done, len(recorded)) - 1, max(-1, done - 40), -1):
        index = answer_index(candidates, recorded[earlier])
        if index is not None:
            return index
    return None


def confirmed_count(moves: list, actors: list) -> int:
    """Moves confirmed, not counting the unseen ones the referee applied by itself at the end."""
    n = len(moves)
    while n and actors[n - 1] == "auto":
        n -= 1
    return n
