"""JSON bodies of The Reclamation's states and moves (docs/formats/reclamation.md)."""

from __future__ import annotations

from typing import Any

from ...errors import ErrorText, FormatError
from ...i18n import N_
from ..api import Message
from ..jsonread import JsonReader
from . import board as geo
from .audit import audit
from .cards import parse_card
from .reclaim import Stack
from .state import VARIANTS, ReclamationState, Turn

FACE = ("F", "V")  # a stack is written as its stones bottom to top: "F", "FF", "FFF" (gardener)


def _per_player(value: tuple[Any, Any]) -> dict[str, Any]:
    return {geo.FACTIONS[0]: value[0], geo.FACTIONS[1]: value[1]}


def state_to_json(state: ReclamationState) -> dict[str, Any]:
    return {
        "variant": state.variant,
        "players": list(state.names),
        "cards": [c.to_json() for c in state.cards],
        "board": {
            geo.name(s): FACE[stack.owner] * stack.height
            for s, stack in enumerate(state.board)
            if stack is not None
        },
        "hands": _per_player(state.hands),
        "captives": _per_player(state.captives),
        "used": _per_player(tuple(sorted(u) for u in state.used)),
        "to_move": geo.FACTIONS[state.to_move],
        "turn": state.turn,
    }


def _read_pair(reader: JsonReader, read) -> tuple[Any, Any]:
    for key, _ in reader.items():
        if key not in geo.FACTIONS:
            raise reader.get(key).fail(N_("unknown key; expected {keys}"), keys="flower, vine")
    return read(reader.get("flower")), read(reader.get("vine"))


def _read_stack(reader: JsonReader) -> Stack:
    text = reader.str()
    if not text or len(text) > 3 or len(set(text)) != 1 or text[0] not in FACE:
        raise reader.fail(N_('expected a stack like {examples} (stones of one faction)'),
                          examples='"F", "FF", "FFF", "V", "VV", "VVV"')
    return Stack(FACE.index(text[0]), len(text))


def state_from_json(data: Any, source: str = "<state>") -> ReclamationState:
    reader = JsonReader(data, source)
    variant = reader.get("variant").str(VARIANTS)
    players = reader.get("players").list(2)
    names = (players[0].str(), players[1].str())
    cards = tuple(parse_card(c) for c in reader.get("cards").list())
    if not 1 <= len(cards) <= 4:
        raise reader.get("cards").fail(N_("expected {low} to {high} cards"), low=1, high=4)
    if len({c.name for c in cards}) != len(cards):
        raise reader.get("cards").fail(N_("expected distinct card names"))
    squares: list[Stack | None] = [None] * geo.SQUARES
    for key, stack_reader in reader.get("board").items():
        square = geo.parse(key)
        if square is None or key != geo.name(square):
            raise stack_reader.fail(N_("expected a square name {first}..{last} as the key"), first="a1", last="f6")
        squares[square] = _read_stack(stack_reader)
    hands = _read_pair(reader.get("hands"), lambda r: r.int(0, 36))
    captives = _read_pair(reader.get("captives", {"flower": 0, "vine": 0}), lambda r: r.int(0, 36))
    card_names = {c.name for c in cards}

    def read_used(r: JsonReader) -> frozenset[str]:
        found = frozenset(item.str(tuple(sorted(card_names))) for item in r.list())
        return found

    used = _read_pair(reader.get("used", {"flower": [], "vine": []}), read_used)
    to_move = geo.FACTIONS.index(reader.get("to_move").str(geo.FACTIONS))
    turn = reader.get("turn", 0).int(0)
    state = ReclamationState(variant, names, cards, tuple(squares), hands, captives, used, to_move, turn)
    problems = audit(state)
    if problems:
        reasons = tuple(Message.of(N_("{rule}: {reason}"), rule=v.rule_id, reason=v.message) for v in problems)
        raise FormatError(source, "state", ErrorText.of(N_("not a position the rules can reach ({reasons})"),
                                                             reasons=reasons))
    return state


def move_from_json(data: Any, source: str = "<move>") -> Turn:
    reader = JsonReader(data, source)
    reader.get("kind").str((Turn.kind,))
    for key, _ in reader.items():
        if key not in ("kind", "gardener", "to", "card", "place"):
            raise reader.get(key).fail(N_("unknown key; expected {keys}"), keys="kind, gardener, to, card, place")

    def square(r: JsonReader) -> str:
        text = r.str()
        parsed = geo.parse(text)
        if parsed is None or geo.name(parsed) != text:
            raise r.fail(N_("expected a square name {first}..{last}"), first="a1", last="f6")
        return text

    place = None
    if reader.has("place") and reader.get("place").value is not None:
        place = tuple(square(r) for r in reader.get("place").list())
    return Turn(square(reader.get("gardener")), square(reader.get("to")), reader.get("card").str(), place)
