-- sqlrank.paired_differences(per_query, run_a, run_b) -> (run_id, baseline, measure, query_id, value, baseline_value, difference)
-- sqlrank.differences_from(per_query, baseline) -> the same, every other run against `baseline`
--
-- The per-query differences that the significance tests of 61_ .. 63_ work on,
-- from a long per-query table (run_id, query_id, measure, value) such as
-- sqlrank's result (its `all` rows are left out). A query counts only where
-- both runs have a value for the measure (the pairing of a paired test): a
-- query that one run lacks (missing := 'skip') is not compared, never filled.
-- difference = value of run_a (run_id) - value of run_b (baseline), on the values' precision:
-- rounded to a step of 2^-40 (about 1e-12) of the largest |value| of the comparison
-- (sqlrank.precision_step), a power of two, so that the rounding is exact. Two values a
-- float's rounding apart (37/60 and the next double) are a tie, difference 0, and
-- differences equal but for such noise are equal: every test, W/T/L and the effect size
-- see the same ties and the same zero variance (docs/comparing.md, "Ties").
--
-- Example: per_query holds bm25 (q1 0.5, q2 0.25) and dense (q1 0.75, q2 0.25):
--   SELECT * FROM sqlrank.paired_differences('per_query', 'dense', 'bm25');
--   -> (dense, bm25, ndcg, q1, 0.75, 0.5, 0.25), (dense, bm25, ndcg, q2, 0.25, 0.25, 0.0)
CREATE OR REPLACE MACRO sqlrank.precision_step(magnitude) AS
    CASE WHEN magnitude > 0 AND isfinite(magnitude) THEN pow(2.0, ceil(log2(magnitude)) - 40) ELSE 1.0 END;

CREATE OR REPLACE MACRO sqlrank.on_precision(difference, magnitude) AS
    round(difference / NULLIF(sqlrank.precision_step(magnitude), 0)) * sqlrank.precision_step(magnitude);

CREATE OR REPLACE MACRO sqlrank.paired_differences(per_query, run_a, run_b) AS TABLE
    SELECT a.run_id, b.run_id AS baseline, a.measure, a.query_id, a.value, b.value AS baseline_value,
           sqlrank.on_precision(a.value - b.value, max(greatest(abs(a.value), abs(b.value)))
               OVER (PARTITION BY a.run_id, b.run_id, a.measure)) AS difference
    FROM query_table(per_query) AS a
    JOIN query_table(per_query) AS b ON a.measure = b.measure AND a.query_id = b.query_id
    WHERE a.run_id = run_a AND b.run_id = run_b AND a.query_id <> 'all'
      AND a.value IS NOT NULL AND b.value IS NOT NULL;

CREATE OR REPLACE MACRO sqlrank.differences_from(per_query, baseline) AS TABLE
    SELECT a.run_id, b.run_id AS baseline, a.measure, a.query_id, a.value, b.value AS baseline_value,
           sqlrank.on_precision(a.value - b.value, max(greatest(abs(a.value), abs(b.value)))
               OVER (PARTITION BY a.run_id, b.run_id, a.measure)) AS difference
    FROM query_table(per_query) AS a
    JOIN query_table(per_query) AS b ON a.measure = b.measure AND a.query_id = b.query_id
    WHERE b.run_id = baseline AND a.run_id <> baseline AND a.query_id <> 'all'
      AND a.value IS NOT NULL AND b.value IS NOT NULL;
