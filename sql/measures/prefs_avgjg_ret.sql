-- sqlrank.measure_prefs_avgjg_ret(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_avgjg_ret (-R prefs or qrels_prefs): prefs_avgjg over the preferences with both documents retrieved (m_prefs_avgjg_ret.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: group 1 fulfils 1 of 2 retrieved pairs, group 2 has none retrieved: (0.5 + 0) / 2 = 0.25.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_avgjg_ret(ranking, k) AS
    sqlrank.prefs_group_mean(list_transform(ranking.prefs.jgs, lambda g: sqlrank.prefs_ratio(g.ful_ret, g.poss_ret)));
