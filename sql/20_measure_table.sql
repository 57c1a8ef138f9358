-- sqlrank.measure_table(qrels_table, judged_table,
--     cutoffs := [NULL], rel := 1, gain := 'linear', discount := 'log2', base := 2,
--     ideal := 'qrels', denominator := 'R', missing := 'zero')
--   -> ([run_id,] query_id, k, cg, dcg, idcg, ndcg, ap, rr, p, r, rprec, success,
--       bpref, num_ret, num_rel, num_rel_ret)
-- sqlrank.measure_table_for(qrels_table, judged_table, columns, <the same parameters>)
--   -> the same columns
--
-- Every measure of sqlrank, per query and per cutoff, from the output of
-- sqlrank.judged_ranking (passed by name). All of it works on that small
-- table, never on the run again, so any number of measures and cutoffs cost
-- one pass over the run. `k` is NULL for "the whole list".
--
-- measure_table_for computes only what the listed `columns` need (e.g.
-- ['ndcg', 'ap']): idcg and ndcg (the ideal rankings), rprec (the relevant
-- ranks of the whole ranking) and bpref (a pass of its own) are NULL unless
-- listed; the other columns are always filled. measure_table lists every
-- column. The work of a branch not needed is
-- cut by a condition on constants, which DuckDB folds to false and then reads
-- nothing for (a join DuckDB would keep even if nothing read its columns).
--
-- Definitions (SPEC §4; trec_eval where it has the measure). With
-- rel_i = 1 when the document at rank i is relevant (label >= rel, label >= 0),
-- R = relevant judgments of the query, N = judged non-relevant ones:
--   cg      Σ_{i<=k} gain(label_i)
--   dcg     Σ_{i<=k} gain(label_i) · discount(i)
--   idcg    dcg@k of the ideal ordering: ideal := 'qrels' (all judged documents
--           with positive labels, retrieved or not; trec_eval) or 'run' (the
--           retrieved labels re-sorted; scikit-learn)
--   ndcg    dcg / idcg; 0 when idcg = 0
--   ap      Σ_{i<=k, rel_i} P@i / denominator; denominator := 'R' (trec_eval,
--           default), 'min_R_k' (min(R, k): Spark, Kaggle apk) or 'retrieved'
--           (relevant documents in the top k); 0 when the denominator is 0
--   rr      1 / first relevant rank <= k; else 0
--   p       relevant in top k / k (k always, even when fewer were retrieved);
--           without k: relevant retrieved / retrieved
--   r       relevant in top k / R; 0 when R = 0
--   rprec   relevant in top R / R; 0 when R = 0
--   success 1 when a relevant document is in the top k, else 0
--   bpref   (1/R) Σ_{relevant retrieved d} (1 - min(n_d, R) / min(N, R)),
--           n_d = judged non-relevant documents ranked above d (term 1 when
--           n_d = 0); unjudged and negative-label documents are skipped
--   num_ret, num_rel (= R), num_rel_ret (relevant in top k)
--
-- How: one list per ranking of the judged documents that count (relevant, or
-- with a gain) and rank 1, which keeps every ranking and its num_ret, sorted by
-- rank; each cutoff takes a prefix of it. Sums over a prefix add in rank order,
-- as trec_eval does, so every run gives the same bits (an aggregate's sum() adds
-- in thread order and varies in the last bit; sum(... ORDER BY rank) took this
-- statement from 0.37 s to 0.55 s on 10M rows, the list 0.35 s). AP's P@i needs
-- each relevant document's place among the relevant ones: its position in the
-- list of relevant ranks. The ideal rankings are lists of gains best first,
-- turned into IDCG@k by sqlrank.ideal_dcg.
--
-- Division: every denominator is wrapped in NULLIF(..., 0) and the quotient in
-- coalesce(..., 0) where 0 is the answer (x / 0 is NULL in DuckDB 1.x but
-- +-infinity in DuckDB 2.0; NULLIF makes both, and standard SQL, agree).
--
-- Which queries: every query of the qrels, for every run of the judged table.
-- A qrels query with no retrieved document is scored 0 (missing := 'zero',
-- trec_eval -c), left out ('skip', trec_eval 9 / pytrec_eval) or refused
-- ('error', trec_eval 10). Run queries without judgments are left out.
-- every measure column of measure_table, in its order
CREATE OR REPLACE MACRO sqlrank.measure_columns() AS
    ['cg', 'dcg', 'idcg', 'ndcg', 'ap', 'rr', 'p', 'r', 'rprec', 'success', 'bpref', 'num_ret', 'num_rel', 'num_rel_ret'];

CREATE OR REPLACE MACRO sqlrank.measure_table_for(
    qrels_table, judged_table, columns,
    cutoffs := [NULL], rel := 1, gain := 'linear', discount := 'log2', base := 2,
    ideal := 'qrels', denominator := 'R', missing := 'zero'
) AS TABLE
WITH
checked_choices AS (
    -- validated once here, so that the CASEs below compare constants and
    -- DuckDB can fold them (and drop the work of the branches not taken)
    SELECT
        sqlrank.choice(ideal, ['qrels', 'run'], 'ideal') AS checked_ideal,
        sqlrank.choice(denominator, ['R', 'min_R_k', 'retrieved'], 'denominator') AS checked_denominator,
        sqlrank.choice(missing, ['zero', 'skip', 'error'], 'missing') AS checked_missing,
        sqlrank.gain(1, kind := gain) + sqlrank.discount(1, kind := discount, base := base) AS checked_gain_discount,
        CASE
            WHEN list_has_all(sqlrank.measure_columns(), columns) THEN true
            ELSE error('sqlrank: unknown column in ' || CAST(columns AS VARCHAR))
        END AS checked_columns
),
cutoff_list AS (
    -- "no cutoff" becomes the largest BIGINT so that `rank <= cutoff` always holds
    SELECT DISTINCT
        CASE
            WHEN requested.k IS NULL THEN CAST(9223372036854775807 AS BIGINT)
            WHEN requested.k >= 1 THEN CAST(requested.k AS BIGINT)
            ELSE error('sqlrank: cutoff k must be a whole number >= 1, got ' || CAST(requested.k AS VARCHAR))
        END AS cutoff
    FROM (SELECT unnest(cutoffs) AS k) AS requested
),
stats AS (
    SELECT * FROM sqlrank.judgment_stats(qrels_table, rel := rel, gain := gain)
),
runs AS (
    -- one row per run (no run_id column at all when the run has none): judged_ranking
    -- keeps the rank-1 row of every ranking. `evaluated` gives the row a column
    -- even without run_id.
    SELECT DISTINCT COLUMNS('^(run_id|evaluated)$')
    FROM (SELECT *, true AS evaluated FROM query_table(judged_table) WHERE rank = 1) AS first_rows
),
ranking_documents AS (
    -- one row per ranking: the judged documents that count (relevant, or with a
    -- gain) and rank 1, which keeps every ranking and its num_ret, as a list sorted
    -- by rank (ranks are unique in a ranking, so the struct order is the rank order;
    -- 'ASC' whatever the session's default_order)
    SELECT
        COLUMNS('^(run_id|query_id)$'),
        max(num_ret) AS num_ret,
        list_sort(list(struct_pack(
            rank := rank,
            gain := sqlrank.gain(relevance, kind := gain),
            discounted_gain := sqlrank.gain(relevance, kind := gain) * sqlrank.discount(rank, kind := discount, base := base),
            relevant := sqlrank.is_relevant(relevance, rel := rel)
        )), 'ASC') AS documents
    FROM query_table(judged_table)
    -- judged non-relevant documents add nothing here
    WHERE rank = 1 OR relevance > 0 OR sqlrank.is_relevant(relevance, rel := rel)
    GROUP BY ALL
),
rankings AS (
    -- a ranking's relevant ranks, in rank order (Rprec reads them whole: the top R whatever the cutoff)
    SELECT *, true AS retrieved,
           list_transform(list_filter(documents, lambda d: d.relevant), lambda d: d.rank) AS all_relevant_ranks
    FROM ranking_documents
),
run_ideal AS (
    -- ideal := 'run': the retrieved gains re-sorted, best first
    SELECT
        COLUMNS('^(run_id|query_id)$'),
        list_reverse_sort(list(sqlrank.gain(relevance, kind := gain))) AS run_ideal_gains
    FROM query_table(judged_table)
    WHERE relevance > 0 AND ideal = 'run' AND list_has_any(columns, ['idcg', 'ndcg'])
    GROUP BY ALL
),
discount_list AS (
    -- discount(1), discount(2), ... as far as the longest ideal ranking goes
    SELECT list(sqlrank.discount(position, kind := discount, base := base) ORDER BY position) AS discounts
    FROM (
        SELECT unnest(range(1, greatest(
            (SELECT coalesce(max(len(ideal_gains)), 0) FROM stats),
            (SELECT coalesce(max(len(run_ideal_gains)), 0) FROM run_ideal)) + 1)) AS position
    ) AS positions
    WHERE list_has_any(columns, ['idcg', 'ndcg'])
),
bpref_totals AS (
    -- bpref: for each relevant document in the top k, the judged non-relevant ones ranked above it
    -- (a pass of its own: the ranking lists above leave the judged non-relevant documents out)
    SELECT
        COLUMNS('^(run_id|query_id)$'),
        cutoff,
        sum(CASE WHEN nonrelevant_so_far = 0 THEN 1.0
                 ELSE 1.0 - CAST(least(nonrelevant_so_far, num_rel) AS DOUBLE) / NULLIF(least(num_nonrel, num_rel), 0)
            END ORDER BY rank) AS bpref_sum
    FROM (
        SELECT judged.*, stats.num_rel, stats.num_nonrel, cutoff_list.cutoff
        FROM (
            SELECT
                *,
                -- judged non-relevant documents at ranks <= i (bpref's n)
                sum(CASE WHEN sqlrank.is_judged_nonrelevant(relevance, rel := rel) THEN 1 ELSE 0 END)
                    OVER (PARTITION BY row(*COLUMNS('^(run_id|query_id)$')) ORDER BY rank
                          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS nonrelevant_so_far
            FROM query_table(judged_table)
            WHERE (sqlrank.is_relevant(relevance, rel := rel) OR sqlrank.is_judged_nonrelevant(relevance, rel := rel))
              AND list_contains(columns, 'bpref')
        ) AS judged
        JOIN stats ON judged.query_id = stats.query_id
        JOIN cutoff_list ON judged.rank <= cutoff_list.cutoff
        WHERE sqlrank.is_relevant(judged.relevance, rel := rel)
    ) AS relevant_documents
    GROUP BY ALL
),
universe AS (
    -- every query of the qrels, for every run, with its ranking (joined before the cutoffs
    -- multiply the rows: 100M run rows, 3 cutoffs, 0.2-0.3 s less than joining per cutoff)
    SELECT *
    FROM runs
    CROSS JOIN stats
    CROSS JOIN checked_choices
    NATURAL LEFT JOIN rankings
    -- the NOT NULL tests make the checks run: a column of checked_choices that
    -- nothing reads is pruned with its check (ideal := 'best' passed silently)
    WHERE checked_ideal IS NOT NULL AND checked_denominator IS NOT NULL AND checked_gain_discount IS NOT NULL
      AND checked_columns
      AND CASE
        WHEN retrieved THEN true
        WHEN checked_missing = 'zero' THEN true
        WHEN checked_missing = 'skip' THEN false
        ELSE error('sqlrank: query ''' || query_id || ''' of the qrels has no documents in the run '
                   || '(missing := ''error''); use missing := ''zero'' to score it 0 or ''skip'' to leave it out')
    END
),
hit_totals AS (
    -- every query at every cutoff, from the documents in its top `cutoff` and their relevant
    -- ranks, a prefix of the ranking's (all NULL for a query the run missed: 0 below)
    SELECT
        *,
        -- list sums add in list order, so in rank order, as trec_eval adds: the same bits
        -- on every run (sum() would add in whatever order the threads deliver the rows)
        list_sum(list_transform(top, lambda d: d.gain)) AS cg,
        list_sum(list_transform(top, lambda d: d.discounted_gain)) AS dcg,
        len(relevant_ranks) AS relevant_retrieved,
        relevant_ranks[1] AS first_relevant_rank,
        -- 1/i for each relevant rank i, in rank order
        list_transform(relevant_ranks, lambda r: 1.0 / NULLIF(r, 0)) AS inverse_relevant_ranks
    FROM (
        SELECT
            *,
            list_filter(documents, lambda d: d.rank <= cutoff) AS top,
            list_filter(all_relevant_ranks, lambda r: r <= cutoff) AS relevant_ranks
        FROM universe
        CROSS JOIN cutoff_list
    ) AS per_cutoff
),
totals AS (
    SELECT
        *,
        CASE WHEN ideal = 'run' THEN sqlrank.ideal_dcg(run_ideal_gains, discounts, cutoff)
             ELSE sqlrank.ideal_dcg(ideal_gains, discounts, cutoff)
        END AS ideal_dcg,
        -- Rprec: relevant documents in the top R (counted only when asked for, as bpref)
        CASE WHEN list_contains(columns, 'rprec') THEN len(list_filter(all_relevant_ranks, lambda r: r <= num_rel)) END
            AS relevant_in_top_r,
        -- Σ P@i over the relevant ranks i: (1/i) · (relevant so far)
        list_inner_product(inverse_relevant_ranks, CAST(range(1, len(inverse_relevant_ranks) + 1) AS DOUBLE[])) AS precision_sum,
        CASE
            WHEN denominator = 'min_R_k' THEN least(num_rel, cutoff)
            WHEN denominator = 'retrieved' THEN relevant_retrieved
            ELSE num_rel
        END AS ap_denominator
    FROM hit_totals
    NATURAL LEFT JOIN run_ideal
    NATURAL LEFT JOIN bpref_totals
    CROSS JOIN discount_list
)
SELECT
    COLUMNS('^(run_id|query_id)$'),
    CASE WHEN cutoff = 9223372036854775807 THEN NULL ELSE cutoff END AS k,
    coalesce(cg, 0) AS cg,
    coalesce(dcg, 0) AS dcg,
    CASE WHEN list_has_any(columns, ['idcg', 'ndcg']) THEN ideal_dcg END AS idcg,
    -- DCG <= IDCG (non-negative gains, non-increasing discounts, the ideal ranking is the
    -- best order), but the two add the same products in different orders: for the ideal
    -- ranking the quotient can come out 1 + 1 ulp. least() gives trec_eval's exact 1 there
    -- and moves nothing else.
    CASE WHEN list_has_any(columns, ['idcg', 'ndcg']) THEN least(coalesce(dcg / NULLIF(ideal_dcg, 0), 0), 1.0) END AS ndcg,
    coalesce(precision_sum / NULLIF(ap_denominator, 0), 0) AS ap,
    coalesce(1.0 / NULLIF(first_relevant_rank, 0), 0) AS rr,
    coalesce(CAST(relevant_retrieved AS DOUBLE)
             / NULLIF(CASE WHEN cutoff = 9223372036854775807 THEN num_ret ELSE cutoff END, 0), 0) AS p,
    coalesce(CAST(relevant_retrieved AS DOUBLE) / NULLIF(num_rel, 0), 0) AS r,
    CASE WHEN list_contains(columns, 'rprec') THEN coalesce(CAST(relevant_in_top_r AS DOUBLE) / NULLIF(num_rel, 0), 0) END AS rprec,
    CAST(CASE WHEN first_relevant_rank IS NULL THEN 0 ELSE 1 END AS DOUBLE) AS success,
    CASE WHEN list_contains(columns, 'bpref') THEN coalesce(bpref_sum / NULLIF(num_rel, 0), 0) END AS bpref,
    -- (least() skips NULLs, so a missing query needs the explicit CASE)
    CAST(CASE WHEN num_ret IS NULL THEN 0 ELSE least(num_ret, cutoff) END AS DOUBLE) AS num_ret,
    CAST(coalesce(num_rel, 0) AS DOUBLE) AS num_rel,
    CAST(coalesce(relevant_retrieved, 0) AS DOUBLE) AS num_rel_ret
FROM totals;

CREATE OR REPLACE MACRO sqlrank.measure_table(
    qrels_table, judged_table,
    cutoffs := [NULL], rel := 1, gain := 'linear', discount := 'log2', base := 2,
    ideal := 'qrels', denominator := 'R', missing := 'zero'
) AS TABLE
SELECT * FROM sqlrank.measure_table_for(
    qrels_table, judged_table,
    sqlrank.measure_columns(),
    cutoffs := cutoffs, rel := rel, gain := gain, discount := discount, base := base,
    ideal := ideal, denominator := denominator, missing := missing
);
