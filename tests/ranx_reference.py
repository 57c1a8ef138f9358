"""ranx, the reference of the compare, fusion and file tests, run by the interpreter: numba's compiler off.

Compiling ranx's functions costs minutes of CPU in a fresh environment (no numba cache yet), more than a
third of the whole suite, while the interpreter scores the suite's few hundred documents in milliseconds.
Interpreted and compiled ranx run the same source; they may order tied scores differently (numba has its
own argsort), so the tests give ranx runs without ties inside a run wherever the order matters.

ranx is imported by the first test that uses it, not when a test file is collected: its import (scipy,
statsmodels, numba) takes seconds, and every xdist worker collects every file. Reach its submodules through
`ranx` (`ranx.fusion.probfuse_train`), never by an import statement, which would import ranx compiled.
"""

from __future__ import annotations

import functools

import pytest


@functools.cache
def _imported():
    numba = pytest.importorskip("numba")
    numba.config.DISABLE_JIT = True  # read when ranx decorates its functions at import: they stay plain Python
    return pytest.importorskip("ranx")


class _ImportedOnUse:
    def __getattr__(self, name: str):
        if name.startswith("__"):  # pytest's collection asks every module-level name for dunders: not a use
            raise AttributeError(name)
        return getattr(_imported(), name)


ranx = _ImportedOnUse()
