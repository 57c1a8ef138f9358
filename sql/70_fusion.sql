-- sqlrank.fuse(runs_table, method := 'wsum', norm := 'min-max', weights := NULL, k := 60, phi := NULL,
--              gamma := NULL, sigma := 0.01, top_k := NULL, depth := NULL, probs := NULL, w := NULL)
--   -> (query_id, doc_id, score): one run, which every measure, compare and the exports take as it is
--
-- Fuses the runs of one table (run_id, query_id, doc_id, score), as ranx.fuse does (docs/fusion.md
-- gives each method's formula, source and ranx's name). Runs are numbered in run_id order, and
-- weights[i] is the weight of the i-th (NULL: every weight 1). Steps, each per run and query:
--   1. cut:        the top_k documents of every input (NULL: all), ranked as the measures rank them
--                  (score descending, equal scores by doc_id descending);
--   2. normalize:  norm is one of none, min-max, min-max-inverted, max, sum, zmuv, rank, borda
--                  (borda also gives every document another run retrieved, as ranx's borda_norm does);
--   3. position:   p, the document's place in the normalized run (same order as step 1);
--   4. fuse:       one group-by over (query_id, doc_id), the document's rows in the runs that have it.
-- The output is cut to its `depth` best documents per query (NULL: all), ties by doc_id descending.
--
--   SELECT * FROM sqlrank.fuse('runs', method := 'rrf', norm := 'none');
CREATE OR REPLACE MACRO sqlrank.fusion_methods() AS
    ['min', 'med', 'anz', 'max', 'sum', 'mnz', 'gmnz', 'isr', 'log_isr', 'logn_isr', 'rrf', 'rbc',
     'bordafuse', 'w_bordafuse', 'condorcet', 'w_condorcet', 'mixed', 'wmnz', 'wsum', 'posfuse', 'mapfuse', 'probfuse',
     'segfuse', 'slidefuse', 'bayesfuse'];

CREATE OR REPLACE MACRO sqlrank.fusion_norms() AS
    ['none', 'min-max', 'min-max-inverted', 'max', 'sum', 'zmuv', 'rank', 'borda'];

-- every run's number (1, 2, ... in run_id order), which picks its weight
CREATE OR REPLACE MACRO sqlrank.fusion_run_numbers(runs_table) AS TABLE
    SELECT run_id, ROW_NUMBER() OVER (ORDER BY run_id) AS run_number
    FROM (SELECT DISTINCT run_id FROM query_table(runs_table)) AS run_ids;

-- steps 1 and 2: every kept row with its normalized score (borda: with the documents it missed)
CREATE OR REPLACE MACRO sqlrank.fusion_normalized(runs_table, norm := 'min-max', top_k := NULL) AS TABLE
    WITH cut AS (
        SELECT run_id, CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id,
               CAST(score AS DOUBLE) AS score,
               ROW_NUMBER() OVER (PARTITION BY run_id, query_id ORDER BY CAST(score AS DOUBLE) DESC,
                                  CAST(doc_id AS VARCHAR) DESC) AS input_rank
        FROM query_table(runs_table)
        QUALIFY top_k IS NULL OR input_rank <= top_k
    ),
    described AS (
        SELECT *,
               min(score) OVER per_run AS low, max(score) OVER per_run AS high, sum(score) OVER per_run AS total,
               avg(score) OVER per_run AS mean, stddev_pop(score) OVER per_run AS spread,
               count(*) OVER per_run AS retrieved
        FROM cut
        WINDOW per_run AS (PARTITION BY run_id, query_id)
    ),
    candidates AS (  -- a query's documents in any run: borda's count of candidates
        SELECT query_id, doc_id, count(*) OVER (PARTITION BY query_id) AS candidate_count
        FROM (SELECT DISTINCT query_id, doc_id FROM cut) AS distinct_documents
    ),
    kept AS (
        SELECT described.run_id, described.query_id, described.doc_id, candidate_count, retrieved,
            CASE sqlrank.choice(norm, sqlrank.fusion_norms(), 'fusion norm')
                WHEN 'none' THEN score
                WHEN 'min-max' THEN (score - low) / NULLIF(greatest(high - low, 1e-9), 0)
                WHEN 'min-max-inverted' THEN (high - score) / NULLIF(greatest(high - low, 1e-9), 0)
                WHEN 'max' THEN score / NULLIF(greatest(high, 1e-9), 0)
                WHEN 'sum' THEN (score - low) / NULLIF(greatest(total - low * retrieved, 1e-9), 0)
                WHEN 'zmuv' THEN (score - mean) / NULLIF(greatest(spread, 1e-9), 0)
                WHEN 'rank' THEN 1 - (input_rank - 1) / NULLIF(retrieved, 0)
                ELSE 1 - (input_rank - 1) / NULLIF(candidate_count, 0)  -- borda
            END AS score
        FROM described JOIN candidates USING (query_id, doc_id)
    ),
    run_queries AS (SELECT DISTINCT run_id, query_id, retrieved FROM kept),
    missed AS (  -- borda norm: what another run retrieved scores 0.5 - (n - 1) / (2 C)
        SELECT runs.run_id, candidates.query_id, candidates.doc_id, candidate_count,
               coalesce(run_queries.retrieved, 0) AS retrieved,
               0.5 - (coalesce(run_queries.retrieved, 0) - 1) / NULLIF(2 * candidate_count, 0) AS score
        FROM candidates
        CROSS JOIN sqlrank.fusion_run_numbers(runs_table) AS runs
        LEFT JOIN run_queries ON run_queries.run_id = runs.run_id AND run_queries.query_id = candidates.query_id
        ANTI JOIN kept ON kept.run_id = runs.run_id AND kept.query_id = candidates.query_id
                       AND kept.doc_id = candidates.doc_id
        WHERE norm = 'borda'
    )
    SELECT * FROM kept
    UNION ALL BY NAME
    SELECT * FROM missed;

-- step 3: every normalized row with its position, its run's number and weight
CREATE OR REPLACE MACRO sqlrank.fusion_positioned(runs_table, norm := 'min-max', top_k := NULL, weights := NULL) AS TABLE
    SELECT normalized.*, run_number,
           ROW_NUMBER() OVER (PARTITION BY normalized.run_id, query_id ORDER BY score DESC, doc_id DESC) AS position,
           count(*) OVER (PARTITION BY normalized.run_id, query_id) AS listed,
           CASE WHEN weights IS NULL THEN 1.0
                WHEN len(weights) <> (SELECT count(*) FROM sqlrank.fusion_run_numbers(runs_table))
                THEN error('sqlrank: fusion weights: ' || len(weights) || ' weights for '
                           || (SELECT count(*) FROM sqlrank.fusion_run_numbers(runs_table))
                           || ' runs; give one weight per run, in run_id order')
                ELSE CAST(weights[run_number] AS DOUBLE)
           END AS weight
    FROM sqlrank.fusion_normalized(runs_table, norm, top_k) AS normalized
    JOIN sqlrank.fusion_run_numbers(runs_table) USING (run_id);

-- PosFuse's training (Lillis et al., SIGIR 2010, as ranx trains it): for each run and position p, the
-- share of the qrels' queries whose document at p has a label >= 1, among those the run has a p-th for
CREATE OR REPLACE MACRO sqlrank.fusion_position_probabilities(qrels_table, runs_table, norm := 'min-max',
                                                              top_k := NULL) AS TABLE
    SELECT run_number, position, avg(CASE WHEN judged.relevance >= 1 THEN 1.0 ELSE 0.0 END) AS probability
    FROM sqlrank.fusion_positioned(runs_table, norm, top_k, NULL) AS positioned
    SEMI JOIN (SELECT CAST(query_id AS VARCHAR) AS query_id FROM query_table(qrels_table)) AS judged_queries
        USING (query_id)
    LEFT JOIN (SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id, relevance
               FROM query_table(qrels_table)) AS judged USING (query_id, doc_id)
    GROUP BY run_number, position;

-- ProbFuse's segment of the document at `place` among `listed`, from 1: segments of ceil(listed / segments) places
CREATE OR REPLACE MACRO sqlrank.fusion_segment(place, listed, segments) AS
    CAST(floor((place - 1) / NULLIF(ceil(listed / NULLIF(segments, 0)), 0)) AS BIGINT) + 1;

-- ProbFuse's training (Lillis et al., SIGIR 2006, as ranx trains it): each run's ranking of a query cut
-- into n_segments segments of ceil(n / n_segments) places; a segment's probability is the share of
-- documents with a label >= 1 in it, summed over the queries and divided by the qrels' queries
CREATE OR REPLACE MACRO sqlrank.fusion_segment_probabilities(qrels_table, runs_table, n_segments, norm := 'min-max',
                                                             top_k := NULL) AS TABLE
    WITH judged_queries AS (SELECT DISTINCT CAST(query_id AS VARCHAR) AS query_id FROM query_table(qrels_table)),
    shares AS (
        SELECT run_number, query_id,
               sqlrank.fusion_segment(positioned.position, listed, n_segments) - 1 AS segment,
               avg(CASE WHEN judged.relevance >= 1 THEN 1.0 ELSE 0.0 END) AS share
        FROM sqlrank.fusion_positioned(runs_table, norm, top_k, NULL) AS positioned
        SEMI JOIN judged_queries USING (query_id)
        LEFT JOIN (SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id, relevance
                   FROM query_table(qrels_table)) AS judged USING (query_id, doc_id)
        GROUP BY run_number, query_id, segment
    )
    SELECT run_number, segment + 1 AS segment,
           sum(share) / NULLIF((SELECT count(*) FROM judged_queries), 0) AS probability
    FROM shares
    GROUP BY run_number, segment;

-- SegFuse's and BayesFuse's segments: the places (from 1) up to ends[1] are segment 1, those after ends[i - 1]
-- up to ends[i] segment i; a place after the last end is in segment len(ends) + 1, which no training reaches
CREATE OR REPLACE MACRO sqlrank.fusion_fixed_segment(place, ends) AS
    len(list_filter(ends, lambda segment_end: segment_end < place)) + 1;

-- SegFuse's segment ends (Shokouhi, ECIR 2007, as ranx has them): 10 * 2^(k - 1) - 5, segments of 5, 10, 20, ...
CREATE OR REPLACE MACRO sqlrank.fusion_segfuse_ends() AS [5, 15, 35, 75, 155, 315, 635, 1275, 2555, 5115];

-- BayesFuse's segment ends (ranx's cut-offs for its log odds; Aslam & Montague, SIGIR 2001)
CREATE OR REPLACE MACRO sqlrank.fusion_bayesfuse_ends() AS [5, 10, 15, 20, 30, 100, 200, 500, 1000];

-- the training of SegFuse and BayesFuse: for each run and fixed segment (every one, 0 where no document
-- reached it), the documents with a label >= 1 in it divided by the segment's size, averaged over the
-- qrels' queries (a query the run did not answer counts 0), as ranx's estimate_segment_probs does
CREATE OR REPLACE MACRO sqlrank.fusion_segment_precisions(qrels_table, runs_table, ends, norm := 'min-max',
                                                          top_k := NULL) AS TABLE
    WITH judged_queries AS (SELECT DISTINCT CAST(query_id AS VARCHAR) AS query_id FROM query_table(qrels_table)),
    segments AS (
        SELECT segment, ends[segment] - coalesce(ends[segment - 1], 0) AS size
        FROM range(1, len(ends) + 1) AS numbers(segment)
    ),
    hits AS (
        SELECT run_number, sqlrank.fusion_fixed_segment(positioned.position, ends) AS segment, count(*) AS relevant
        FROM sqlrank.fusion_positioned(runs_table, norm, top_k, NULL) AS positioned
        SEMI JOIN judged_queries USING (query_id)
        JOIN (SELECT CAST(query_id AS VARCHAR) AS query_id, CAST(doc_id AS VARCHAR) AS doc_id
              FROM query_table(qrels_table) WHERE relevance >= 1) AS relevant USING (query_id, doc_id)
        GROUP BY ALL
    )
    SELECT run_number, segments.segment,
           coalesce(relevant, 0) / NULLIF(size, 0) / NULLIF((SELECT count(*) FROM judged_queries), 0) AS precision
    FROM sqlrank.fusion_run_numbers(runs_table) AS runs
    CROSS JOIN segments
    LEFT JOIN hits USING (run_number, segment)
    ORDER BY run_number, segments.segment;

-- SegFuse's training: probs[i][s], run i's precision in segment s (segments of 5, 10, 20, ... places)
CREATE OR REPLACE MACRO sqlrank.fusion_segfuse_probabilities(qrels_table, runs_table, norm := 'min-max',
                                                             top_k := NULL) AS TABLE
    SELECT run_number, segment, precision AS probability
    FROM sqlrank.fusion_segment_precisions(qrels_table, runs_table, sqlrank.fusion_segfuse_ends(), norm, top_k);

-- BayesFuse's training: for each run and place 1..1000, ln(P / (1 - P)), P the precision of the place's
-- segment (a P of 0 taken as 0.001, then a 1 - P of 0 as 0.001, as ranx does)
CREATE OR REPLACE MACRO sqlrank.fusion_bayesfuse_log_odds(qrels_table, runs_table, norm := 'min-max',
                                                          top_k := NULL) AS TABLE
    SELECT run_number, place AS position,
           ln(precision / NULLIF(CASE WHEN 1 - precision = 0 THEN 0.001 ELSE 1 - precision END, 0)) AS log_odds
    FROM (SELECT run_number, segment, CASE WHEN precision = 0 THEN 0.001 ELSE precision END AS precision
          FROM sqlrank.fusion_segment_precisions(qrels_table, runs_table, sqlrank.fusion_bayesfuse_ends(), norm, top_k))
         AS segments
    JOIN range(1, 1001) AS places(place)
        ON sqlrank.fusion_fixed_segment(place, sqlrank.fusion_bayesfuse_ends()) = segment
    ORDER BY run_number, position;

-- BayesFuse's log odds of a document a run did not retrieve (and of a place past the trained ones): ln(0.001 / 0.999)
CREATE OR REPLACE MACRO sqlrank.fusion_least_log_odds() AS ln(0.001) - ln(0.999);

-- SlideFuse's score of the document at `place` of a run's `listed` (Lillis et al., ECIR 2008, as ranx has it):
-- the mean of the run's trained probabilities (by place) over the places within w of it, in the list;
-- the places past the trained ones count 0
CREATE OR REPLACE MACRO sqlrank.fusion_slide_score(run_probs, place, listed, w) AS
    coalesce(list_sum(CAST(run_probs AS DOUBLE[])[greatest(place - w, 1):least(place + w, listed)]), 0)
    / NULLIF(least(place + w, listed) - greatest(place - w, 1) + 1, 0);

-- SlideFuse fused for every window in `windows` at once (optimize_fusion's grid in one statement):
-- (w, query_id, doc_id, score), each w's rows the run sqlrank.fuse(..., method := 'slidefuse', w := w) gives
CREATE OR REPLACE MACRO sqlrank.fusion_slidefuse_windows(runs_table, probs, windows, norm := 'min-max',
                                                         top_k := NULL) AS TABLE
    SELECT window_size AS w, query_id, doc_id,
           sum(sqlrank.fusion_slide_score(probs[run_number], position, listed, window_size)) AS score
    FROM sqlrank.fusion_positioned(runs_table, norm, top_k, NULL)
    CROSS JOIN (SELECT unnest(windows) AS window_size) AS grid
    GROUP BY window_size, query_id, doc_id;

-- the fused score of the methods optimize_fusion tunes by a grid (their weights, k, phi, gamma or sigma), over a
-- document's rows: one definition for sqlrank.fuse and for sqlrank.fusion_grid, which fuses every point at once
CREATE OR REPLACE MACRO sqlrank.fusion_tuned_score(method, score, place, weight, k, phi, gamma, sigma) AS
    CASE method
        WHEN 'gmnz' THEN sum(score) * pow(count(*), gamma)
        WHEN 'logn_isr' THEN sum(1 / NULLIF(pow(place, 2), 0)) * ln(count(*) + sigma)
        WHEN 'rrf' THEN sum(1 / NULLIF(k + place, 0))
        WHEN 'rbc' THEN sum((1 - phi) * pow(phi, place - 1))
        WHEN 'wsum' THEN sum(weight * score)
        WHEN 'wmnz' THEN sum(score) * sum(weight)
        WHEN 'mixed' THEN sum(weight * score) * sqrt(count(*))
    END;

-- optimize_fusion's grid in one statement, for gmnz, logn_isr, rrf, rbc, wsum, wmnz and mixed: `points` a list of
-- structs with the five fields weights, k, phi, gamma, sigma (NULL where unused), each a point; (point_number, query_id, doc_id, score), each point's
-- rows the run sqlrank.fuse gives with that point's parameters
CREATE OR REPLACE MACRO sqlrank.fusion_grid(runs_table, method, points, norm := 'min-max', top_k := NULL) AS TABLE
    SELECT point_number, query_id, doc_id,
           sqlrank.fusion_tuned_score(method, score, position, coalesce(weights[run_number], 1.0), k, phi, gamma, sigma)
               AS score
    FROM sqlrank.fusion_positioned(runs_table, norm, top_k, NULL) AS positioned
    CROSS JOIN (SELECT point_number, CAST(points[point_number].weights AS DOUBLE[]) AS weights,
                       CAST(points[point_number].k AS DOUBLE) AS k, CAST(points[point_number].phi AS DOUBLE) AS phi,
                       CAST(points[point_number].gamma AS DOUBLE) AS gamma,
                       CAST(points[point_number].sigma AS DOUBLE) AS sigma
                FROM range(1, len(points) + 1) AS numbers(point_number)) AS grid
    GROUP BY point_number, query_id, doc_id, k, phi, gamma, sigma;

-- a method's parameters, checked before any row is read: NULL when they are right, else an error naming them
CREATE OR REPLACE MACRO sqlrank.fusion_parameters_error(method, k, phi, gamma, sigma, weights, probs, w) AS
    CASE
        WHEN sqlrank.choice(method, sqlrank.fusion_methods(), 'fusion method') IS NULL THEN NULL
        WHEN method = 'gmnz' AND gamma IS NULL THEN 'gmnz needs gamma (ranx has no default), e.g. gamma := 0.5'
        WHEN method = 'rbc' AND (phi IS NULL OR phi < 0 OR phi > 1)
            THEN 'rbc needs phi in [0, 1] (ranx has no default), e.g. phi := 0.8; found ' || coalesce(CAST(phi AS VARCHAR), 'none')
        WHEN method = 'logn_isr' AND (sigma IS NULL OR sigma < 0 OR sigma > 1)
            THEN 'logn_isr needs sigma in [0, 1]; found ' || coalesce(CAST(sigma AS VARCHAR), 'none')
        WHEN method IN ('posfuse', 'probfuse', 'segfuse', 'slidefuse', 'bayesfuse') AND probs IS NULL
            THEN method || ' needs ' || CASE method WHEN 'bayesfuse' THEN 'log_odds (probs in SQL)' ELSE 'probs' END
                 || ', trained on qrels: optimize_fusion(qrels, runs, method=''' || method || ''') in Python, '
                 || 'in SQL sqlrank.' || CASE method WHEN 'probfuse' THEN 'fusion_segment_probabilities'
                                                     WHEN 'segfuse' THEN 'fusion_segfuse_probabilities'
                                                     WHEN 'bayesfuse' THEN 'fusion_bayesfuse_log_odds'
                                                     ELSE 'fusion_position_probabilities' END
        WHEN method = 'slidefuse' AND (w IS NULL OR w < 0 OR w <> floor(w))
            THEN 'slidefuse needs w, its window''s half-width, a whole number >= 0 (ranx tunes it from 1 to 100); found '
                 || coalesce(CAST(w AS VARCHAR), 'none')
        WHEN method = 'mapfuse' AND weights IS NULL THEN 'mapfuse needs weights, each run''s MAP on training qrels'
        WHEN method = 'rrf' AND (k IS NULL OR k < 0) THEN 'rrf needs k >= 0; found ' || coalesce(CAST(k AS VARCHAR), 'none')
    END;

CREATE OR REPLACE MACRO sqlrank.fuse(runs_table, method := 'wsum', norm := 'min-max', weights := NULL, k := 60,
                                     phi := NULL, gamma := NULL, sigma := 0.01, top_k := NULL, depth := NULL,
                                     probs := NULL, w := NULL) AS TABLE
    WITH positioned AS (
        SELECT *, CASE WHEN method IN ('bordafuse', 'condorcet') THEN 1.0 ELSE weight END AS vote
        FROM sqlrank.fusion_positioned(runs_table, norm, top_k, weights)
        WHERE coalesce(error('sqlrank: fusion: ' || sqlrank.fusion_parameters_error(method, k, phi, gamma, sigma, weights, probs, w)
                             || ' (docs/fusion.md)'), true)
          AND (probs IS NULL OR len(probs) = (SELECT count(*) FROM sqlrank.fusion_run_numbers(runs_table))
               OR error('sqlrank: fusion probs: ' || len(probs) || ' lists for '
                        || (SELECT count(*) FROM sqlrank.fusion_run_numbers(runs_table))
                        || ' runs; give one list per run, in run_id order'))
    ),
    -- bordafuse: a run that missed a document gives it (C - n + 1) / 2 points, the mean of the places
    -- it left free; summed over all runs once per query, then corrected for the runs that have the document
    borda_base AS (
        SELECT query_id, sum(vote * (candidate_count - listed + 1) * 0.5)
               + (max(candidate_count) + 1) * 0.5 * ((SELECT sum(vote) FROM (SELECT DISTINCT run_id, vote FROM positioned) AS run_votes)
                                                - sum(vote)) AS missed_points
        FROM (SELECT DISTINCT run_id, query_id, candidate_count, listed, vote FROM positioned) AS run_queries
        WHERE method IN ('bordafuse', 'w_bordafuse')
        GROUP BY query_id
    ),
    combined AS (
        SELECT query_id, doc_id,
            CASE method
                WHEN 'min' THEN min(score)
                WHEN 'max' THEN max(score)
                WHEN 'med' THEN median(score)
                WHEN 'anz' THEN avg(score)
                WHEN 'sum' THEN sum(score)
                WHEN 'mnz' THEN sum(score) * count(*)
                WHEN 'isr' THEN sum(1 / NULLIF(pow(position, 2), 0)) * count(*)
                WHEN 'log_isr' THEN sum(1 / NULLIF(pow(position, 2), 0)) * ln(count(*))
                WHEN 'bordafuse' THEN sum(vote * ((candidate_count - position + 1) - (candidate_count - listed + 1) * 0.5))
                -- the supervised two: probs[i][p] trained by sqlrank.fusion_position_probabilities, and
                -- mapfuse's weights the runs' MAP on the training qrels
                WHEN 'posfuse' THEN sum(coalesce(probs[run_number][position], 0))
                WHEN 'mapfuse' THEN sum(weight / NULLIF(position, 0))
                -- probfuse: probs[i][s] of the document's segment s, divided by s
                WHEN 'probfuse' THEN sum(coalesce(probs[run_number][sqlrank.fusion_segment(position, listed,
                    len(probs[run_number]))], 0) / NULLIF(sqlrank.fusion_segment(position, listed, len(probs[run_number])), 0))
                WHEN 'w_bordafuse' THEN sum(vote * ((candidate_count - position + 1) - (candidate_count - listed + 1) * 0.5))
                -- segfuse: (score + 1) times probs[i][s], s the fixed segment of the document's place
                WHEN 'segfuse' THEN sum(coalesce(probs[run_number][sqlrank.fusion_fixed_segment(position,
                    sqlrank.fusion_segfuse_ends())], 0) * (score + 1))
                WHEN 'slidefuse' THEN sum(sqlrank.fusion_slide_score(probs[run_number], position, listed, w))
                -- bayesfuse: the runs' log odds of the document's place; a run without it adds the least log odds
                WHEN 'bayesfuse' THEN sum(coalesce(probs[run_number][position], sqlrank.fusion_least_log_odds()))
                    + ((SELECT count(*) FROM sqlrank.fusion_run_numbers(runs_table)) - count(*)) * sqlrank.fusion_least_log_odds()
                ELSE sqlrank.fusion_tuned_score(method, score, position, weight, k, phi, gamma, sigma)
            END AS score
        FROM positioned
        WHERE method NOT IN ('condorcet', 'w_condorcet')
        GROUP BY query_id, doc_id
    ),
    -- condorcet: x beats y when the runs placing x above y outvote those placing y above x (a document a
    -- run missed is below every document it has); a document scores C minus the documents that beat it
    documents AS (SELECT DISTINCT query_id, doc_id FROM positioned WHERE method IN ('condorcet', 'w_condorcet')),
    run_votes AS (SELECT DISTINCT run_id, vote FROM positioned WHERE method IN ('condorcet', 'w_condorcet')),
    duels AS (
        SELECT pairs.query_id, pairs.x, pairs.y,
               sum(CASE WHEN coalesce(px.position, 9e18) < coalesce(py.position, 9e18) THEN run_votes.vote ELSE 0 END) AS for_x,
               sum(CASE WHEN coalesce(py.position, 9e18) < coalesce(px.position, 9e18) THEN run_votes.vote ELSE 0 END) AS for_y
        FROM (SELECT a.query_id, a.doc_id AS x, b.doc_id AS y FROM documents AS a
              JOIN documents AS b ON a.query_id = b.query_id AND a.doc_id <> b.doc_id) AS pairs
        CROSS JOIN run_votes
        LEFT JOIN positioned AS px ON px.run_id = run_votes.run_id AND px.query_id = pairs.query_id AND px.doc_id = pairs.x
        LEFT JOIN positioned AS py ON py.run_id = run_votes.run_id AND py.query_id = pairs.query_id AND py.doc_id = pairs.y
        GROUP BY pairs.query_id, pairs.x, pairs.y
    ),
    condorcet AS (
        SELECT documents.query_id, documents.doc_id,
               CAST((SELECT count(*) FROM documents AS d WHERE d.query_id = documents.query_id) AS DOUBLE)
               - coalesce(beaten_by, 0) AS score
        FROM documents
        LEFT JOIN (SELECT query_id, y AS doc_id, count(*) AS beaten_by FROM duels WHERE for_x > for_y
                   GROUP BY query_id, y) AS losses USING (query_id, doc_id)
    ),
    fused AS (
        SELECT combined.query_id, doc_id, combined.score + coalesce(missed_points, 0) AS score
        FROM combined LEFT JOIN borda_base USING (query_id)
        UNION ALL
        SELECT query_id, doc_id, score FROM condorcet
    )
    SELECT query_id, doc_id, score
    FROM fused
    QUALIFY depth IS NULL OR ROW_NUMBER() OVER (PARTITION BY query_id ORDER BY score DESC, doc_id DESC) <= depth;
