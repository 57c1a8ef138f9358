-- sqlrank.measure_idcg(ranking, k, gain, discount, base, ideal) -> DOUBLE
--
-- IDCG@k: the DCG@k of the best possible ordering (trec_eval's ideal_dcg).
--   ideal := 'qrels'  every judged document with a positive label, retrieved or
--                     not, highest label first (trec_eval; the default)
--   ideal := 'run'    the retrieved documents' labels re-sorted (scikit-learn's
--                     ndcg_score): the best order of what the run returned
-- Equal labels have equal gains, so the order among them does not matter.
-- 0 when no document has a gain.
--
-- Example: judgments A=3, B=3, C=2, D=2, E=1, F=1 (ideal 'qrels'), k = 5:
--   IDCG@5 = 3 + 3/log2 3 + 2/2 + 2/log2 5 + 1/log2 6 = 7.1409951840957
CREATE OR REPLACE MACRO sqlrank.measure_idcg(ranking, k, gain, discount, base, ideal) AS
    sqlrank.ideal_dcg(sqlrank.ideal_gains(ranking, gain, ideal), k, discount, base);
