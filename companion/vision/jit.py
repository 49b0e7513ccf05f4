"""Compiled inner loops for the observers (numba).

A read of the hard regions is thousands of small numpy calls whose per-call cost outweighs their
arithmetic; a loop compiled once per type signature does the same work without it. Kernels are
compiled on first call and cached on disk beside this package (or in the user's cache directory when
that is read-only), so only the first start after an install pays the compile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import numba

F = TypeVar("F", bound=Callable)

# nogil: the referee's camera thread and the UI share the Pi's cores; error_model="numpy": a division
# by zero gives inf/nan as the numpy code it replaces did, rather than raising.
_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy"}


def kernel(function: F) -> F:
    """Compile `function` with numba in no-Python mode (see the module docstring)."""
    return numba.njit(**_OPTIONS)(function)
