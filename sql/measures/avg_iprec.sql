-- sqlrank.measure_avg_iprec(ranking, k, rel, levels, interpolation) -> DOUBLE
--
-- AvgIPrec, the 11-point average: IPrec at the recall levels 0.0, 0.1, ...,
-- 1.0 (sql/measures/iprec.sql), averaged (trec_eval's 11pt_avg, m_11pt_avg.c,
-- with trec_eval 10's rounding of recall · R, or 9.x's under interpolation
-- 'trec_eval9'). `levels` are the recall levels,
-- the standard eleven by default; trec_eval's 11pt_avg..25,.5,.75 is
-- AvgIPrec(levels=[0.25,0.5,0.75]). Whole list.
--
-- Example: R = 4; relevant documents at ranks 1 and 4: IPrec is 1 at levels
-- 0.0-0.3 (1 document needed), 0.5 at 0.4-0.6 (lround(0.6 · 4) = 2), 0 from 0.7:
--   AvgIPrec = (4 · 1 + 3 · 0.5) / 11 = 0.5
--   trec_eval9: 1 at 0.0-0.2 ((long)(0.8 + 0.9) = 1), 0.5 at 0.3-0.5, 0 from 0.6 ((long)(2.4 + 0.9) = 3):
--   AvgIPrec = (3 · 1 + 3 · 0.5) / 11 = 0.409
CREATE OR REPLACE MACRO sqlrank.measure_avg_iprec(ranking, k, rel, levels, interpolation) AS
    -- the precisions at the relevant documents and R, computed once for every level (sql/21_ranking_parts.sql)
    list_transform([struct_pack(precisions := sqlrank.relevant_precisions(ranking, rel),
                                num_relevant := sqlrank.num_relevant(ranking, rel))],
                   lambda parts: list_avg(list_transform(CAST(levels AS DOUBLE[]), lambda level:
                       sqlrank.interpolated_precision_of(parts.precisions, parts.num_relevant, level, interpolation))))[1];
