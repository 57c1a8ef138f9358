-- sqlrank.measure_prefs_pair_ret(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_pair_ret (-R prefs or qrels_prefs): prefs_pair over the pairs with both documents retrieved (m_prefs_pair_ret.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: pairs (A, B) with share 1 and (A, C) with share 0, both retrieved: 0.5.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_pair_ret(ranking, k) AS
    coalesce(ranking.prefs.pairs.ret_sum / NULLIF(ranking.prefs.pairs.ret_n, 0), 0);
