-- sqlrank.measure_prefs_avgjg(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_avgjg (-R prefs or qrels_prefs): each judgment group's fulfilled / possible, averaged over the groups (m_prefs_avgjg.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: group 1 fulfils 1 of 1, group 2 fulfils 1 of 3: (1 + 1/3) / 2 = 0.666667.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_avgjg(ranking, k) AS
    sqlrank.prefs_group_mean(list_transform(ranking.prefs.jgs,
        lambda g: sqlrank.prefs_ratio(g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur)));
