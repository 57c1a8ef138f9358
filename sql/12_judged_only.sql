-- sqlrank.judged_run(qrels_table, run_table, depth := NULL, score_precision := 'double', one_run := false)
--   -> the run's rows ([run_id,] query_id, doc_id, score, ...) that have a judgment >= 0, within depth
--
-- Judged-only evaluation (trec_eval -J, ir_measures' judged_only=True): every
-- document without a judgment, or with a negative one, is removed from the
-- ranking before any measure reads it, and the documents after it move up.
-- The run is ranked first (sqlrank.ranked) so that depth (trec_eval -M) cuts
-- the ranking as retrieved, before the unjudged documents go, as trec_eval does;
-- what is left is a run again, ranked by every measure as any run is.
--
-- Example: judgments A=1, B=0; a run ranking X, A, Y, B (X, Y unjudged) gives
-- the run A, B: A at rank 1 (RR 1 instead of 0.5), num_ret 2; with depth 2, A alone.
CREATE OR REPLACE MACRO sqlrank.judged_run(qrels_table, run_table, depth := NULL, score_precision := 'double',
                                           one_run := false) AS TABLE
    SELECT ranked_run.* EXCLUDE (rank, num_ret)
    FROM sqlrank.ranked(run_table, score_precision := score_precision, one_run := one_run) AS ranked_run
    SEMI JOIN (SELECT query_id, doc_id FROM sqlrank.judgments(qrels_table) WHERE relevance >= 0) AS judged
        ON ranked_run.query_id = judged.query_id AND ranked_run.doc_id = judged.doc_id
    WHERE depth IS NULL OR ranked_run.rank <= depth;
