-- sqlrank.measure_rprec_mult_avgjg(ranking, k, rel, multiple) -> DOUBLE
--
-- RprecMult_avgjg, trec_eval's Rprec_mult_avgjg (m_Rprec_mult_avgjg.c): RprecMult against each
-- judge's qrels, averaged over the query's judges (sql/24_judges.sql), whose qrels come as
-- multi-judge qrels (`qid judge docno rel`):
--   RprecMult_avgjg = (1/J) Σ_j (documents within c_j relevant to judge j) / c_j,
--   c_j = (long)(multiple · R_j + 0.9)
-- each judge's own cutoff from its own R_j; a judge with c_j = 0 (R_j = 0) adds 0. 0 for a query
-- the run missed. trec_eval's default multiples 0.2, 0.4, ..., 2.0; written RprecMult_avgjg@0.2.
--
-- Example: judge 1 says a=1 b=1, judge 2 says c=1; ranking a c b, multiple 1:
--   judge 1: c = 2, a within 2: 1/2;  judge 2: c = 1, none within 1: 0;  RprecMult_avgjg@1 = 0.25
CREATE OR REPLACE MACRO sqlrank.measure_rprec_mult_avgjg(ranking, k, rel, multiple) AS
    sqlrank.judges_mean(list_transform(ranking.judges, lambda judge_ranking:
        list_transform([floor(CAST(multiple AS DOUBLE) * sqlrank.num_relevant(judge_ranking, rel) + CAST(0.9 AS DOUBLE))],
            lambda judge_cut: coalesce(CAST(len(sqlrank.relevant_ranks(judge_ranking, CAST(judge_cut AS BIGINT), rel)) AS DOUBLE)
                                       / NULLIF(judge_cut, 0), 0))[1]));
