-- sqlrank.is_relevant(relevance, rel := 1) -> BOOLEAN
-- sqlrank.is_judged_nonrelevant(relevance, rel := 1) -> BOOLEAN
--
-- The binary view of graded labels used by AP, RR, P, R, Rprec, Success,
-- bpref and the counts (trec_eval -l rel):
--   relevant                label >= rel, and label >= 0
--   judged non-relevant     0 <= label < rel
--   neither                 unjudged (NULL) or a negative label: a negative
--                           label means "judged but unusable" (trec_eval) and
--                           behaves exactly like an unjudged document.
-- rel may be any number (0.5 for real-valued labels); rel := 0 makes judged
-- non-relevant documents relevant, but never unjudged or negative ones.
CREATE OR REPLACE MACRO sqlrank.is_relevant(relevance, rel := 1) AS
    coalesce(relevance >= rel AND relevance >= 0, false);

CREATE OR REPLACE MACRO sqlrank.is_judged_nonrelevant(relevance, rel := 1) AS
    coalesce(relevance >= 0 AND relevance < rel, false);
