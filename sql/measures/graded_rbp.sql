-- sqlrank.measure_graded_rbp(ranking, k, gain) -> DOUBLE
--
-- GradedRBP, trec_eval 10's rbp (m_rbp.c): rank-biased precision (Moffat &
-- Zobel 2008) with graded gains and persistence p = 0.9,
--   GradedRBP = (1 - p) Σ_i gain_i · p^(i-1)
-- Gains are the labels (linear, trec_eval's default), 2^label - 1 (exp), or a
-- gain map (GradedRBP(gains={1:3,2:9}), trec_eval's rbp.1=3,2=9: the labels it
-- names get its gains, the others stay linear). trec_eval keeps a gain for every
-- level from 0 to the query's highest label and every level the map names, and
-- when one of them is below 0 or above 1 it rescales them all into [0, 1]:
--   gain' = (gain - low) / (high - low),  low = min(0, lowest), high = the highest
-- (so judged non-relevant documents gain -low / (high - low) under a map with a
-- negative gain). -l plays no part; unjudged documents and negative labels gain
-- 0. The whole list. ir_measures' RBP(p, rel) is the binary form
-- (sql/measures/rbp.sql); trec_eval's name is rbp, in lower case, and RBP is
-- ir_measures'.
--
-- Example: labels by rank 2, 0, 4 (the query's highest label 4): gains 0.5, 0, 1:
--   GradedRBP = 0.1 · (0.5 + 0.9² · 1) = 0.131
-- With gains={2:-4}: levels 0..4 gain 0, 1, -4, 3, 4; low -4, high 4, so labels
-- 2, 0, 4 gain 0, 0.5, 1:  GradedRBP = 0.1 · (0.9 · 0.5 + 0.9² · 1) = 0.126
-- The sum is trec_eval's own loop (sqlrank.rbp_walk) and 1 - 0.9 a double, as in m_rbp.c, so that
-- -f trec prints trec_eval's last digit.
CREATE OR REPLACE MACRO sqlrank.measure_graded_rbp(ranking, k, gain) AS
    coalesce((CAST(1 AS DOUBLE) - CAST(0.9 AS DOUBLE))
             * sqlrank.rbp_walk(sqlrank.rbp_scaled_gains(ranking, gain), ranking.num_ret).gained, 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each scaled gain times 0.9^(i-1) averaged over its group's places
CREATE OR REPLACE MACRO sqlrank.average_graded_rbp(ranking, k, gain) AS
    coalesce((1 - 0.9) * list_sum(list_transform(
        sqlrank.rbp_scaled_gains(ranking, gain),
        lambda term: term.scaled * sqlrank.tied_power_mean(term.document, sqlrank.tied_cut(ranking, NULL), 0.9))), 0);
