"""sqlrank: ranking evaluation (nDCG, AP, RR, P, R, ...) as DuckDB SQL macros.

    import sqlrank
    result = sqlrank.evaluate("qrels.txt", "run.trec", ["nDCG@10", "AP", "RR"])
    result.summary        # {'nDCG@10': 0.47, 'AP': 0.31, 'RR': 0.62}
"""

from .engine import evaluate
from .errors import EvaluationError, InputError, MeasureError, OutputError, ResourceError, SqlrankError, SqlrankNotice
from .views import load_qrels, load_run
from .macros import connect, install, sql_script
from .measures import REGISTRY, Measure, describe as describe_measures, parse_all as parse_measures
from .registry import DEFAULT_MEASURES
from .result import Result


def __getattr__(name: str):
    """`__version__`, looked up in the installed metadata only when asked for (`sqlrank --version`)."""
    if name != "__version__":
        raise AttributeError(f"module 'sqlrank' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("sqlrank")
    except PackageNotFoundError:  # running from a source tree without installing
        value = "0.0.0+source"
    globals()["__version__"] = value
    return value


__all__ = [
    "evaluate", "connect", "install", "sql_script", "load_run", "load_qrels", "parse_measures", "describe_measures",
    "REGISTRY", "DEFAULT_MEASURES", "Measure", "Result", "SqlrankError", "InputError", "MeasureError", "EvaluationError",
    "OutputError", "ResourceError", "SqlrankNotice", "__version__",
]
