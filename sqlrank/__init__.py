"""sqlrank: ranking evaluation (nDCG, AP, RR, P, R, ...) as DuckDB SQL macros.

    import sqlrank
    result = sqlrank.evaluate("qrels.txt", "run.trec", ["nDCG@10", "AP", "RR"])
    result.summary        # {'nDCG@10': 0.47, 'AP': 0.31, 'RR': 0.62}  (one run; result.means: {run: {...}})
    sqlrank.export.write(result, "results.md")    # or .csv, .json, .parquet, .tex, .trec, ...

This module is the public API: the command line (sqlrank.cli) uses nothing else.
"""

from .checks import DUPLICATE_POLICIES
from .compare import Comparison, compare
from .defined import define, undefine
from .defined_file import define_file
from . import defined
from .engine import EMPTY_POLICIES, INTERPOLATIONS, MISSING_POLICIES, NAMES, SCORE_PRECISIONS, TIE_POLICIES, evaluate
from .fusion import METHODS as FUSION_METHODS, NORMS as FUSION_NORMS, fuse, optimize_fusion
from .fusion_params import read as read_fusion_params, write as write_fusion_params
from .run_files import RUN_FORMATS, write as write_run, format_for as run_format_for
from .errors import EvaluationError, InputError, MeasureError, OutputError, ResourceError, SqlrankError, SqlrankNotice
from .macros import connect, install, sql_script
from . import limits
from .measures import PARAMETERS as MEASURE_PARAMETERS
from .measures import REGISTRY, Measure, describe as describe_measures, parse_all as parse_measures
from .measures import split_names as split_measure_names
from .registry import LIST_MEASURES, LIST_PARAMETERS  # the list measures, beyond accuracy (lists.py)
from . import plots
from .formats import escaping
from .plots import plot
from .readers import run_name as _run_name
from .readers.registry import FORMAT_NAMES as _FORMAT_NAMES
from .registry import DEFAULT_MEASURES
from .result import Result
from . import user_sql

INPUT_FORMATS = tuple(_FORMAT_NAMES)  # what qrels_format= / run_format= (--qrels-format) take
from .user_sql import query
from .views import load_qrels, load_run


def run_name(path) -> str:
    """The name a run file gets in a result when none is given: its file name without the format's extensions."""
    return _run_name(path, 0)


def __getattr__(name: str):
    """`export` and `__version__`, loaded only when asked for: a program that writes no file needs neither."""
    if name == "export":
        import importlib

        return importlib.import_module(f"{__name__}.export")  # importing a submodule also sets the attribute
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
    "evaluate", "compare", "fuse", "optimize_fusion", "FUSION_METHODS", "FUSION_NORMS", "RUN_FORMATS", "write_run", "run_format_for", "Comparison", "plot", "connect", "install", "sql_script", "load_run", "load_qrels", "query", "export", "run_name",
    "parse_measures", "split_measure_names", "describe_measures", "REGISTRY", "DEFAULT_MEASURES", "MEASURE_PARAMETERS", "Measure", "Result",
    "EMPTY_POLICIES", "MISSING_POLICIES", "NAMES", "INPUT_FORMATS", "DUPLICATE_POLICIES", "SCORE_PRECISIONS", "TIE_POLICIES",
    "INTERPOLATIONS",
    "SqlrankError", "InputError", "MeasureError", "EvaluationError", "OutputError", "ResourceError", "SqlrankNotice",
    "define", "undefine", "define_file", "defined", "limits", "user_sql", "plots", "escaping", "__version__",
    "read_fusion_params", "write_fusion_params",
    "LIST_MEASURES", "LIST_PARAMETERS",
]
