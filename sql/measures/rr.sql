-- sqlrank.measure_rr(ranking, k, rel) -> DOUBLE
--
-- RR@k, reciprocal rank: 1 / the rank of the first relevant document, when it
-- is ranked within k; else 0 (trec_eval's recip_rank; its mean is MRR).
--
-- Example: the first relevant document at rank 3: RR = 1/3 = 0.3333; RR@2 = 0.
CREATE OR REPLACE MACRO sqlrank.measure_rr(ranking, k, rel) AS
    coalesce(1.0 / NULLIF(sqlrank.relevant_ranks(ranking, k, rel)[1], 0), 0);
