-- sqlrank.measure_ap_avgjg(ranking, k, rel) -> DOUBLE
--
-- AP_avgjg, trec_eval's map_avgjg (m_map_avgjg.c): AP against each judge's qrels, averaged over
-- the query's judges (sql/24_judges.sql), whose qrels come as multi-judge qrels (`qid judge docno rel`):
--   AP_avgjg = (1/J) Σ_j (1/R_j) Σ_{i relevant to j} (documents at ranks <= i relevant to j) / i
-- R_j: judge j's relevant judgments (label >= rel). A judge with R_j = 0 adds 0 (and still counts
-- in J); 0 for a query the run missed. Over the whole ranking (no @k, as in trec_eval).
--
-- Example: judge 1 says a=1 b=1, judge 2 says c=1; ranking a c b:
--   judge 1: (1/1 + 2/3) / 2 = 5/6;  judge 2: (1/2) / 1 = 1/2;  AP_avgjg = (5/6 + 1/2) / 2 = 2/3
CREATE OR REPLACE MACRO sqlrank.measure_ap_avgjg(ranking, k, rel) AS
    sqlrank.judges_mean(list_transform(ranking.judges, lambda judge_ranking:
        coalesce(sqlrank.precision_sum(judge_ranking, NULL, rel)
                 / NULLIF(sqlrank.num_relevant(judge_ranking, rel), 0), 0)));
