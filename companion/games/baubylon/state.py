"""A Baubylon position and the referee's rulings on rolls, moves, passes and earthquakes."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...errors import FormatError, InvalidValue, listed
from ...i18n import N_, NP_
from ..api import GameState, Json, Message, Move, Ruling, ScoreLine, ScoreSheet, Violation
from ..jsonread import JsonReader
from . import moves as mv
from .field import Field, check_field, example_field, parse_space
from .paths import MAX_STACK, NO_REVISIT, PATH_RULES, Reach, destinations, reaches, trace

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PAWNS_PER_PLAYER = 6
BLOCKERS = 6
BLOCKER = "red"
COLOURS = ("blue", "yellow", "green", "white", "black", "orange")
EXAMPLE_BLOCKERS = ("D6", "F5")
# How the goal is reached (「最も高いポイントに駒が到達出来た時点でゲームは終了」): tables may choose.
GOAL_END = "end"  # the move must end on the goal (the whole roll used, as for every move)
GOAL_TOUCH = "touch"  # a legal move (the whole roll) that enters the goal wins as it arrives there
GOAL_RULES = (GOAL_END, GOAL_TOUCH)


def _v(rule: str, msgid: str, where: tuple[str, ...] = (), fix: str | None = None, **params: Any) -> Violation:
    return Violation.of(rule, msgid, fix=fix, where=where, **params)


@dataclass(frozen=True)
class BaubylonState(GameState):
    names: tuple[str, ...]
    colours: tuple[str, ...]
    field: Field
    stacks: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (space, pieces bottom to top), by space
    captured: tuple[int, ...] = ()  # blockers each player holds, ready to re-enter
    turn: int = 0
    roll: int | None = None
    winner: int | None = None
    path_rule: str = NO_REVISIT  # paths.PATH_RULES: how "no stepping back and forth" is read
    goal_rule: str = GOAL_END  # GOAL_RULES: whether entering the goal mid-move wins

    game: ClassVar[str] = "baubylon"

    # --- the shared API ------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return self.names

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        return "roll" if self.roll is None else "move"

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    # --- pieces --------------------------------------------------------------------------------
    def stack_map(self) -> dict[str, tuple[str, ...]]:
        return dict(self.stacks)

    def stack(self, space: str) -> tuple[str, ...]:
        return self.stack_map().get(space, ())

    def supply(self, player: int) -> int:
        """Pawns of `player` off the field, ready to enter."""
        colour = self.colours[player]
        return PAWNS_PER_PLAYER - sum(pieces.count(colour) for _, pieces in self.stacks)

    def stacks_without_mover(self, origin: str) -> dict[str, tuple[str, ...]]:
        """The stacks as the moving piece sees them: it has left `origin` (a start point holds none)."""
        stacks = self.stack_map()
        if origin in stacks and origin not in self.field.starts:
            stacks[origin] = stacks[origin][:-1]
        return stacks

    def goal_entered(self, path: tuple[str, ...]) -> int | None:
        """The index in `path` where the mover reaches the goal by this game's goal rule, or None."""
        goal = self.field.goal()
        if self.goal_rule == GOAL_TOUCH:
            return next((i for i, space in enumerate(path) if space in goal), None)
        return len(path) - 1 if path and path[-1] in goal else None

    def owner(self, piece: str) -> int | None:
        return self.colours.index(piece) if piece in self.colours else None

    def mover(self, origin: str, piece: str = "pawn") -> tuple[str | None, int, list[Violation]]:
        """The piece that would move from `origin`, the level of its feet, and why it cannot."""
        colour = self.colours[self.turn]
        if origin in self.field.starts:
            if piece == "pawn" and self.supply(self.turn) == 0:
                return None, 0, [_v("baubylon.enter", N_("All your pawns are on the field already."), (origin,))]
            if piece == "blocker" and self.captured[self.turn] == 0:
                return None, 0, [_v("baubylon.blocker", N_("You hold no captured blocker to bring back in."),
                                    (origin,))]
            return (colour if piece == "pawn" else BLOCKER), self.field.height(origin), []
        try:
            parse_space(origin)
        except ValueError:
            return None, 0, [_v("baubylon.move", N_("{space} is not a space name like C4."), (), space=origin)]
        stack = self.stack(origin)
        if not stack:
            return None, 0, [_v("baubylon.move", N_("There is no piece on {space}."), (origin,), space=origin)]
        top = stack[-1]
        if top not in (colour, BLOCKER):
            if colour in stack:
                return None, 0, [_v("baubylon.stack", N_("Your pawn on {space} is under another pawn and cannot "
                                                         "move."), (origin,), space=origin)]
            return None, 0, [_v("baubylon.move", N_("The piece on top of {space} is not yours."), (origin,),
                                space=origin)]
        if piece == "blocker" and top != BLOCKER:
            return None, 0, [_v("baubylon.blocker", N_("The piece on top of {space} is not a blocker."), (origin,),
                                space=origin)]
        return top, self.field.height(origin) + len(stack) - 1, []

    # --- rulings -------------------------------------------------------------------------------
    def check(self, move: Move) -> Ruling:
        if self.is_over:
            return Ruling(move, (_v("baubylon.goal", N_("The game is over: {name} reached the goal."), (),
                                    N_("Start a new game."), name=self.names[self.winner or 0]),))
        if isinstance(move, mv.Roll):
            problems = list(self._check_roll(move))
        elif not isinstance(move, mv.Step | mv.Pass | mv.Quake):
            problems = [_v("baubylon.move", N_("This is not a Baubylon move."), (),
                           N_("Record a roll, a move, a pass or an earthquake."))]
        elif self.roll is None:
            problems = [_v("baubylon.move", N_("Roll the die first."), (), N_("Record the number the die shows."))]
        elif isinstance(move, mv.Step):
            problems = list(self._check_step(move))
            if any(v.fix is None for v in problems):  # worked out only for refusals: it searches
                fix = self._step_fix(move)
                problems = [v if v.fix is not None else replace(v, fix=fix) for v in problems]
        elif isinstance(move, mv.Pass):
            problems = list(self._check_pass())
        else:
            problems = list(self._check_quake(move))
        notes = self._notes(move) if not problems else ()
        return Ruling(move, tuple(problems), notes)

    def _check_roll(self, move: mv.Roll) -> Iterator[Violation]:
        if self.roll is not None:
            yield _v("baubylon.move", N_("The die is already rolled: {roll}."), (),
                     N_("Move a piece, pass or, on a 1, start an earthquake with the {roll}."), roll=self.roll)
        if not 1 <= move.value <= 6:
            yield _v("baubylon.move", N_("A die shows 1 to 6, not {value}."), (),
                     N_("Record the number the die shows, 1 to 6."), value=move.value)

    def _check_step(self, move: mv.Step) -> Iterator[Violation]:
        roll = self.roll or 0
        piece, level, problems = self.mover(move.origin, move.piece)
        if problems:
            yield from problems
            return
        entering = move.origin in self.field.starts
        if entering and roll < 3:
            yield _v("baubylon.enter", N_("Entering climbs onto the field from a start point: it needs 3 or more, "
                                          "the die shows {roll}."), (move.origin,), roll=roll)
            return
        if not move.path:
            yield _v("baubylon.move", N_("A move enters at least one space."))
            return
        stacks = self.stacks_without_mover(move.origin)
        cost, problems = trace(self.field, stacks, move.origin, level, move.path, move.knocks, self.path_rule)
        if problems:
            yield from problems
            return
        if cost != roll:
            places = ", ".join(destinations(self.field, stacks, move.origin, level, roll, self.path_rule)) or "—"
            yield _v("baubylon.move",
                     N_("This path costs {cost}, the die shows {roll}: a move uses the whole roll and stops only "
                        "on a space, never part-way up or down a step."),
                     (move.end,), N_("With a {roll} this piece can reach: {places}."),
                     cost=cost, roll=roll, places=places)

    def legal_steps(self) -> Iterator[mv.Step]:
        if self.roll is None or self.is_over:
            return
        for origin, piece, level in self._origins():
            for reach in reaches(self.field, self.stacks_without_mover(origin), origin, level, self.roll,
                                 self.path_rule):
                yield mv.Step(origin, reach.path, reach.knocks, piece)

    def _origins(self) -> Iterator[tuple[str, str, int]]:
        colour = self.colours[self.turn]
        roll = self.roll or 0
        for space, stack in self.stacks:
            if stack[-1] in (colour, BLOCKER):
                yield space, "blocker" if stack[-1] == BLOCKER else "pawn", self.field.height(space) + len(stack) - 1
        if roll >= 3:
            for start in self.field.starts:
                if self.supply(self.turn):
                    yield start, "pawn", self.field.height(start)
                if self.captured[self.turn]:
                    yield start, "blocker", self.field.height(start)

    def _step_fix(self, move: mv.Step) -> Message:
        """What the player can do instead of a refused step: where this piece can go, else which
        pieces can use the roll, else pass."""
        _, level, problems = self.mover(move.origin, move.piece)
        if not problems:
            places = self.where_can_it_go(move.origin, piece=move.piece)
            if places:
                return Message.of(N_("With a {roll} this piece can reach: {places}."), roll=self.roll,
                                  places=", ".join(places))
        origins = sorted({step.origin for step in self.legal_steps()})
        if origins:
            return Message.of(N_("With a {roll}, move a piece from: {origins}."), roll=self.roll,
                              origins=", ".join(origins))
        return Message.of(N_("No piece can use a {roll}: pass."), roll=self.roll)

    def _check_pass(self) -> Iterator[Violation]:
        example = next(self.legal_steps(), None)
        if example is not None:
            yield _v("baubylon.move", N_("A piece can use this roll (from {origin} to {end}): the turn is not lost."),
                     (example.origin, example.end), N_("Move from {origin} to {end}, or another piece."),
                     origin=example.origin, end=example.end)

    def _check_quake(self, move: mv.Quake) -> Iterator[Violation]:
        if self.roll != 1:
            yield _v("baubylon.quake", N_("An earthquake needs a roll of 1, the die shows {roll}."), (),
                     N_("Move a piece, or pass if none can move."), roll=self.roll)
            return
        stack = self.stack(move.space)
        if move.level >= len(stack) or stack[move.level] != self.colours[self.turn]:
            yield _v("baubylon.quake", N_("There is no pawn of yours at that place in the stack on {space}."),
                     (move.space,), N_("Name your pinned pawn's place in the stack, 0 for the bottom."),
                     space=move.space)
        elif move.level == len(stack) - 1:
            yield _v("baubylon.quake", N_("Your pawn on {space} is not pinned: nothing is on top of it."),
                     (move.space,), N_("Move it instead."), space=move.space)
        elif all(piece == self.colours[self.turn] for piece in stack[move.level + 1:]):
            # 「自分の駒が他のプレイヤーによってスタックされて身動きが取れない場合」: pinned by others.
            yield _v("baubylon.quake", N_("Only your own pawns stand on your pawn on {space}: an earthquake is for "
                                          "a pawn pinned by other players' pieces."), (move.space,),
                     N_("Move your top pawn instead."), space=move.space)

    def _notes(self, move: Move) -> tuple[Message, ...]:
        if not isinstance(move, mv.Step):
            return ()
        notes = []
        for space in move.knocks:
            notes.append(Message.of(N_("The top pawn on {space} is knocked off."), space=space))
        piece, _, _ = self.mover(move.origin, move.piece)
        if piece == self.colours[self.turn] and self.goal_entered(move.path) is not None:
            notes.append(Message.of(N_("{name} reaches the highest point and wins!"), name=self.names[self.turn]))
        return tuple(notes)

    # --- applying ------------------------------------------------------------------------------
    def _apply_legal(self, move: Move) -> GameState:
        if isinstance(move, mv.Roll):
            return replace(self, roll=move.value)
        stacks = self.stack_map()
        captured = list(self.captured)
        winner = None
        if isinstance(move, mv.Step):
            # Written to give the physical result of any move (the referee pictures illegal ones too).
            if move.origin in self.field.starts:
                piece = BLOCKER if move.piece == "blocker" else self.colours[self.turn]
                if piece == BLOCKER:
                    captured[self.turn] = max(0, captured[self.turn] - 1)
            elif stacks.get(move.origin):
                piece = stacks[move.origin][-1]
                stacks[move.origin] = stacks[move.origin][:-1]
            else:
                raise ValueError(f"no piece on {move.origin} to move")
            path, end = move.path, move.end
            arrived = self.goal_entered(path) if piece == self.colours[self.turn] else None
            if arrived is not None:  # the game ends as the pawn arrives: the rest of the path is not walked
                path, end, winner = path[: arrived + 1], path[arrived], self.turn
            for space in move.knocks:
                if space in path and stacks.get(space):
                    knocked = stacks[space][-1]
                    stacks[space] = stacks[space][:-1]
                    if knocked == BLOCKER:
                        captured[self.turn] += 1  # a knocked blocker is captured; a pawn goes home
            stacks[end] = (*stacks.get(end, ()), piece)
        elif isinstance(move, mv.Quake):
            shaken = stacks[move.space][move.level + 1 :]
            stacks[move.space] = stacks[move.space][: move.level + 1]
            captured[self.turn] += shaken.count(BLOCKER)
        return replace(
            self,
            stacks=tuple(sorted((s, p) for s, p in stacks.items() if p)),
            captured=tuple(captured),
            turn=self.turn if winner is not None else (self.turn + 1) % len(self.names),
            roll=None,
            winner=winner,
        )

    # --- moves ---------------------------------------------------------------------------------
    def legal_moves(self) -> Iterator[Move]:
        if self.is_over:
            return
        if self.roll is None:
            for value in range(1, 7):
                yield mv.Roll(value)
            return
        any_step = False
        for step in self.legal_steps():
            any_step = True
            yield step
        if not any_step:
            yield mv.Pass()
        if self.roll == 1:
            colour = self.colours[self.turn]
            for space, stack in self.stacks:
                for level, piece in enumerate(stack[:-1]):
                    if piece == colour and any(above != colour for above in stack[level + 1:]):
                        yield mv.Quake(space, level)

    def where_can_it_go(self, origin: str, roll: int | None = None, piece: str = "pawn") -> dict[str, Reach]:
        """Every end space the piece on `origin` (or entering there) can reach with `roll` (default:
        the roll on the table), each with one path that proves it. Empty when it cannot move."""
        roll = self.roll if roll is None else roll
        if roll is None:
            return {}
        _, level, problems = self.mover(origin, piece)
        if problems or (origin in self.field.starts and roll < 3):
            return {}
        return destinations(self.field, self.stacks_without_mover(origin), origin, level, roll, self.path_rule)

    # --- what players read ---------------------------------------------------------------------
    def score_sheet(self) -> ScoreSheet:
        """No points in Baubylon: 1 for the player whose pawn reached the goal; the detail says how
        high each player's best pawn stands."""
        goal_height = self.field.height(self.field.goal()[0]) if self.field.goal() else 0
        lines = []
        for player, colour in enumerate(self.colours):
            best = max(
                (self.field.height(s) + i for s, pieces in self.stacks for i, p in enumerate(pieces) if p == colour),
                default=0,
            )
            lines.append(ScoreLine(
                player=player, category="goal", label=Message.of(N_("Reached the goal")), rule_id="baubylon.goal",
                points=1 if self.winner == player else 0,
                detail=Message.of(N_("best pawn at height {height} of {goal}"), height=best, goal=goal_height),
            ))
        return ScoreSheet(self.game, self.names, tuple(lines), final=self.is_over, ranked=False)

    def guidance(self) -> tuple[Message, ...]:
        if self.is_over:
            return (Message.of(N_("{name} reached the highest point and wins."), name=self.names[self.turn]),)
        name = self.names[self.turn]
        if self.roll is None:
            return (Message.of(N_("{name}: roll the die."), name=name),)
        if next(self.legal_steps(), None) is None:
            return (Message.of(N_("{name}: no piece can use a {roll}; the turn passes."), name=name, roll=self.roll),)
        return (Message.of(N_("{name}: move one pawn or a blocker exactly {roll}."), name=name, roll=self.roll),)

    # --- saving --------------------------------------------------------------------------------
    def to_json(self) -> Json:
        return {
            "players": list(self.names),
            "colours": list(self.colours),
            "field": self.field.to_json(),
            "stacks": {space: list(pieces) for space, pieces in self.stacks},
            "captured": list(self.captured),
            "turn": self.turn,
            "roll": self.roll,
            "winner": self.winner,
            "rules": {"path": self.path_rule, "goal": self.goal_rule},
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> BaubylonState:
        r = JsonReader(data, source)  # saves.py prefixes the envelope key
        names = tuple(item.str() for item in r.get("players").list())
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise r.get("players").fail(N_("expected {low} to {high} players"), low=MIN_PLAYERS, high=MAX_PLAYERS)
        n = len(names)
        colours = tuple(item.str() for item in r.get("colours").list(n))
        if len(set(colours)) != n or BLOCKER in colours:
            raise r.get("colours").fail(NP_("expected {count} different colour, none of them {blocker}",
                                            "expected {count} different colours, none of them {blocker}"),
                                         count=n, blocker=repr(BLOCKER))
        field = Field.from_reader(r.get("field"))
        issues = check_field(field)
        if issues:
            raise r.get("field").fail(N_("expected a playable field [{rule}]: {issues}"), rule="baubylon.field",
                                       issues=tuple(i.message for i in issues))
        stacks = []
        for space, pieces in r.get("stacks").items():
            if not field.is_field(space):
                raise pieces.fail(N_("expected pieces only on spaces with a block (a field space)"))
            items = tuple(p.str((*colours, BLOCKER)) for p in pieces.list())
            if not 1 <= len(items) <= MAX_STACK:
                raise pieces.fail(N_("expected 1 to {most} pieces (bottom to top) [{rule}]"), most=MAX_STACK,
                                  rule="baubylon.stack")
            stacks.append((space, items))
        roll = r.get("roll", None).optional()
        winner = r.get("winner", None).optional()
        rules = r.get("rules", {})  # absent in saves made before the table options existed
        for key, _ in rules.items():
            if key not in ("path", "goal"):
                raise rules.get(key).fail(NP_("expected only the key {keys}", "expected only the keys {keys}"), count=2,
                                             keys="path, goal")
        path_rule = rules.get("path", NO_REVISIT).str(PATH_RULES)
        goal_rule = rules.get("goal", GOAL_END).str(GOAL_RULES)
        state = cls(
            names=names,
            colours=colours,
            field=field,
            stacks=tuple(sorted(stacks)),
            captured=tuple(item.int(minimum=0, maximum=BLOCKERS) for item in r.get("captured").list(n)),
            turn=r.get("turn").int(minimum=0, maximum=n - 1),
            roll=roll.int(minimum=1, maximum=6) if roll else None,
            winner=winner.int(minimum=0, maximum=n - 1) if winner else None,
            path_rule=path_rule,
            goal_rule=goal_rule,
        )
        problems = state.problems()
        if problems:
            raise FormatError(source, "state", Message.of(N_("not a position legal play can reach ({problems})"),
                                                           problems=listed(problems)))
        return state

    def problems(self) -> list[Message]:
        """What no legal game can reach, each citing its rule; empty for every state legal play produces."""
        out: list[Message] = []
        for space, pieces in self.stacks:
            if not self.field.is_field(space):
                out.append(Message.of(N_("pieces on {space}, which is not a field space [{rule}]"), space=space,
                                      rule="baubylon.field"))
            if not 1 <= len(pieces) <= MAX_STACK:
                out.append(Message.of(N_("{count} pieces stacked on {space} [{rule}]"), count=len(pieces),
                                      space=space, rule="baubylon.stack"))
        for player, colour in enumerate(self.colours):
            if self.supply(player) < 0:
                out.append(Message.of(N_("more than {count} {colour} pawns on the field"), count=PAWNS_PER_PLAYER,
                                      colour=colour))
        reds = sum(pieces.count(BLOCKER) for _, pieces in self.stacks)
        if reds + sum(self.captured) > BLOCKERS:
            out.append(Message.of(N_("more than {count} blockers [{rule}]"), count=BLOCKERS, rule="baubylon.blocker"))
        if self.winner is not None:
            colour = self.colours[self.winner]
            if not any(colour in self.stack(s) for s in self.field.goal()):
                out.append(Message.of(N_("a winner without a pawn on the goal [{rule}]"), rule="baubylon.goal"))
            if self.roll is not None:
                out.append(Message.of(N_("a roll after the game ended [{rule}]"), rule="baubylon.goal"))
        return out

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        return mv.parse_move(data, source)


def new_game(
    players: tuple[str, ...],
    field: Field | None = None,
    colours: tuple[str, ...] | None = None,
    blockers: tuple[str, ...] | None = None,
    first_player: int = 0,
    path_rule: str = NO_REVISIT,
    goal_rule: str = GOAL_END,
) -> BaubylonState:
    """A game at its start: every pawn off the field, the blockers where the players put them."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidValue(Message.of(N_("{game} is for {low} to {high} players, not {found}"), game="baubylon",
                                      low=MIN_PLAYERS, high=MAX_PLAYERS, found=len(players)))
    if field is None:
        field = example_field()
        blockers = EXAMPLE_BLOCKERS if blockers is None else blockers
    colours = tuple(colours or COLOURS[: len(players)])
    if len(colours) != len(players) or len(set(colours)) != len(colours) or BLOCKER in colours:
        raise InvalidValue(Message.of(NP_("expected {count} different pawn colour, none of them {blocker}",
                                          "expected {count} different pawn colours, none of them {blocker}"),
                                      count=len(players), blocker=repr(BLOCKER)))
    issues = check_field(field)
    if issues:
        raise InvalidValue(Message.of(N_("the field is not playable: {issues}"),
                                      issues=tuple(i.message for i in issues)))
    stacks: dict[str, tuple[str, ...]] = {}
    for space in blockers or ():
        if not field.is_field(space):
            raise InvalidValue(Message.of(N_("a blocker at {space}: blockers go on the field's blocks"), space=space))
        stacks[space] = (*stacks.get(space, ()), BLOCKER)
    if len(blockers or ()) > BLOCKERS or any(len(p) > MAX_STACK for p in stacks.values()):
        raise InvalidValue(Message.of(N_("at most {most} blockers, at most {stack} on one space"), most=BLOCKERS,
                                      stack=MAX_STACK))
    if not 0 <= first_player < len(players):
        raise ValueError("first_player must be a player index")
    if path_rule not in PATH_RULES:
        raise ValueError(f"path must be one of {', '.join(PATH_RULES)}, not {path_rule!r}")
    if goal_rule not in GOAL_RULES:
        raise ValueError(f"goal must be one of {', '.join(GOAL_RULES)}, not {goal_rule!r}")
    return BaubylonState(
        names=tuple(players),
        colours=colours,
        field=field,
        stacks=tuple(sorted(stacks.items())),
        captured=(0,) * len(players),
        turn=first_player,
        path_rule=path_rule,
        goal_rule=goal_rule,
    )
