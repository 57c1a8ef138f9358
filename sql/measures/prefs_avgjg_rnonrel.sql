-- sqlrank.measure_prefs_avgjg_rnonrel(ranking, k) -> DOUBLE
--
-- trec_eval's prefs_avgjg_Rnonrel (-R prefs or qrels_prefs): prefs_avgjg with each group's non-relevant documents (level 0) counted as R, its relevant
-- ones: fewer (N < R) add R (R - N) pairs, fulfilled for each retrieved relevant document; more keep the
-- first R in trec_eval's order (retrieved by rank, then by doc_id), and a group of one sub-group then also
-- pairs its non-relevant documents with those R, as trec_eval's recalculate does (m_prefs_avgjg_Rnonrel.c).
-- A group with neither (0 / 0) makes the query 0, as trec_eval's NaN does.
-- Reads ranking.prefs (sql/24_prefs.sql); no cutoff (trec_eval's -M depth cuts the ranking). 0 for a query
-- without preferences, and for one the run missed.
--
-- Example: one group, A at 1, B at 0, nothing else (R = N = 1); ranking A, B: 1 / 1 = 1.
CREATE OR REPLACE MACRO sqlrank.measure_prefs_avgjg_rnonrel(ranking, k) AS
    sqlrank.prefs_rnonrel_mean(list_transform(ranking.prefs.jgs,
        lambda g: struct_pack(fulfilled := g.rnonrel_ful, possible := g.rnonrel_poss)));
