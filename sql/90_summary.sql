-- sqlrank.is_count_measure(measure) -> BOOLEAN
-- sqlrank.summary(result_table) -> ([run_id,] measure, query_id = 'all', value)
--
-- The `all` row of a long result table ([run_id,] query_id, measure, value):
-- the arithmetic mean over the evaluated queries, every query weighted
-- equally (trec_eval), except the counts NumRet, NumRel and NumRelRet (and
-- their trec_eval names num_ret, num_rel, num_rel_ret), which are summed.
--
--   SELECT * FROM sqlrank.summary('per_query_results');
--
-- The mean's count(*) is in NULLIF(..., 0) like every denominator of sqlrank
-- (x / 0 is NULL in DuckDB 1.x but infinity in 2.0).
CREATE OR REPLACE MACRO sqlrank.is_count_measure(measure) AS
    regexp_matches(measure, '^(NumRet|NumRel|NumRelRet|num_ret|num_rel|num_rel_ret)([(@_.]|$)');

CREATE OR REPLACE MACRO sqlrank.summary(result_table) AS TABLE
    SELECT
        * EXCLUDE (query_id, value),
        'all' AS query_id,
        -- bool_and keeps the CASE an aggregate, as GROUP BY ALL requires. Summing in
        -- query order (as trec_eval does) makes the mean the same to the last bit
        -- whatever order the rows arrive in: one run alone or many together.
        CASE WHEN bool_and(sqlrank.is_count_measure(measure)) THEN sum(value ORDER BY query_id)
             ELSE sum(value ORDER BY query_id) / NULLIF(count(*), 0) END AS value
    FROM query_table(result_table)
    WHERE query_id <> 'all'
    GROUP BY ALL;
