"""`companion games`: the games this device referees, their options and their rule coverage."""

from __future__ import annotations

import argparse
import json

from ..games import all_games
from ..games.api import Message
from ..i18n import N_, NP_, translate


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("games", help=N_("list the games, variants, options and rule coverage"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.add_argument("--rules", action="store_true", help=N_("list every rule id with its status"))
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace, config) -> int:
    lang = config.get("general", "language")
    specs = all_games()
    if args.json:
        print(json.dumps([_spec_json(s, lang) for s in specs], ensure_ascii=False, indent=1))
        return 0
    for spec in specs:
        counts: dict[str, int] = {}
        for rule in spec.rules:
            counts[rule.status] = counts.get(rule.status, 0) + 1
        coverage = ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
        print(f"{spec.id:<12} {translate(spec.title, lang)}")
        print(f"{'':<12} " + translate(N_("players {low}–{high}; variants: {variants}"), lang,
                                       {"low": spec.min_players, "high": spec.max_players,
                                        "variants": ", ".join(spec.variants)}))
        for option in spec.options:
            choices = f" ({'/'.join(map(str, option.choices))})" if option.choices else ""
            print(f"{'':<12} " + translate(N_("option {option}: {help}"), lang,
                                           {"option": f"{option.name}={option.default}{choices}",
                                            "help": translate(option.help, lang)}))
        print(f"{'':<12} " + Message.of(NP_("rules: {count} id ({coverage})", "rules: {count} ids ({coverage})"),
                                        count=len(spec.rules), coverage=coverage).render(lang))
        if args.rules:
            for rule in spec.rules:
                print(f"{'':<14}{rule.id:<44} {rule.status:<12} {translate(rule.title, lang)}")
    return 0


def _spec_json(spec, lang: str) -> dict:
    return {
        "id": spec.id,
        "title": translate(spec.title, lang),
        "players": [spec.min_players, spec.max_players],
        "variants": list(spec.variants),
        "options": [{"name": o.name, "default": o.default, "choices": list(o.choices)} for o in spec.options],
        "rules": [{"id": r.id, "status": r.status, "title": translate(r.title, lang)} for r in spec.rules],
    }
