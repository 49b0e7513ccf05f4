"""`companion cards`: list, add, remove and check The Reclamation's card patterns.

The card file: ABOUT_THE_FILE below, as `companion cards --help` shows it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import CompanionError
from ..games.api import Message
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
    target_problems,
)
from ..i18n import N_, NP_, translate

ABOUT_THE_FILE = N_("""\
The patterns live in one small JSON file (docs/formats/reclamation.md), by default
<state dir>/reclamation-cards.json; `--file` reads or writes another one. Each card has a Garden
(black) side and a Throne (red) side; a target is FORWARD,RIGHT from the gardener as the card's owner
sees it, negative for back / left (write `--target=-1,0` when it starts with a minus).""")
SIDE_LABELS = {"garden": N_("Garden (black cards)"), "throne": N_("Throne (red cards)")}
STEP_WORDS = {  # an offset's parts, as the card's owner sees them
    "forward": N_("{count} forward"), "back": N_("{count} back"), "right": N_("{count} right"), "left": N_("{count} left"),
}


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "cards",
        help=N_("list, add and check The Reclamation's card patterns"),
        description=ABOUT_THE_FILE,
    )
    parser.add_argument("--file", type=Path, help=N_("card file to use (default: reclamation-cards.json in the state directory)"))
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    show = actions.add_parser("list", help=N_("show every card with a picture of each side"))
    show.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    add = actions.add_parser("add", help=N_("add a card side (or replace it with --replace)"))
    add.add_argument("name", help=N_("the card's name, e.g. as printed on it or 'card 2'"))
    add.add_argument("--side", choices=SIDES, required=True, help=N_("garden (black side) or throne (red side)"))
    add.add_argument("--target", action="append", required=True, metavar="FORWARD,RIGHT",
                     help=N_("a target square, e.g. 2,-1 = 2 forward, 1 left; repeat for each target"))
    add.add_argument("--replace", action="store_true", help=N_("replace that side's pattern if the card has one"))
    remove = actions.add_parser("remove", help=N_("remove a card, or one side of it with --side"))
    remove.add_argument("name")
    remove.add_argument("--side", choices=SIDES)
    actions.add_parser("check", help=N_("check the file and say which patterns are still missing"))
    parser.set_defaults(handler=handle, action=None)


def handle(args: argparse.Namespace, config) -> int:
    path = args.file if args.file is not None else default_card_path(config.state_dir())
    lang = config.get("general", "language")
    action = args.action or "list"
    if action == "add":
        return _add(path, args, lang)
    if action == "remove":
        return _remove(path, args, lang)
    if action == "check":
        return _check(path, lang)
    return _list(path, getattr(args, "json", False), lang)


def _say(lang: str | None, msgid: str, **params) -> None:
    print(Message.of(msgid, **params).render(lang))


def _side(side: str) -> Message:
    return Message.of(SIDE_LABELS[side])


def parse_target(text: str) -> Offset:
    parts = text.replace(" ", "").split(",")
    try:
        forward, right = (int(p) for p in parts)
    except ValueError:
        raise CompanionError(message=Message.of(
            N_("--target {text}: expected FORWARD,RIGHT as two whole numbers, e.g. 2,-1"), text=repr(text))) from None
    return Offset(forward, right)


def target_words(target: Offset, lang: str | None) -> str:
    """'2 forward, 1 left' in the player's language."""
    parts = []
    if target.forward:
        parts.append(translate(STEP_WORDS["forward" if target.forward > 0 else "back"], lang,
                               {"count": abs(target.forward)}))
    if target.right:
        parts.append(translate(STEP_WORDS["right" if target.right > 0 else "left"], lang, {"count": abs(target.right)}))
    return translate(N_(", "), lang).join(parts)


def _describe(card: CardPatterns, lang: str | None) -> list[str]:
    out = [card.name]
    for side in SIDES:
        targets = card.side(side)
        label = translate(SIDE_LABELS[side], lang)
        if targets is None:
            out.append("  " + translate(N_("{side}: not entered"), lang, {"side": label}))
            continue
        words = translate(N_("; "), lang).join(target_words(t, lang) for t in targets)
        out.append("  " + translate(N_("{side}: {targets}"), lang, {"side": label, "targets": words}))
        out.extend(f"      {row}" for row in Card(card.name, targets).picture())
    return out


def _list(path: Path, as_json: bool, lang: str | None) -> int:
    book = load_book(path)
    if as_json:
        data = book.to_json()
        data["source"] = book.source
        data["missing"] = {side: book.missing(side) for side in SIDES}
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    if path.exists():
        print(f"# {book.source}")
    else:
        print("# " + translate(N_("{path} (not created yet: built-in example only)"), lang, {"path": str(path)}))
    print("# " + translate(N_("pictures: forward is up, G = gardener, X = target"), lang))
    for card in book.cards:
        print("\n".join(_describe(card, lang)))
    for side in SIDES:
        missing = book.missing(side)
        if missing:
            _say(lang, NP_("{side}: {entered} of {total} patterns entered, {count} missing (add it with: {command})",
                           "{side}: {entered} of {total} patterns entered, {count} missing (add them with: {command})"),
                 side=_side(side), entered=CARDS_PER_PLAYER - missing, total=CARDS_PER_PLAYER, count=missing,
                 command=f"companion cards add NAME --side {side} --target F,R ...")
    return 0


def _load_for_edit(path: Path, lang: str | None) -> CardBook:
    """The book to change: a corrupt file stops here (FormatError), so it is never overwritten."""
    if path.exists():
        return load_book(path, missing_ok=False)
    _say(lang, N_("creating {path} with the rulebook's example card"), path=str(path))
    return CardBook(EXAMPLE_BOOK.cards, str(path))


def _add(path: Path, args: argparse.Namespace, lang: str | None) -> int:
    book = _load_for_edit(path, lang)
    targets = tuple(sorted(parse_target(t) for t in args.target))
    problems = target_problems(targets)
    if problems:
        raise CompanionError(message=Message.of(N_("card {name}: {problems}"), name=repr(args.name),
                                                problems=tuple(problems)))
    existing = book.get(args.name)
    if existing is not None and existing.side(args.side) is not None and not args.replace:
        raise CompanionError(message=Message.of(
            N_("card {name} already has a pattern for {side}; use --replace to change it"), name=repr(args.name),
            side=_side(args.side)))
    if (existing is None or existing.side(args.side) is None) and book.missing(args.side) == 0:
        raise CompanionError(message=Message.of(N_("{side} already has {count} cards; remove one first"),
                                                side=_side(args.side), count=CARDS_PER_PLAYER))
    if existing is None:
        cards = (*book.cards, CardPatterns(args.name).with_side(args.side, targets))
    else:
        cards = tuple(c.with_side(args.side, targets) if c.name == args.name else c for c in book.cards)
    book = CardBook(cards, str(path))
    save_book(book, path)
    print("\n".join(_describe(book.get(args.name), lang)))  # type: ignore[arg-type]
    for warning in review_book(book).warnings:
        _say(lang, N_("note: {warning}"), warning=warning)
    return 0


def _remove(path: Path, args: argparse.Namespace, lang: str | None) -> int:
    if not path.exists():
        raise CompanionError(message=Message.of(N_("{path}: no card file yet; nothing to remove"), path=str(path)))
    book = _load_for_edit(path, lang)
    card = book.get(args.name)
    if card is None:
        raise CompanionError(message=Message.of(N_("{path}: no card named {name}; the cards are {cards}"),
                                                path=str(path), name=repr(args.name),
                                                cards=", ".join(c.name for c in book.cards)))
    if args.side:
        changed = card.with_side(args.side, None)
        keep = changed.garden is not None or changed.throne is not None
        cards = tuple((changed if c.name == args.name else c) for c in book.cards if c.name != args.name or keep)
    else:
        cards = tuple(c for c in book.cards if c.name != args.name)
    save_book(CardBook(cards, str(path)), path)
    if args.side:
        _say(lang, N_("removed {side} of {name} from {path}"), side=_side(args.side), name=args.name, path=str(path))
    else:
        _say(lang, N_("removed {name} from {path}"), name=args.name, path=str(path))
    return 0


def _check(path: Path, lang: str | None) -> int:
    if not path.exists():
        _say(lang, N_("{path}: no card file yet; only the rulebook's example card (Garden side) is known"),
             path=str(path))
        return 1
    book = load_book(path, missing_ok=False)
    report = review_book(book)
    _say(lang, N_("{path}: valid; patterns entered: Garden {garden}/{total}, Throne {throne}/{total}"),
         path=str(path), garden=CARDS_PER_PLAYER - book.missing("garden"),
         throne=CARDS_PER_PLAYER - book.missing("throne"), total=CARDS_PER_PLAYER)
    for warning in report.warnings:
        _say(lang, N_("note: {warning}"), warning=warning)
    return 1 if report.warnings else 0
