"""Reclamation cards as data: each card is a set of target offsets from the gardener.

An offset is (forward, right) in its owner's own view: forward is away from the owner, right is the
owner's right hand; negative values mean backward / left. Both players' cards are identical but for
the faction mark, so one book of patterns serves both. Each card has a black side (Garden rules) and
a red side (Throne variant) with their own patterns.

The rulebook shows one pattern only: the Garden side with targets "2 forward, 1 left" and
"2 forward, 1 right". The others are unknown to us, so a player enters the patterns of their own copy
once, in a small JSON file (see docs/formats/reclamation.md), e.g. with `companion cards add`. We
never guess them; a game set up before all are entered uses what is defined and says what is missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...errors import ErrorText, FormatError
from ...i18n import N_, NP_
from ..jsonread import JsonReader

CARDS_FORMAT = "table-companion/reclamation-cards"
CARDS_VERSION = 1
CARDS_PER_PLAYER = 4
SIDES = ("garden", "throne")  # black side, red side
SIDE_NAMES = {"garden": N_("Garden rules"), "throne": N_("Throne variant")}  # the rules each side is for
CARD_FILE_NAME = "reclamation-cards.json"
MAX_REACH = 5  # on a 6×6 board a target further than 5 squares away is always off the board


@dataclass(frozen=True, order=True)
class Offset:
    """A target square relative to the gardener, as the card's owner sees it."""

    forward: int
    right: int

    def to_json(self) -> dict[str, int]:
        return {"forward": self.forward, "right": self.right}


@dataclass(frozen=True)
class Card:
    """One card side as a game uses it: a name and its targets."""

    name: str
    targets: tuple[Offset, ...]

    def __post_init__(self) -> None:
        # A card is a set of targets: one order, so equal cards compare equal after a save.
        object.__setattr__(self, "targets", tuple(sorted(self.targets)))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "targets": [t.to_json() for t in self.targets]}

    def picture(self) -> list[str]:
        """A small text picture, forward up: G = gardener, X = target, . = spacing."""
        top = max([t.forward for t in self.targets] + [0])
        bottom = min([t.forward for t in self.targets] + [0])
        reach_r = max([abs(t.right) for t in self.targets] + [0])
        wanted = {(t.forward, t.right) for t in self.targets}
        rows = []
        for fwd in range(top, bottom - 1, -1):
            row = ""
            for right in range(-reach_r, reach_r + 1):
                row += "G" if (fwd, right) == (0, 0) else ("X" if (fwd, right) in wanted else ".")
            rows.append(row)
        return rows


@dataclass(frozen=True)
class CardPatterns:
    """A card of the book: its name and the pattern of each side, None where not entered yet."""

    name: str
    garden: tuple[Offset, ...] | None = None
    throne: tuple[Offset, ...] | None = None

    def side(self, side: str) -> tuple[Offset, ...] | None:
        return self.garden if side == "garden" else self.throne

    def with_side(self, side: str, targets: tuple[Offset, ...] | None) -> CardPatterns:
        return replace(self, **{side: targets})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name}
        for side in SIDES:
            targets = self.side(side)
            if targets is not None:
                data[side] = [t.to_json() for t in targets]
        return data


@dataclass(frozen=True)
class CardBook:
    """The card patterns of one physical copy, and where they came from."""

    cards: tuple[CardPatterns, ...]
    source: str = "<built-in example>"
    builtin: bool = False

    def for_side(self, side: str) -> tuple[Card, ...]:
        """The usable cards of one side: those whose pattern for that side is entered."""
        return tuple(
            Card(c.name, c.side(side))  # type: ignore[arg-type]
            for c in self.cards
            if c.side(side) is not None
        )

    def missing(self, side: str) -> int:
        return max(0, CARDS_PER_PLAYER - len(self.for_side(side)))

    def get(self, name: str) -> CardPatterns | None:
        return next((c for c in self.cards if c.name == name), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": CARDS_FORMAT,
            "version": CARDS_VERSION,
            "cards": [c.to_json() for c in self.cards],
        }


# The one pattern the rulebook shows (Garden side); its Throne side is not shown anywhere we have.
EXAMPLE_CARD = CardPatterns(
    "example", garden=(Offset(2, -1), Offset(2, 1)), throne=None
)
EXAMPLE_BOOK = CardBook((EXAMPLE_CARD,), builtin=True)


def default_card_path(state_dir: Path) -> Path:
    return Path(state_dir) / CARD_FILE_NAME


def target_problems(targets: Iterable[Offset]) -> list[ErrorText]:
    """Problems with a card's targets, as translatable texts (empty when fine)."""
    problems = []
    seen: set[Offset] = set()
    targets = list(targets)
    if not targets:
        problems.append(ErrorText.of(N_("a card needs at least one target")))
    for t in targets:
        if (t.forward, t.right) == (0, 0):
            problems.append(ErrorText.of(N_("a target cannot be the gardener's own square (0, 0)")))
        if max(abs(t.forward), abs(t.right)) > MAX_REACH:
            problems.append(ErrorText.of(NP_("target ({forward}, {right}) is more than {count} square away",
                                             "target ({forward}, {right}) is more than {count} squares away"),
                                         forward=t.forward, right=t.right, count=MAX_REACH))
        if t in seen:
            problems.append(ErrorText.of(N_("target ({forward}, {right}) is listed twice"), forward=t.forward,
                                         right=t.right))
        seen.add(t)
    return problems


def parse_targets(reader: JsonReader) -> tuple[Offset, ...]:
    targets = []
    for item in reader.list():
        forward = item.get("forward").int(-MAX_REACH, MAX_REACH)
        right = item.get("right").int(-MAX_REACH, MAX_REACH)
        targets.append(Offset(forward, right))
    if target_problems(targets):
        raise reader.fail(N_("{problems}: expected a list of distinct offsets"), problems=tuple(target_problems(targets)))
    return tuple(sorted(targets))


def parse_card(reader: JsonReader) -> Card:
    name = reader.get("name").str()
    if not name.strip():
        raise reader.get("name").fail(N_("expected a non-empty card name"))
    return Card(name, parse_targets(reader.get("targets")))


def parse_book(data: Any, source: str) -> CardBook:
    reader = JsonReader(data, source)
    reader.get("format").str((CARDS_FORMAT,))
    version = reader.get("version").int(minimum=1)
    if version > CARDS_VERSION:
        raise reader.get("version").fail(N_("expected version ≤ {limit} (a newer companion wrote it)"), limit=CARDS_VERSION)
    cards: list[CardPatterns] = []
    names: set[str] = set()
    for item in reader.get("cards").list():
        for key, _ in item.items():
            if key not in ("name", *SIDES):
                raise item.get(key).fail(N_("unknown key; expected {keys}"), keys="name, garden, throne")
        name = item.get("name").str()
        if not name.strip():
            raise item.get("name").fail(N_("expected a non-empty card name"))
        if name in names:
            raise item.get("name").fail(N_("expected a name not used by another card"))
        names.add(name)
        sides = {
            side: parse_targets(item.get(side)) if item.has(side) and item.get(side).value is not None else None
            for side in SIDES
        }
        cards.append(CardPatterns(name, **sides))
    for side in SIDES:
        per_side = [c for c in cards if c.side(side) is not None]
        if len(per_side) > CARDS_PER_PLAYER:
            raise reader.get("cards").fail(
                NP_("expected at most {count} card with a pattern for the {variant}, found {found}",
                    "expected at most {count} cards with a pattern for the {variant}, found {found}"),
                count=CARDS_PER_PLAYER, variant=ErrorText.of(SIDE_NAMES[side]), found=len(per_side))
    return CardBook(tuple(cards), source)


def load_book(path: Path, *, missing_ok: bool = True) -> CardBook:
    """The card book in `path`; the built-in example when the file does not exist (and missing_ok)."""
    from ..saves import read_json_file  # saves imports the registry, which imports this package

    path = Path(path)
    if not path.exists() and missing_ok:
        return replace(EXAMPLE_BOOK, source=f"{path} (not created yet: built-in example only)")
    return parse_book(read_json_file(path), str(path))


def save_book(book: CardBook, path: Path) -> None:
    from ..saves import write_json_atomic

    write_json_atomic(path, book.to_json())


def default_book() -> CardBook:
    """The book in the configured state directory, or the built-in example when there is none."""
    from ...config import load_config

    return load_book(default_card_path(load_config().state_dir()))


def checked_cards(cards: Iterable[Card], source: str = "<cards>") -> tuple[Card, ...]:
    """Cards a game can use: at least one, names distinct, at most four."""
    cards = tuple(cards)
    if not cards:
        raise FormatError(source, "cards", ErrorText.of(N_("no card patterns defined for this side; enter them with {command}"),
                                                      command="companion cards add"))
    if len(cards) > CARDS_PER_PLAYER:
        raise FormatError(source, "cards", ErrorText.of(NP_("expected at most {count} card, got {found}", "expected at most {count} cards, got {found}"),
                                                      count=CARDS_PER_PLAYER, found=len(cards)))
    names = [c.name for c in cards]
    if len(set(names)) != len(names):
        raise FormatError(source, "cards", ErrorText.of(N_("expected distinct card names")))
    return cards


@dataclass(frozen=True)
class BookReport:
    """What `companion cards check` says about a book."""

    errors: list[ErrorText] = field(default_factory=list)
    warnings: list[ErrorText] = field(default_factory=list)  # translatable: render(lang)


def review_book(book: CardBook) -> BookReport:
    report = BookReport()
    for side in SIDES:
        cards = book.for_side(side)
        missing = book.missing(side)
        if missing:
            report.warnings.append(ErrorText.of(N_("{side}: {entered} of {total} cards entered, {count} missing"),
                                                side=ErrorText.of(SIDE_NAMES[side]), entered=len(cards),
                                                total=CARDS_PER_PLAYER, count=missing))
        seen: dict[tuple[Offset, ...], str] = {}
        for card in cards:
            if card.targets in seen:
                report.warnings.append(ErrorText.of(N_("{side}: cards {first} and {second} have the same pattern"),
                                                    side=ErrorText.of(SIDE_NAMES[side]),
                                                    first=repr(seen[card.targets]), second=repr(card.name)))
            seen.setdefault(card.targets, card.name)
    return report
