-- sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double',
--     one_run := false, zero_labels := true, negative_labels := false, ties := 'trec')
--   -> ([run_id,] query_id, doc_id, relevance, rank, num_ret)
--
-- The one pass over the run that every measure needs: attach the judgment
-- of each retrieved document, rank the run (trec_eval's order, as in
-- sqlrank.ranked), keep the top `depth` documents of each ranking
-- (trec_eval -M; NULL keeps all). The run is sorted once at most; the
-- full_ranking plan reads it twice, the second time only its query_id
-- column, to count num_ret (see retrieved_counts). one_run: as in sqlrank.ranked (a table
-- with no run_id column, holding one run; the engine sets it).
--
-- Only documents that carry information are kept: judged documents with a
-- label >= 0, plus the rank-1 row of every ranking (relevance NULL when
-- unjudged) so that each retrieved query, and its num_ret, is still present.
-- Unjudged documents and negative labels add nothing to any measure (no
-- gain, never relevant, never judged non-relevant), so dropping them here
-- keeps everything after this pass small. zero_labels := false drops the
-- label-0 judgments too: they have no gain and are relevant only for rel <= 0,
-- so only bpref (judged non-relevant documents) and rel <= 0 read them; the
-- engine passes false when no measure asked needs them (the registry's
-- judged_nonrelevant), which halves the table when most judgments are 0.
--
-- negative_labels := true keeps the negative labels too ("judged but unusable"),
-- which count as unjudged everywhere except for the measures that tell them
-- apart from documents never judged (infAP's pool, Judged).
--
-- ties decides the order of documents with equal scores (docs/tie-policies.md):
--   trec         doc id descending (trec_eval; the default)
--   docid_asc    doc id ascending (ir_measures' msmarco provider)
--   input        the run's own order, its input_rank column ascending (a TREC run's rank field, a
--                table's rank column, else its row number: the readers keep it only when asked);
--                scores are not read, and ranks given twice are the readers' (or the shell's) error
--   optimistic   the higher label first, pessimistic the lower label first; unjudged
--                documents and negative labels count as one class below label 0, and
--                documents of one class keep trec's order (doc id descending)
--   average      not ranked here: sqlrank.tie_groups keeps the tie groups instead
--
-- Four plans, one result; the depth and ties pick one by name (query_table of a constant), so that a
-- call binds that one alone; each plan's input is also filtered by its constant condition:
--   full_ranking  depth NULL or > 32: one window numbers every document
--                 (sqlrank.ranked), reading the run directly: nothing between
--                 the scan and the window, so DuckDB can rank a run clustered
--                 by query_id in slices of query_ids (partitioned execution).
--                 The window's output is then cut, in the same pipeline, to
--                 rank 1 and the documents whose pair's 64-bit hash is among
--                 the judged pairs' hashes, and only those few are joined with
--                 the judgments on the ids themselves (which also drops a
--                 document kept by a mere hash collision): joining every
--                 document before the window keeps a hash table of two strings
--                 a pair beside the window's and stops the slicing.
--   top_ranking   depth <= 32: a bounded heap per ranking keeps only the best
--                 `depth` (score, doc_id) pairs, so the run is never sorted;
--                 only those few rows are then joined with the judgments.
--                 Past a few dozen the heap costs more than the sort.
--   ordered_ranking  docid_asc and input: full_ranking with the policy's order in the window
--                 (no label is needed to order, so the judged documents are marked after
--                 it, and num_ret counted by retrieved_counts, exactly as for trec).
--   policy_ranking   optimistic and pessimistic: the judgments are joined to every document
--                 first (they order by label), then one window numbers the documents.
-- (The measurements behind both: docs/performance.md#the-ranking-pass.)
-- The pieces every plan shares, and the full_ranking plan on its own, which the engine calls directly
-- for ties = 'trec' over the whole run (sqlrank.judged_full_ranking below): binding the other three plans
-- cost a small evaluation a quarter of this pass (docs/performance.md, "Everyday sizes, round two").
--
-- The judgments the pass keeps: labels > 0, and 0 or negative ones when asked.
CREATE OR REPLACE MACRO sqlrank.pass_judgments(qrels_table, zero_labels, negative_labels) AS TABLE
    SELECT * FROM sqlrank.judgments(qrels_table)
    WHERE relevance > 0 OR (relevance = 0 AND zero_labels) OR (relevance < 0 AND negative_labels);

-- The full_ranking plan's kept documents, ([run_id,] query_id, doc_id, rank, num_ret), from a run
-- table read twice: by the window, and for its query_id column alone.
CREATE OR REPLACE MACRO sqlrank.full_ranking(judgment_table, run_table, depth, score_precision, one_run) AS TABLE
    WITH marked_ranks AS (
        -- only known columns, so that the natural join below joins on the ranking's keys alone;
        -- ranked's own num_ret is not read, and DuckDB drops its window count.
        -- The mark: equal pairs hash equally, so no judged document goes unmarked; a collision
        -- marks one too many, which the final join drops
        SELECT COLUMNS('^((?i:run_id)|query_id|doc_id|rank)$')
        FROM sqlrank.ranked(run_table, score_precision := score_precision, one_run := one_run)
        WHERE (rank = 1 OR hash(query_id, doc_id) IN (SELECT hash(query_id, doc_id) FROM query_table(judgment_table)))
          AND (depth IS NULL OR rank <= depth)
    ),
    retrieved_counts AS (
        -- num_ret by a grouped count over a second read of the run's query_id column:
        -- cheaper than a count over the whole window partition, and than carrying each
        -- ranking's last rank back onto the kept rows (docs/performance.md#the-ranking-pass)
        SELECT COLUMNS('^((?i:run_id)|query_id)$'), count(*) AS retrieved
        FROM sqlrank.run_rows(run_table)
        GROUP BY ALL
    )
    SELECT
        * EXCLUDE (retrieved),
        CASE WHEN depth IS NULL THEN retrieved ELSE least(retrieved, depth) END AS num_ret
    FROM marked_ranks NATURAL JOIN retrieved_counts;

-- Any plan's few kept documents, joined with the judgments on the ids themselves: the judged ones
-- keep their label, the others only as rank 1 (and a document the full plan kept for a mere hash
-- collision goes).
CREATE OR REPLACE MACRO sqlrank.judge_kept(kept_table, judgment_table) AS TABLE
    SELECT kept.* EXCLUDE (rank, num_ret), judgment.relevance, kept.rank, kept.num_ret
    FROM query_table(kept_table) AS kept
    LEFT JOIN query_table(judgment_table) AS judgment
        ON kept.query_id = judgment.query_id AND kept.doc_id = judgment.doc_id
    WHERE judgment.relevance IS NOT NULL OR kept.rank = 1;

-- sqlrank.judged_full_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double',
--     one_run := false, zero_labels := true, negative_labels := false)
-- judged_ranking's rows for ties = 'trec' with depth NULL or > 32, by its full_ranking plan alone.
CREATE OR REPLACE MACRO sqlrank.judged_full_ranking(qrels_table, run_table, depth := NULL,
                                                    score_precision := 'double', one_run := false,
                                                    zero_labels := true, negative_labels := false) AS TABLE
    WITH sqlrank_judgment AS (
        SELECT * FROM sqlrank.pass_judgments(qrels_table, zero_labels, negative_labels)
    ),
    kept AS (
        SELECT * FROM sqlrank.full_ranking('sqlrank_judgment', run_table, depth, score_precision, one_run)
    )
    SELECT * FROM sqlrank.judge_kept('kept', 'sqlrank_judgment');

-- max(struct, n) compares (score, doc_id) field by field and lists the best
-- first: score descending, equal scores by doc_id descending, exactly the
-- window's ORDER BY.
CREATE OR REPLACE MACRO sqlrank.judged_ranking(qrels_table, run_table, depth := NULL, score_precision := 'double',
                                               one_run := false, zero_labels := true,
                                               negative_labels := false, ties := 'trec') AS TABLE
    WITH sqlrank_judgment AS (
        SELECT * FROM sqlrank.pass_judgments(qrels_table, zero_labels, negative_labels)
    ),
    sqlrank_full_ranking_input AS NOT MATERIALIZED (
        -- read by the window and by the count of num_ret (sqlrank.full_ranking): a scan each, never a copy
        SELECT * FROM query_table(run_table) WHERE (depth IS NULL OR depth > 32) AND ties = 'trec'
    ),
    full_ranking AS (
        SELECT * FROM sqlrank.full_ranking('sqlrank_judgment', 'sqlrank_full_ranking_input', depth, score_precision,
                                           one_run)
    ),
    best_per_ranking AS (
        SELECT
            COLUMNS('^((?i:run_id)|query_id)$'),
            max(struct_pack(score := sqlrank.ranking_score(score, score_precision), doc_id := doc_id),
                coalesce(depth, 1)) AS best,
            count(*) AS num_ret
        FROM sqlrank.run_rows(run_table)
        -- the same check as in sqlrank.ranked, which this plan does not call: a valid value folds away
        WHERE depth <= 32 AND ties = 'trec'
          AND sqlrank.choice(score_precision, ['double', 'float32'], 'score_precision') IS NOT NULL
        GROUP BY ALL
    ),
    top_ranked AS (
        SELECT
            COLUMNS('^((?i:run_id)|query_id)$'),
            unnest(best).doc_id AS doc_id,
            generate_subscripts(best, 1) AS rank,
            least(num_ret, depth) AS num_ret
        FROM best_per_ranking
    ),
    ordered_ranks AS (
        -- marked as in marked_ranks; each window reads the run directly, as sqlrank.ranked's does
        SELECT COLUMNS('^((?i:run_id)|query_id|doc_id|rank)$')
        FROM (
            SELECT *, ROW_NUMBER() OVER (
                PARTITION BY CASE WHEN one_run THEN query_id ELSE concat_ws(chr(0), *COLUMNS('^(run_id|query_id)$')) END
                ORDER BY sqlrank.ranking_score(score, score_precision) DESC, doc_id ASC) AS rank
            FROM sqlrank.run_rows(run_table)
            WHERE ties = 'docid_asc'
            UNION ALL BY NAME
            SELECT *, ROW_NUMBER() OVER (
                PARTITION BY CASE WHEN one_run THEN query_id ELSE concat_ws(chr(0), *COLUMNS('^(run_id|query_id)$')) END
                ORDER BY given_rank ASC) AS rank
            FROM (
                -- input_rank when the run has it; binds (all NULL) when it has not, for the other policies
                SELECT COLUMNS('^(run_id|query_id|doc_id)$'), coalesce(*COLUMNS('^(input_rank|sqlrank_absent)$')) AS given_rank
                FROM (SELECT *, NULL AS sqlrank_absent FROM sqlrank.run_rows(run_table)) AS run
            ) AS given
            WHERE ties = 'input'
        ) AS ordered
        WHERE (rank = 1 OR hash(query_id, doc_id) IN (SELECT hash(query_id, doc_id) FROM sqlrank_judgment))
          AND (depth IS NULL OR rank <= depth)
          AND sqlrank.choice(score_precision, ['double', 'float32'], 'score_precision') IS NOT NULL
    ),
    ordered_counts AS (
        -- retrieved_counts for this plan: one shared CTE would make DuckDB compute trec's once
        -- into a temporary result (a common subplan), which trec's plan did not do before
        SELECT COLUMNS('^((?i:run_id)|query_id)$'), count(*) AS retrieved
        FROM sqlrank.run_rows(run_table)
        WHERE ties IN ('docid_asc', 'input')
        GROUP BY ALL
    ),
    ordered_ranking AS (
        SELECT
            * EXCLUDE (retrieved),
            CASE WHEN depth IS NULL THEN retrieved ELSE least(retrieved, depth) END AS num_ret
        FROM ordered_ranks NATURAL JOIN ordered_counts
    ),
    policy_ranked AS (
        SELECT
            COLUMNS('^(run_id|query_id|doc_id)$'),
            ROW_NUMBER() OVER policy AS rank,
            count(*) OVER (policy ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS num_ret,
            relevance
        FROM (
            SELECT run.*, judgment.relevance
            FROM sqlrank.run_rows(run_table) AS run
            LEFT JOIN sqlrank_judgment AS judgment
                ON run.query_id = judgment.query_id AND run.doc_id = judgment.doc_id
            -- (ties is checked where kept names the plan)
            WHERE ties IN ('optimistic', 'pessimistic')
              AND sqlrank.choice(score_precision, ['double', 'float32'], 'score_precision') IS NOT NULL
        ) AS policy_input
        WINDOW policy AS (
            PARTITION BY CASE WHEN one_run THEN query_id ELSE concat_ws(chr(0), *COLUMNS('^(run_id|query_id)$')) END
            ORDER BY sqlrank.ranking_score(score, score_precision) DESC,
                     sqlrank.tie_key(relevance, ties) ASC,
                     doc_id DESC
        )
    ),
    policy_ranking AS (
        SELECT * EXCLUDE (num_ret), CASE WHEN depth IS NULL THEN num_ret ELSE least(num_ret, depth) END AS num_ret
        FROM policy_ranked
        WHERE (rank = 1 OR relevance IS NOT NULL) AND (depth IS NULL OR rank <= depth)
    ),
    kept AS (
        -- the plan named by a constant: DuckDB binds only the CTE query_table reads (average: full_ranking's,
        -- empty, as its input is trec's alone)
        SELECT COLUMNS('^((?i:run_id)|query_id|doc_id|rank|num_ret)$')
        FROM query_table(CASE
            WHEN sqlrank.choice(ties, ['trec', 'docid_asc', 'optimistic', 'pessimistic', 'average', 'input'],
                                'ties') IN ('docid_asc', 'input') THEN 'ordered_ranking'
            WHEN ties IN ('optimistic', 'pessimistic') THEN 'policy_ranking'
            WHEN ties = 'trec' AND depth <= 32 THEN 'top_ranked'
            ELSE 'full_ranking' END)
    )
    SELECT * FROM sqlrank.judge_kept('kept', 'sqlrank_judgment');
