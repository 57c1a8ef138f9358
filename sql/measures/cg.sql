-- sqlrank.measure_cg(ranking, k, gain) -> DOUBLE
--
-- CG@k, cumulative gain: the gains of the documents ranked within k, added up.
--   CG@k = Σ_{i <= k} gain(label_i)
-- gain := 'linear' (the label) or 'exp' (2^label - 1); unjudged documents and
-- labels <= 0 add nothing. No discount: CG ignores the order within the top k.
-- A query the run missed: 0.
--
-- Example: judgments A=3, B=3, C=2, D=2, E=1, F=1; ranking A, E, C, D, F:
--   CG@3 = 3 + 1 + 2 = 6;  with gain := 'exp': 7 + 1 + 3 = 11.
CREATE OR REPLACE MACRO sqlrank.measure_cg(ranking, k, gain) AS
    coalesce(list_sum(list_transform(sqlrank.top_documents(ranking, k),
                                     lambda d: sqlrank.gain(d.label, kind := gain))), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- each gain times its document's chance to land within k
CREATE OR REPLACE MACRO sqlrank.average_cg(ranking, k, gain) AS
    coalesce(list_sum(list_transform(ranking.documents,
                                     lambda d: sqlrank.gain(d.label, kind := gain) * sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k)))), 0.0);
