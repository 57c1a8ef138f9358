-- sqlrank.measure_ap_ia(ranking, k, rel) -> DOUBLE
--
-- AP-IA, intent-aware average precision (ndeval's MAP-IA): each subtopic's AP, the documents
-- covering it being its relevant ones, averaged over the m subtopics some document covers:
--   AP-IA = (1/m) Σ_s (1/R_s) Σ_{i covering s} (documents at ranks <= i covering s) / i
-- R_s: the judged documents covering s. Over the whole ranking (no @k, as in ndeval). 0 when m = 0,
-- and for a query the run missed.
--
-- Example: a {1, 2}, b {2}, c {3}; ranking a, c, x, b:
--   subtopic 1: 1/1;  2: (1/1 + 2/4) / 2 = 0.75;  3: (1/2) / 1;  AP-IA = (1 + 0.75 + 0.5) / 3 = 0.75
CREATE OR REPLACE MACRO sqlrank.measure_ap_ia(ranking, k, rel) AS
    list_transform([sqlrank.covering_documents(ranking, NULL, rel)], lambda covering:
        coalesce(list_sum(list_transform(
            list_distinct(flatten(list_transform(ranking.intents.judged, lambda judged: sqlrank.covered(judged.judgments, rel)))),
            lambda subtopic: list_sum(list_transform(list_filter(covering, lambda doc: list_contains(doc.subtopics, subtopic)),
                                                     lambda doc, found: CAST(found AS DOUBLE) / NULLIF(doc.rank, 0)))
                             / NULLIF(len(list_filter(ranking.intents.judged,
                                                      lambda judged: list_contains(sqlrank.covered(judged.judgments, rel), subtopic))), 0)))
                 / NULLIF(sqlrank.intent_count(ranking, rel), 0), 0))[1];
