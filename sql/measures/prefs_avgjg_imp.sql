-- sqlrank.measure_prefs_avgjg_imp(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_avgjg_imp (-R prefs or qrels_prefs): prefs_avgjg over the preferences with at least one document retrieved (m_prefs_avgjg_imp.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: group 1 fulfils 2 of 2, group 2 1 of 4: (1 + 0.25) / 2 = 0.625.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_avgjg_imp(ranking, k) AS
    sqlrank.prefs_group_mean(list_transform(ranking.prefs.jgs,
        lambda g: sqlrank.prefs_ratio(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp)));
