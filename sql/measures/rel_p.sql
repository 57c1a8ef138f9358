-- sqlrank.measure_rel_p(ranking, k, rel) -> DOUBLE
--
-- RelP@k, relative precision: the relevant documents within k divided by the
-- most there could be, min(k, R): precision up to R, recall after it
-- (trec_eval's relative_P_k, m_rel_P.c). Without a cutoff: relevant retrieved
-- / min(retrieved, R) (trec_eval's set_relative_P, ir_measures' SetRelP).
-- 0 when R = 0 or nothing was retrieved.
--
-- Example: R = 3; relevant documents at ranks 1 and 3, 4 retrieved:
--   RelP@2 = 1 / min(2, 3) = 0.5;  RelP@10 = 2 / min(10, 3) = 0.6667;  RelP = 2 / min(4, 3) = 0.6667
CREATE OR REPLACE MACRO sqlrank.measure_rel_p(ranking, k, rel) AS
    coalesce(CAST(len(sqlrank.relevant_ranks(ranking, k, rel)) AS DOUBLE)
             / NULLIF(least(coalesce(k, ranking.num_ret), sqlrank.num_relevant(ranking, rel)), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- the denominator does not read the order: the expected count of relevant documents within k over it
CREATE OR REPLACE MACRO sqlrank.average_rel_p(ranking, k, rel) AS
    coalesce(sqlrank.expected_relevant(ranking, k, rel)
             / NULLIF(least(coalesce(k, ranking.num_ret), sqlrank.num_relevant(ranking, rel)), 0), 0);
