"""The live referee's reliability and speed (`companion bench referee`); figures, not tests.

Parts (all by default, or pick with --only):
- legal:   seeded legal games refereed through noisy observations with hands coming and going;
           counts false violations (must be 0), questions asked, and games followed to the end.
- illegal: illegal actions injected at random moments (the engine rejects them), shown on the
           table for a few still scenes; caught = a ViolationFound citing the same rule ids.
- kill:    `companion run --headless --no-render` killed with SIGKILL at random moments, restarted;
           every move it printed as confirmed must be in the journal afterwards.
- camera:  the camera dropping out and coming back; time from frames returning to the referee
           ruling again (the observation-level figure: reconnecting a real camera is the source's).
- latency: time from a still scene reaching the referee to the feedback pattern starting.
- memory:  peak resident memory of a whole `companion run --headless` (ru_maxrss of the child).
- twin:    Babylon through frames: seeded legal games rendered by the digital twin (quarry and both
           gardens, lighting drifting, hands between moves) and read by the real observers
           (calibrated once on the twin's calibration layouts), refereed as `companion run` does;
           counts false violations, questions asked, moves the players had to enter by hand
           (the camera missed them), provisional flowers settled by sight; then illegal actions
           rendered and read the same way (caught with the right rule ids). Times per scene.
           Costly (about half a second per region read): few games (--twin-games, --twin-moves).

legal, illegal, kill, camera, latency and memory run at the observation level (expected views with
cell noise); `twin` (also `--frames twin`) runs through rendered frames and the real observers.
"""

from __future__ import annotations

import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from ..commands.help_text import PlayerArgumentParser, parse_in_language
from ..demo.observed import Noise, read_view
from ..demo.records import generate
from ..demo.script import answer_index
from ..i18n import N_
from ..referee.events import AskPlayer, MoveAccepted, ViolationFound
from ..referee.tracker import Tracker
from ..referee.views import view_for

HELP = N_("live referee: false violations, illegal actions caught, kill -9 recovery, latency, memory")
DESCRIPTION = N_("The live referee's reliability and speed, in parts (all by default; choose with --only): "
                 "legal (legal games through noisy observations: false violations, which must be 0), illegal "
                 "(illegal actions injected: caught with the right rule ids), kill (companion run killed with "
                 "SIGKILL and restarted: no confirmed move lost), camera (the time to rule again once the "
                 "camera is back), latency (a still scene to the feedback), memory (the peak memory of a whole "
                 "run) and twin (Babylon games rendered by the digital twin and read by the real observers; "
                 "costly).")
PARTS = ("legal", "illegal", "kill", "camera", "latency", "memory", "twin")


def referee_game(game: str, seed: int, noise: Noise, hands: bool = True, feedback=None) -> dict:
    """Referee one seeded legal game; the simulated players answer questions truthfully."""
    view = view_for(game)
    demo = generate(game, seed, view)
    tracker = Tracker(demo.initial, view)
    log: list = []
    tracker.sinks.append(log.append)
    latencies: list[float] = []
    if feedback is not None:
        tracker.sinks.append(feedback)
    rng = random.Random(seed)
    state = demo.initial
    lost_at = None
    tick = 0
    for i, move in enumerate(demo.moves):
        after = state.apply(move)
        shown = view.expected(after)
        if shown == view.expected(state):
            tracker.play(move)
        else:
            if hands:
                tick += rng.randint(1, 3)  # busy scenes: the tracker never sees them
            for look in range(6):  # one read of the settled table, more while the referee asks
                if look and not tracker.wants_another_look:
                    break
                tick += 1
                obs = read_view(shown, rng, noise, tick, tick)
                started = time.perf_counter()
                before = len(log)
                for event in tracker.observe(obs):
                    if isinstance(event, AskPlayer):
                        index = answer_index(event.candidates, move)
                        tracker.confirm(index if index is not None else 0)
                if len(log) > before and any(isinstance(e, MoveAccepted) for e in log[before:]):
                    latencies.append(time.perf_counter() - started)
        state = after
        if len(tracker.moves) < i + 1:
            lost_at = i
            break
    return {
        "game": game, "seed": seed, "moves": len(demo.moves), "followed": lost_at is None,
        "lost_at": lost_at, "false_violations": sum(isinstance(e, ViolationFound) for e in log),
        "asks": sum(isinstance(e, AskPlayer) for e in log), "latencies": latencies,
        "same_score": lost_at is None and tracker.state.score_sheet().totals() == state.score_sheet().totals(),
    }


def part_legal(games: list[str], count: int, seed: int) -> dict:
    results = []
    started = time.time()
    for game in games:
        for n in range(count):
            result = referee_game(game, seed + n, Noise())
            results.append(result)
            print(f"  legal {game} seed {seed + n}: {result['moves']} moves, followed={result['followed']}, "
                  f"false violations={result['false_violations']}, asks={result['asks']}", file=sys.stderr, flush=True)
    by_game = {}
    for game in games:
        mine = [r for r in results if r["game"] == game]
        by_game[game] = {
            "games": len(mine),
            "moves": sum(r["moves"] for r in mine),
            "false_violations": sum(r["false_violations"] for r in mine),
            "followed_to_the_end": sum(r["followed"] for r in mine),
            "same_final_score": sum(r["same_score"] for r in mine),
            "questions_asked": sum(r["asks"] for r in mine),
        }
    return {"by_game": by_game, "seconds": round(time.time() - started, 1)}


def _recorded_states(game: str, rng: random.Random, view) -> list:
    """Every state along a freshly generated legal game (its seed drawn from `rng`)."""
    demo = generate(game, rng.randrange(10_000), view)
    states = [demo.initial]
    for move in demo.moves:
        states.append(states[-1].apply(move))
    return states


def _visible_illegal(view, state, rng: random.Random, limit: int = 30) -> list:
    """Up to about `limit` illegal actions in `state` that change what the camera sees:
    (move, ruling, the table as it would look)."""
    options = []
    for move in view.illegal_examples(state, rng):
        ruling = state.check(move)
        shown = None if ruling.accepted else view.physical_after(state, move)
        if shown is not None and shown != view.expected(state):
            options.append((move, ruling, shown))
        if len(options) > limit:
            break
    return options


def _legal_lookalike(view, state, shown) -> bool:
    """Does a legal reading give exactly this table (e.g. a statue a round token makes legal,
    babylon.round_token)? The referee rightly accepts it: such an action is no illegal one to inject."""
    from ..referee import inference
    from ..vision.types import CellReading, Observation

    perfect = {region: Observation(region, len(grid), len(grid[0]), tuple(
        tuple(CellReading(cell.label, 1.0, dict(cell.attrs)) for cell in row) for row in grid))
        for region, grid in shown.items()}
    return any(e.legal and e.moves and dict(e.view) == dict(shown)
               for e in inference.explain(state, view, perfect))


def _pick_illegal(view, state, rng: random.Random, options: list, skipped: Counter):
    """One of `options` at random, passing over those a legal reading looks exactly like."""
    options = list(options)
    while options:
        option = rng.choice(options)
        if not _legal_lookalike(view, state, option[2]):
            return option
        skipped["+".join(option[1].rule_ids)] += 1
        options.remove(option)
    return None


def part_illegal(games: list[str], count: int, seed: int) -> dict:
    """Inject illegal actions at random moments of seeded games; caught = same rule ids called."""
    rng = random.Random(seed)
    per_rule: dict[str, Counter] = {}
    skipped: Counter = Counter()
    tried = 0
    for game in games:
        view = view_for(game)
        attempts = 0
        while attempts < count:
            states = _recorded_states(game, rng, view)
            for _ in range(8):
                state = rng.choice(states[:-1])
                picked = _pick_illegal(view, state, rng, _visible_illegal(view, state, rng), skipped)
                if picked is None:
                    continue
                move, ruling, shown = picked
                key = "+".join(ruling.rule_ids)
                tracker = Tracker(state, view)
                log: list = []
                tracker.sinks.append(log.append)
                for tick in range(6):  # one read, then more while the referee wants another look
                    if tick and not tracker.wants_another_look:
                        break
                    tracker.observe(read_view(shown, rng, Noise(), tick, tick))
                called = [e for e in log if isinstance(e, ViolationFound)]
                ok = bool(called) and called[0].ruling.rule_ids == ruling.rule_ids
                wrong = bool(called) and not ok
                stats = per_rule.setdefault(key, Counter())
                stats["injected"] += 1
                stats["caught"] += ok
                stats["wrong_rule"] += wrong
                stats["accepted_instead"] += any(isinstance(e, MoveAccepted) for e in log)
                attempts += 1
                tried += 1
                if attempts >= count:
                    break
    caught = sum(c["caught"] for c in per_rule.values())
    return {"injected": tried, "caught_with_right_rule": caught,
            "rate": round(caught / tried, 4) if tried else None,
            "skipped_legal_lookalikes": dict(skipped),
            "by_rule": {k: dict(v) for k, v in sorted(per_rule.items())}}


def _run_cmd(state_dir: Path, game: str, speed: float, extra: tuple[str, ...] = ()) -> list[str]:
    return [sys.executable, "-m", "companion", "run", "--headless", "--game", game, "--speed", str(speed),
            "--state-dir", str(state_dir), *extra]


def _env() -> dict:
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock")
    env.pop("DISPLAY", None)
    return env


def confirmed_count(output: str) -> int:
    """How many moves the run had confirmed when it stopped, from its printed lines (an undo takes
    moves back, a resume starts from the journal's count)."""
    count = 0
    for line in output.splitlines():
        for pattern in (r"✓ move (\d+):", r"\((\d+) moves confirmed\)", r"resumed the game from the journal at move (\d+)"):
            found = re.search(pattern, line)
            if found:
                count = int(found.group(1))
    return count


def _collect(stream, lines: list[str]) -> None:
    lines.extend(iter(stream.readline, ""))


def part_kill(game: str, kills: int, seed: int) -> dict:
    """SIGKILL `companion run` at random moments; compare printed confirmations with the journal."""
    from ..referee.journal import Journal

    rng = random.Random(seed)
    lost = 0
    done_kills = 0
    games_finished = 0
    checked_moves = 0
    with tempfile.TemporaryDirectory() as tmp:
        state_dir = Path(tmp)
        while done_kills < kills:
            proc = subprocess.Popen(_run_cmd(state_dir, game, 0.01, ("--no-render",)), stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, text=True, env=_env())
            lines: list[str] = []
            reader = threading.Thread(target=_collect, args=(proc.stdout, lines), daemon=True)
            reader.start()
            deadline = time.monotonic() + rng.uniform(1.0, 6.0)
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.01)
            finished = proc.poll() is not None
            if not finished:
                os.kill(proc.pid, signal.SIGKILL)
                done_kills += 1
            proc.wait()
            reader.join(timeout=5)
            buffer = "".join(lines)
            announced = confirmed_count(buffer)
            journal = Journal(state_dir / "demo-journal.sqlite")
            game_id = journal.latest_game_id(running_only=False)
            stored = len(journal.load_game(game_id).moves) if game_id is not None else 0
            journal.close()
            checked_moves += announced
            if stored < announced:
                lost += announced - stored
                print(f"  kill {done_kills}: printed {announced} confirmed moves, journal holds {stored}",
                      file=sys.stderr, flush=True)
            if finished or "game over: yes" in buffer:
                games_finished += 1
                for name in os.listdir(state_dir):
                    if name.startswith("demo-journal"):
                        os.unlink(state_dir / name)
    return {"kills": done_kills, "confirmed_moves_lost": lost, "confirmed_moves_checked_sum_over_kills": checked_moves,
            "games_finished_across_restarts": games_finished}


def part_camera(game: str, seed: int) -> dict:
    """Frames stop and return: time from the first still scene after "ok" to the next ruling."""
    from ..referee.session import RefereeSession, Scene

    view = view_for(game)
    demo = generate(game, seed, view)
    tracker = Tracker(demo.initial, view)
    session = RefereeSession(tracker)
    rng = random.Random(seed)
    state = demo.initial
    gaps = []
    for i, move in enumerate(demo.moves[:25]):
        after = state.apply(move)
        back = None
        if i % 5 == 4:
            for _ in range(3):
                session.handle(Scene("lost"))
            back = time.perf_counter()
            session.handle(Scene("ok"))
        before = len(tracker.moves)
        for _ in range(2):
            session.handle(Scene("still", read_view(view.expected(after), rng, Noise())))
            if back is not None and len(tracker.moves) > before:
                gaps.append(time.perf_counter() - back)
                back = None
        state = after
    return {"drops": len(gaps), "seconds_back_to_ruling_max": round(max(gaps), 4) if gaps else None}


def part_latency(game: str, seed: int) -> dict:
    """Still scene in → feedback pattern started (the real Feedback on gpiozero mock pins)."""
    from ..config import load_config
    from ..feedback import Feedback

    config = load_config()
    feedback = Feedback.from_config(config)
    starts: list[float] = []
    original = feedback.player.play

    def play(pattern):
        starts.append(time.perf_counter())
        return original(pattern)

    feedback.player.play = play  # type: ignore[method-assign]
    view = view_for(game)
    demo = generate(game, seed, view)
    tracker = Tracker(demo.initial, view)
    tracker.sinks.append(feedback.handle)
    rng = random.Random(seed)
    state = demo.initial
    samples = []
    for move in demo.moves:
        after = state.apply(move)
        shown = view.expected(after)
        if shown == view.expected(state):
            tracker.play(move)
        else:
            obs = read_view(shown, rng, Noise())
            starts.clear()
            t0 = time.perf_counter()
            for event in tracker.observe(obs):
                if isinstance(event, AskPlayer):
                    tracker.confirm(answer_index(event.candidates, move) or 0)
            if starts:
                samples.append(starts[0] - t0)
            else:
                tracker.observe(read_view(shown, rng, Noise()))
        state = after
    feedback.close()
    samples.sort()
    return {"samples": len(samples),
            "median_ms": round(1000 * statistics.median(samples), 1) if samples else None,
            "p95_ms": round(1000 * samples[int(0.95 * (len(samples) - 1))], 1) if samples else None,
            "max_ms": round(1000 * samples[-1], 1) if samples else None,
            "note": "plus the motion gate's settle time before the scene counts as still"}


def part_memory(game: str) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.time()
        subprocess.run(_run_cmd(Path(tmp), game, 0.0), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=_env(), check=False)
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return {"game": game, "peak_rss_mb": round(peak_kb / 1024, 1), "seconds": round(time.time() - started, 1),
            "target_mb": 250}


# --- Babylon through rendered frames (the twin and the real observers) -------------------------

def _answer(tracker: Tracker, event: AskPlayer, recorded, made: int) -> None:
    """The simulated players, as in `companion run`: their move, else 'misread' and the move if
    they made it, else dismiss."""
    from ..demo.script import answer_for

    done = len(tracker.moves)
    earlier = tracker.pending is not None and tracker.pending.kind == "revise"
    index = answer_for(event.candidates, recorded, done, earlier)
    if index is not None:
        tracker.confirm(index)
    elif not earlier and done < min(made, len(recorded)) and tracker.state.check(recorded[done]).accepted:
        tracker.correct(recorded[done])
    else:
        tracker.undo()


def twin_game(reader, seed: int, max_moves: int) -> dict:
    """One seeded legal Babylon game refereed through rendered frames."""
    from ..demo.script import DemoScript, ScriptPlan, confirmed_count
    from ..demo.twin import rendered

    view = view_for("babylon")
    demo = generate("babylon", seed, view)
    moves = demo.moves[:max_moves]
    tracker = Tracker(demo.initial, view)
    log: list = []
    tracker.sinks.append(log.append)
    script = DemoScript(view, demo.initial, moves, seed=seed, plan=ScriptPlan(),
                        look_again=lambda: tracker.wants_another_look,
                        confirmed=lambda: confirmed_count(tracker.moves, tracker.actors))
    reader.shown, reader.last_regions = {}, ()
    reads0, read_s0 = reader.reads, reader.read_seconds
    declared_refused = 0
    referee_s: list[float] = []
    stills = 0
    started = time.perf_counter()
    for scene in rendered(script.scenes(), reader, script):
        if scene.kind == "player" and scene.command and scene.command[0] == "play":
            before = len(log)
            tracker.play(scene.command[1][1])
            declared_refused += sum(isinstance(e, ViolationFound) for e in log[before:])
        elif scene.kind == "player" and scene.command and scene.command[0] == "undo":
            tracker.undo()
        elif scene.kind == "still":
            stills += 1
            t0 = time.perf_counter()
            events = tracker.observe(scene.observations)
            referee_s.append(time.perf_counter() - t0)
            for event in events:
                if isinstance(event, AskPlayer):
                    _answer(tracker, event, moves, script.made)
    final = demo.initial
    for move in moves:
        final = final.apply(move)
    followed = len(tracker.moves) == len(moves)
    return {
        "seed": seed, "moves": len(moves), "followed": followed, "stills": stills,
        "false_violations": sum(isinstance(e, ViolationFound) for e in log) - declared_refused,
        "declarations_refused": declared_refused,
        "asks": sum(isinstance(e, AskPlayer) for e in log),
        "entered_by_hand": len(script.entered_by_hand),
        "phantom_moves_undone": len(script.phantoms_undone),
        "flowers_settled_by_sight": tracker.revisions,
        "same_score": followed and tracker.state.score_sheet().totals() == final.score_sheet().totals(),
        "region_reads": reader.reads - reads0, "read_seconds": reader.read_seconds - read_s0,
        "referee_ms_median": round(1000 * statistics.median(referee_s), 1) if referee_s else None,
        "seconds": round(time.perf_counter() - started, 1),
    }


def twin_illegal(reader, count: int, seed: int) -> dict:
    """Illegal actions rendered on the twin's table and read by the observers."""
    from ..sim.adapters import babylon_layouts

    view = view_for("babylon")
    rng = random.Random(seed)
    per_rule: dict[str, Counter] = {}
    skipped: Counter = Counter()
    tried = 0
    while tried < count:
        states = _recorded_states("babylon", rng, view)
        for _ in range(6):
            state = rng.choice(states[:-1])
            picked = _pick_illegal(view, state, rng, _visible_illegal(view, state, rng), skipped)
            if picked is None:
                continue
            move, ruling, _ = picked
            tracker = Tracker(state, view)
            log: list = []
            tracker.sinks.append(log.append)
            reader.shown, reader.last_regions = babylon_layouts(state), ()  # the table as it stood
            for tick in range(6):
                if tick and not tracker.wants_another_look:
                    break
                tracker.observe(reader.read(None, 1000 * tried + tick, (state, move)).observations)
            called = [e for e in log if isinstance(e, ViolationFound)]
            stats = per_rule.setdefault("+".join(ruling.rule_ids), Counter())
            stats["injected"] += 1
            stats["caught"] += bool(called) and called[0].ruling.rule_ids == ruling.rule_ids
            stats["wrong_rule"] += bool(called) and called[0].ruling.rule_ids != ruling.rule_ids
            stats["accepted_instead"] += any(isinstance(e, MoveAccepted) for e in log)
            stats["asked"] += any(isinstance(e, AskPlayer) for e in log)
            tried += 1
            if tried >= count:
                break
    caught = sum(c["caught"] for c in per_rule.values())
    return {"injected": tried, "caught_with_right_rule": caught, "rate": round(caught / tried, 4) if tried else None,
            "accepted_instead": sum(c["accepted_instead"] for c in per_rule.values()),
            "skipped_legal_lookalikes": dict(skipped),
            "by_rule": {k: dict(v) for k, v in sorted(per_rule.items())}}


def part_twin(games: int, max_moves: int, illegal: int, seed: int) -> dict:
    from ..demo.twin import TwinReader

    t0 = time.perf_counter()
    reader = TwinReader("babylon", seed)
    calibration_s = time.perf_counter() - t0
    results = []
    for n in range(games):
        result = twin_game(reader, seed + n, max_moves)
        results.append(result)
        print(f"  twin babylon seed {seed + n}: {json.dumps(result)}", file=sys.stderr, flush=True)
    reads = sum(r["region_reads"] for r in results)
    stills = sum(r["stills"] for r in results)
    out = {
        "games": games, "moves_per_game_cap": max_moves, "calibration_seconds": round(calibration_s, 1),
        "moves": sum(r["moves"] for r in results),
        "followed_to_the_end": sum(r["followed"] for r in results),
        "same_final_score": sum(r["same_score"] for r in results),
        "false_violations": sum(r["false_violations"] for r in results),
        "declarations_refused": sum(r["declarations_refused"] for r in results),
        "asks": sum(r["asks"] for r in results),
        "asks_per_game": round(sum(r["asks"] for r in results) / max(games, 1), 1),
        "entered_by_hand": sum(r["entered_by_hand"] for r in results),
        "phantom_moves_undone": sum(r["phantom_moves_undone"] for r in results),
        "flowers_settled_by_sight": sum(r["flowers_settled_by_sight"] for r in results),
        "still_scenes": stills, "region_reads": reads,
        "render_and_read_ms_per_region": round(1000 * sum(r["read_seconds"] for r in results) / max(reads, 1), 1),
        "referee_ms_median": statistics.median([r["referee_ms_median"] for r in results if r["referee_ms_median"]])
        if results else None,
    }
    if illegal:
        out["illegal"] = twin_illegal(reader, illegal, seed)
    return out


def main(argv: list[str], config) -> int:
    parser = PlayerArgumentParser(prog="companion bench referee", description=DESCRIPTION)
    parser.add_argument("--only", action="append", choices=PARTS, help=N_("run only these parts (repeatable)"))
    parser.add_argument("--games", default="reclamation,babylon", help=N_("games for legal/illegal (comma list)"))
    parser.add_argument("--legal", type=int, default=50, help=N_("legal games per game (default 50)"))
    parser.add_argument("--illegal", type=int, default=100, help=N_("illegal actions per game (default 100)"))
    parser.add_argument("--kills", type=int, default=100, help=N_("SIGKILLs of companion run (default 100)"))
    parser.add_argument("--seed", type=int, default=1, help=N_("seed of the games and the noise (default 1)"))
    parser.add_argument("--frames", choices=("twin", "observations"), default=None,
                        help=N_("twin: only the Babylon run through rendered frames (same as --only twin)"))
    parser.add_argument("--twin-games", type=int, default=3,
                        help=N_("Babylon games through rendered frames (default 3)"))
    parser.add_argument("--twin-moves", type=int, default=260, help=N_("moves per twin game at most (default 260)"))
    parser.add_argument("--twin-illegal", type=int, default=30,
                        help=N_("illegal actions through rendered frames (default 30)"))
    parser.add_argument("--json", action="store_true", help=N_("machine-readable output"))
    args = parse_in_language(parser, argv, config)
    parts = args.only or ([p for p in PARTS if p != "twin"] if args.frames == "observations" else
                          ["twin"] if args.frames == "twin" else list(PARTS))
    games = [g for g in args.games.split(",") if g]
    report: dict = {}
    for part in parts:
        t0 = time.time()
        if part == "legal":
            report[part] = part_legal(games, args.legal, args.seed)
        elif part == "illegal":
            report[part] = part_illegal(games, args.illegal, args.seed)
        elif part == "kill":
            report[part] = part_kill("reclamation", args.kills, args.seed)
        elif part == "camera":
            report[part] = part_camera(games[0], args.seed)
        elif part == "latency":
            report[part] = {g: part_latency(g, args.seed) for g in games}
        elif part == "memory":
            report[part] = {g: part_memory(g) for g in games}
        elif part == "twin":
            report[part] = part_twin(args.twin_games, args.twin_moves, args.twin_illegal, args.seed)
        report[part]["wall_seconds"] = round(time.time() - t0, 1)
        if not args.json:
            print(f"{part}: {json.dumps(report[part], ensure_ascii=False)}", flush=True)
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
    return 0
