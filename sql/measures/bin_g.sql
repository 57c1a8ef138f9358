-- sqlrank.measure_bin_g(ranking, k, rel) -> DOUBLE
--
-- binG, binary G (trec_eval's binG, m_binG.c, an experimental measure
-- between AP and nDCG): each relevant document retrieved earns
-- 1 / log2(2 + the documents above it that are not relevant), unjudged ones
-- included; the sum is divided by R.
--   binG = (1/R) Σ_j 1 / log2(2 + r_j - j),  r_j the rank of the j-th relevant document
-- 0 when R = 0 or nothing relevant was retrieved. Whole list (no cutoff).
--
-- Example: R = 2; relevant documents at ranks 1 and 3 (one non-relevant above the second):
--   binG = (1/log2(2) + 1/log2(3)) / 2 = (1 + 0.6309) / 2 = 0.8155
CREATE OR REPLACE MACRO sqlrank.measure_bin_g(ranking, k, rel) AS
    coalesce(list_sum(list_transform(sqlrank.relevant_ranks(ranking, k, rel),
                                     lambda r, j: 1.0 / NULLIF(log2(2 + r - j), 0)))
             / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);
