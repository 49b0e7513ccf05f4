"""benchmarks/read_stages.py: each wrapped function's calls counted, and its time its own (a
wrapped callee's time is taken out of its caller's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "read_stages.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("read_stages", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_calls_are_counted_and_a_callees_time_is_not_its_callers(script, monkeypatch):
    clock = script.StageClock()
    ticks = iter(range(100))  # a clock that moves one step per reading: times are counts of readings
    monkeypatch.setattr(script.time, "perf_counter", lambda: float(next(ticks)))
    monkeypatch.setattr(script.time, "process_time", lambda: 0.0)
    inner = clock.wrap("inner", lambda: None)
    outer = clock.wrap("outer", lambda: [inner() for _ in range(3)])
    outer()
    assert dict(clock.calls) == {"inner": 3, "outer": 1}
    # inner: 1 step per call (its two readings); outer: its 7 steps less its callees' 3
    assert clock.wall == {"inner": 3.0, "outer": 4.0}


def test_an_exception_still_closes_the_call(script):
    clock = script.StageClock()

    def fails():
        raise ValueError("no")

    wrapped = clock.wrap("fails", fails)
    with pytest.raises(ValueError):
        wrapped()
    assert clock.calls["fails"] == 1 and not clock._stack
