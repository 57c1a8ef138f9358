"""Turn paths, DataFrames, Arrow tables, DuckDB relations and dicts into canonical tables, checked.

    run   (query_id VARCHAR, doc_id VARCHAR, score DOUBLE [, run_id VARCHAR])
    qrels (query_id VARCHAR, doc_id VARCHAR, relevance DOUBLE)

One module a format, each ending in its Reader (base.py: how the format is
recognised and read, and how its errors are explained); READERS in
registry.py is the list of them, in the order a file is recognised, and
load() the dispatch over them. load_inputs() (evaluation.py) loads the qrels
and the runs of one evaluation. Every reader's table goes
through sqlrank.checks before anyone reads it, and every way an input can be
wrong ends in an InputError naming the file (and the line, row or column).
docs/adding-an-input-format.md tells how to add a format; docs/bad_input.md
lists what each mistake is told.
"""

from .base import Loaded, Reader
from .evaluation import QRELS_TABLE, SUBTOPIC_QRELS_TABLE, load_inputs, named_runs, run_name
from .registry import READERS, load, recognise

__all__ = ["Loaded", "QRELS_TABLE", "SUBTOPIC_QRELS_TABLE", "READERS", "Reader", "load", "load_inputs", "named_runs", "recognise", "run_name"]
