-- sqlrank.subtopic_rankings(qrels_table, judged_table, subtopic_table, missing := 'zero')
--   -> ([run_id,] query_id, ranking), sqlrank.rankings' rows with ranking.intents added
--
-- What the diversity measures read (ndeval's, docs/measures.md#diversity-measures), from
-- subtopic qrels (query_id, subtopic_id, doc_id, relevance):
--
--   ranking.intents.documents  the retrieved documents judged for some subtopic, (rank, judgments)
--                              in rank order; judgments: (subtopic, relevance), subtopic numbered
--                              1.. within the query
--   ranking.intents.judged     every judged document of the query, (doc_id, judgments): the ideal
--                              ranking and each subtopic's relevant documents
--   ranking.intents.subtopics  how many subtopics the query's judgments name
--
-- The measures call the pieces below with their `rel` (a judgment >= rel covers its subtopic,
-- pyndeval's relevance_level; ndeval reads any positive judgment as 1) and `alpha`.
CREATE OR REPLACE MACRO sqlrank.subtopic_judgments(subtopic_table) AS TABLE
    SELECT query_id, doc_id,
           list(struct_pack(subtopic := subtopic, relevance := relevance) ORDER BY subtopic) AS judgments
    FROM (SELECT query_id, doc_id, relevance,
                 dense_rank() OVER (PARTITION BY query_id ORDER BY subtopic_id) AS subtopic
          FROM query_table(subtopic_table)) AS numbered
    GROUP BY query_id, doc_id;

CREATE OR REPLACE MACRO sqlrank.subtopic_rankings(qrels_table, judged_table, subtopic_table, missing := 'zero') AS TABLE
WITH
judgments AS MATERIALIZED (
    SELECT * FROM sqlrank.subtopic_judgments(subtopic_table)
),
per_query AS (
    SELECT query_id, list(struct_pack(doc_id := doc_id, judgments := judgments) ORDER BY doc_id) AS judged,
           max(list_max(list_transform(judgments, lambda j: j.subtopic))) AS subtopics
    FROM judgments
    GROUP BY query_id
),
retrieved AS (
    SELECT COLUMNS('^((?i:run_id)|query_id)$'),
           list(struct_pack(rank := rank, judgments := judgments) ORDER BY rank) AS documents
    FROM (SELECT * FROM query_table(judged_table)) AS judged_documents
    NATURAL JOIN judgments
    GROUP BY ALL
)
SELECT COLUMNS('^((?i:run_id)|query_id)$'),
       struct_insert(ranking, intents := struct_pack(
           -- empty lists of the fields' types for a query the run (or the judgments) missed
           documents := coalesce(documents, list_filter(
               [struct_pack(rank := CAST(1 AS BIGINT),
                            judgments := [struct_pack(subtopic := CAST(1 AS BIGINT), relevance := CAST(0 AS DOUBLE))])],
               lambda e: false)),
           judged := coalesce(judged, list_filter(
               [struct_pack(doc_id := '', judgments := [struct_pack(subtopic := CAST(1 AS BIGINT),
                                                                    relevance := CAST(0 AS DOUBLE))])],
               lambda e: false)),
           subtopics := CAST(coalesce(subtopics, 0) AS BIGINT))) AS ranking
FROM sqlrank.rankings(qrels_table, judged_table, missing := missing)
NATURAL LEFT JOIN per_query
NATURAL LEFT JOIN retrieved;

-- the subtopics a judgment list covers at `rel`: its subtopic numbers with relevance >= rel
CREATE OR REPLACE MACRO sqlrank.covered(judgments, rel) AS
    list_transform(list_filter(judgments, lambda j: j.relevance >= rel), lambda j: j.subtopic);

-- ndeval's actualSubtopics: the subtopics with at least one document covering them; every measure
-- divides by it, and is 0 for a query with none
CREATE OR REPLACE MACRO sqlrank.intent_count(ranking, rel) AS
    len(list_distinct(flatten(list_transform(ranking.intents.judged,
                                             lambda judged: sqlrank.covered(judged.judgments, rel)))));

-- the retrieved documents within k that cover a subtopic, (rank, subtopics), in rank order
CREATE OR REPLACE MACRO sqlrank.covering_documents(ranking, k, rel) AS
    list_filter(list_transform(list_filter(ranking.intents.documents, lambda doc: sqlrank.within(doc.rank, k)),
                               lambda doc: struct_pack(rank := doc.rank, subtopics := sqlrank.covered(doc.judgments, rel))),
                lambda doc: len(doc.subtopics) > 0);

-- each covering document within k with its novelty gain, (rank, gain): Σ over its subtopics of
-- (1 - alpha)^(documents above it covering that subtopic) (Clarke et al. 2008)
CREATE OR REPLACE MACRO sqlrank.novelty_gains(ranking, k, rel, alpha) AS
    list_transform([sqlrank.covering_documents(ranking, k, rel)], lambda covering: list_transform(covering,
        lambda doc, place: struct_pack(rank := doc.rank, gain := list_sum(list_transform(doc.subtopics,
            lambda subtopic: pow(1 - alpha, len(list_filter(list_slice(covering, 1, place - 1),
                                                             lambda above: list_contains(above.subtopics, subtopic)))))))))[1];

-- the novelty gains of ndeval's ideal ranking to rank k (NULL: all), best first: greedily, the document
-- of the highest gain given those placed above it, the larger doc_id of equal gains (ndeval's
-- idealResult); only the covering documents, as the others add nothing. A cutoff stops the greedy
-- at k steps: each step costs a pass over the documents left
CREATE OR REPLACE MACRO sqlrank.ideal_novelty_gains(ranking, k, rel, alpha) AS
    list_transform([list_filter(list_transform(ranking.intents.judged,
                                               lambda judged: struct_pack(doc_id := judged.doc_id,
                                                                          subtopics := sqlrank.covered(judged.judgments, rel))),
                                lambda candidate: len(candidate.subtopics) > 0)],
        lambda candidates: list_reduce(range(least(len(candidates), coalesce(k, len(candidates)))),
            -- the largest (gain, doc_id): structs compare field by field
            lambda state, step: list_transform([list_max(list_transform(state.remaining,
                lambda candidate: struct_pack(gain := list_sum(list_transform(candidate.subtopics,
                                                  lambda subtopic: pow(1 - alpha, state.counts[subtopic]))),
                                              doc_id := candidate.doc_id, subtopics := candidate.subtopics)))],
                lambda best: struct_pack(
                    gains := list_append(state.gains, best.gain),
                    counts := list_transform(state.counts, lambda seen, subtopic: seen + CASE WHEN list_contains(best.subtopics, subtopic) THEN 1 ELSE 0 END),
                    remaining := list_filter(state.remaining, lambda candidate: candidate.doc_id <> best.doc_id)))[1],
            struct_pack(gains := list_filter([CAST(0 AS DOUBLE)], lambda g: false),
                        counts := list_transform(range(ranking.intents.subtopics), lambda none: CAST(0 AS BIGINT)),
                        remaining := candidates)).gains)[1];

-- ndeval's discount of rank i, log(2) / log(i + 1) (1 at rank 1)
CREATE OR REPLACE MACRO sqlrank.novelty_discount(place) AS log(2.0) / NULLIF(log(place + 1.0), 0);

-- the normaliser of alpha-DCG@k and ERR-IA@k ("ideal ideal", collection independent): every one of the
-- m subtopics covered by each of the first k documents, Σ_{i<=k} m (1 - alpha)^(i-1) · discount(i),
-- with discount(i) = 1/log2(i+1) (alpha-DCG) or 1/i (ERR-IA); k NULL: the run's depth
CREATE OR REPLACE MACRO sqlrank.ideal_ideal(ranking, k, rel, alpha, reciprocal) AS
    list_transform([sqlrank.intent_count(ranking, rel)], lambda intents: list_sum(list_transform(
        range(1, coalesce(k, ranking.num_ret) + 1),
        lambda place: intents * pow(1 - alpha, place - 1)
                      * CASE WHEN reciprocal THEN 1.0 / NULLIF(place, 0) ELSE sqlrank.novelty_discount(place) END)))[1];

-- The shell doors' judged ranking of a run (run_table as sqlrank.run_rankings reads it) against qrels_name, a table
-- or CTE of (query_id, doc_id, relevance): the diversity, multi-judge and preference doors read their qrels as
-- each document's highest label, then rank the run as the Python door does
CREATE OR REPLACE MACRO sqlrank.shell_judged_ranking(qrels_name, run_table, depth, score_precision, ties,
                                                     run_columns) AS TABLE
WITH sqlrank_run_input AS NOT MATERIALIZED (
    SELECT * FROM query(sqlrank.run_input_sql(run_table, run_columns, ties := ties))
)
SELECT * FROM sqlrank.judged_ranking(qrels_name, 'sqlrank_run_input', depth := sqlrank.valid_depth(depth),
                                     score_precision := score_precision, ties := ties);

-- The DuckDB shell's door (the diversity measures' table macros, sqlrank/macros.py): subtopic qrels
-- and a run, each a table or view name (the subtopic qrels with the columns query_id, subtopic_id,
-- doc_id, relevance; the run as sqlrank.run_rankings reads it), ranked once as the Python door
-- ranks them, the qrels being each document's highest label over its subtopics
CREATE OR REPLACE MACRO sqlrank.subtopic_run_rankings(subtopic_table, run_table, depth := NULL, missing := 'zero',
                                                      score_precision := 'double', ties := 'trec',
                                                      run_columns := NULL) AS TABLE
WITH sqlrank_subtopic_input AS MATERIALIZED (
    -- multi-judge qrels name their second key judge_id (sql/24_judges.sql)
    SELECT CAST(query_id AS VARCHAR) AS query_id,
           CAST(COLUMNS('^((?i:subtopic_id|judge_id))$') AS VARCHAR) AS subtopic_id,
           CAST(doc_id AS VARCHAR) AS doc_id, CAST(relevance AS DOUBLE) AS relevance
    FROM query_table(subtopic_table)
),
sqlrank_qrels_input AS MATERIALIZED (
    SELECT query_id, doc_id, max(relevance) AS relevance FROM sqlrank_subtopic_input GROUP BY query_id, doc_id
),
sqlrank_judged_ranking AS MATERIALIZED (
    SELECT * FROM sqlrank.shell_judged_ranking('sqlrank_qrels_input', run_table, depth, score_precision, ties,
                                               run_columns)
)
SELECT * FROM sqlrank.subtopic_rankings('sqlrank_qrels_input', 'sqlrank_judged_ranking', 'sqlrank_subtopic_input',
                                        missing := missing);
