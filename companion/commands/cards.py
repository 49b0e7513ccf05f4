"""`companion cards`: list, add, remove and check The Reclamation's card patterns.

The patterns live in one small JSON file (docs/formats/reclamation.md), by default
<state dir>/reclamation-cards.json; `--file` reads or writes another one. Each card has a Garden
(black) side and a Throne (red) side; a target is FORWARD,RIGHT from the gardener as the card's owner
sees it, negative for back / left (write `--target=-1,0` when it starts with a minus).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import CompanionError
from ..games.reclamation.cards import (
    CARDS_PER_PLAYER,
    EXAMPLE_BOOK,
    SIDES,
    Card,
    CardBook,
    CardPatterns,
    Offset,
    default_card_path,
    load_book,
    review_book,
    save_book,
    validate_targets,
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="list, add and check The Reclamation's card patterns",
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--file", type=Path, help="card file to use (default: reclamation-cards.json in the state directory)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show = actions.add_parser("list", help="show every card with a picture of each side")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    add = actions.add_parser("add", help="add a card side (or replace it with --replace)")
    add.add_argument("name", help="the card's name, e.g. as printed on it or 'card 2'")
    add.add_argument("--side", choices=SIDES, required=True, help="garden (black side) or throne (red side)")
    add.add_argument("--target", action="append", required=True, metavar="FORWARD,RIGHT",
                     help="a target square, e.g. 2,-1 = 2 forward, 1 left; repeat for each target")
    add.add_argument("--replace", action="store_true", help="replace that side's pattern if the card has one")
    remove = actions.add_parser("remove", help="remove a card, or one side of it with --side")
    remove.add_argument("name")
    remove.add_argument("--side", choices=SIDES)
    actions.add_parser("check", help="check the file and say which patterns are still missing")
    parser.set_defaults(handler=handle, action=None)


def handle(args: argparse.Namespace, config) -> int:
    path = args.file if args.file is not None else default_card_path(config.state_dir())
    action = args.action or "list"
    if action == "add":
        return _add(path, args)
    if action == "remove":
        return _remove(path, args)
    if action == "check":
        return _check(path)
    return _list(path, getattr(args, "json", False))


def parse_target(text: str) -> Offset:
    parts = text.replace(" ", "").split(",")
    try:
        forward, right = (int(p) for p in parts)
    except ValueError:
        raise CompanionError(f"--target {text!r}: expected FORWARD,RIGHT as two whole numbers, e.g. 2,-1") from None
    return Offset(forward, right)


def _describe(card: CardPatterns) -> list[str]:
    out = [card.name]
    for side in SIDES:
        targets = card.side(side)
        if targets is None:
            out.append(f"  {side:<7} not entered")
            continue
        words = "; ".join(t.describe() for t in targets)
        out.append(f"  {side:<7} {words}")
        out.extend(f"          {row}" for row in Card(card.name, targets).picture())
    return out


def _list(path: Path, as_json: bool) -> int:
    book = load_book(path)
    if as_json:
        data = book.to_json()
        data["source"] = book.source
        data["missing"] = {side: book.missing(side) for side in SIDES}
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print(f"# {book.source}")
    print("# pictures: forward is up, G = gardener, X = target")
    for card in book.cards:
        print("\n".join(_describe(card)))
    for side in SIDES:
        missing = book.missing(side)
        if missing:
            print(f"{side}: {CARDS_PER_PLAYER - missing} of {CARDS_PER_PLAYER} patterns entered, {missing} missing "
                  f"(add them with: companion cards add NAME --side {side} --target F,R ...)")
    return 0


def _load_for_edit(path: Path) -> CardBook:
    """The book to change: a corrupt file stops here (FormatError), so it is never overwritten."""
    if path.exists():
        return load_book(path, missing_ok=False)
    print(f"creating {path} with the rulebook's example card")
    return CardBook(EXAMPLE_BOOK.cards, str(path))


def _add(path: Path, args: argparse.Namespace) -> int:
    book = _load_for_edit(path)
    targets = tuple(sorted(parse_target(t) for t in args.target))
    problems = validate_targets(targets)
    if problems:
        raise CompanionError(f"card {args.name!r}: " + "; ".join(problems))
    existing = book.get(args.name)
    if existing is not None and existing.side(args.side) is not None and not args.replace:
        raise CompanionError(f"card {args.name!r} already has a {args.side} pattern; use --replace to change it")
    if (existing is None or existing.side(args.side) is None) and book.missing(args.side) == 0:
        raise CompanionError(f"the {args.side} side already has {CARDS_PER_PLAYER} cards; remove one first")
    if existing is None:
        cards = (*book.cards, CardPatterns(args.name).with_side(args.side, targets))
    else:
        cards = tuple(c.with_side(args.side, targets) if c.name == args.name else c for c in book.cards)
    book = CardBook(cards, str(path))
    save_book(book, path)
    print("\n".join(_describe(book.get(args.name))))  # type: ignore[arg-type]
    for warning in review_book(book).warnings:
        print(f"note: {warning}")
    return 0


def _remove(path: Path, args: argparse.Namespace) -> int:
    if not path.exists():
        raise CompanionError(f"{path}: no card file yet; nothing to remove")
    book = _load_for_edit(path)
    card = book.get(args.name)
    if card is None:
        raise CompanionError(f"{path}: no card named {args.name!r}; cards: {', '.join(c.name for c in book.cards)}")
    if args.side:
        changed = card.with_side(args.side, None)
        keep = changed.garden is not None or changed.throne is not None
        cards = tuple((changed if c.name == args.name else c) for c in book.cards if c.name != args.name or keep)
    else:
        cards = tuple(c for c in book.cards if c.name != args.name)
    save_book(CardBook(cards, str(path)), path)
    print(f"removed {args.name}{' (' + args.side + ' side)' if args.side else ''} from {path}")
    return 0


def _check(path: Path) -> int:
    if not path.exists():
        print(f"{path}: no card file yet; only the rulebook's example card (Garden side) is known")
        return 1
    book = load_book(path, missing_ok=False)
    report = review_book(book)
    print(f"{path}: valid; garden {CARDS_PER_PLAYER - book.missing('garden')}/{CARDS_PER_PLAYER}, "
          f"throne {CARDS_PER_PLAYER - book.missing('throne')}/{CARDS_PER_PLAYER} patterns")
    for warning in report.warnings:
        print(f"note: {warning}")
    return 1 if report.warnings else 0
