"""Where a full read's time goes, stage by stage: wall and CPU time of each function it calls.

    .venv/bin/python benchmarks/read_stages.py [--games REGION ...] [--reads N] [--modules MODULE ...]

read_instructions.py says where the instructions are; this says where the time is, which is not
the same (OpenCV's vector code does more per instruction than the interpreter, a gather from a
frame just copied waits on memory). Each read is of a fresh copy of `companion bench vision`'s
frame (speed_case), as the camera hands over a new buffer. Wrapped, each timed on its own:
the observer's methods (its class and bases), the functions and compiled kernels of the modules
those are defined in (and of --modules), the GardenSampler's methods when the observer has one,
each class's __call__ there, and cv2.remap / cvtColor / resize. A function's time is its own,
less that of the wrapped functions it calls (exclusive). Printed per region: the whole read
(unwrapped, then wrapped: the wrappers' own cost is the difference), then every function's
calls per read and its minimum and median wall and CPU time per read, largest median first.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import subprocess
import sys
import time
import types
from collections import defaultdict

import cv2
import numpy as np

OPENCV_CALLS = ("remap", "cvtColor", "resize")
SKIPPED = ("__init__", "observe", "with_history")  # set-up, and the entry point itself


class StageClock:
    """Exclusive wall and CPU time per wrapped function (a wrapped callee's time is its own)."""

    def __init__(self):
        self.wall: dict[str, float] = defaultdict(float)
        self.cpu: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self._stack: list[list[float]] = []  # per open call: its wrapped callees' wall and CPU time

    def clear(self) -> None:
        self.wall.clear()
        self.cpu.clear()
        self.calls.clear()

    def wrap(self, name: str, function):
        def timed(*args, **kwargs):
            self._stack.append([0.0, 0.0])
            wall, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                inner = self._stack.pop()
                self.wall[name] += wall - inner[0]
                self.cpu[name] += cpu - inner[1]
                self.calls[name] += 1
                if self._stack:
                    self._stack[-1][0] += wall
                    self._stack[-1][1] += cpu

        return timed


def _compiled(value) -> bool:
    return type(value).__name__ == "CPUDispatcher"  # a numba kernel


def instrument(clock: StageClock, observer, extra_modules: list[str]) -> None:
    """Wrap the observer's methods, its modules' functions and kernels, and OpenCV's sampling calls."""
    modules = {sys.modules[klass.__module__] for klass in type(observer).__mro__[:-1]}
    for klass in type(observer).__mro__[:-1]:
        for name, value in list(vars(klass).items()):
            if isinstance(value, types.FunctionType) and name not in SKIPPED:
                setattr(klass, name, clock.wrap(f"{klass.__name__}.{name}", value))
    sampler = getattr(observer, "sampler", None)
    if sampler is not None:
        for name, value in list(vars(type(sampler)).items()):
            if isinstance(value, types.FunctionType) and not name.startswith("__"):
                setattr(type(sampler), name, clock.wrap(f"{type(sampler).__name__}.{name}", value))
        modules.add(sys.modules[type(sampler).__module__])
    modules.update(importlib.import_module(name) for name in extra_modules)
    short = lambda module: module.__name__.rsplit(".", 1)[-1]  # noqa: E731
    for module in modules:
        for name, value in list(vars(module).items()):
            if name in SKIPPED:
                continue
            if isinstance(value, types.FunctionType) or _compiled(value):
                setattr(module, name, clock.wrap(f"{short(module)}.{name}", value))
            elif (inspect.isclass(value) and value.__module__.startswith("companion")
                  and "__call__" in vars(value)):
                value.__call__ = clock.wrap(f"{value.__name__}.__call__", vars(value)["__call__"])
    for name in OPENCV_CALLS:
        setattr(cv2, name, clock.wrap(f"cv2.{name}", getattr(cv2, name)))


def _times(observer, frame: np.ndarray, reads: int) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(reads):
        image = frame.copy()
        wall, cpu = time.perf_counter(), time.process_time()
        observer.observe(image)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return walls, cpus


def _ms(values) -> str:
    values = 1000.0 * np.asarray(values)
    return f"min {values.min():7.3f} med {np.median(values):7.3f}"


def stages(region: str, reads: int, extra_modules: list[str], least_ms: float) -> None:
    from companion.benchmarking import vision as bench

    frame, make_observer = bench.speed_case(region)
    observer = make_observer()
    observer.observe(frame.copy())  # first read apart: kernels loaded, caches per geometry made
    walls, cpus = _times(observer, frame, reads)
    print(f"{region}: read wall {_ms(walls)} ms, CPU {_ms(cpus)} ms (unwrapped)")
    clock = StageClock()
    instrument(clock, observer, extra_modules)
    per_wall, per_cpu = defaultdict(list), defaultdict(list)
    calls: dict[str, int] = {}
    walls, cpus = [], []
    for _ in range(reads):
        clock.clear()
        wall, cpu = _times(observer, frame, 1)
        walls += wall
        cpus += cpu
        for name in clock.wall:
            per_wall[name].append(clock.wall[name])
            per_cpu[name].append(clock.cpu[name])
        calls = dict(clock.calls)
    print(f"{' ' * len(region)}  read wall {_ms(walls)} ms, CPU {_ms(cpus)} ms (wrapped)")
    for name in sorted(per_wall, key=lambda n: -np.median(per_wall[n])):
        if 1000.0 * np.median(per_wall[name]) < least_ms:
            continue
        print(f"    {name:52s} ×{calls.get(name, 0):<4d} wall {_ms(per_wall[name])}  CPU {_ms(per_cpu[name])} ms")


def main(argv: list[str]) -> int:
    from companion.benchmarking.vision import GAMES

    parser = argparse.ArgumentParser(prog="read_stages", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=["babylon.garden", "baubylon"], choices=sorted(GAMES))
    parser.add_argument("--reads", type=int, default=40, help="reads timed per region (default 40)")
    parser.add_argument("--modules", nargs="*", default=[], help="more modules whose functions are wrapped "
                        "(e.g. companion.vision.observers.garden_kernels_lanes)")
    parser.add_argument("--least-ms", type=float, default=0.03, help="leave out stages under this median")
    args = parser.parse_args(argv)
    if len(args.games) == 1:
        stages(args.games[0], args.reads, args.modules, args.least_ms)
        return 0
    rest = ["--reads", str(args.reads), "--least-ms", str(args.least_ms), "--modules", *args.modules]
    for region in args.games:  # each in a process of its own: a module two regions share is wrapped once
        subprocess.run([sys.executable, __file__, "--games", region, *rest], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
