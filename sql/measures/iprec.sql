-- sqlrank.measure_iprec(ranking, k, rel, recall, interpolation) -> DOUBLE
--
-- IPrec@recall, interpolated precision at a recall level (trec_eval's
-- iprec_at_recall_x, m_iprec_at_recall.c; ir_measures' IPrec@x): the highest
-- precision the run reaches at or after the rank where it has found
-- lround(recall · R) relevant documents (at least one),
--   IPrec@x = max_{j >= max(lround(x · R), 1)} j / r_j,  r_j the rank of the j-th relevant document
-- the points of the standard recall-precision graph. 0 when the run never
-- finds that many. trec_eval 10 rounds x · R to the nearest count (halves up);
-- 9.x, pytrec_eval and so ir_measures use (long)(x · R + 0.9), up to one
-- relevant document later: interpolation 'trec_eval10' (the default) or
-- 'trec_eval9' (docs/trec-semantics.md). Whole list (no cutoff).
--
-- Example: R = 4; relevant documents at ranks 1 and 4 (P = 1/1, 2/4):
--   IPrec@0.3 = max(1, 0.5) = 1 (lround(1.2) = 1);  IPrec@0.4 = 0.5 (lround(1.6) = 2);
--   IPrec@0.7 = 0 (lround(2.8) = 3 relevant documents never found)
--   trec_eval9: IPrec@0.3 = 0.5 ((long)(1.2 + 0.9) = 2);  IPrec@0.7 = 0 ((long)(2.8 + 0.9) = 3)
CREATE OR REPLACE MACRO sqlrank.measure_iprec(ranking, k, rel, recall, interpolation) AS
    sqlrank.interpolated_precision(ranking, rel, recall, interpolation);
