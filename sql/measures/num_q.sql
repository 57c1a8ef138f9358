-- sqlrank.measure_num_q(ranking, k) -> DOUBLE
--
-- NumQ: 1 for every evaluated query, so that the `all` row, which sums it,
-- is the number of queries evaluated (trec_eval's num_q; ir_measures' NumQ).
-- Queries the run missed count when they are scored (missing := 'zero',
-- trec_eval -c) and not when they are left out ('skip').
--
-- Example: qrels for 3 queries, a run for 2 of them: NumQ in the `all` row = 3
-- (missing := 'zero') or 2 (missing := 'skip').
CREATE OR REPLACE MACRO sqlrank.measure_num_q(ranking, k) AS
    CAST(1 AS DOUBLE);
