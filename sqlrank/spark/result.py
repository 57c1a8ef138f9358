"""The result of sqlrank.spark.evaluate: the per-query rows Spark keeps, and the `all` rows and aggregates made
from them, each measure by the aggregate the registry declares: in Spark for `dataframe`, on the driver when
collected (to_result)."""

from __future__ import annotations

from .. import sqlgen
from ..measures import Measure
from ..result import Report, Result
from .runtime import import_pyspark

GMEAN_FLOOR = 1e-5  # trec_eval's gm_map: exp(mean(log(max(v, 1e-5))))


def aggregate_of(measure: Measure) -> str:
    """How a measure's `all` row is made from its per-query values: 'mean', 'sum', 'gm' (geometric) or 'weighted'.

    The one place that reads it from the registry. A list measure whose `all` row weighs its users (Novelty's
    over every recommendation, Diversity's over the users with a pair) is a weighted mean of the buckets' weights.
    """
    if getattr(measure.definition, "all_weight", None):
        return "weighted"
    return measure.definition.aggregate


class SparkResult:
    """The result of sqlrank.spark.evaluate: a Spark DataFrame and the report of what the policies did."""

    def __init__(self, evaluated, measures: list[Measure], report: Report, run_names: list[str], buckets: int,
                 names: list[str] | None = None, aggregates: list[str] | None = None):
        self._evaluated = evaluated
        self.buckets = buckets  # how many groups of queries the job was cut into
        self.parsed_measures = list(measures)
        # the names of the measure column: as asked (names="asked") or canonical
        self.measures = list(names) if names is not None else [str(m) for m in measures]
        self._aggregates = {name: aggregate_of(m) for name, m in zip(self.measures, measures)}
        self.spreads = list(aggregates or [])  # evaluate's aggregates: std, stderr, median, std_population
        self.report = report
        self.runs = [name for name in run_names if name in report.runs and
                     (report.missing_policy != "skip" or report.runs[name].queries > report.runs[name].run_only_queries)]

    @property
    def per_query_dataframe(self):
        return self._evaluated.filter(self._evaluated["kind"] == "value").select("run_id", "query_id", "measure", "value")

    @property
    def dataframe(self):
        """(run_id, query_id, measure, value): the per-query rows and each run's `all` rows, aggregated in Spark."""
        functions = import_pyspark().sql.functions
        per_query = self.per_query_dataframe
        chosen = functions.create_map(*[functions.lit(text) for pair in self._aggregates.items() for text in pair])
        value = functions.col("value")
        # the weights the buckets sent for a weighted mean (GAUC); a measure without them weighs each query 1
        weights = (self._evaluated.filter(self._evaluated["kind"] == "weight")
                   .select("run_id", "query_id", "measure", functions.col("value").alias("weight")))
        weight = functions.coalesce(functions.col("weight"), functions.lit(1.0))
        totals = per_query.join(weights, ["run_id", "query_id", "measure"], "left").groupBy("run_id", "measure").agg(
            functions.sum(value).alias("total"), functions.count(value).alias("queries"),
            functions.avg(functions.log(functions.greatest(value, functions.lit(GMEAN_FLOOR)))).alias("mean_log"),
            functions.sum(value * weight).alias("weighted_total"), functions.sum(weight).alias("weight_total"))
        rule = chosen[functions.col("measure")]
        summary = totals.select(
            "run_id", functions.lit("all").alias("query_id"), "measure",
            functions.when(rule == "sum", functions.col("total"))
            .when(rule == "gm", functions.exp(functions.col("mean_log")))
            .when(rule == "weighted", functions.coalesce(
                functions.col("weighted_total") / functions.when(functions.col("weight_total") != 0,
                                                                  functions.col("weight_total")),
                functions.lit(0.0)))
            .otherwise(functions.col("total") / functions.col("queries")).alias("value"))
        return per_query.unionByName(summary)

    @property
    def aggregates_dataframe(self):
        """(run_id, measure, aggregate, value): evaluate's aggregates of each run's per-query values, in Spark
        (sqlrank.spread's definitions: the sample and population standard deviations, the standard error of
        the mean, the median); None when none was asked for."""
        if not self.spreads:
            return None
        functions = import_pyspark().sql.functions
        value = functions.col("value")
        found = {"std": functions.stddev_samp(value),
                 "stderr": functions.stddev_samp(value) / functions.sqrt(functions.count(value)),
                 "median": functions.median(value), "std_population": functions.stddev_pop(value)}
        spread = self.per_query_dataframe.groupBy("run_id", "measure").agg(
            *[found[name].alias(name) for name in self.spreads])
        return spread.select("run_id", "measure", functions.explode(functions.array(*[
            functions.struct(functions.lit(name).alias("aggregate"), functions.col(name).cast("double").alias("value"))
            for name in self.spreads])).alias("spread")).select("run_id", "measure", "spread.aggregate", "spread.value")

    def notices(self) -> list[str]:
        return self.report.notices()

    def to_result(self) -> Result:
        """Collected to the driver as a sqlrank.Result: the per-query rows from Spark, the `all` rows and aggregates
        made from them by sqlrank.summary and sqlrank.spread, the rules sqlrank.evaluate uses, in its order.

        Made on the driver, not by `dataframe`'s aggregation in Spark: the rows are collected anyway, and a shuffle
        job costs more than the whole collect on a small evaluation (docs/performance.md)."""
        from ..engine import spread_table
        from ..macros import library_connection

        rows = (self._evaluated.filter(self._evaluated["kind"].isin("value", "weight"))
                .select("kind", "run_id", "query_id", "measure", "value").toArrow())
        runs, measures = sqlgen.literal(self.runs), sqlgen.literal(self.measures)
        aggregates = sqlgen.literal([self._aggregates[name] for name in self.measures])
        with library_connection() as con:
            con.register("spark_rows", rows)
            con.execute("CREATE TEMP VIEW spark_values AS SELECT run_id, query_id, measure, value, weight, "
                        f"{aggregates}[list_position({measures}, measure)] AS aggregate\n"
                        "FROM (FROM spark_rows WHERE kind = 'value') LEFT JOIN (SELECT run_id, query_id, measure, "
                        "value AS weight FROM spark_rows WHERE kind = 'weight') USING (run_id, query_id, measure)")
            table = con.sql(
                "SELECT run_id, query_id, measure, value FROM spark_values UNION ALL\n"
                "SELECT run_id, query_id, measure, value FROM sqlrank.summary('spark_values')\n"
                f"ORDER BY list_position({runs}, run_id), query_id = 'all', query_id, list_position({measures}, measure)"
            ).to_arrow_table()
            spread = spread_table(con, table, self.measures, self.runs, self.spreads) if self.spreads else None
        return Result(table, self.parsed_measures, self.report, aggregates=spread, names=self.measures)

    def to_arrow(self):
        return self.to_result().to_arrow()

    def unpersist(self) -> None:
        """Free the per-query rows Spark keeps for this result."""
        self._evaluated.unpersist()
