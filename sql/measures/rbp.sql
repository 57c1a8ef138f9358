-- sqlrank.measure_rbp(ranking, k, rel, p) -> DOUBLE
--
-- RBP, rank-biased precision (Moffat & Zobel 2008) as ir_measures computes
-- it (RBP(p=0.8, rel=1), through cwl_eval): a user reads on from one rank
-- to the next with probability p, so rank i has weight (1 - p) p^(i-1);
-- each relevant document (label >= rel) gains 1,
--   RBP@k = (1 - p) Σ_{relevant i <= k} p^(i-1)
-- 0 when nothing relevant is retrieved; at most 1 - p^k. trec_eval's graded
-- rbp, with p = 0.9, is GradedRBP (sql/measures/graded_rbp.sql).
--
-- Example: relevant documents at ranks 1 and 3:
--   RBP = 0.2 · (1 + 0.8²) = 0.328;  RBP(p=0.5) = 0.5 · (1 + 0.25) = 0.625;  RBP@2 = 0.2
CREATE OR REPLACE MACRO sqlrank.measure_rbp(ranking, k, rel, p) AS
    coalesce((1 - CAST(p AS DOUBLE))
             * list_sum(list_transform(sqlrank.relevant_ranks(ranking, k, rel), lambda r: pow(CAST(p AS DOUBLE), r - 1))),
             0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each relevant document's weight p^(i-1), averaged over its group's places within k
CREATE OR REPLACE MACRO sqlrank.average_rbp(ranking, k, rel, p) AS
    coalesce((1 - CAST(p AS DOUBLE))
             * list_sum(list_transform(list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
                                       lambda d: sqlrank.tied_power_mean(d, sqlrank.tied_cut(ranking, k), CAST(p AS DOUBLE)))), 0);
