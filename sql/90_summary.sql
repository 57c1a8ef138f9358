-- sqlrank.aggregate_term(value, aggregate) -> DOUBLE
-- sqlrank.summarize(total, query_count, aggregate) -> DOUBLE
-- sqlrank.summary(result_table) -> ([run_id,] measure, query_id = 'all', value)
--     result_table may hold a `weight` column, which a weighted measure's table macro gives
--     (sqlrank.gauc); a row without one weighs 1. It may hold an `aggregate` column, for measures
--     the name does not tell (a measure defined in Python); without one, measure_aggregate(measure)
--
-- The `all` row of a long result table ([run_id,] query_id, measure, value):
-- each measure summarised over the evaluated queries, every query weighted
-- equally, as its registry entry says (sqlrank.measure_aggregate, made from
-- the registry):
--   mean   the arithmetic mean (trec_eval's `all` for most measures)
--   sum    the total (the counts NumRet, NumRel, NumRelRet, as trec_eval sums them)
--   gm     the geometric mean of the values floored at 1e-5, exp(mean(ln(max(v, 1e-5))))
--          (trec_eval's gm_map and gm_bpref, m_gm_map.c, meas_avg.c: the floor
--          keeps one query at 0 from making the whole mean 0; a query the run missed
--          scores 0 and so adds ln(1e-5), as trec_eval -c does)
--   weighted  the mean weighted by each query's weight (sqlrank.weight_<macro>, RecBole's GAUC):
--          the terms are value · weight, the count the weights' sum; 0 when every weight is 0
-- An aggregate is a sum of one term per query (aggregate_term), added in query
-- order, then finished (summarize): the same bits whatever order the rows
-- arrive in, one run alone or many together. The engine, which sums by each
-- query's position rather than its id, uses the same two macros.
--
--   SELECT * FROM sqlrank.summary('per_query_results');
--
-- The mean's count is in NULLIF(..., 0) like every denominator of sqlrank
-- (x / 0 is NULL in DuckDB 1.x but infinity in 2.0).
CREATE OR REPLACE MACRO sqlrank.aggregate_term(value, aggregate) AS
    CASE sqlrank.choice(aggregate, ['mean', 'sum', 'gm', 'weighted'], 'aggregate')
        WHEN 'gm' THEN ln(greatest(value, 1e-5))
        ELSE value
    END;

CREATE OR REPLACE MACRO sqlrank.summarize(total, query_count, aggregate) AS
    CASE sqlrank.choice(aggregate, ['mean', 'sum', 'gm', 'weighted'], 'aggregate')
        WHEN 'sum' THEN total
        WHEN 'weighted' THEN coalesce(total / NULLIF(query_count, 0), 0.0)
        WHEN 'gm' THEN exp(total / NULLIF(query_count, 0))
        ELSE total / NULLIF(query_count, 0)
    END;

CREATE OR REPLACE MACRO sqlrank.summary(result_table) AS TABLE
    SELECT
        * EXCLUDE (query_id, value, aggregate, weight),
        'all' AS query_id,
        sqlrank.summarize(sum(sqlrank.aggregate_term(value, aggregate) * coalesce(weight, 1) ORDER BY query_id),
                          sum(coalesce(weight, 1)), any_value(aggregate))
            AS value
    FROM (SELECT * EXCLUDE (weight, aggregate), weight,
                 coalesce(aggregate, sqlrank.measure_aggregate(measure)) AS aggregate
          FROM (FROM query_table(result_table)
                -- no row, only a weight and an aggregate column: a table without them gets NULL weights (each
                -- weighs 1) and the aggregate its measure's name says
                UNION ALL BY NAME SELECT CAST(NULL AS DOUBLE) AS weight, CAST(NULL AS VARCHAR) AS aggregate
                WHERE false)) AS results
    WHERE query_id <> 'all'
    GROUP BY ALL;
