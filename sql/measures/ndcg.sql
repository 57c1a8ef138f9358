-- sqlrank.measure_ndcg(ranking, k, gain, discount, base, ideal) -> DOUBLE
--
-- nDCG@k, normalised DCG: DCG@k / IDCG@k (as sqlrank.measure_dcg and sqlrank.measure_idcg);
-- 0 when IDCG@k = 0 (no judged document with a gain). trec_eval's ndcg and
-- ndcg_cut_k with the defaults (linear gain, log2 discount, ideal from the qrels).
-- DCG <= IDCG, but the two add the same products in different orders, so for the
-- ideal ranking the quotient can come out 1 + 1 ulp: least() gives trec_eval's
-- exact 1 there and moves nothing else.
--
-- Example: judgments A=3, B=3, C=2, D=2, E=1, F=1; ranking A, E, C, D, F; k = 5:
--   DCG@5 = 3 + 1/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 5.8791357
--   IDCG@5 = 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1409952
--   nDCG@5 = 5.8791357 / 7.1409952 = 0.8232936061974518
-- NULLIF(x, 0) is CASE WHEN x = 0 ...: DuckDB computes an x written there twice, so the ideal DCG is named once
CREATE OR REPLACE MACRO sqlrank.measure_ndcg(ranking, k, gain, discount, base, ideal) AS
    list_transform([sqlrank.ideal_gains(ranking, gain, ideal)], lambda ideal_gains: list_transform(
        [sqlrank.ideal_dcg(ideal_gains, k, discount, base)],
        lambda ideal_dcg: least(coalesce(sqlrank.dcg_of(ranking, k, gain, discount, base) / NULLIF(ideal_dcg, 0), 0),
                                1.0))[1])[1];

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the ideal DCG does not depend on the order: the expectation of the ratio is the ratio of the expectation
CREATE OR REPLACE MACRO sqlrank.average_ndcg(ranking, k, gain, discount, base, ideal) AS
    least(coalesce(sqlrank.expected_dcg(ranking, k, gain, discount, base)
                   / NULLIF(sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, gain, ideal), k, discount, base), 0), 0),
          1.0);
