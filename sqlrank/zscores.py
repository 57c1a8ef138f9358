"""trec_eval's -Z: each query's value as a z-score against a file of per-query means and deviations.

The file (trec_eval's Zmean_file) has one line per query and measure, `qid measure_name mean stddev`,
whitespace-separated, the measure under trec_eval's name (`map`, `P_10`, `iprec_at_recall_0.20`). Each
value becomes (value - mean) / stddev, -1000000 where the file has no mean for it, and the `all` row
summarises the z-scores by each measure's own rule; the formulas are sql/92_zscores.sql's.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import InputError
from .measures import Measure, trec_name

if TYPE_CHECKING:
    import pyarrow as pa

MISSING_ZSCORE = -1000000.0  # trec_eval's MISSING_ZSCORE_VALUE
FIELDS = "qid measure_name mean stddev"


def read(path) -> pa.Table:
    """The file as a table (query_id, measure, mean, stddev); a malformed line is refused by its number."""
    import pyarrow as pa

    label = str(path)
    try:
        text = Path(path).read_bytes().decode("utf-8")
    except (OSError, TypeError) as error:
        raise InputError(f"{label}: cannot read the z-scores file ({error.__class__.__name__}: {error}); give the "
                         f"path of a text file of lines `{FIELDS}` (trec_eval -Z)") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{label}: the z-scores file is not UTF-8 text (byte {error.start}); give a text file of "
                         f"lines `{FIELDS}`") from None
    rows: dict[tuple[str, str], tuple[int, float, float]] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        where = f"{label} line {number}"
        if len(fields) != 4:
            raise InputError(f"{where}: expected 4 whitespace-separated fields `{FIELDS}`, found {len(fields)} "
                             f"({line.strip()[:80]!r}); fix or remove the line")
        query_id, measure = fields[0], fields[1]
        mean, stddev = (_number(where, name, text) for name, text in (("mean", fields[2]), ("stddev", fields[3])))
        if (query_id, measure) in rows:
            raise InputError(f"{where}: query '{query_id}' and measure '{measure}' were already given on line "
                             f"{rows[(query_id, measure)][0]}; keep one mean and deviation for each")
        rows[(query_id, measure)] = (number, mean, stddev)
    if not rows:
        raise InputError(f"{label}: the z-scores file has no lines; expected lines `{FIELDS}` (trec_eval -Z)")
    keys = list(rows)
    return pa.table({"query_id": [q for q, _ in keys], "measure": [m for _, m in keys],
                     "mean": [rows[k][1] for k in keys], "stddev": [rows[k][2] for k in keys]})


def _number(where: str, name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise InputError(f"{where}: the {name} '{text[:40]}' is not a finite number; write it as a decimal "
                         f"number (fields `{FIELDS}`)")
    return value


def _a_count_of_queries(measure: Measure) -> bool:
    """num_q: a sum trec_eval prints in the `all` row alone, the queries averaged over, whatever -Z says."""
    return measure.definition.trec_all_only and measure.definition.aggregate == "sum"


def apply(con, table: pa.Table, measures: list[Measure], names: list[str], zscores: pa.Table) -> tuple[pa.Table, int]:
    """The result table (run_id, query_id, measure, value) with every per-query value a z-score and the `all`
    rows summarised again from them, in the same row order; and how many per-query values are -1000000."""
    import pyarrow as pa
    import pyarrow.compute as pc

    keyed = {name: m for name, m in zip(names, measures) if not _a_count_of_queries(m)}
    rows = table.append_column("sqlrank_position", pa.array(range(table.num_rows), pa.int64()))
    named = pa.table({"measure": list(keyed), "trec_name": [trec_name(m) for m in keyed.values()],
                      "aggregate": [m.definition.aggregate for m in keyed.values()]})
    con.register("sqlrank_zscore_results", rows)
    con.register("sqlrank_zscore_names", named)
    con.register("sqlrank_zscore_file", zscores)
    try:
        scored = con.sql(
            "WITH per_query AS (\n"
            "    SELECT r.run_id, r.query_id, r.measure, r.sqlrank_position, n.aggregate,\n"
            "           sqlrank.zscore(sqlrank.zscore_term(r.value, n.aggregate), z.mean, z.stddev) AS value\n"
            "    FROM sqlrank_zscore_results r JOIN sqlrank_zscore_names n USING (measure)\n"
            "    LEFT JOIN sqlrank_zscore_file z ON z.query_id = r.query_id AND z.measure = n.trec_name\n"
            "    WHERE r.query_id <> 'all'\n"
            "),\n"
            "summary AS (\n"
            "    SELECT run_id, measure,\n"
            "           sqlrank.summarize(sum(value ORDER BY query_id), count(*), any_value(aggregate)) AS value\n"
            "    FROM per_query GROUP BY run_id, measure\n"
            ")\n"
            "SELECT r.run_id, r.query_id, r.measure,\n"
            "       CASE WHEN n.measure IS NULL THEN r.value WHEN r.query_id = 'all' THEN s.value ELSE q.value END AS value\n"
            "FROM sqlrank_zscore_results r\n"
            "LEFT JOIN sqlrank_zscore_names n USING (measure)\n"
            "LEFT JOIN per_query q USING (sqlrank_position)\n"
            "LEFT JOIN summary s ON r.query_id = 'all' AND s.run_id = r.run_id AND s.measure = r.measure\n"
            "ORDER BY r.sqlrank_position").to_arrow_table()
    finally:
        for name in ("sqlrank_zscore_results", "sqlrank_zscore_names", "sqlrank_zscore_file"):
            con.unregister(name)
    per_query = pc.not_equal(scored["query_id"], "all")
    unknown = pc.sum(pc.and_(per_query, pc.equal(scored["value"], MISSING_ZSCORE))).as_py() or 0
    return scored.cast(table.schema), unknown


def notice(label: str, unknown: int) -> str:
    """What the user is told: the values are z-scores, and how many are -1000000 for want of a mean."""
    missing = (f"; {unknown} per-query value{'s are' if unknown != 1 else ' is'} {MISSING_ZSCORE:.0f} as trec_eval "
               "prints them (the file has no mean for that query and measure, or a stddev of 0 and another mean)"
               if unknown else "")
    return f"z-scores: each per-query value is (value - mean) / stddev from {label} (trec_eval -Z){missing}"


__all__ = ["read", "apply", "notice", "MISSING_ZSCORE"]
