-- sqlrank.measure_prefs_simp_imp(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_simp_imp (-R prefs or qrels_prefs): preferences fulfilled / possible among those with at least one document retrieved (m_prefs_simp_imp.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: A > B, A > C, B > C; ranking B, A (C not retrieved): 2 / 3 = 0.666667 (every pair has one retrieved).
CREATE OR REPLACE MACRO sqlrank.measure_prefs_simp_imp(ranking, k) AS
    sqlrank.prefs_ratio(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.ful_ret + g.ful_imp)),
                        list_sum(list_transform(ranking.prefs.jgs, lambda g: g.poss_ret + g.poss_imp)));
