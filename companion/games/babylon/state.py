"""The Babylon game state: set-up, the turn (quarry → build → store), rounds and round tokens.

Phases: "trim" (2–3 players remove clay tiles), "quarry", "build", "store", "reveal" (the round
token is turned up after the last player's turn) and "over". Moves are granular (see moves.py): a
build in progress, pillars standing and no tile on them yet, is a valid state; the no-bare-pillar
rule is checked when the player ends the build action.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ...errors import CompanionError
from ...i18n import N_, NP_
from ..api import GameState, Message, Move, Ruling, ScoreSheet, Violation
from . import building, decorating
from .model import (
    DEFAULT_FLOWERS,
    ICON_COUNT,
    Board,
    Decoration,
    Pillar,
    PlacedTile,
    Tile,
    cell_name,
    rotate,
    rotations,
)
from .moves import (
    EFFECT_TEXT,
    EndBuild,
    Exchange,
    PlaceDecoration,
    PlacePillar,
    PlaceTile,
    RemovePillar,
    Reveal,
    Store,
    Take,
    Trim,
)
from .pieces import READINGS, STORAGE_SINGLES, Options, PlayerState, Supply, Turn, start_tile
from .quarry import LAYER_MATERIAL, Quarry
from .scoring import score_lines

ROUNDS = {2: 15, 3: 13, 4: 11}  # babylon.round
TOKENS = {2: 14, 3: 12, 4: 10}  # babylon.setup.rounds
TRIMS = {2: 6, 3: 3, 4: 0}  # babylon.setup.quarry_trim
_ICONS_READ = NP_("A {material} tile shows {count} icon; {seen} were read.",
                  "A {material} tile shows {count} icons; {seen} were read.")  # babylon.setup.quarry
_NOT_NOW = {
    "trim": N_("Not now: the set-up is under way ({player} removes a clay tile)."),
    "quarry": N_("Not now: {player} takes a tile from the quarry first."),
    "build": N_("Not now: {player} is building."),
    "store": N_("Not now: {player} stores or discards what is left."),
    "reveal": N_("Not now: the round is over; the next round token is turned up first."),
    "over": N_("The game is over."),
}
_PHASE_FIX = {  # what to do first, by the phase the game is in (none once it is over)
    "trim": N_("Finish the set-up first: the clay tiles are removed one at a time."),
    "quarry": N_("A turn is: take a tile from the quarry, build if you wish, then store or discard."),
    "build": N_("Finish building first (every pillar carrying a tile), then end the build action."),
    "store": N_("Store or discard what is left first: that ends the turn."),
    "reveal": N_("Turn up the next round token first."),
}
_NONE_LEFT = {
    "stairs": N_("No stairs are left in the supply."),
    "fountain": N_("No fountain is left in the supply."),
    "bridge": N_("No bridge is left in the supply."),
    "statue": N_("No statue is left in the supply."),
}


def _v(rule: str, text: str, fix: str | None = None, where: tuple[str, ...] = (), **params: Any) -> Violation:
    return Violation.of(rule, text, fix=fix, where=where, **params)


@dataclass(frozen=True)
class BabylonState(GameState):
    game: ClassVar[str] = "babylon"

    seats: tuple[PlayerState, ...]
    options: Options = Options()
    flowers: tuple[str, ...] = DEFAULT_FLOWERS
    quarry: Quarry = Quarry()
    supply: Supply = Supply()
    round: int = 1
    rounds_total: int = 15
    turn_of: int = 0
    stage: str = "quarry"
    effect: str = "none"  # the round token in force for this round's turns
    turn: Turn = Turn()
    trims_done: int = 0
    serial: int = 0  # next piece number, so every pillar and decoration has its own id

    # ----------------------------------------------------------------- the GameState API

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.seats)

    @property
    def current_player(self) -> int | None:
        return None if self.stage == "over" else self.turn_of

    @property
    def phase(self) -> str:
        return self.stage

    @property
    def is_over(self) -> bool:
        return self.stage == "over"

    @property
    def me(self) -> PlayerState:
        return self.seats[self.turn_of]

    def legal_moves(self) -> Iterator[Move]:
        from .enumerate import legal_moves

        return legal_moves(self)

    def check(self, move: Move) -> Ruling:
        handler = _CHECKS.get(type(move))
        if handler is None:
            return Ruling(move, (_v("babylon.round", N_("This is not a Babylon move.")),))
        allowed = _PHASES[type(move)]
        if self.stage not in allowed:
            return Ruling(move, (self._wrong_phase(move),))
        violations, notes = handler(self, move)
        return Ruling(move, tuple(violations), tuple(notes))

    def _apply_legal(self, move: Move) -> BabylonState:
        return _APPLY[type(move)](self, move)

    def score_sheet(self) -> ScoreSheet:
        lines = []
        for index, seat in enumerate(self.seats):
            lines.extend(score_lines(index, seat.board, self.flowers))
        return ScoreSheet(
            game=self.game,
            players=self.players,
            lines=tuple(lines),
            tiebreak=tuple(-seat.board.top.visible_recesses() for seat in self.seats),
            tiebreak_rule="babylon.score.tiebreak",
            tiebreak_label=Message.of(N_("fewer visible recesses (the larger garden seen from above)")),
            final=self.is_over,
        )

    def guidance(self) -> tuple[Message, ...]:
        texts = {
            "trim": N_("Set-up: remove one clay tile from the quarry."),
            "quarry": N_("Take one visible tile from the quarry."),
            "build": N_("Build: place pillars, then a tile on 3 or 4 pillars whose tops are level; or end the build."),
            "store": N_("Store up to 6 single pillars and at most one tile; the rest goes back."),
            "reveal": N_("Round over: turn up the next round token."),
            "over": N_("The game is over."),
        }
        out = [Message.of(texts[self.stage])]
        if self.stage == "quarry":
            from .hints import quarry_options

            place, _, other, own = quarry_options(self)[0]
            out.append(
                Message.of(
                    N_("Most pillars: the tile at quarry place {row},{col} gives {other} ({own} if it shows your flower)."),
                    row=place[0] + 1,
                    col=place[1] + 1,
                    other=other,
                    own=own,
                )
            )
        if self.effect != "none" and self.stage in ("quarry", "build"):
            out.append(Message.of(EFFECT_TEXT[self.effect]))
        return tuple(out)

    def to_json(self) -> dict[str, Any]:
        from .serial import state_to_json

        return state_to_json(self)

    @classmethod
    def from_json(cls, data: Any, source: str = "<state>") -> BabylonState:
        from .serial import state_from_json

        return state_from_json(data, source)

    @classmethod
    def move_from_json(cls, data: Any, source: str = "<move>") -> Move:
        from .moves import move_from_json

        return move_from_json(data, source)

    # ----------------------------------------------------------------- helpers

    def _wrong_phase(self, move: Move) -> Violation:
        rule = "babylon.round"
        if self.stage == "trim" or isinstance(move, Trim):
            rule = "babylon.setup.quarry_trim"
        elif self.stage == "reveal" or isinstance(move, Reveal):
            rule = "babylon.round_token"
        return _v(rule, _NOT_NOW[self.stage], _PHASE_FIX.get(self.stage), player=self.players[self.turn_of])

    def with_me(self, **changes: Any) -> BabylonState:
        seats = list(self.seats)
        seats[self.turn_of] = replace(self.me, **changes)
        return replace(self, seats=tuple(seats))

    def next_id(self, prefix: str) -> tuple[str, BabylonState]:
        return f"{prefix}{self.serial + 1}", replace(self, serial=self.serial + 1)

    def held_tile(self, which: str) -> Tile | None:
        return self.turn.new_tile if which == "new" else self.me.slot

    def tile_layout(self, move: PlaceTile) -> tuple[tuple | None, list[Violation]]:
        """The icons as they lie on the board, from the move or the tile's known icons."""
        tile = self.held_tile(move.tile)
        assert tile is not None
        if move.icons is not None:
            if tile.icons is not None and move.icons not in rotations(tile.icons):
                return None, [
                    _v(
                        "babylon.build.which",
                        N_("These icons are not those of tile {tile}: it is not the tile you hold."),
                        tile=tile.id,
                    )
                ]
            wanted = ICON_COUNT.get(tile.material)
            if tile.icons is None and wanted is not None and sum(i is not None for i in move.icons) != wanted:
                return None, [
                    _v(
                        "babylon.setup.quarry",
                        _ICONS_READ,
                        material=tile.material,
                        count=wanted,
                        seen=sum(i is not None for i in move.icons),
                    )
                ]
            return move.icons, []
        if tile.icons is None:
            return None, [
                _v(
                    "babylon.build.which",
                    N_("The icons of tile {tile} have not been read yet: say which icons it shows."),
                    tile=tile.id,
                )
            ]
        return rotate(tile.icons, move.rotation), []


# --------------------------------------------------------------------- set-up


def new_game(
    players: tuple[str, ...],
    bridge_gap: str = "bridge_level",
    exact_cover: str = "directly_beneath",
    flowers: tuple[str, ...] | str = DEFAULT_FLOWERS,
    statue_line: str = "row_or_column",
    decoration_height: str = "flat",
) -> BabylonState:
    """babylon.setup.*: players listed from the start player clockwise. `flowers` names the four
    flowers (a tuple or "a,b,c,d"); player i takes the board of flower i. The other keywords are
    the readings of open questions (pieces.READINGS, docs/formats/babylon.md)."""
    if isinstance(flowers, str):
        flowers = tuple(f.strip() for f in flowers.split(","))
    count = len(players)
    if count not in ROUNDS:
        raise CompanionError(message=Message.of(N_("{game} is for {low} to {high} players, got {found} [{rule}]"),
                                                game="babylon", low=min(ROUNDS), high=max(ROUNDS), found=count,
                                                rule="babylon.setup.rounds"))
    if len(set(flowers)) != 4:
        raise CompanionError(message=Message.of(N_("{game} needs 4 different flowers, got {found} [{rule}]"),
                                                game="babylon", found=repr(list(flowers)), rule="babylon.setup.board"))
    chosen = {
        "bridge_gap": bridge_gap,
        "exact_cover": exact_cover,
        "statue_line": statue_line,
        "decoration_height": decoration_height,
    }
    for key, value in chosen.items():
        if value not in READINGS[key]:
            raise CompanionError(message=Message.of(N_("{key}: expected one of {choices}, got {value}"), key=key,
                                                    choices=", ".join(READINGS[key]), value=repr(value)))
    seats = tuple(
        PlayerState(name, flowers[i], Board(), 0, 0, start_tile(flowers[i])) for i, name in enumerate(players)
    )
    return BabylonState(
        seats=seats,
        options=Options(**chosen),
        flowers=tuple(flowers),
        rounds_total=ROUNDS[count],
        stage="trim" if TRIMS[count] else "quarry",
    )


def _start_turn(state: BabylonState, player: int) -> BabylonState:
    """The round token's pillar effects apply at the start of each player's turn."""
    state = replace(state, turn_of=player, stage="quarry", turn=Turn())
    if state.effect in ("single_pillar", "double_pillar"):
        kind = "single" if state.effect == "single_pillar" else "double"
        supply, got = state.supply.take(kind, 1)
        field = "singles" if kind == "single" else "doubles"
        state = replace(state, supply=supply).with_me(**{field: getattr(state.me, field) + got})
    return state


# --------------------------------------------------------------------- checks


def _check_trim(state: BabylonState, move: Trim) -> tuple[list[Violation], list[Message]]:
    if state.quarry.top_material(move.place) != "clay":
        return [
            _v(
                "babylon.setup.quarry_trim",
                N_("Only clay tiles are removed at set-up; quarry place {row},{col} shows no clay tile."),
                row=move.place[0] + 1,
                col=move.place[1] + 1,
            )
        ], []
    return [], []


def _check_take(state: BabylonState, move: Take) -> tuple[list[Violation], list[Message]]:
    if not state.quarry.is_visible(move.place):
        return [
            _v(
                "babylon.quarry.visible",
                N_("No tile is left at quarry place {row},{col}."),
                N_("Take a visible tile: one with no tile on top of it."),
                row=move.place[0] + 1,
                col=move.place[1] + 1,
            )
        ], []
    if move.flower not in state.flowers:
        return [
            _v(
                "babylon.setup.quarry",
                N_("{flower} is not one of this game's flowers."),
                flower=move.flower,
            )
        ], []
    material = state.quarry.top_material(move.place)
    if move.icons is not None and sum(i is not None for i in move.icons) != ICON_COUNT[material]:
        return [
            _v(
                "babylon.setup.quarry",
                _ICONS_READ,
                material=material,
                count=ICON_COUNT[material],
                seen=sum(i is not None for i in move.icons),
            )
        ], []
    reward = state.quarry.reward(move.place, move.flower == state.me.flower, state.effect)
    notes = list(reward.notes)
    due = min(reward.pillars, state.supply.single)
    if reward.pillars > state.supply.single:
        notes.append(Message.of(NP_("The supply holds only {count} single pillar.",
                                    "The supply holds only {count} single pillars."), count=state.supply.single))
    if move.pillars is not None and move.pillars != due:
        return [
            _v(
                "babylon.quarry.reward",
                N_("This tile gives {due} single pillars, not {taken}."),
                due=due,
                taken=move.pillars,
            )
        ], notes
    return [], notes


def _check_exchange(state: BabylonState, move: Exchange) -> tuple[list[Violation], list[Message]]:
    if move.give == "double":
        return [
            _v(
                "babylon.build.exchange",
                N_("A double pillar is never exchanged for 2 single pillars."),
            )
        ], []
    if state.me.singles < 2:
        return [_v("babylon.build.exchange", N_("An exchange needs 2 single pillars; you have {count}."), count=state.me.singles)], []
    if state.supply.double < 1:
        return [_v("babylon.build.exchange", N_("No double pillar is left in the supply."))], []
    if state.stage == "store":
        # 「いつでも」: allowed at any time of the turn, but a double cannot be stored.
        return [], [Message.of(N_("A double pillar cannot be stored: it goes back to the supply at the end of the turn."))]
    return [], []


def _check_pillar(state: BabylonState, move: PlacePillar) -> tuple[list[Violation], list[Message]]:
    found = building.check_pillar(state.me.board, move.cell, move.size, move.level, state.me.singles, state.me.doubles)
    return found, []


def _check_remove(state: BabylonState, move: RemovePillar) -> tuple[list[Violation], list[Message]]:
    item = state.me.board.top.at(move.cell) if min(move.cell) >= 0 and max(move.cell) < 8 else None
    if item is None or item.kind != "pillar" or item.piece_id not in state.turn.pillars:
        return [
            _v(
                "babylon.build.pillars",
                N_("Only a pillar placed this turn that carries no tile can be taken back."),
                where=(cell_name(move.cell),),
            )
        ], []
    return [], []


def _check_tile(state: BabylonState, move: PlaceTile) -> tuple[list[Violation], list[Message]]:
    tile = state.held_tile(move.tile)
    if tile is None:
        text = (
            N_("You have no tile from the quarry left to place this turn.")
            if move.tile == "new"
            else N_("Your storage slot holds no tile.")
        )
        return [_v("babylon.build.which", text)], []
    _, found = state.tile_layout(move)
    if found:
        return found, []
    board = state.me.board
    support, found = building.analyse_support(board, move.row, move.col, move.level, state.options.decoration_height)
    found += building.check_level_order(board, move.level)
    found += building.check_exact_cover(board, move.row, move.col, move.level, state.options.exact_cover)
    notes: list[Message] = []
    if support is not None and support.open_cell is not None:
        if state.supply.belvedere < 1:
            found.append(_v("babylon.build.support", N_("No belvedere is left: a tile on 3 pillars needs one.")))
        else:
            notes.append(
                Message.of(
                    N_("The tile rests on 3 pillars: put a belvedere on {cell}."), cell=cell_name(support.open_cell)
                )
            )
    if support is not None and support.statues:
        notes.append(Message.of(N_("A statue now serves as a pillar: it no longer counts as a statue.")))
    return found, notes


def _check_decoration(state: BabylonState, move: PlaceDecoration) -> tuple[list[Violation], list[Message]]:
    if not state.turn.placed:
        return [
            _v(
                "babylon.deco.when",
                N_("Decorations are taken after placing a tile; you have placed none this turn."),
                N_("Place a tile first: each decoration goes at least partly on a tile placed this round."),
            )
        ], []
    if state.supply.count(move.piece) < 1:
        return [_v("babylon.deco.when", _NONE_LEFT[move.piece])], []
    board = state.me.board
    if move.wild is not None:
        found = _check_wild(state, move)
        if found:
            return found, []
    plan, found = decorating.check_decoration(
        board,
        move.piece,
        move.cells,
        frozenset(state.turn.placed),
        move.wild,
        state.options.bridge_gap,
        state.options.statue_line,
        state.options.decoration_height,
    )
    return found, []


def _check_wild(state: BabylonState, move: PlaceDecoration) -> list[Violation]:
    cell, icon = move.wild  # type: ignore[misc]
    if state.effect not in ("icon_swap", "icon_blank"):
        return [_v("babylon.round_token", N_("No round token lets a space count as another icon this round."))]
    if state.turn.wild_used:
        return [_v("babylon.round_token", N_("The round token's icon has already been used this turn."))]
    item = state.me.board.top.at(cell)
    if cell not in move.cells or item.kind != "tile" or item.tile_id not in state.turn.placed:
        return [
            _v(
                "babylon.round_token",
                N_("The round token changes one space of a tile placed this turn, under this decoration."),
                where=(cell_name(cell),),
            )
        ]
    if state.effect == "icon_swap" and (item.icon is None or item.icon == icon):
        return [_v("babylon.round_token", N_("This round's token turns a space's icon into another icon."))]
    if state.effect == "icon_blank" and item.icon is not None:
        return [_v("babylon.round_token", N_("This round's token gives an icon to a space without one."))]
    return []


def _check_end_build(state: BabylonState, move: EndBuild) -> tuple[list[Violation], list[Message]]:
    bare = building.bare_pillars(state.me.board)
    if bare:
        names = tuple(cell_name(p.cell) for p in bare)
        return [
            _v(
                "babylon.build.no_bare_pillar",
                N_("Pillars on {cells} carry no tile: no pillar may be visible at the end of the build."),
                N_("Place a tile on them or take them back."),
                where=names,
                cells=", ".join(names),
            )
        ], []
    return [], []


def _check_store(state: BabylonState, move: Store) -> tuple[list[Violation], list[Message]]:
    me = state.me
    found: list[Violation] = []
    if move.singles > STORAGE_SINGLES:
        found.append(
            _v(
                "babylon.store.pillars",
                N_("Storage holds at most 6 single pillars."),
                N_("Keep 6 single pillars and return the rest to the supply."),
                count=move.singles,
            )
        )
    elif move.singles > me.singles:
        found.append(
            _v(
                "babylon.store.pillars",
                NP_("You hold only {count} single pillar.", "You hold only {count} single pillars."),
                NP_("Store at most the {count} single pillar you hold.",
                    "Store at most the {count} single pillars you hold."),
                count=me.singles,
            )
        )
    if move.store_new and state.turn.new_tile is None:
        found.append(_v("babylon.store.tile", N_("You have no unplaced tile from this turn to store.")))
    if move.discard_slot and me.slot is None:
        found.append(_v("babylon.store.tile", N_("Your storage slot is already empty.")))
    if move.store_new and state.turn.new_tile is not None and me.slot is not None and not move.discard_slot:
        if me.slot.material == "start":
            found.append(
                _v(
                    "babylon.store.starting_tile",
                    N_("Your starting tile is still in the slot: place or remove it before storing another tile."),
                    N_("Remove the starting tile from the game to store this one, or let this one leave the game."),
                )
            )
        else:
            found.append(
                _v(
                    "babylon.store.tile",
                    N_("The slot holds one tile: remove the stored tile to make room."),
                    N_("Remove the stored tile from the game to store this one, or let this one leave the game."),
                )
            )
    notes: list[Message] = []
    if not found:
        back = me.singles - move.singles
        if back or me.doubles:
            notes.append(
                Message.of(
                    N_("{singles} single and {doubles} double pillars go back to the supply."),
                    singles=back,
                    doubles=me.doubles,
                )
            )
        if state.turn.new_tile is not None and not move.store_new:
            notes.append(Message.of(N_("The unplaced tile leaves the game.")))
    return found, notes


def _check_reveal(state: BabylonState, move: Reveal) -> tuple[list[Violation], list[Message]]:
    return [], [Message.of(EFFECT_TEXT[move.effect])]


# --------------------------------------------------------------------- applying


def _apply_trim(state: BabylonState, move: Trim) -> BabylonState:
    done = state.trims_done + 1
    state = replace(state, quarry=state.quarry.take(move.place), trims_done=done)
    count = len(state.seats)
    if done >= TRIMS[count]:
        return _start_turn(replace(state, stage="quarry"), 0)
    return replace(state, turn_of=done % count)


def _apply_take(state: BabylonState, move: Take) -> BabylonState:
    material = LAYER_MATERIAL[state.quarry.height(move.place)]
    reward = state.quarry.reward(move.place, move.flower == state.me.flower, state.effect)
    supply, got = state.supply.take("single", reward.pillars)
    tile = Tile(f"{material}-{move.place[0]}{move.place[1]}", material, move.flower, move.icons)
    state = replace(state, quarry=state.quarry.take(move.place), supply=supply, stage="build")
    state = replace(state, turn=replace(state.turn, new_tile=tile))
    return state.with_me(singles=state.me.singles + got)


def _apply_exchange(state: BabylonState, move: Exchange) -> BabylonState:
    supply = state.supply.add("single", 2).add("double", -1)
    return replace(state, supply=supply).with_me(singles=state.me.singles - 2, doubles=state.me.doubles + 1)


def _apply_pillar(state: BabylonState, move: PlacePillar) -> BabylonState:
    pillar_id, state = state.next_id("p")
    base = state.me.board.top.at(move.cell).level
    board = state.me.board.with_pillar(Pillar(pillar_id, move.cell, base, move.size))
    state = replace(state, turn=replace(state.turn, pillars=(*state.turn.pillars, pillar_id)))
    if move.size == "single":
        return state.with_me(board=board, singles=state.me.singles - 1)
    return state.with_me(board=board, doubles=state.me.doubles - 1)


def _apply_remove(state: BabylonState, move: RemovePillar) -> BabylonState:
    item = state.me.board.top.at(move.cell)
    pillar = next(p for p in state.me.board.pillars if p.id == item.piece_id)
    board = state.me.board.without_pillar(pillar.id)
    state = replace(state, turn=replace(state.turn, pillars=tuple(p for p in state.turn.pillars if p != pillar.id)))
    if pillar.kind == "single":
        return state.with_me(board=board, singles=state.me.singles + 1)
    return state.with_me(board=board, doubles=state.me.doubles + 1)


def _apply_tile(state: BabylonState, move: PlaceTile) -> BabylonState:
    tile = state.held_tile(move.tile)
    assert tile is not None
    layout, _ = state.tile_layout(move)
    board = state.me.board
    support, _ = building.analyse_support(board, move.row, move.col, move.level, state.options.decoration_height)
    assert support is not None and layout is not None
    for statue_id in support.statues:
        pillar_id, state = state.next_id("p")
        board = board.statue_to_pillar(statue_id, pillar_id)
    if tile.icons is None:
        tile = replace(tile, icons=layout)  # the tile's face is now known, as placed
    board = board.with_tile(PlacedTile(tile, move.row, move.col, move.level, layout, state.round))
    supply = state.supply
    if support.open_cell is not None:
        deco_id, state = state.next_id("belvedere")
        board = board.with_decoration(Decoration(deco_id, "belvedere", (support.open_cell,), (move.level,), state.round))
        supply = supply.add("belvedere", -1)
    turn = replace(state.turn, placed=(*state.turn.placed, tile.id))
    if move.tile == "new":
        turn = replace(turn, new_tile=None)
        state = replace(state, supply=supply, turn=turn).with_me(board=board)
    else:
        state = replace(state, supply=supply, turn=turn).with_me(board=board, slot=None)
    return state


def _apply_decoration(state: BabylonState, move: PlaceDecoration) -> BabylonState:
    board = state.me.board
    plan, _ = decorating.check_decoration(
        board,
        move.piece,
        move.cells,
        frozenset(state.turn.placed),
        move.wild,
        state.options.bridge_gap,
        state.options.statue_line,
        state.options.decoration_height,
    )
    assert plan is not None
    turn = state.turn
    if move.wild is not None:
        cell, icon = move.wild
        tile = board.tile(board.top.at(cell).tile_id or "")
        assert tile is not None
        icons = list(tile.icons)
        icons[tile.cells.index(cell)] = icon
        board = replace(board, tiles=tuple(replace(t, icons=tuple(icons)) if t.id == tile.id else t for t in board.tiles))
        turn = replace(turn, wild_used=True)
    deco_id, state = state.next_id(move.piece)
    board = board.with_decoration(Decoration(deco_id, move.piece, plan.cells, plan.levels, state.round))
    return replace(state, supply=state.supply.add(move.piece, -1), turn=turn).with_me(board=board)


def _apply_end_build(state: BabylonState, move: EndBuild) -> BabylonState:
    return replace(state, stage="store")


def _apply_store(state: BabylonState, move: Store) -> BabylonState:
    me = state.me
    supply = state.supply.add("single", me.singles - move.singles).add("double", me.doubles)
    slot = me.slot
    if move.discard_slot:
        slot = None
    if move.store_new:
        slot = state.turn.new_tile
    state = replace(state, supply=supply, turn=Turn()).with_me(singles=move.singles, doubles=0, slot=slot)
    if state.turn_of + 1 < len(state.seats):
        return _start_turn(state, state.turn_of + 1)
    if state.round >= state.rounds_total:
        return replace(state, stage="over")
    return replace(state, stage="reveal")


def _apply_reveal(state: BabylonState, move: Reveal) -> BabylonState:
    state = replace(state, round=state.round + 1, effect=move.effect)
    return _start_turn(state, 0)


_CHECKS = {
    Trim: _check_trim,
    Take: _check_take,
    Exchange: _check_exchange,
    PlacePillar: _check_pillar,
    RemovePillar: _check_remove,
    PlaceTile: _check_tile,
    PlaceDecoration: _check_decoration,
    EndBuild: _check_end_build,
    Store: _check_store,
    Reveal: _check_reveal,
}
_APPLY = {
    Trim: _apply_trim,
    Take: _apply_take,
    Exchange: _apply_exchange,
    PlacePillar: _apply_pillar,
    RemovePillar: _apply_remove,
    PlaceTile: _apply_tile,
    PlaceDecoration: _apply_decoration,
    EndBuild: _apply_end_build,
    Store: _apply_store,
    Reveal: _apply_reveal,
}
_PHASES: dict[type, tuple[str, ...]] = {
    Trim: ("trim",),
    Take: ("quarry",),
    Exchange: ("quarry", "build", "store"),  # babylon.build.exchange: 「いつでも」, at any time of the turn
    PlacePillar: ("build",),
    RemovePillar: ("build",),
    PlaceTile: ("build",),
    PlaceDecoration: ("build",),
    EndBuild: ("build",),
    Store: ("store",),
    Reveal: ("reveal",),
}
