"""Run a snippet in a fresh Python process at the repository root: kernels compiled (or tables
built) by other tests in this process would hide a missing warm-up."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def printed_in_fresh_process(code: str) -> list[str]:
    """The words the snippet prints (it fails the test if the snippet fails)."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=True)
    return done.stdout.split()
