-- sqlrank.measure_prefs_simp(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_simp (-R prefs or qrels_prefs): preferences fulfilled / preferences possible, over all groups; a pair neither of whose documents
-- is retrieved counts as a failure (m_prefs_simp.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: A > B, A > C, B > C; ranking B, A (C not retrieved): fulfilled A > C, B > C: 2 / 3 = 0.666667.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_simp(ranking, k) AS
    sqlrank.prefs_ratio(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.ful_ret + g.ful_imp)),
                        list_sum(list_transform(ranking.prefs.jgs, lambda g: g.poss_ret + g.poss_imp + g.notoccur)));
