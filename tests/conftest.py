"""Shared fixtures. Keep this small: helpers that only one test file needs live in that file."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

import library_database
import sqlrank

# The suite's default: the same generated examples on every run and no example database, so a run's
# verdict depends on the code alone (a failure found once cannot haunt a checkout, and a green CI is
# not a lucky draw). `--hypothesis-profile=explore` draws afresh on each run and keeps Hypothesis's
# example database, for a developer hunting new cases (docs/testing.md).
settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile("repeatable")

# The README's test command installs without compiling (pip --no-compile: the test dependencies are 160 MB of
# Python, most never imported): the modules the suite imports are compiled once, by the first process that imports
# them, which must then write the bytecode, or every worker and subprocess compiles them again (docs/testing.md)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False  # this process too: the variable was read when it started

# The library files that connect() copies its macros from (sqlrank/library_file.py) go to a folder of the
# system's temporary files, shared by the workers and the CLI's subprocesses, not to the user's cache folder
os.environ.setdefault("SQLRANK_CACHE_DIR", str(Path(tempfile.gettempdir()) / "sqlrank-test-library-files"))

# trec_eval's own test files and its expected output (copied, see tests/data/trec_eval/README.md)
TREC_DATA = Path(__file__).parent / "data" / "trec_eval"


@pytest.fixture(scope="session")
def trec_data() -> Path:
    """The folder of trec_eval conformance files (inputs and expected outputs)."""
    return TREC_DATA


@pytest.fixture
def con():
    """A DuckDB connection with the whole macro library, as sqlrank.connect() makes it: a cursor of the test
    process's library database, which starts each test as connect() gives it (tests/library_database.py)."""
    connection = library_database.lend()
    yield connection
    library_database.give_back(connection)


def spark_unavailable() -> str | None:
    """Why Spark cannot run here (sqlrank's own message, the one a user would get), or None."""
    from sqlrank.errors import EvaluationError
    from sqlrank.spark import runtime

    try:
        runtime.import_pyspark()
        runtime.require_java()
    except EvaluationError as error:
        return str(error)
    return None


def require_spark() -> None:
    """Skip where Spark cannot run (pyspark or Java missing); in CI (the environment variable CI set), fail."""
    reason = spark_unavailable()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"the Spark tests must run in CI: {reason}")
        pytest.skip(reason)


@pytest.fixture
def spark_can_start():
    """For a test that starts Spark in a process of its own: the same skip as `spark`, without the suite's
    session, so the test is not held to the Spark tests' one worker."""
    require_spark()


@pytest.fixture(scope="session")
def spark():
    """One local SparkSession for every Spark test: starting a JVM costs seconds, a session per module adds up.

    Without pyspark or Java the tests are skipped locally and fail in CI (the environment variable CI set).
    """
    require_spark()
    from pyspark.sql import SparkSession

    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the workers need this venv's duckdb and pyarrow
    session = (SparkSession.builder.master("local[2]").appName("sqlrank-tests")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
               .config("spark.sql.shuffle.partitions", "2").config("spark.driver.memory", "1g")
               .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def pytest_configure(config):
    """In the run's first process, before any worker starts: the library files made once, rather than by every
    worker and CLI subprocess that starts before they exist (each would make its own)."""
    if not hasattr(config, "workerinput"):
        sqlrank.connect()
        sqlrank.connect(table_macros=False)


# Fixtures that cost seconds to make, each made once a run: the tests that take one are kept in one xdist
# worker (pyproject.toml: --dist loadgroup), or each worker would make it again.
ONE_WORKER_FIXTURES = {
    "spark": "spark",           # the suite's one Spark session (one JVM)
    "processes": "processes",   # test_cli.py's console-script runs, started together
}


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the groups into test ids
def pytest_collection_modifyitems(items):
    for item in items:
        for fixture, group in ONE_WORKER_FIXTURES.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(pytest.mark.xdist_group(group))

