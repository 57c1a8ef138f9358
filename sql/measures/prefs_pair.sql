-- sqlrank.measure_prefs_pair(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_pair (-R prefs or qrels_prefs): over the document pairs some group orders, the share of the pair's preferences fulfilled, averaged;
-- a pair neither of whose documents is retrieved adds 0 (m_prefs_pair.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: three groups say A > B, one B > A; ranking A, B: the pair's share is 3 / 4 = 0.75.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_pair(ranking, k) AS
    coalesce((ranking.prefs.pairs.ret_sum + ranking.prefs.pairs.imp_sum)
             / NULLIF(ranking.prefs.pairs.ret_n + ranking.prefs.pairs.imp_n + ranking.prefs.pairs.none_n, 0), 0);
