"""sqlrank.spark.session(): Spark's web UI is off unless asked for, and then on this machine only.

A fake pyspark records what session() asks of the builder: starting a JVM for this would
cost seconds and could not run beside the suite's own session.
"""

from __future__ import annotations

import os
import types

import pytest

from sqlrank.spark import runtime


class Builder:
    def __init__(self):
        self.settings = {}

    def appName(self, name):  # noqa: N802 - pyspark's spelling
        return self

    def master(self, master):
        return self

    def config(self, key, value):
        self.settings[key] = value
        return self

    def getOrCreate(self):  # noqa: N802
        return types.SimpleNamespace(sparkContext=types.SimpleNamespace(setLogLevel=lambda level: None))


@pytest.fixture
def builder(monkeypatch):
    made = Builder()
    session_class = types.SimpleNamespace(builder=made, getActiveSession=lambda: None)
    fake = types.SimpleNamespace(sql=types.SimpleNamespace(SparkSession=session_class))
    monkeypatch.setattr(runtime, "import_pyspark", lambda: fake)
    monkeypatch.setattr(runtime, "require_java", lambda: None)
    monkeypatch.setenv("SPARK_LOCAL_IP", "")  # so that monkeypatch restores the variable session() may set
    monkeypatch.delenv("SPARK_LOCAL_IP")
    return made


def test_the_ui_is_off_by_default(builder):
    runtime.session("local[1]")
    assert builder.settings["spark.ui.enabled"] == "false"
    assert "SPARK_LOCAL_IP" not in os.environ


def test_the_ui_asked_for_listens_on_localhost_only(builder):
    runtime.session("local[1]", ui=True)
    assert builder.settings["spark.ui.enabled"] == "true"
    assert os.environ["SPARK_LOCAL_IP"] == "127.0.0.1"


def test_a_jvm_that_does_not_start_is_one_sentence(builder, monkeypatch):
    def broken():
        raise RuntimeError("[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.\n"
                           "... 58 more lines ...")

    monkeypatch.setattr(builder, "getOrCreate", broken)
    with pytest.raises(runtime.EvaluationError) as caught:
        runtime.session("local[1]")
    assert str(caught.value) == (
        "Spark could not start ([JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.); "
        "check that `java -version` says Java 17 or newer and that JAVA_HOME, if set, names that Java")
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


@pytest.mark.parametrize("options, message", [
    ({"qrels": None}, "qrels is None: give a Spark DataFrame, a table name or a path"),
    ({"run": None}, "run is None: give a Spark DataFrame, a table name or a path"),
    ({"spark": "local"}, "spark must be a SparkSession (sqlrank.spark.session()), got str"),
    ({"threads": "2"}, "threads must be a whole number >= 1, got str '2'"),
])
def test_wrong_arguments_are_refused_before_spark_is_asked(options, message, monkeypatch):
    from sqlrank.spark import job

    monkeypatch.setattr(job, "session", lambda: pytest.fail("no session may be asked for"))
    arguments = {"qrels": "qrels.txt", "run": "run.trec"} | options
    with pytest.raises(runtime.EvaluationError) as caught:
        job.evaluate(arguments.pop("qrels"), arguments.pop("run"), ["AP"], **arguments)
    assert str(caught.value) == message
