-- sqlrank.prefs_rankings(qrels_table, judged_table, prefs_table, order_table, missing := 'zero')
--   -> ([run_id,] query_id, ranking), sqlrank.rankings' rows with ranking.prefs added
--
-- order_table: the judged ranking (sqlrank.judged_ranking) whose ranks order the documents. trec_eval's
-- form_prefs_counts breaks ties of score by doc id ascending, not descending as its other measures do:
-- under ties='trec' the engine passes a second pass ranked so (ties := 'docid_asc'), else judged_table.
--
-- What trec_eval's preference measures read (its form_prefs_counts; docs/measures.md#preference-measures),
-- from preferences (query_id, jg, jsg, doc_id, rel_level): within a judgment sub-group (jsg) each
-- document is preferred to every document of a lower rel_level; a judgment group (jg) with several
-- sub-groups also holds the preferences those imply (A > B in one, B > C in another: A > C).
-- A preference A > B is fulfilled when A is retrieved above B, or A is retrieved and B is not;
-- "retrieved" preferences have both documents retrieved, "implied" ones exactly one.
--
--   ranking.prefs.jgs    one struct per judgment group: its preferences counted (ful_ret, poss_ret,
--                        ful_imp, poss_imp, notoccur) and the fulfilled / possible counts of the two
--                        Rnonrel measures (rnonrel_ful, rnonrel_poss, rnonrel_ret_ful, rnonrel_ret_poss)
--   ranking.prefs.pairs  over the document pairs some group orders: the sum of each pair's share of
--                        preferences fulfilled and the number of pairs, both retrieved (ret_*), one
--                        retrieved (imp_*), and the number with neither retrieved (none_n)

-- every preference (better, worse) of every judgment group; a group of several sub-groups is closed
-- transitively, as a set, and a group of one sub-group counts each pair of its lines (trec_eval's two forms)
CREATE OR REPLACE MACRO sqlrank.preference_pairs(prefs_table) AS TABLE
WITH RECURSIVE
lines AS MATERIALIZED (
    SELECT query_id, jg, jsg, doc_id, rel_level FROM query_table(prefs_table)
),
groups AS MATERIALIZED (
    SELECT query_id, jg, count(DISTINCT jsg) > 1 AS partial FROM lines GROUP BY query_id, jg
),
direct AS MATERIALIZED (
    SELECT query_id, jg, better.doc_id AS better, worse.doc_id AS worse, partial
    FROM lines AS better JOIN lines AS worse USING (query_id, jg, jsg) JOIN groups USING (query_id, jg)
    WHERE better.rel_level > worse.rel_level
),
closed(query_id, jg, better, worse) AS (
    SELECT query_id, jg, better, worse FROM direct WHERE partial
    UNION
    SELECT closed.query_id, closed.jg, closed.better, direct.worse
    FROM closed JOIN direct ON closed.query_id = direct.query_id AND closed.jg = direct.jg
                           AND closed.worse = direct.better
    WHERE direct.partial
)
SELECT query_id, jg, better, worse FROM direct WHERE NOT partial
UNION ALL
SELECT query_id, jg, better, worse FROM closed;

CREATE OR REPLACE MACRO sqlrank.prefs_rankings(qrels_table, judged_table, prefs_table, order_table,
                                                missing := 'zero') AS TABLE
WITH
base AS MATERIALIZED (
    SELECT * FROM sqlrank.rankings(qrels_table, judged_table, missing := missing)
),
-- each ranking (run and query) numbered, so that the joins below are on plain columns
keys AS MATERIALIZED (
    SELECT COLUMNS('^((?i:run_id)|query_id)$'), row_number() OVER () AS ranking_key FROM base
),
pairs AS MATERIALIZED (
    SELECT * FROM sqlrank.preference_pairs(prefs_table)
),
retrieved AS MATERIALIZED (
    SELECT ranking_key, doc_id, rank
    FROM (SELECT COLUMNS('^((?i:run_id)|query_id)$'), doc_id, rank FROM query_table(order_table)
          WHERE rank IS NOT NULL) AS ranked
    NATURAL JOIN keys
),
-- each document of each group for each ranking: its level, its rank when retrieved (within depth)
members AS MATERIALIZED (
    SELECT keys.ranking_key, docs.query_id, docs.jg, docs.doc_id, docs.rel_level, retrieved.rank, groups.partial
    FROM (SELECT query_id, jg, doc_id, max(rel_level) AS rel_level
          FROM query_table(prefs_table) GROUP BY query_id, jg, doc_id) AS docs
    JOIN (SELECT query_id, jg, count(DISTINCT jsg) > 1 AS partial
          FROM query_table(prefs_table) GROUP BY query_id, jg) AS groups USING (query_id, jg)
    JOIN (SELECT query_id, ranking_key FROM keys) AS keys USING (query_id)
    LEFT JOIN retrieved ON retrieved.ranking_key = keys.ranking_key AND retrieved.doc_id = docs.doc_id
),
-- trec_eval's document order: the retrieved ones by rank, then the others by doc_id
placed AS MATERIALIZED (
    SELECT *,
           count(*) FILTER (rel_level > 0) OVER jg_docs AS num_rel,
           count(*) FILTER (rel_level > 0 AND rank IS NOT NULL) OVER jg_docs AS num_rel_ret,
           count(*) FILTER (rel_level = 0) OVER jg_docs AS num_nonrel,
           count(*) FILTER (rel_level = 0 AND rank IS NOT NULL) OVER jg_docs AS num_nonrel_ret,
           count(*) OVER jg_docs AS num_docs,
           count(rank) OVER jg_docs AS num_ret,
           CASE WHEN rel_level = 0 THEN row_number() OVER (PARTITION BY ranking_key, jg, rel_level = 0
                                                           ORDER BY rank NULLS LAST, doc_id) END AS nonrel_place,
           CASE WHEN rank IS NOT NULL THEN row_number() OVER (PARTITION BY ranking_key, jg, rank IS NULL
                                                              ORDER BY rank) END AS ret_place
    FROM members
    WINDOW jg_docs AS (PARTITION BY ranking_key, jg)
),
-- the Rnonrel measures keep the relevant documents and the first R non-relevant ones (R: num_rel)
kept AS MATERIALIZED (
    SELECT ranking_key, query_id, jg, doc_id, rel_level, rank,
           rel_level > 0 OR nonrel_place <= num_rel AS kept_all,
           rank IS NOT NULL AND (rel_level > 0 OR nonrel_place <= num_rel) AS kept_ret
    FROM placed
),
-- each pair with its better document placed, then its worse one (two steps: joined at once, the planner
-- pairs every two documents of a group first)
better_placed AS MATERIALIZED (
    SELECT kept.ranking_key, pairs.jg, pairs.better, pairs.worse, kept.rank AS better_rank,
           kept.kept_all AS better_kept_all, kept.kept_ret AS better_kept_ret
    FROM pairs
    JOIN kept ON kept.query_id = pairs.query_id AND kept.jg = pairs.jg AND kept.doc_id = pairs.better
),
judged_pairs AS MATERIALIZED (
    SELECT better_placed.ranking_key, better_placed.jg, better, worse, better_rank, kept.rank AS worse_rank,
           better_rank IS NOT NULL AND (kept.rank IS NULL OR better_rank < kept.rank) AS fulfilled,
           better_kept_all AND kept.kept_all AS kept_all, better_kept_ret AND kept.kept_ret AS kept_ret,
           kept.rel_level > 0 AS between_relevant
    FROM better_placed
    JOIN kept ON kept.ranking_key = better_placed.ranking_key AND kept.jg = better_placed.jg
             AND kept.doc_id = better_placed.worse
),
pair_counts AS (
    SELECT every_group.ranking_key, every_group.jg,
           count(*) FILTER (better_rank IS NOT NULL AND worse_rank IS NOT NULL AND fulfilled) AS ful_ret,
           count(*) FILTER (better_rank IS NOT NULL AND worse_rank IS NOT NULL) AS poss_ret,
           count(*) FILTER ((better_rank IS NULL) <> (worse_rank IS NULL) AND fulfilled) AS ful_imp,
           count(*) FILTER ((better_rank IS NULL) <> (worse_rank IS NULL)) AS poss_imp,
           count(*) FILTER (better IS NOT NULL AND better_rank IS NULL AND worse_rank IS NULL) AS notoccur,
           count(*) FILTER (kept_all AND fulfilled) AS kept_ful,
           count(*) FILTER (kept_all) AS kept_poss,
           count(*) FILTER (kept_ret AND fulfilled) AS kept_ret_ful,
           count(*) FILTER (kept_ret) AS kept_ret_poss,
           count(*) FILTER (between_relevant AND fulfilled) AS relevant_ful,
           count(*) FILTER (between_relevant) AS relevant_poss,
           count(*) FILTER (between_relevant AND better_rank IS NOT NULL AND worse_rank IS NOT NULL
                            AND fulfilled) AS relevant_ret_ful,
           count(*) FILTER (between_relevant AND better_rank IS NOT NULL AND worse_rank IS NOT NULL) AS relevant_ret_poss
    -- every group, a group without pairs counting 0
    FROM (SELECT DISTINCT ranking_key, jg FROM placed) AS every_group
    LEFT JOIN judged_pairs USING (ranking_key, jg)
    GROUP BY every_group.ranking_key, every_group.jg
),
-- a group of one sub-group (trec_eval's equivalence classes) pairs every document of the group with
-- each of the first R non-relevant ones, itself included: of these, the retrieved documents above it
-- are fulfilled (trec_eval's recalculate)
group_counts AS (
    SELECT ranking_key, jg, any_value(partial) AS partial,
           any_value(num_rel) AS num_rel, any_value(num_rel_ret) AS num_rel_ret,
           any_value(num_nonrel) AS num_nonrel, any_value(num_nonrel_ret) AS num_nonrel_ret,
           any_value(num_docs) AS num_docs, any_value(num_ret) AS num_ret,
           coalesce(sum(coalesce(ret_place - 1, num_ret)) FILTER (nonrel_place <= num_rel), 0) AS first_nonrel_ful,
           count(*) FILTER (nonrel_place <= num_rel) AS first_nonrel,
           coalesce(sum(ret_place - 1) FILTER (nonrel_place <= num_rel_ret AND rank IS NOT NULL), 0)
               AS first_nonrel_ret_ful,
           count(*) FILTER (nonrel_place <= num_rel_ret AND rank IS NOT NULL) AS first_nonrel_ret
    FROM placed
    GROUP BY ranking_key, jg
),
groups AS (
    SELECT *,
           CASE WHEN num_rel >= num_nonrel
                    THEN ful_ret + ful_imp + num_rel_ret * (num_rel - num_nonrel)
                WHEN partial THEN kept_ful
                ELSE relevant_ful + first_nonrel_ful END AS rnonrel_ful,
           CASE WHEN num_rel >= num_nonrel
                    THEN poss_ret + poss_imp + notoccur + num_rel * (num_rel - num_nonrel)
                WHEN partial THEN kept_poss
                ELSE relevant_poss + num_docs * first_nonrel END AS rnonrel_poss,
           CASE WHEN num_rel_ret >= num_nonrel_ret
                    THEN ful_ret + num_rel_ret * (num_rel_ret - num_nonrel_ret)
                WHEN partial THEN kept_ret_ful
                ELSE relevant_ret_ful + first_nonrel_ret_ful END AS rnonrel_ret_ful,
           CASE WHEN num_rel_ret >= num_nonrel_ret
                    THEN poss_ret + num_rel * (num_rel_ret - num_nonrel_ret)
                WHEN partial THEN kept_ret_poss
                ELSE relevant_ret_poss + num_ret * first_nonrel_ret END AS rnonrel_ret_poss
    FROM group_counts JOIN pair_counts USING (ranking_key, jg)
),
per_query_groups AS (
    SELECT ranking_key,
           list(struct_pack(ful_ret := ful_ret, poss_ret := poss_ret, ful_imp := ful_imp, poss_imp := poss_imp,
                            notoccur := notoccur, rnonrel_ful := rnonrel_ful, rnonrel_poss := rnonrel_poss,
                            rnonrel_ret_ful := rnonrel_ret_ful, rnonrel_ret_poss := rnonrel_ret_poss)
                ORDER BY jg) AS jgs
    FROM groups
    GROUP BY ranking_key
),
-- each document pair some group orders: the share of its preferences fulfilled (trec_eval's pref_counts)
doc_pairs AS (
    SELECT ranking_key, count(*) FILTER (fulfilled) / NULLIF(count(*), 0) AS share,
           any_value(CAST(better_rank IS NOT NULL AS INTEGER) + CAST(worse_rank IS NOT NULL AS INTEGER)) AS retrieved
    FROM judged_pairs
    GROUP BY ranking_key, least(better, worse), greatest(better, worse)
),
per_query_pairs AS (
    SELECT ranking_key,
           struct_pack(ret_sum := coalesce(sum(share) FILTER (retrieved = 2), 0),
                       ret_n := count(*) FILTER (retrieved = 2),
                       imp_sum := coalesce(sum(share) FILTER (retrieved = 1), 0),
                       imp_n := count(*) FILTER (retrieved = 1),
                       none_n := count(*) FILTER (retrieved = 0)) AS pairs
    FROM doc_pairs
    GROUP BY ranking_key
)
SELECT COLUMNS('^((?i:run_id)|query_id)$'),
       struct_insert(ranking, prefs := struct_pack(
           -- empty for a query without preferences
           jgs := coalesce(jgs, list_filter([struct_pack(
               ful_ret := CAST(0 AS BIGINT), poss_ret := CAST(0 AS BIGINT), ful_imp := CAST(0 AS BIGINT),
               poss_imp := CAST(0 AS BIGINT), notoccur := CAST(0 AS BIGINT), rnonrel_ful := CAST(0 AS BIGINT),
               rnonrel_poss := CAST(0 AS BIGINT), rnonrel_ret_ful := CAST(0 AS BIGINT),
               rnonrel_ret_poss := CAST(0 AS BIGINT))], lambda g: false)),
           pairs := coalesce(pairs, struct_pack(ret_sum := CAST(0 AS DOUBLE), ret_n := CAST(0 AS BIGINT),
                                                imp_sum := CAST(0 AS DOUBLE), imp_n := CAST(0 AS BIGINT),
                                                none_n := CAST(0 AS BIGINT))))) AS ranking
FROM base
NATURAL JOIN keys
LEFT JOIN per_query_groups USING (ranking_key)
LEFT JOIN per_query_pairs USING (ranking_key);

-- The DuckDB shell's door (the preference measures' table macros, sqlrank/macros.py): preferences and a
-- run, each a table or view name (the preferences with the columns query_id, jg, jsg, doc_id, rel_level;
-- the run as sqlrank.run_rankings reads it), ranked as the Python door ranks them: the qrels are each
-- document's highest rel_level, and the order the measures read breaks ties as trec_eval's does for them
CREATE OR REPLACE MACRO sqlrank.prefs_run_rankings(prefs_table, run_table, depth := NULL, missing := 'zero',
                                                   score_precision := 'double', ties := 'trec',
                                                   run_columns := NULL) AS TABLE
-- each row as JSON, so that a column the table lacks reads as NULL: a qrels table (query_id, doc_id,
-- relevance) is preferences of one judgment group per query, as the Python door reads qrels
WITH sqlrank_prefs_rows AS MATERIALIZED (
    SELECT to_json(source) AS fields FROM query_table(prefs_table) AS source
),
sqlrank_prefs_input AS MATERIALIZED (
    SELECT json_extract_string(fields, '$.query_id') AS query_id,
           coalesce(json_extract_string(fields, '$.jg'), '0') AS jg,
           coalesce(json_extract_string(fields, '$.jsg'), '0') AS jsg,
           json_extract_string(fields, '$.doc_id') AS doc_id,
           CAST(coalesce(json_extract_string(fields, '$.rel_level'), json_extract_string(fields, '$.relevance'))
                AS DOUBLE) AS rel_level
    FROM sqlrank_prefs_rows
),
sqlrank_qrels_input AS MATERIALIZED (
    SELECT query_id, doc_id, max(rel_level) AS relevance FROM sqlrank_prefs_input GROUP BY query_id, doc_id
),
sqlrank_judged_ranking AS MATERIALIZED (
    SELECT * FROM sqlrank.shell_judged_ranking('sqlrank_qrels_input', run_table, depth, score_precision, ties,
                                               run_columns)
),
sqlrank_prefs_order AS MATERIALIZED (
    SELECT * FROM sqlrank.shell_judged_ranking('sqlrank_qrels_input', run_table, depth, score_precision,
                                               CASE WHEN ties = 'trec' THEN 'docid_asc' ELSE ties END, run_columns)
)
SELECT * FROM sqlrank.prefs_rankings('sqlrank_qrels_input', 'sqlrank_judged_ranking', 'sqlrank_prefs_input',
                                     'sqlrank_prefs_order', missing := missing);
