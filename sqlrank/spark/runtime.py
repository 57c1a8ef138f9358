"""What the Spark engine needs before any job: pyspark, a JVM, and a SparkSession.

pyspark is imported only when the engine is used (import_pyspark), so that sqlrank imports without it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

from ..errors import EvaluationError

INSTALL_HINT = "in the sqlrank checkout, .venv/bin/pip install -e '.[spark]'"


def session(master: str | None = None, app_name: str = "sqlrank", ui: bool = False):
    """A SparkSession: the active one, or a new one (`master`, default local[*]) when there is none.

    Python workers run this interpreter unless the user's configuration names another one, so
    that they find sqlrank, duckdb and pyarrow in a virtual environment. Spark's web UI is off
    unless `ui` asks for it, and then it listens on this machine only (127.0.0.1, not every
    interface): a page that shows the jobs, their data's paths and the environment is not for the network.
    """
    SparkSession = import_pyspark().sql.SparkSession
    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active
    require_java()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = quiet(SparkSession.builder.appName(app_name))
    if master is not None:  # otherwise spark-submit's master, or pyspark's default local[*]
        builder = builder.master(master)
    if ui:
        # Spark's UI listens where SPARK_LOCAL_IP says, else on every interface
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    builder = builder.config("spark.ui.enabled", "true" if ui else "false")
    try:
        created = builder.config("spark.ui.showConsoleProgress", "false").getOrCreate()
    except Exception as error:  # noqa: BLE001 - a JVM that does not start fails in pyspark's or py4j's words
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise EvaluationError(f"Spark could not start ({first}); check that `java -version` says Java 17 or newer "
                              "and that JAVA_HOME, if set, names that Java") from None
    created.sparkContext.setLogLevel("ERROR")  # a failed bucket is reported by sqlrank, not by pages of log
    return created


# Spark's JVM logging at ERROR (no WARN lines among sqlrank's notices), read by the driver and executor JVMs
QUIET_LOGGING = Path(__file__).with_name("log4j2.properties")


def quiet(builder):
    """The session's builder set to print nothing sqlrank was not asked for: Spark's JVM logs errors only,
    its Python workers leave out pyspark's FutureWarning about the pandas version, and the SQL warehouse
    (which sqlrank never writes to) goes to the temporary folder, not spark-warehouse/ in the working one."""
    java = f"-Dlog4j2.configurationFile={QUIET_LOGGING.as_uri()}"
    return (builder.config("spark.driver.extraJavaOptions", java).config("spark.executor.extraJavaOptions", java)
            .config("spark.executorEnv.PYTHONWARNINGS", "ignore::FutureWarning")
            .config("spark.sql.warehouse.dir", str(Path(tempfile.gettempdir()) / "sqlrank-spark-warehouse")))


def import_pyspark():
    """pyspark, or an error saying how to install it."""
    # pyspark warns, whenever it first converts to pandas, about pandas versions it has not tested: that one
    # warning only, for as long as the process uses pyspark (the Arrow functions sqlrank runs are unaffected)
    warnings.filterwarnings("ignore", category=FutureWarning, message="PySpark does not yet fully support")
    try:
        import pyspark.sql
        import pyspark.sql.functions  # noqa: F401
    except ImportError:
        raise EvaluationError(f"the Spark engine needs pyspark 4 (not installed): {INSTALL_HINT}") from None
    return pyspark


def require_java() -> None:
    """Spark runs on a JVM: say so before pyspark fails with a gateway error."""
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        raise EvaluationError("the Spark engine needs Java 17 or newer (no `java` on the PATH and no JAVA_HOME): "
                              "install a JDK (e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME")
