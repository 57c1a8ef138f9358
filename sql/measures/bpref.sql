-- sqlrank.measure_bpref(ranking, k, rel) -> DOUBLE
--
-- bpref (Buckley & Voorhees 2004), as trec_eval computes it:
--   bpref = (1/R) Σ_{relevant retrieved d} (1 - min(n_d, R) / min(N, R))
-- R = relevant judgments, N = judged non-relevant ones (0 <= label < rel),
-- n_d = judged non-relevant documents ranked above d. A term is 1 when n_d = 0
-- (also when N = 0). Unjudged documents and negative labels are skipped;
-- 0 when R = 0. It needs the label-0 judgments (registry: judged_nonrelevant).
--
-- How: sqlrank.bpref_of (sql/21_ranking_parts.sql), which GMbpref shares.
--
-- Example: R = 2, N = 2; ranking relevant, non-relevant, relevant:
--   bpref = (1 + (1 - 1/2)) / 2 = 0.75
CREATE OR REPLACE MACRO sqlrank.measure_bpref(ranking, k, rel) AS
    sqlrank.bpref_of(ranking, k, rel);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_bpref(ranking, k, rel) AS
    sqlrank.expected_bpref(ranking, rel);
