-- sqlrank.measure_prefs_avgjg_rnonrel_ret(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_avgjg_Rnonrel_ret (-R prefs or qrels_prefs): prefs_avgjg_Rnonrel over the retrieved documents: R and N are the relevant and non-relevant
-- documents retrieved (m_prefs_avgjg_Rnonrel_ret.c).
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: one group, A at 1, B at 0; ranking B, A: 0 / 1 = 0.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_avgjg_rnonrel_ret(ranking, k) AS
    sqlrank.prefs_rnonrel_mean(list_transform(ranking.prefs.jgs,
        lambda g: struct_pack(fulfilled := g.rnonrel_ret_ful, possible := g.rnonrel_ret_poss)));
