-- sqlrank.measure_table(qrels_table, judged_table,
--     cutoffs := [NULL], rel := 1, gain := 'linear', discount := 'log2', base := 2,
--     ideal := 'qrels', denominator := 'R', missing := 'zero')
--   -> ([run_id,] query_id, k, cg, dcg, idcg, ndcg, ap, rr, p, r, rprec, success,
--       bpref, num_ret, num_rel, num_rel_ret)
--
-- Every measure of sqlrank, per query and per cutoff, from the output of
-- sqlrank.judged_ranking (passed by name). All of it works on that small
-- table, never on the run again, so any number of measures and cutoffs cost
-- one pass over the run. `k` is NULL for "the whole list".
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
-- Division: every denominator is wrapped in NULLIF(..., 0) and the quotient in
-- coalesce(..., 0) where 0 is the answer (x / 0 is NULL in DuckDB 1.x but
-- +-infinity in DuckDB 2.0; NULLIF makes both, and standard SQL, agree).
--
-- Which queries: every query of the qrels, for every run of the judged table.
-- A qrels query with no retrieved document is scored 0 (missing := 'zero',
-- trec_eval -c), left out ('skip', trec_eval 9 / pytrec_eval) or refused
-- ('error', trec_eval 10). Run queries without judgments are left out.
CREATE OR REPLACE MACRO sqlrank.measure_table(
    qrels_table, judged_table,
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
        sqlrank.gain(1, kind := gain) + sqlrank.discount(1, kind := discount, base := base) AS checked_gain_discount
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
    -- query_number: a dense integer id, so that the windows and groups below
    -- partition by one BIGINT instead of strings (twice as fast)
    SELECT *, ROW_NUMBER() OVER () AS query_number
    FROM sqlrank.judgment_stats(qrels_table, rel := rel)
),
present AS (
    -- the rankings present: judged_ranking keeps the rank-1 row of every
    -- ranking, so these rows are one per (run, query), no DISTINCT needed
    SELECT COLUMNS('^(run_id|query_id)$'), true AS retrieved
    FROM query_table(judged_table)
    WHERE rank = 1
),
runs AS (
    -- one row per run (no run_id column at all when the run has none)
    SELECT *, ROW_NUMBER() OVER () AS run_number
    FROM (SELECT DISTINCT * EXCLUDE (query_id, retrieved), true AS evaluated FROM present) AS distinct_runs
),
positions AS (
    SELECT
        judged.relevance,
        judged.rank,
        judged.num_ret,
        stats.num_rel,
        stats.num_nonrel,
        runs.run_number * 4294967296 + stats.query_number AS ranking_number,
        sqlrank.is_relevant(judged.relevance, rel := rel) AS relevant,
        sqlrank.is_judged_nonrelevant(judged.relevance, rel := rel) AS nonrelevant
    -- `evaluated` is on both sides so the natural join has a column even without run_id
    FROM (SELECT *, true AS evaluated FROM query_table(judged_table)) AS judged
    NATURAL JOIN runs
    JOIN stats ON judged.query_id = stats.query_id
),
counted AS (
    SELECT
        *,
        -- relevant documents at ranks <= i: P@i at a relevant rank i is this / i
        sum(CASE WHEN relevant THEN 1 ELSE 0 END) OVER running AS relevant_so_far,
        -- judged non-relevant documents at ranks <= i (bpref's n)
        sum(CASE WHEN nonrelevant THEN 1 ELSE 0 END) OVER running AS nonrelevant_so_far
    FROM positions
    WINDOW running AS (PARTITION BY ranking_number ORDER BY rank ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
hit_totals AS (
    SELECT
        ranking_number,
        cutoff_list.cutoff,
        max(num_ret) AS num_ret,
        sum(CASE WHEN rank <= cutoff THEN sqlrank.gain(relevance, kind := gain) ELSE 0 END) AS cg,
        sum(CASE WHEN rank <= cutoff
                 THEN sqlrank.gain(relevance, kind := gain) * sqlrank.discount(rank, kind := discount, base := base)
                 ELSE 0 END) AS dcg,
        sum(CASE WHEN relevant AND rank <= cutoff THEN 1 ELSE 0 END) AS relevant_retrieved,
        sum(CASE WHEN relevant AND rank <= cutoff THEN CAST(relevant_so_far AS DOUBLE) / NULLIF(rank, 0) ELSE 0 END) AS precision_sum,
        min(CASE WHEN relevant AND rank <= cutoff THEN rank END) AS first_relevant_rank,
        sum(CASE WHEN relevant AND rank <= num_rel THEN 1 ELSE 0 END) AS relevant_in_top_r,
        sum(CASE WHEN relevant AND rank <= cutoff
                 THEN CASE WHEN nonrelevant_so_far = 0 THEN 1.0
                           ELSE 1.0 - CAST(least(nonrelevant_so_far, num_rel) AS DOUBLE) / NULLIF(least(num_nonrel, num_rel), 0)
                      END
                 ELSE 0 END) AS bpref_sum
    FROM counted
    CROSS JOIN cutoff_list
    GROUP BY ranking_number, cutoff_list.cutoff
),
run_ideal_totals AS (
    -- ideal := 'run': the retrieved labels re-sorted, best first
    SELECT
        ranking_number,
        cutoff_list.cutoff,
        sum(CASE WHEN run_ideal_rank <= cutoff
                 THEN sqlrank.gain(relevance, kind := gain) * sqlrank.discount(run_ideal_rank, kind := discount, base := base)
                 ELSE 0 END) AS run_idcg
    FROM (
        SELECT ranking_number, relevance,
               ROW_NUMBER() OVER (PARTITION BY ranking_number ORDER BY relevance DESC, rank) AS run_ideal_rank
        FROM positions
        WHERE relevance > 0
    ) AS run_ideal
    CROSS JOIN cutoff_list
    GROUP BY ranking_number, cutoff_list.cutoff
),
ideal_totals AS (
    -- ideal := 'qrels': every positive judgment, retrieved or not
    SELECT
        ideal_ranking.query_id,
        cutoff_list.cutoff,
        sum(CASE WHEN ideal_rank <= cutoff
                 THEN sqlrank.gain(relevance, kind := gain) * sqlrank.discount(ideal_rank, kind := discount, base := base)
                 ELSE 0 END) AS qrels_idcg
    FROM sqlrank.ideal_ranking(qrels_table) AS ideal_ranking
    CROSS JOIN cutoff_list
    GROUP BY ideal_ranking.query_id, cutoff_list.cutoff
),
universe AS (
    SELECT *, run_number * 4294967296 + query_number AS ranking_number
    FROM runs
    CROSS JOIN stats
    NATURAL LEFT JOIN present
    CROSS JOIN cutoff_list
    CROSS JOIN checked_choices
    -- the NOT NULL tests make the checks run: a column of checked_choices that
    -- nothing reads is pruned with its check (ideal := 'best' passed silently)
    WHERE checked_ideal IS NOT NULL AND checked_denominator IS NOT NULL AND checked_gain_discount IS NOT NULL
      AND CASE
        WHEN retrieved THEN true
        WHEN checked_missing = 'zero' THEN true
        WHEN checked_missing = 'skip' THEN false
        ELSE error('sqlrank: query ''' || query_id || ''' of the qrels has no documents in the run '
                   || '(missing := ''error''); use missing := ''zero'' to score it 0 or ''skip'' to leave it out')
    END
),
totals AS (
    SELECT
        *,
        CASE WHEN ideal = 'run' THEN coalesce(run_idcg, 0) ELSE coalesce(qrels_idcg, 0) END AS ideal_dcg,
        CASE
            WHEN denominator = 'min_R_k' THEN least(num_rel, cutoff)
            WHEN denominator = 'retrieved' THEN relevant_retrieved
            ELSE num_rel
        END AS ap_denominator
    FROM universe
    NATURAL LEFT JOIN hit_totals
    NATURAL LEFT JOIN run_ideal_totals
    NATURAL LEFT JOIN ideal_totals
)
SELECT
    COLUMNS('^(run_id|query_id)$'),
    CASE WHEN cutoff = 9223372036854775807 THEN NULL ELSE cutoff END AS k,
    coalesce(cg, 0) AS cg,
    coalesce(dcg, 0) AS dcg,
    ideal_dcg AS idcg,
    coalesce(dcg / NULLIF(ideal_dcg, 0), 0) AS ndcg,
    coalesce(precision_sum / NULLIF(ap_denominator, 0), 0) AS ap,
    coalesce(1.0 / NULLIF(first_relevant_rank, 0), 0) AS rr,
    coalesce(CAST(relevant_retrieved AS DOUBLE)
             / NULLIF(CASE WHEN cutoff = 9223372036854775807 THEN num_ret ELSE cutoff END, 0), 0) AS p,
    coalesce(CAST(relevant_retrieved AS DOUBLE) / NULLIF(num_rel, 0), 0) AS r,
    coalesce(CAST(relevant_in_top_r AS DOUBLE) / NULLIF(num_rel, 0), 0) AS rprec,
    CAST(CASE WHEN first_relevant_rank IS NULL THEN 0 ELSE 1 END AS DOUBLE) AS success,
    coalesce(bpref_sum / NULLIF(num_rel, 0), 0) AS bpref,
    -- (least() skips NULLs, so a missing query needs the explicit CASE)
    CAST(CASE WHEN num_ret IS NULL THEN 0 ELSE least(num_ret, cutoff) END AS DOUBLE) AS num_ret,
    CAST(coalesce(num_rel, 0) AS DOUBLE) AS num_rel,
    CAST(coalesce(relevant_retrieved, 0) AS DOUBLE) AS num_rel_ret
FROM totals;
