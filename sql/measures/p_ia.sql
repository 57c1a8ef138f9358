-- sqlrank.measure_p_ia(ranking, k, rel) -> DOUBLE
--
-- P-IA@k, intent-aware precision (Agrawal et al., WSDM 2009), as ndeval computes it: P@k of each
-- subtopic, averaged over the m subtopics some document covers:
--   P-IA@k = Σ_{i<=k} (subtopics document i covers) / (k · m)
-- always k, even when the run retrieved fewer (as P@k); without @k, the documents retrieved.
-- 0 when m = 0, and for a query the run missed.
--
-- Example: a {1, 2}, b {2}, c {3}; ranking a, c, x, b:  P-IA@4 = (2 + 1 + 0 + 1) / (4 · 3) = 0.333333
CREATE OR REPLACE MACRO sqlrank.measure_p_ia(ranking, k, rel) AS
    coalesce(CAST(coalesce(list_sum(list_transform(sqlrank.covering_documents(ranking, k, rel), lambda doc: len(doc.subtopics))), 0) AS DOUBLE)
             / NULLIF(coalesce(k, ranking.num_ret) * sqlrank.intent_count(ranking, rel), 0), 0);
