"""benchmarks/read_instructions.py: the instruction counts by library, from callgrind_annotate's
own output, and a clear message where valgrind is missing."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "read_instructions.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("read_instructions", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up there
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[spec.name]


# Lines of a real `callgrind_annotate --inclusive=no --threshold=100` of five garden reads (cut).
ANNOTATE = """\
--------------------------------------------------------------------------------
Ir
--------------------------------------------------------------------------------
188,605,537 (100.0%)  PROGRAM TOTALS

--------------------------------------------------------------------------------
Ir                   file:function
--------------------------------------------------------------------------------
27,757,300 (14.72%)  ???:0x0000000000bd16a0 [/work/main/.venv/lib/python3.11/site-packages/cv2/cv2.abi3.so]
16,564,125 ( 8.78%)  ???:0x000000001aff3000 [???]
14,187,973 ( 7.52%)  /tmp/python-build.20260509073455.222/Python-3.11.7/Python/ceval.c:PyObject_Vectorcall
 7,271,080 ( 3.86%)  ./math/../sysdeps/ieee754/dbl-64/e_exp.c:__ieee754_exp_fma
 4,884,351 ( 2.59%)  ./string/../sysdeps/x86_64/multiarch/memset-vec-unaligned-erms.S:__memset_avx2_unaligned_erms [/usr/lib/x86_64-linux-gnu/libc.so.6]
 2,035,871 ( 1.08%)  /tmp/python-build.20260509073455.222/Python-3.11.7/Python/ceval.c:_PyEval_EvalFrameDefault [/root/.pyenv/versions/3.11.7/lib/libpython3.11.so.1.0]
 1,832,040 ( 0.97%)  ???:DOUBLE_exp_X86_V3 [/work/main/.venv/lib/python3.11/site-packages/numpy/_core/_multiarray_umath.cpython-311-x86_64-linux-gnu.so]
   500,000 ( 0.27%)  ???:0x0000000000401000 [/usr/lib/x86_64-linux-gnu/libz.so.1.2.13]
"""


def test_the_counts_are_grouped_by_the_library_they_run_in(script):
    count = script.parse_annotate(ANNOTATE)
    assert count.total == 188_605_537
    assert count.groups == {
        "OpenCV": 27_757_300,
        "compiled kernels (numba)": 16_564_125,
        "Python interpreter": 14_187_973 + 2_035_871,
        "libm": 7_271_080,
        "libc": 4_884_351,
        "numpy": 1_832_040,
        "other": 500_000,
    }


def test_output_with_no_totals_counts_nothing(script):
    count = script.parse_annotate("callgrind_annotate: no data\n")
    assert count.total == 0 and not count.groups


def test_without_valgrind_it_says_how_to_install_it(script, monkeypatch, capsys):
    monkeypatch.setattr(script.shutil, "which", lambda name: None)
    assert script.main([]) == 2
    assert "apt install valgrind" in capsys.readouterr().err
