-- sqlrank.judge_rankings(ranking) -> [ranking struct]
-- sqlrank.judge_split_rankings(qrels_table, judged_table, judge_table, missing := 'zero')
-- sqlrank.judge_run_rankings(judge_table, run_table, depth, missing, score_precision, ties, run_columns)
--   -> sqlrank.subtopic_rankings' (and sqlrank.subtopic_run_rankings') rows with ranking.judges added,
--      sqlrank.judge_rankings(ranking) made once a query for every measure that reads it
--
-- trec_eval's multi-judge qrels (`-R qrels_jg`, get_qrels_jg.c: `qid judge docno rel`, the second
-- field naming the judgment group) reach the measures as subtopic qrels do (sql/23_subtopics.sql),
-- each judge a "subtopic" numbered 1.. within the query. This splits ranking.intents into one
-- ranking struct per judge of the query, shaped as the one every measure reads (documents as
-- (rank, label) with labels >= 0, num_ret, labels highest first), ranking.judges, so the `*_avgjg` measures
-- compute a measure against each judge's qrels with the shared parts of 21_ranking_parts.sql and
-- average over the judges (form_res_rels_jg.c). A query's judges are those its own judgments name;
-- a judge's negative label counts as unjudged, as trec_eval reads it.
--
-- Example: judge 1 says a=1 b=0, judge 2 says b=1; ranking a b:
--   judge 1: documents [(1, 1), (2, 0)], labels [1, 0];  judge 2: documents [(2, 1)], labels [1]
CREATE OR REPLACE MACRO sqlrank.judge_labels(judgments, judge) AS
    list_transform(list_filter(judgments, lambda by_judge: by_judge.subtopic = judge AND by_judge.relevance >= 0),
                   lambda by_judge: by_judge.relevance);

CREATE OR REPLACE MACRO sqlrank.judge_rankings(ranking) AS
    list_transform(range(1, ranking.intents.subtopics + 1), lambda judge: struct_pack(
        documents := flatten(list_transform(ranking.intents.documents, lambda retrieved: list_transform(
            sqlrank.judge_labels(retrieved.judgments, judge),
            lambda judged_label: struct_pack(rank := retrieved.rank, label := judged_label)))),
        num_ret := ranking.num_ret,
        labels := list_reverse_sort(flatten(list_transform(ranking.intents.judged,
            lambda judged: sqlrank.judge_labels(judged.judgments, judge))))));

CREATE OR REPLACE MACRO sqlrank.judge_split_rankings(qrels_table, judged_table, judge_table, missing := 'zero') AS TABLE
    SELECT * REPLACE (struct_insert(ranking, judges := sqlrank.judge_rankings(ranking)) AS ranking)
    FROM sqlrank.subtopic_rankings(qrels_table, judged_table, judge_table, missing := missing);

-- The DuckDB shell's door (the multi-judge measures' table macros, sqlrank/macros.py): multi-judge qrels
-- (query_id, judge_id, doc_id, relevance) and a run, each a table or view name
CREATE OR REPLACE MACRO sqlrank.judge_run_rankings(judge_table, run_table, depth := NULL, missing := 'zero',
                                                   score_precision := 'double', ties := 'trec',
                                                   run_columns := NULL) AS TABLE
    SELECT * REPLACE (struct_insert(ranking, judges := sqlrank.judge_rankings(ranking)) AS ranking)
    FROM sqlrank.subtopic_run_rankings(judge_table, run_table, depth := depth, missing := missing,
                                       score_precision := score_precision, ties := ties, run_columns := run_columns);

-- the mean over the query's judges of one value per judge (trec_eval adds them in judge order and
-- divides by their number); 0 for a query without judges
CREATE OR REPLACE MACRO sqlrank.judges_mean(per_judge) AS
    coalesce(list_sum(per_judge) / NULLIF(len(per_judge), 0), 0);
