-- sqlrank.measure_avg_iprec(ranking, k, rel, levels) -> DOUBLE
--
-- AvgIPrec, the 11-point average: IPrec at the recall levels 0.0, 0.1, ...,
-- 1.0 (sql/measures/iprec.sql), averaged (trec_eval's 11pt_avg, m_11pt_avg.c,
-- with trec_eval 10's rounding of recall · R). `levels` are the recall levels,
-- the standard eleven by default; trec_eval's 11pt_avg..25,.5,.75 is
-- AvgIPrec(levels=[0.25,0.5,0.75]). Whole list.
--
-- Example: R = 4; relevant documents at ranks 1 and 4: IPrec is 1 at levels
-- 0.0-0.3 (1 document needed), 0.5 at 0.4-0.6 (lround(0.6 · 4) = 2), 0 from 0.7:
--   AvgIPrec = (4 · 1 + 3 · 0.5) / 11 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_avg_iprec(ranking, k, rel, levels) AS
    -- the precisions at the relevant documents and R, computed once for every level (sql/21_ranking_parts.sql)
    list_transform([struct_pack(precisions := sqlrank.relevant_precisions(ranking, rel),
                                num_relevant := sqlrank.num_relevant(ranking, rel))],
                   lambda parts: list_avg(list_transform(CAST(levels AS DOUBLE[]), lambda level:
                       sqlrank.interpolated_precision_of(parts.precisions, parts.num_relevant, level))))[1];
