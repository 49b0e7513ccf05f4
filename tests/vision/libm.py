"""Reference exponentials as a compiled kernel computes them.

A numba kernel's scalar `np.exp` is the C library's `exp`; numpy's own vectorised `exp` is not
(on CPUs with AVX-512 it takes a SIMD routine that differs from libm in the last bit for some
inputs). A reference that a kernel must match bit for bit therefore takes libm's `exp`, one
value at a time, as `math.exp` does.
"""

from __future__ import annotations

import math

import numpy as np

_exp = np.frompyfunc(math.exp, 1, 1)


def libm_exp(values) -> np.ndarray:
    """exp of every value by the C library, as float64 (the compiled kernels' exp)."""
    return np.asarray(_exp(np.asarray(values, np.float64)), dtype=np.float64)
