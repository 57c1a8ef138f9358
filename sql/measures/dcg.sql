-- sqlrank.measure_dcg(ranking, k, gain, discount, base) -> DOUBLE
--
-- DCG@k, discounted cumulative gain (Järvelin & Kekäläinen 2002; trec_eval's
-- ndcg with the linear gain and the log2 discount):
--   DCG@k = Σ_{i <= k} gain(label_i) · discount(i)
-- gain and discount as in sql/02_gain.sql and sql/03_discount.sql. The
-- products are added in rank order, as trec_eval adds them, so every run
-- gives the same bits. A query the run missed: 0.
--
-- Example: judgments A=3, B=3, C=2, D=2, E=1, F=1; ranking A, E, C, D, F:
--   DCG = 3/log2 2 + 1/log2 3 + 2/log2 4 + 2/log2 5 + 1/log2 6
--       = 3 + 0.6309298 + 1 + 0.8613531 + 0.3868528 = 5.8791357
CREATE OR REPLACE MACRO sqlrank.measure_dcg(ranking, k, gain, discount, base) AS
    sqlrank.dcg_of(ranking, k, gain, discount, base);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
CREATE OR REPLACE MACRO sqlrank.average_dcg(ranking, k, gain, discount, base) AS
    sqlrank.expected_dcg(ranking, k, gain, discount, base);
