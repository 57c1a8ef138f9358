-- sqlrank.rankings(qrels_table, judged_table, missing := 'zero')
--   -> ([run_id,] query_id, ranking)
-- sqlrank.run_rankings(qrels_table, run_table, depth := NULL, missing := 'zero',
--     score_precision := 'double', zero_labels := true, negative_labels := false, judged_only := false,
--     ties := 'trec', qrels_columns := NULL, run_columns := NULL, validate := true)
--   -> the same, straight from a run (sqlrank.judged_ranking, then sqlrank.rankings)
-- sqlrank.tied_rankings(qrels_table, tie_groups_table, missing := 'zero')
-- sqlrank.tied_run_rankings(qrels_table, run_table, missing := 'zero', score_precision := 'double',
--     zero_labels := true, negative_labels := false, ties := 'average', qrels_columns := NULL,
--     run_columns := NULL, depth := NULL, judged_only := false)
--   -> the same for ties := 'average', from sqlrank.tie_groups: each document is
--      (rank, label, tied), rank its tie group's first place and tied the group's size
--
-- What every measure reads: one row per query of the qrels and run, holding
-- everything the measures need about that ranking in one struct:
--
--   ranking.documents  the judged documents the run retrieved for the query,
--                      as (rank, label) in rank order; labels >= 0 (a negative
--                      label means "judged but unusable" and counts as
--                      unjudged), label-0 documents only when zero_labels,
--                      negative ones only when negative_labels
--   ranking.num_ret    the number of documents retrieved (within depth); 0
--                      for a query the run did not retrieve anything for
--   ranking.labels     every judgment label of the query, highest first,
--                      retrieved or not (R, the ideal ranking, bpref's N)
--
-- Each measure is a scalar macro sqlrank.measure_<name>(ranking, k, ...) over
-- this struct (sql/measures/), so any number of measures and cutoffs is one
-- more column of one SELECT, and the run itself is read once, by
-- sqlrank.judged_ranking. k is NULL for "the whole list".
--
-- Which rows: every query of the qrels, for every run of the judged table.
-- A qrels query the run did not retrieve is scored from an empty ranking
-- (missing := 'zero', trec_eval -c), left out ('skip', trec_eval 9 /
-- pytrec_eval) or refused ('error', trec_eval 10). Run queries without
-- judgments are left out, as trec_eval leaves them out.
--
-- Whether a query of the qrels gets a row for a run: when the run retrieved for it (num_ret is not
-- NULL), else as `missing` says (scored 0, left out, or an error naming it)
CREATE OR REPLACE MACRO sqlrank.keeps_query(num_ret, query_id, missing) AS CASE
    WHEN num_ret IS NOT NULL THEN sqlrank.choice(missing, ['zero', 'skip', 'error'], 'missing') IS NOT NULL
    WHEN sqlrank.choice(missing, ['zero', 'skip', 'error'], 'missing') = 'zero' THEN true
    WHEN missing = 'skip' THEN false
    ELSE error('sqlrank: query ''' || query_id || ''' of the qrels has no documents in the run '
               || '(missing := ''error''); use missing := ''zero'' to score it 0 or ''skip'' to leave it out')
END;

-- The two halves every ranking row is made of, shared by sqlrank.rankings and sqlrank.tied_rankings:
-- each qrels query's labels, highest first; and one row per run of a ranked table (no run_id
-- column at all when the table holds one run): the table keeps the rank-1 row of every ranking;
-- `evaluated` gives the row a column even without run_id
-- An empty list of the documents' type, for a query the run missed
CREATE OR REPLACE MACRO sqlrank.no_documents() AS
    list_filter([struct_pack(rank := CAST(1 AS BIGINT), label := CAST(0 AS DOUBLE))], lambda d: false);

-- Whether a table has a run_id column (in any case), from its first row's field names, even without rows:
-- the probe column of UNION ALL BY NAME gives an empty table a row
CREATE OR REPLACE MACRO sqlrank.has_run_id(table_name) AS (
    SELECT list_contains(list_transform(json_keys(to_json(probe)), lambda name: lower(name)), 'run_id')
    FROM (SELECT * FROM query_table(table_name) UNION ALL BY NAME SELECT NULL AS sqlrank_probe) AS probe
    LIMIT 1);

CREATE OR REPLACE MACRO sqlrank.query_labels(qrels_table) AS TABLE
    SELECT query_id, list_reverse_sort(list(relevance)) AS labels
    FROM sqlrank.judgments(qrels_table)
    GROUP BY query_id;

CREATE OR REPLACE MACRO sqlrank.ranked_runs(ranked_table) AS TABLE
    SELECT DISTINCT COLUMNS('^((?i:run_id)|evaluated)$')
    FROM (SELECT *, true AS evaluated FROM query_table(ranked_table) WHERE rank = 1) AS first_rows;

-- Example: judgments A=2, B=0, C=1, D=-1 and a run ranking X, A, B (X unjudged)
-- give documents [(2, 2.0), (3, 0.0)], num_ret 3, labels [2.0, 1.0, 0.0, -1.0].
CREATE OR REPLACE MACRO sqlrank.rankings(qrels_table, judged_table, missing := 'zero') AS TABLE
WITH
query_labels AS (
    SELECT * FROM sqlrank.query_labels(qrels_table)
),
runs AS (
    SELECT * FROM sqlrank.ranked_runs(judged_table)
),
retrieved AS (
    -- ranks are unique in a ranking, so sorting the structs sorts by rank ('ASC' whatever
    -- the session's default order); the rank-1 row of an unjudged document has no label
    SELECT
        COLUMNS('^((?i:run_id)|query_id)$'),
        max(num_ret) AS num_ret,
        list_sort(list(struct_pack(rank := rank, label := relevance)) FILTER (WHERE relevance IS NOT NULL), 'ASC')
            AS documents
    FROM query_table(judged_table)
    GROUP BY ALL
)
SELECT
    COLUMNS('^((?i:run_id)|query_id)$'),
    struct_pack(
        documents := coalesce(documents, sqlrank.no_documents()),
        num_ret := CAST(coalesce(num_ret, 0) AS BIGINT),
        labels := labels
    ) AS ranking
FROM runs
CROSS JOIN query_labels
NATURAL LEFT JOIN retrieved
WHERE sqlrank.keeps_query(num_ret, query_id, missing);

CREATE OR REPLACE MACRO sqlrank.run_rankings(qrels_table, run_table, depth := NULL, missing := 'zero',
                                             score_precision := 'double', zero_labels := true,
                                             negative_labels := false, judged_only := false, ties := 'trec',
                                             qrels_columns := NULL, run_columns := NULL, validate := true) AS TABLE
WITH sqlrank_qrels_input AS NOT MATERIALIZED (
    SELECT * FROM query(sqlrank.qrels_input_sql(qrels_table, qrels_columns))
),
sqlrank_run_input AS NOT MATERIALIZED (
    SELECT * FROM query(sqlrank.run_input_sql(run_table, run_columns, ties := ties))
),
-- judged_only (trec_eval -J): the run's judged documents only (sqlrank.judged_run, which applies depth);
-- a constant, so DuckDB drops the branch not taken. Its depth cuts the ranking by score, which
-- ties := 'input' does not read: that pair is refused
sqlrank_judged_only_run AS (
    SELECT * FROM sqlrank.judged_run('sqlrank_qrels_input', 'sqlrank_run_input', depth := sqlrank.valid_depth(depth),
                                     score_precision := score_precision)
    WHERE judged_only
      AND (depth IS NULL OR ties <> 'input'
           OR error('sqlrank: ties := ''input'' does not take judged_only with a depth yet (the depth would cut '
                    || 'the ranking by score); leave one of them out'))
),
sqlrank_whole_run_ranking AS (
    SELECT * FROM sqlrank.judged_ranking('sqlrank_qrels_input', 'sqlrank_run_input',
                                         depth := sqlrank.valid_depth(depth), score_precision := score_precision,
                                         zero_labels := zero_labels, negative_labels := negative_labels, ties := ties)
    WHERE NOT judged_only
),
sqlrank_judged_only_ranking AS (
    SELECT * FROM sqlrank.judged_ranking('sqlrank_qrels_input', 'sqlrank_judged_only_run',
                                         score_precision := score_precision, zero_labels := zero_labels,
                                         negative_labels := negative_labels, ties := ties)
    WHERE judged_only
),
-- the branch named by a constant: DuckDB binds only the CTE query_table reads (each is also filtered by it)
sqlrank_judged_ranking AS MATERIALIZED (
    SELECT * FROM query_table(CASE WHEN judged_only THEN 'sqlrank_judged_only_ranking'
                                   ELSE 'sqlrank_whole_run_ranking' END)
),
sqlrank_problem AS (
    -- the qrels' problem first, as the Python door loads them first; nothing is read under validate := false
    SELECT coalesce(qrels_check.problem, run_check.problem, pair_check.problem) AS problem
    FROM sqlrank.qrels_problem('sqlrank_qrels_input', qrels_table, qrels_columns) AS qrels_check
    CROSS JOIN sqlrank.run_problem('sqlrank_run_input', run_table, run_columns) AS run_check
    CROSS JOIN sqlrank.pair_problem('sqlrank_qrels_input', 'sqlrank_run_input', run_table) AS pair_check
    WHERE validate
)
SELECT * FROM sqlrank.rankings('sqlrank_qrels_input', 'sqlrank_judged_ranking', missing := missing)
UNION ALL BY NAME
-- a run without rows (one run: no run_id column) retrieved nothing, and is evaluated as in Python: each
-- qrels query as `missing` says
SELECT query_id, struct_pack(documents := sqlrank.no_documents(), num_ret := CAST(0 AS BIGINT), labels := labels)
    AS ranking
FROM sqlrank.query_labels('sqlrank_qrels_input')
-- (a CASE, so that missing := 'error' is asked only of an empty run)
WHERE CASE WHEN NOT EXISTS (SELECT 1 FROM sqlrank_run_input) AND NOT sqlrank.has_run_id('sqlrank_run_input')
           THEN sqlrank.keeps_query(NULL, query_id, missing) ELSE false END
UNION ALL BY NAME
-- no row: the problem, if any, stops the query with its message
SELECT problem AS query_id FROM sqlrank_problem WHERE problem IS NOT NULL;


-- The same query rows and rules as sqlrank.rankings; only the documents differ (their tie groups)
CREATE OR REPLACE MACRO sqlrank.tied_rankings(qrels_table, tie_groups_table, missing := 'zero') AS TABLE
WITH
query_labels AS (
    SELECT * FROM sqlrank.query_labels(qrels_table)
),
runs AS (
    SELECT * FROM sqlrank.ranked_runs(tie_groups_table)
),
retrieved AS (
    -- by group, then label: the documents of one group in a fixed order, which no measure reads
    SELECT
        COLUMNS('^(run_id|query_id)$'),
        max(num_ret) AS num_ret,
        max(cut) AS cut,
        list_sort(list(struct_pack(rank := tie_start, label := relevance, tied := tied))
                  FILTER (WHERE relevance IS NOT NULL), 'ASC') AS documents
    FROM query_table(tie_groups_table)
    GROUP BY ALL
)
SELECT
    COLUMNS('^(run_id|query_id)$'),
    struct_pack(
        documents := coalesce(documents, list_filter([struct_pack(rank := CAST(1 AS BIGINT), label := CAST(0 AS DOUBLE),
                                                                  tied := CAST(1 AS BIGINT))],
                                                     lambda d: false)),
        num_ret := CAST(coalesce(num_ret, 0) AS BIGINT),
        labels := labels,
        cut := cut
    ) AS ranking
FROM runs
CROSS JOIN query_labels
NATURAL LEFT JOIN retrieved
WHERE sqlrank.keeps_query(num_ret, query_id, missing);

-- (its inputs are checked by sqlrank.run_rankings, which the shell macros call beside it)
CREATE OR REPLACE MACRO sqlrank.tied_run_rankings(qrels_table, run_table, missing := 'zero',
                                                  score_precision := 'double', zero_labels := true,
                                                  negative_labels := false, ties := 'average',
                                                  qrels_columns := NULL, run_columns := NULL, depth := NULL,
                                                  judged_only := false) AS TABLE
WITH sqlrank_qrels_input AS NOT MATERIALIZED (
    SELECT * FROM query(sqlrank.qrels_input_sql(qrels_table, qrels_columns))
),
sqlrank_run_input AS NOT MATERIALIZED (
    SELECT * FROM query(sqlrank.run_input_sql(run_table, run_columns))
),
-- judged_only: the tie groups of the judged run (its depth, if any, refused by the shell macros)
sqlrank_judged_only_run AS (
    SELECT * FROM sqlrank.judged_run('sqlrank_qrels_input', 'sqlrank_run_input', score_precision := score_precision)
    WHERE judged_only
),
sqlrank_whole_run_groups AS (
    SELECT * FROM sqlrank.tie_groups('sqlrank_qrels_input', 'sqlrank_run_input', score_precision := score_precision,
                                     zero_labels := zero_labels, negative_labels := negative_labels, ties := ties,
                                     depth := sqlrank.valid_depth(depth))
    WHERE NOT judged_only
),
sqlrank_judged_only_groups AS (
    SELECT * FROM sqlrank.tie_groups('sqlrank_qrels_input', 'sqlrank_judged_only_run',
                                     score_precision := score_precision, zero_labels := zero_labels,
                                     negative_labels := negative_labels, ties := ties)
    WHERE judged_only
),
sqlrank_tie_groups AS MATERIALIZED (
    SELECT * FROM query_table(CASE WHEN judged_only THEN 'sqlrank_judged_only_groups'
                                   ELSE 'sqlrank_whole_run_groups' END)
)
SELECT * FROM sqlrank.tied_rankings('sqlrank_qrels_input', 'sqlrank_tie_groups', missing := missing);
