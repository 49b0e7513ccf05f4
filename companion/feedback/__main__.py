"""Self-test of the LED and buzzer: `python -m companion.feedback [NAME ...]`.

On the Pi, after wiring: plays each pattern (or the ones named) in turn and says which one to look and
listen for. Off a Pi (mock pins), it also measures how closely the pins followed each pattern's
timing, and how long `Feedback.handle` takes to return (it must never wait for the buzzer).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from ..config import load_config
from ..errors import CompanionError
from ..referee.events import SourceStatus
from .controller import Feedback
from .patterns import PATTERNS, Pattern


def timing_error_ms(feedback: Feedback, pattern: Pattern) -> float | None:
    """Largest gap, in ms, between when a mock LED leg changed and when the pattern says it should."""
    pins = feedback.devices.led_pins()
    if not all(hasattr(p, "states") for p in pins):
        return None
    worst = 0.0
    for leg, pin in enumerate(pins):
        expected, last, since = [], 0.0, 0.0
        for step in pattern.steps:
            if step.colour[leg] != last:
                expected.append(since)
                last, since = step.colour[leg], 0.0
            since += step.seconds
        if last != 0.0:
            expected.append(since)
        actual = [state.timestamp for state in pin.states[1:]]
        worst = max([worst, *(abs(a - e) for a, e in zip(actual[1:], expected[1:], strict=False))])
    return worst * 1000


def handle_latency_us(feedback: Feedback, calls: int = 1000) -> tuple[float, float]:
    """Median and 99th percentile of `handle()` returning, in µs (the pattern plays elsewhere)."""
    event = SourceStatus("selftest", 0, "busy")  # maps to no pattern: measures the dispatch alone
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        feedback.handle(event)
        samples.append((time.perf_counter() - start) * 1e6)
    samples.sort()
    return statistics.median(samples), samples[int(0.99 * (len(samples) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.feedback", description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="patterns to play: " + ", ".join(PATTERNS))
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in PATTERNS]
    if unknown:
        print(f"unknown pattern {unknown[0]!r}: expected one of {', '.join(PATTERNS)}", file=sys.stderr)
        return 2
    try:
        feedback = Feedback.from_config(load_config())
    except CompanionError as exc:
        print(f"feedback self-test: {exc}", file=sys.stderr)
        return exc.exit_code
    with feedback:
        print(f"pins: {feedback.devices.settings.used_pins()} ({'mock' if feedback.mock else 'real'} GPIO)")
        for name in args.names or list(PATTERNS):
            pattern = PATTERNS[name]
            for pin in feedback.devices.led_pins():
                if hasattr(pin, "clear_states"):
                    pin.clear_states()
            print(f"  {pattern.describe()}", flush=True)
            feedback.player.play(pattern)
            feedback.player.wait_idle(pattern.seconds + 5)
            error = timing_error_ms(feedback, pattern)
            if error is not None:
                print(f"    pin timing within {error:.1f} ms of the pattern")
            time.sleep(0.4)  # a gap, so patterns are told apart by eye and ear
        median, p99 = handle_latency_us(feedback)
        print(f"handle() returns in {median:.1f} µs (median), {p99:.1f} µs (99th percentile)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
