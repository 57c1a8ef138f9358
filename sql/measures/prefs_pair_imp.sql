-- sqlrank.measure_prefs_pair_imp(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_pair_imp (-R prefs or qrels_prefs): prefs_pair over the pairs with at least one document retrieved (m_prefs_pair_imp.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: (A, B) both retrieved, share 1; (A, D) with D not retrieved, share 0: 0.5.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_pair_imp(ranking, k) AS
    coalesce((ranking.prefs.pairs.ret_sum + ranking.prefs.pairs.imp_sum) / NULLIF(ranking.prefs.pairs.ret_n + ranking.prefs.pairs.imp_n, 0), 0);
