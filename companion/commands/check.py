"""`companion check FILE MOVE`: the referee's ruling on a move in a saved state or game."""

from __future__ import annotations

import argparse
import json

from ..errors import ErrorText, FormatError
from ..games import saves
from ..i18n import N_, translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help=N_("print the ruling for a move in a saved state or game"),
        description=N_("MOVE is a JSON object (docs/formats.md), or @FILE to read it from a file."),
    )
    parser.add_argument("file", help=N_("a saved state or game record"))
    parser.add_argument("move", help=N_('the move as JSON, e.g. \'{"kind": "take", ...}\', or @move.json'))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    record = saves.load(args.file)
    if args.move.startswith("@"):
        data, source = saves.read_json_file(args.move[1:]), args.move[1:]
    else:
        source = "MOVE"  # the command line's name for it
        try:
            data = json.loads(args.move)
        except json.JSONDecodeError as exc:
            raise FormatError(source, ErrorText.of(N_("column {column}"), column=exc.colno),
                              ErrorText.of(N_("not valid JSON"))) from None
    move = saves.parse_move(data, record.spec, source)
    ruling = record.final.check(move)
    lang = config.get("general", "language")
    if args.json:
        print(json.dumps(ruling.to_json(), ensure_ascii=False, indent=1))
    else:
        verdict = N_("ACCEPTED: {move}") if ruling.accepted else N_("NOT ALLOWED: {move}")
        print(translate(verdict, lang, {"move": move.describe().render(lang)}))
        for violation in ruling.violations:
            print(f"  [{violation.rule_id}] {violation.message.render(lang)}")
            if violation.fix is not None:
                print("    " + translate(N_("fix: {fix}"), lang, {"fix": violation.fix.render(lang)}))
        for note in ruling.notes:
            print(f"  {note.render(lang)}")
    return 0 if ruling.accepted else 1
