-- sqlrank.measure_prefs_num_prefs_ful(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_num_prefs_ful (-R prefs or qrels_prefs): the preferences fulfilled: A retrieved above B, or A retrieved and B not (m_prefs_num_prefs_ful.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: A > B, A > C; ranking C, A (B not retrieved): A > B is fulfilled (implied), A > C is not: 1.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_num_prefs_ful(ranking, k) AS
    CAST(coalesce(list_sum(list_transform(ranking.prefs.jgs, lambda g: g.ful_ret + g.ful_imp)), 0) AS DOUBLE);
