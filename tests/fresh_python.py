"""Run a script in a fresh interpreter: what a start-up imports cannot be seen from a test's own process."""

from __future__ import annotations

import subprocess
import sys


def run_fresh(script: str, env: dict | None = None) -> str:
    """The script's standard output; the test fails with the script's standard error if it exits non-zero."""
    process = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=60)
    assert process.returncode == 0, process.stderr
    return process.stdout
