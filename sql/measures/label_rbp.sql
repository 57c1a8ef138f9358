-- sqlrank.measure_label_rbp(ranking, k, rel, p) -> DOUBLE
--
-- LabelRBP, rank-biased precision (Moffat & Zobel 2008) with each relevant document's label as its
-- gain, as ranx computes its rbp.p (ranx/metrics/rank_biased_precision.py: the label of each judged
-- document with label >= rel, else 0, times p^(i-1)):
--   LabelRBP@k = (1 - p) Σ_{relevant i <= k} label_i · p^(i-1)
-- Labels are not scaled, so a label-2 document gains twice a label-1 one and the value may pass 1
-- (RBP, sql/measures/rbp.sql, gains 1; trec_eval's GradedRBP scales the labels into [0, 1] and has p 0.9).
-- 0 when nothing relevant is retrieved; negative labels count as unjudged.
--
-- Example: labels by rank 2, 0, 1, p = 0.95:
--   LabelRBP(p=0.95) = 0.05 · (2 + 0.95² · 1) = 0.145125;  LabelRBP(p=0.95,rel=2) = 0.05 · 2 = 0.1
CREATE OR REPLACE MACRO sqlrank.measure_label_rbp(ranking, k, rel, p) AS
    coalesce((1 - CAST(p AS DOUBLE))
             * list_sum(list_transform(list_filter(sqlrank.top_documents(ranking, k), lambda d: sqlrank.is_relevant(d.label, rel)),
                                       lambda d: d.label * pow(CAST(p AS DOUBLE), d.rank - 1))), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each relevant document's label times its weight p^(i-1), averaged over its group's places within k
CREATE OR REPLACE MACRO sqlrank.average_label_rbp(ranking, k, rel, p) AS
    coalesce((1 - CAST(p AS DOUBLE))
             * list_sum(list_transform(list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
                                       lambda d: d.label * sqlrank.tied_power_mean(d, sqlrank.tied_cut(ranking, k), CAST(p AS DOUBLE)))), 0);
