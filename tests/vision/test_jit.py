import numpy as np

from companion.vision.jit import kernel


@kernel
def _row_means(values):
    out = np.empty(values.shape[0])
    for r in range(values.shape[0]):
        total = 0.0
        for c in range(values.shape[1]):
            total += values[r, c]
        out[r] = total / values.shape[1]
    return out


@kernel
def _ratio(a, b):
    return a / b


def test_a_kernel_computes_what_numpy_does():
    values = np.arange(12, dtype=np.float64).reshape(3, 4)
    assert np.allclose(_row_means(values), values.mean(axis=1))


def test_division_by_zero_gives_inf_like_numpy_rather_than_raising():
    assert _ratio(1.0, 0.0) == np.inf
