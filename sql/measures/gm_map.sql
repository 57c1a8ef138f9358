-- sqlrank.measure_gm_map(ranking, k, rel) -> DOUBLE
--
-- GMAP: average precision per query (AP@k with denominator R, sql/measures/ap.sql),
-- summarised in the `all` row by the geometric mean instead of the arithmetic
-- one (registry aggregate 'gm'): exp(mean over queries of ln(max(AP, 1e-5))).
-- The 1e-5 floor is trec_eval's (m_gm_map.c): a query at 0 would otherwise make
-- the mean 0. trec_eval prints gm_map in the `all` row only; pytrec_eval gives
-- the per-query ln(max(AP, 1e-5)); sqlrank's per-query value is the AP itself.
-- A query the run missed has AP 0, so ln(1e-5) in the mean (trec_eval -c).
--
-- Example: AP 0.5 and 0.02 on two queries, and a third the run missed:
--   GMAP = exp((ln 0.5 + ln 0.02 + ln 1e-5) / 3) = 0.004642
CREATE OR REPLACE MACRO sqlrank.measure_gm_map(ranking, k, rel) AS
    coalesce(sqlrank.precision_sum(ranking, k, rel) / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- AP's expectation per query (sql/measures/ap.sql); the 'all' row is the geometric mean of these
-- per-query expectations, not the expectation of the geometric mean
CREATE OR REPLACE MACRO sqlrank.average_gm_map(ranking, k, rel) AS
    coalesce(sqlrank.expected_precision_sum(ranking, k, rel) / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);
