"""Shared fixtures. Keep this small: helpers that only one test file needs live in that file."""

from __future__ import annotations

from pathlib import Path

import pytest

import sqlrank

# trec_eval's own test files and its expected output (copied, see tests/data/trec_eval/README.md)
TREC_DATA = Path(__file__).parent / "data" / "trec_eval"


@pytest.fixture(scope="session")
def trec_data() -> Path:
    """The folder of trec_eval conformance files (inputs and expected outputs)."""
    return TREC_DATA


@pytest.fixture
def con():
    """A fresh in-memory DuckDB connection with the sqlrank macros installed."""
    connection = sqlrank.connect()
    yield connection
    connection.close()
