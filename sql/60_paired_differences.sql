-- sqlrank.paired_differences(per_query, run_a, run_b) -> (run_id, baseline, measure, query_id, value, baseline_value, difference)
-- sqlrank.differences_from(per_query, baseline) -> the same, every other run against `baseline`
--
-- The per-query differences that the significance tests of 61_ .. 63_ work on,
-- from a long per-query table (run_id, query_id, measure, value) such as
-- sqlrank's result (its `all` rows are left out). A query counts only where
-- both runs have a value for the measure (the pairing of a paired test): a
-- query that one run lacks (missing := 'skip') is not compared, never filled.
-- difference = value of run_a (run_id) - value of run_b (baseline).
--
-- Example: per_query holds bm25 (q1 0.5, q2 0.25) and dense (q1 0.75, q2 0.25):
--   SELECT * FROM sqlrank.paired_differences('per_query', 'dense', 'bm25');
--   -> (dense, bm25, ndcg, q1, 0.75, 0.5, 0.25), (dense, bm25, ndcg, q2, 0.25, 0.25, 0.0)
CREATE OR REPLACE MACRO sqlrank.paired_differences(per_query, run_a, run_b) AS TABLE
    SELECT a.run_id, b.run_id AS baseline, a.measure, a.query_id, a.value, b.value AS baseline_value,
           a.value - b.value AS difference
    FROM query_table(per_query) AS a
    JOIN query_table(per_query) AS b ON a.measure = b.measure AND a.query_id = b.query_id
    WHERE a.run_id = run_a AND b.run_id = run_b AND a.query_id <> 'all'
      AND a.value IS NOT NULL AND b.value IS NOT NULL;

CREATE OR REPLACE MACRO sqlrank.differences_from(per_query, baseline) AS TABLE
    SELECT a.run_id, b.run_id AS baseline, a.measure, a.query_id, a.value, b.value AS baseline_value,
           a.value - b.value AS difference
    FROM query_table(per_query) AS a
    JOIN query_table(per_query) AS b ON a.measure = b.measure AND a.query_id = b.query_id
    WHERE b.run_id = baseline AND a.run_id <> baseline AND a.query_id <> 'all'
      AND a.value IS NOT NULL AND b.value IS NOT NULL;
