-- sqlrank.measure_prefs_num_prefs_poss(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_num_prefs_poss (-R prefs or qrels_prefs): the preferences of all judgment groups, fulfilled or not, retrieved or not (m_prefs_num_prefs_poss.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: one group, A at level 2, B and C at 1, D at 0: 2 + 2 + 1 = 5 preferences.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_num_prefs_poss(ranking, k) AS
    CAST(coalesce(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.poss_ret + g.poss_imp + g.notoccur)), 0) AS DOUBLE);
