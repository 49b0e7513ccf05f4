"""The Reclamation's search speed: positions per second of the hint search (alpha–beta).

Other processes share the CPU, so both wall-clock and CPU-time rates are printed.
A "position" is a successor position the search generates (one legal turn applied to the compact
bit-mask representation, with its static score). The benchmark plays seeded random games to get a
spread of positions (opening, middle game, late game), then times a fixed-depth search from each.

Card patterns: the player's card file when it holds 4 patterns for the side, otherwise four
BENCHMARK patterns (below) that are only there to give a realistic branching factor, 2–3 targets
per card like the rulebook's example card. They are not the real cards.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from ..commands.help_text import PlayerArgumentParser, parse_in_language
from ..games.reclamation.cards import Card, Offset, default_book
from ..games.reclamation.fast import FastRules
from ..games.reclamation.search import Searcher, suggest
from ..games.reclamation.state import ReclamationState, new_game
from ..i18n import N_

HELP = N_("search speed of The Reclamation's hint (positions per second)")
DESCRIPTION = N_("The Reclamation's hint search (alpha–beta): positions generated per second, by wall-clock and "
                 "CPU time, from start positions of seeded random games (opening, middle game, late game). "
                 "Card patterns: the player's card file when it holds 4 patterns for the side, else four "
                 "stand-in patterns that only give a realistic branching factor (they are not the real cards). "
                 "With --hint: the time of one hint on a saved state or game record.")

BENCHMARK_CARDS = (
    Card("example", (Offset(2, -1), Offset(2, 1))),
    Card("bench-b", (Offset(1, 0), Offset(-1, 1))),
    Card("bench-c", (Offset(1, -1), Offset(1, 1), Offset(-2, 0))),
    Card("bench-d", (Offset(0, -2), Offset(0, 2))),
)


def positions(variant: str, cards: tuple[Card, ...], seed: int, count: int) -> list[ReclamationState]:
    rng = random.Random(seed)
    found: list[ReclamationState] = []
    while len(found) < count:
        state = new_game(("A", "B"), variant=variant, cards=cards)
        for turn in range(rng.randrange(0, 30)):
            moves = list(state.legal_moves())
            if not moves or turn > 40:
                break
            state = state.apply(rng.choice(moves))
        if not state.is_over:
            found.append(state)
    return found


def run(variant: str, depth: int, count: int, seed: int, cards: tuple[Card, ...]) -> dict:
    states = positions(variant, cards, seed, count)
    rules = FastRules(cards, variant == "throne")
    encoded = [rules.encode(s) for s in states]
    # Raw generator speed: all successors of every position, repeated.
    start, cpu_start = time.perf_counter(), time.process_time()
    generated = 0
    rounds = 0
    while time.perf_counter() - start < 1.0:
        for pos in encoded:
            generated += len(rules.successors(pos))
        rounds += 1
    gen_seconds = time.perf_counter() - start
    gen_cpu = max(time.process_time() - cpu_start, 1e-9)
    # Search speed: fixed-depth alpha–beta from each position.
    searcher = Searcher(rules)
    per_hint = []
    start, cpu_start = time.perf_counter(), time.process_time()
    for pos in encoded:
        t0 = time.perf_counter()
        searcher.root(pos, depth)
        per_hint.append(time.perf_counter() - t0)
    seconds = time.perf_counter() - start
    cpu_seconds = max(time.process_time() - cpu_start, 1e-9)
    return {
        "variant": variant,
        "depth": depth,
        "positions_searched_from": len(encoded),
        "search_positions": searcher.positions,
        "search_seconds": round(seconds, 3),
        "search_positions_per_second": round(searcher.positions / seconds),
        "search_positions_per_cpu_second": round(searcher.positions / cpu_seconds),
        "hint_seconds_mean": round(sum(per_hint) / len(per_hint), 4),
        "hint_seconds_max": round(max(per_hint), 4),
        "generator_positions_per_second": round(generated / gen_seconds),
        "generator_positions_per_cpu_second": round(generated / gen_cpu),
        "generator_rounds": rounds,
    }


def _hint(args: argparse.Namespace, config) -> int:
    from ..errors import CompanionError
    from ..games import saves

    state = saves.load(args.hint).final
    if not isinstance(state, ReclamationState):
        raise CompanionError(f"{args.hint}: expected a game of The Reclamation, got {state.game}")
    hint = suggest(state, max_depth=args.depth or 8, seconds=args.seconds)
    lang = config.get("general", "language")
    if hint is None:
        print("the game is over: " + "; ".join(m.render(lang) for m in state.guidance()))
        return 0
    rate = round(hint.positions / max(hint.seconds, 1e-9))
    if args.json:
        print(json.dumps({"move": hint.move.to_json(), "reason": hint.reason.to_json(), "rule": hint.rule_id,
                          "depth": hint.depth, "positions": hint.positions, "seconds": round(hint.seconds, 3),
                          "positions_per_second": rate}, ensure_ascii=False, indent=1))
        return 0
    print(f"hint: {hint.move.describe().render(lang)}")
    print(f"  {hint.reason.render(lang)} [{hint.rule_id}]")
    for detail in hint.details:
        print(f"  {detail.render(lang)}")
    print(f"  depth {hint.depth}, {hint.positions:,} positions in {hint.seconds:.3f} s ({rate:,} positions/s)")
    return 0


def main(argv: list[str], config) -> int:
    parser = PlayerArgumentParser(prog="companion bench reclamation", description=DESCRIPTION)
    parser.add_argument("--depth", type=int, help=N_("search depth in whole turns (default 5; 8 with --hint)"))
    parser.add_argument("--positions", type=int, default=40, help=N_("how many start positions (default 40)"))
    parser.add_argument("--seed", type=int, default=1, help=N_("seed of the random games (default 1)"))
    parser.add_argument("--variant", choices=("garden", "throne", "both"), default="both",
                        help=N_("card side: garden, throne or both (default)"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    parser.add_argument("--hint", metavar="FILE", help=N_("time one hint on a saved state or game record instead"))
    parser.add_argument("--seconds", type=float, default=1.5, help=N_("time budget of --hint (default 1.5)"))
    args = parse_in_language(parser, argv, config)
    if args.hint:
        return _hint(args, config)
    book = default_book()
    results = []
    for variant in (("garden", "throne") if args.variant == "both" else (args.variant,)):
        cards = book.for_side(variant)
        label = f"the card file ({book.source})"
        if len(cards) < 4:
            cards, label = BENCHMARK_CARDS, "4 benchmark patterns (not the real cards)"
        result = run(variant, args.depth or 5, args.positions, args.seed, cards)
        result["cards"] = label
        results.append(result)
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    for r in results:
        print(f"{r['variant']}: depth {r['depth']} from {r['positions_searched_from']} positions, cards: {r['cards']}")
        print(f"  search     {r['search_positions_per_second']:>9,} positions/s wall clock, "
              f"{r['search_positions_per_cpu_second']:,} per CPU second "
              f"({r['search_positions']:,} in {r['search_seconds']} s; per hint mean {r['hint_seconds_mean']} s, max {r['hint_seconds_max']} s)")
        print(f"  generator  {r['generator_positions_per_second']:>9,} positions/s wall clock, "
              f"{r['generator_positions_per_cpu_second']:,} per CPU second")
    return 0
