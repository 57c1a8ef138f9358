-- sqlrank.measure_graded_rbp(ranking, k) -> DOUBLE
--
-- GradedRBP, trec_eval 10's rbp (m_rbp.c): rank-biased precision (Moffat &
-- Zobel 2008) with graded gains and persistence p = 0.9,
--   GradedRBP = (1 - p) Σ_i gain_i · p^(i-1)
-- gain = the label, divided by the query's highest label when that exceeds 1
-- (trec_eval scales the gains into [0, 1] per query; -l plays no part);
-- unjudged documents and negative labels gain 0. The whole list. ir_measures'
-- RBP(p, rel) is the binary form (sql/measures/rbp.sql); trec_eval's name is rbp,
-- in lower case, and RBP is ir_measures'.
--
-- Example: labels by rank 2, 0, 4 (the query's highest label 4): gains 0.5, 0, 1:
--   GradedRBP = 0.1 · (0.5 + 0.9² · 1) = 0.131
CREATE OR REPLACE MACRO sqlrank.measure_graded_rbp(ranking, k) AS
    coalesce((1 - 0.9) * list_sum(list_transform(
        ranking.documents,
        lambda d: greatest(d.label, 0) / NULLIF(greatest(ranking.labels[1], 1), 0) * pow(0.9, d.rank - 1))), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each scaled gain times 0.9^(i-1) averaged over its group's places
CREATE OR REPLACE MACRO sqlrank.average_graded_rbp(ranking, k) AS
    coalesce((1 - 0.9) * list_sum(list_transform(
        ranking.documents,
        lambda d: greatest(d.label, 0) / NULLIF(greatest(ranking.labels[1], 1), 0)
                  * sqlrank.tied_power_mean(d, sqlrank.tied_cut(ranking, NULL), 0.9))), 0);
