-- sqlrank.measure_prefs_num_prefs_ful_ret(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_num_prefs_ful_ret (-R prefs or qrels_prefs): the preferences fulfilled with both documents retrieved, A above B (m_prefs_num_prefs_ful_ret.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: A > B, A > C; ranking A, C (B not retrieved): only A > C has both retrieved, fulfilled: 1.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_num_prefs_ful_ret(ranking, k) AS
    CAST(coalesce(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.ful_ret)), 0) AS DOUBLE);
