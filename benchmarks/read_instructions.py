"""Instructions per board read, counted by valgrind's callgrind: a speed measure that other work on
the machine does not move.

    .venv/bin/python benchmarks/read_instructions.py [--games REGION ...] [--reads N]

On a shared machine the wall and CPU times of `companion bench vision` move by as much as a change
being measured (other processes share the caches and the cores). The instructions a read executes
do not: they are the same from run to run, so two versions of the code can be compared one frame at
a time. Instructions are not time (a remap's vector instructions do more per instruction than the
interpreter's), so the ratios printed here are not the speed target's; they say where the work is
and whether a change added to it.

Each region is read on the frame `bench vision` times (speed_case), in a child process under
`valgrind --tool=callgrind` that collects nothing while it builds and calibrates its observer
(kernels compile or load there); collection is switched on for N reads only (callgrind_control).
The decode of the benchmark's JPEG is counted the same way, in a child of its own. Needs valgrind
(`sudo apt install valgrind`). Each region takes a few minutes: valgrind runs the setup too.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

# Where each function's instructions belong, from the object (or source file) callgrind names.
GROUPS = (
    ("OpenCV", re.compile(r"cv2[^/]*\.so")),
    ("numpy", re.compile(r"numpy")),
    ("Python interpreter", re.compile(r"libpython|/Python-3|/Python/|/Objects/|python3")),
    ("libm", re.compile(r"libm\.so|/math/")),
    ("libc", re.compile(r"libc\.so|/string/|/malloc/|/stdlib/")),
    # numba's kernels are compiled in memory: callgrind knows no object or symbol for them
    ("compiled kernels (numba)", re.compile(r"^\?\?\?:0x[0-9a-f]+ \[\?\?\?\]$|^\?\?\?:0x[0-9a-f]+$")),
)
LINE = re.compile(r"^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$")


@dataclass
class Count:
    total: int  # instructions collected
    groups: Counter  # instructions per GROUPS name ("other" for the rest)


def parse_annotate(text: str) -> Count:
    """The totals of `callgrind_annotate --inclusive=no --threshold=100` output, by GROUPS."""
    total = 0
    groups: Counter = Counter()
    for line in text.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        count, where = int(match.group(1).replace(",", "")), match.group(2).strip()
        if where.startswith("PROGRAM TOTALS"):
            total = count
            continue
        groups[next((name for name, pattern in GROUPS if pattern.search(where)), "other")] += count
    return Count(total, groups)


def _worker(kind: str, reads: int, signals: Path) -> None:
    """In the child under valgrind: set up, say so, wait; then `reads` reads (or decodes)."""
    from companion.benchmarking import vision as bench

    if kind == "decode":
        import cv2

        _, data = bench.speed_jpeg()
        work = lambda: cv2.imdecode(data, cv2.IMREAD_COLOR)  # noqa: E731
    else:
        frame, make_observer = bench.speed_case(kind)
        observer = make_observer()
        work = lambda: observer.observe(frame)  # noqa: E731
    for _ in range(2):  # warm: first-read work (compiled kernels loaded, caches per geometry) is not counted
        work()
    (signals / "ready").touch()
    _wait_for(signals / "go")
    for _ in range(reads):
        work()
    (signals / "done").touch()
    _wait_for(signals / "stop")


def _wait_for(path: Path, timeout: float = 3600.0) -> None:
    end = time.monotonic() + timeout
    while not path.exists():
        if time.monotonic() > end:
            raise TimeoutError(f"no {path.name} signal after {timeout:.0f} s")
        time.sleep(0.1)


def count(kind: str, reads: int) -> Count:
    """Instructions of `reads` reads of region `kind` (or JPEG decodes for "decode")."""
    with tempfile.TemporaryDirectory(prefix="read-instructions-") as tmp:
        signals = Path(tmp)
        out = signals / "callgrind.out"
        child = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
                                  sys.executable, __file__, "--worker", kind, str(reads), tmp],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _wait_on(child, signals / "ready", f"the {kind} child ended before it was ready")
            _control("--instr=on", child.pid)
            (signals / "go").touch()
            _wait_on(child, signals / "done", f"the {kind} child ended while reading")
            _control("--instr=off", child.pid)
            (signals / "stop").touch()
            child.wait(timeout=600)
        finally:
            if child.poll() is None:
                child.kill()
        text = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(out)],
                              capture_output=True, text=True, check=True).stdout
    return parse_annotate(text)


def _wait_on(child: subprocess.Popen, signal: Path, ended: str) -> None:
    """Until the child makes `signal`; if it ends first, why (the end of its error output)."""
    while not signal.exists():
        if child.poll() is not None:
            raise RuntimeError(f"{ended}:\n{child.stderr.read()[-2000:]}")
        time.sleep(0.2)


def _control(what: str, pid: int) -> None:
    subprocess.run(["callgrind_control", what, str(pid)], check=True, capture_output=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--worker"]:
        _worker(argv[1], int(argv[2]), Path(argv[3]))
        return 0
    from companion.benchmarking.vision import GAMES

    parser = argparse.ArgumentParser(prog="read_instructions", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=["babylon.garden", "baubylon"], choices=sorted(GAMES))
    parser.add_argument("--reads", type=int, default=5, help="reads counted per region (default 5)")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("read_instructions needs valgrind: sudo apt install valgrind", file=sys.stderr)
        return 2
    decode = count("decode", args.reads)
    per_decode = decode.total / args.reads
    print(f"JPEG decode 1280×720: {per_decode / 1e6:.2f} M instructions")
    for region in args.games:
        result = count(region, args.reads)
        per_read = result.total / args.reads
        print(f"{region}: {per_read / 1e6:.2f} M instructions per read = {per_read / per_decode:.2f}× the decode's")
        for name, n in result.groups.most_common():
            print(f"    {name:26s} {n / args.reads / 1e6:6.2f} M  {100 * n / max(result.total, 1):5.1f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
