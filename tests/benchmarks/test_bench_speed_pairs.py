"""companion bench vision's speed pairs (_paired_times): decode and work timed in turn, the work on
a fresh frame made untimed after its decode, and the ratio the median of the pairs' ratios — on a
fake clock, so nothing here is timed."""

from __future__ import annotations

from companion.benchmarking.vision import _paired_times


class FakeClock:
    """A clock that each step moves on by the next of `costs` (the step's duration)."""

    def __init__(self):
        self.now = 0.0
        self.log: list[str] = []

    def __call__(self) -> float:
        return self.now

    def run(self, name: str, cost: float) -> None:
        self.log.append(name)
        self.now += cost


def test_pairs_interleave_and_take_the_median_of_their_ratios():
    clock = FakeClock()
    # a drifting machine: the k-th pair runs (k + 1) times slower, both halves alike
    pair = iter(range(1, 100))
    state = {"k": 0}

    def decode():
        state["k"] = next(pair)
        clock.run("decode", 1.0 * state["k"])

    def fresh():
        clock.run("fresh", 50.0)  # made untimed: it never counts
        return "frame"

    def work(frame):
        assert frame == "frame"
        clock.run("work", (3.0 if state["k"] != 2 else 30.0) * state["k"])

    decode_t, work_t, ratio = _paired_times(decode, work, fresh, 5, clock)
    assert clock.log == ["decode", "fresh", "work"] * 5
    assert ratio == 3.0  # per pair: 3, 30, 3, 3, 3; the drift cancels within each pair
    assert decode_t == 3.0  # medians of 1..5
    assert work_t == 12.0  # of 3, 60, 9, 12, 15
