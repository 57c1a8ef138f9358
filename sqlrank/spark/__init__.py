"""The same evaluation on Apache Spark: Spark moves the rows, sqlrank's own engine computes.

    from sqlrank import spark as sqlrank_spark
    result = sqlrank_spark.evaluate(qrels_df, run_df, ["nDCG@10", "AP"])
    result.dataframe            # Spark DataFrame (run_id, query_id, measure, value), `all` rows included
    result.notices()            # the same notices as sqlrank.evaluate

How: the run and the qrels are co-grouped by a bucket of query_id (many queries per
bucket, `buckets` of them), and every bucket is evaluated by `sqlrank.evaluate` on its
two Arrow tables in a Python worker. A query's rows all land in one bucket, so its
values are the single-machine ones by construction: no metric is written twice. The
`all` rows are aggregated in Spark, each measure by the aggregate the registry declares.

Every bucket evaluates every run: each run and the qrels get one placeholder query in
every bucket, so that a run with no rows in a bucket still has its qrels queries filled,
skipped or refused by the engine's missing policy; the placeholder is taken out of the
values and of the report. The evaluation job runs when evaluate() is called, as on one
machine, so that bad input raises the engine's own error there and the notices are
known; its per-query output is persisted, and `result.dataframe` aggregates it lazily.

pyspark is an optional extra (`.venv/bin/pip install -e '.[spark]'` in the checkout): this package imports
without it and says what to install when it is used.

One module a step: readers.py reads Spark's inputs into the canonical columns; job.py is
evaluate, the co-grouped job; buckets.py evaluates one bucket in a Python worker (the only
code the executors run, with refusals.py's partition search); report.py merges the buckets'
reports; checks.py checks the options and the whole job; refusals.py finds a refused row in
the whole input; result.py is SparkResult; runtime.py is pyspark, Java and the session.
"""

from .fusion import fuse, optimize_fusion
from .job import default_buckets, evaluate
from .readers import unfolded
from .result import SparkResult, aggregate_of
from .runtime import INSTALL_HINT, session

__all__ = ["evaluate", "fuse", "optimize_fusion", "session", "default_buckets", "aggregate_of", "SparkResult", "INSTALL_HINT"]
