"""sqlrank on Apache Spark: the public names of the Spark engine."""

from .readers import INSTALL_HINT, SparkResult, aggregate_of, default_buckets, evaluate, session, unfolded

__all__ = ["evaluate", "session", "default_buckets", "aggregate_of", "SparkResult", "INSTALL_HINT"]
