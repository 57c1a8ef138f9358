-- sqlrank.measure_yaap(ranking, k, rel) -> DOUBLE
--
-- yaap, "yet another average precision" (trec_eval's m_yaap.c; Robertson, "On Smoothing Average
-- Precision", ECIR 2012): AP's numerator S smoothed against R so that it averages over queries better:
--   yaap = ln((1 + S) / (1 + R - S)),  S = Σ_{relevant i} (relevant documents at ranks <= i) / i
-- R: the relevant judgments (label >= rel). Monotonic with AP on one query; negative when S < R / 2.
-- 0 when R = 0; a query the run missed (missing := 'zero', trec_eval -c) has S = 0 and scores
-- ln(1 / (1 + R)), not 0, as trec_eval scores it. Over the whole ranking (no @k, as in trec_eval).
--
-- Example: R = 3, relevant documents at ranks 1 and 3: S = 1/1 + 2/3 = 5/3,
--   yaap = ln((1 + 5/3) / (1 + 3 - 5/3)) = ln(8/7) ≈ 0.1335
CREATE OR REPLACE MACRO sqlrank.measure_yaap(ranking, k, rel) AS
    -- S <= R, so the denominator is at least 1; NULLIF as everywhere (x / 0 differs across DuckDB versions)
    ln((1 + sqlrank.precision_sum(ranking, k, rel))
       / NULLIF(1 + sqlrank.num_relevant(ranking, rel) - sqlrank.precision_sum(ranking, k, rel), 0));
