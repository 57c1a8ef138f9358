-- sqlrank.measure_gm_bpref(ranking, k, rel) -> DOUBLE
--
-- GMbpref: bpref per query (sql/measures/bpref.sql), summarised in the `all`
-- row by the geometric mean with bpref floored at 1e-5 (registry aggregate
-- 'gm'; trec_eval's gm_bpref, m_gm_bpref.c, printed in the `all` row only).
-- It needs the label-0 judgments (registry: judged_nonrelevant).
--
-- Example: bpref 0.75 and 0.0 on two queries:
--   GMbpref = exp((ln 0.75 + ln 1e-5) / 2) = 0.002739
CREATE OR REPLACE MACRO sqlrank.measure_gm_bpref(ranking, k, rel) AS
    sqlrank.bpref_of(ranking, k, rel);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- bpref's expectation per query; the 'all' row is the geometric mean of these per-query expectations
CREATE OR REPLACE MACRO sqlrank.average_gm_bpref(ranking, k, rel) AS
    sqlrank.expected_bpref(ranking, rel);
