"""ranx, the reference of the compare, fusion and file tests, run by the interpreter: numba's compiler off.

Compiling ranx's functions costs minutes of CPU in a fresh environment (no numba cache yet), more than a
third of the whole suite, while the interpreter scores the suite's few hundred documents in milliseconds.
Interpreted and compiled ranx run the same source; they may order tied scores differently (numba has its
own argsort), so the tests give ranx runs without ties inside a run wherever the order matters.
"""

from __future__ import annotations

import pytest

numba = pytest.importorskip("numba")
numba.config.DISABLE_JIT = True  # read when ranx decorates its functions at import: they stay plain Python
ranx = pytest.importorskip("ranx")
