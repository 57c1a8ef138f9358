-- sqlrank.measure_prefs_simp_ret(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_simp_ret (-R prefs or qrels_prefs): preferences fulfilled / possible among those with both documents retrieved (m_prefs_simp_ret.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: A > B, A > C, B > C; ranking B, A (C not retrieved): only A > B has both retrieved: 0 / 1 = 0.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_simp_ret(ranking, k) AS
    sqlrank.prefs_ratio(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.ful_ret)),
                        list_sum(list_transform(ranking.prefs.jgs, lambda g: g.poss_ret)));
