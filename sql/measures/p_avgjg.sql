-- sqlrank.measure_p_avgjg(ranking, k, rel) -> DOUBLE
--
-- P_avgjg, trec_eval's P_avgjg (m_P_avgjg.c): P@k against each judge's qrels, averaged over the
-- query's judges (sql/24_judges.sql), whose qrels come as multi-judge qrels (`qid judge docno rel`):
--   P_avgjg@k = (1/J) Σ_j (documents within k relevant to judge j) / k
-- always divided by k, as P@k (a run shorter than k counts as filled with non-relevant documents);
-- without @k each judge's relevant retrieved / retrieved, as P. 0 for a query the run missed.
--
-- Example: judge 1 says a=1 b=1, judge 2 says c=1; ranking a c b:
--   P_avgjg@2 = (1/2 + 1/2) / 2 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_p_avgjg(ranking, k, rel) AS
    sqlrank.judges_mean(list_transform(ranking.judges, lambda judge_ranking:
        coalesce(CAST(len(sqlrank.relevant_ranks(judge_ranking, k, rel)) AS DOUBLE)
                 / NULLIF(coalesce(k, judge_ranking.num_ret), 0), 0)));
