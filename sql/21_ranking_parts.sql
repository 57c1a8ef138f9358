-- The pieces of a ranking that several measures share (sqlrank.rankings makes the struct):
--
-- sqlrank.within(rank, k) -> BOOLEAN
--     rank <= k; every rank when k is NULL (the whole list)
-- sqlrank.top_documents(ranking, k) -> [(rank, label)]
--     the judged documents ranked within k, in rank order
-- sqlrank.relevant_ranks(ranking, k, rel) -> [BIGINT]
--     the ranks within k of the relevant documents (label >= rel), in rank order
-- sqlrank.num_relevant(ranking, rel) -> BIGINT
--     R: the query's relevant judgments, retrieved or not
-- sqlrank.num_judged_nonrelevant(ranking, rel) -> BIGINT
--     N: the query's judged non-relevant documents (0 <= label < rel)
-- sqlrank.dcg_of(ranking, k, gain, discount, base) -> DOUBLE
--     Σ_{i <= k} gain(label_i) · discount(i), added in rank order
-- sqlrank.ideal_gains(ranking, gain, ideal) -> [DOUBLE]
--     the gains of the ideal ranking, best first: every judged document with a
--     positive gain (ideal 'qrels') or the retrieved ones re-sorted ('run')
-- sqlrank.top_gain(ranking, gain) -> DOUBLE
--     the highest gain of the query's labels: the first label's, as labels come highest
--     first, except under a gain map, which may give a lower label more
-- sqlrank.ideal_dcg(gains, k, discount, base) -> DOUBLE
--     Σ_{i <= k} gains[i] · discount(i) of gains sorted best first; 0 when none
-- sqlrank.bpref_of(ranking, k, rel) -> DOUBLE
--     trec_eval's bpref (sql/measures/bpref.sql; GMbpref's per-query value too):
--     among the judged documents in rank order, the j-th relevant one in place i
--     has i - j judged non-relevant documents above it
-- sqlrank.interpolated_precision(ranking, rel, recall, interpolation) -> DOUBLE
--     the highest precision at or after the rank where lround(recall · R) relevant
--     documents (at least 1) have been retrieved; 0 when the run never gets there
--     (trec_eval 10's iprec_at_recall; IPrec and AvgIPrec share it). Precision peaks at
--     relevant documents, so it is the max of j / r_j over those documents from that one on.
--     interpolation 'trec_eval9' counts (long)(recall · R + 0.9) documents instead, as trec_eval 9.x
--     and pytrec_eval do: the count is truncated, up to one relevant document later
-- sqlrank.relevant_precisions(ranking, rel) -> [DOUBLE]
--     j / r_j for the j-th relevant document retrieved, in rank order (the whole list)
-- sqlrank.interpolated_precision_of(precisions, num_relevant, recall, interpolation) -> DOUBLE
--     interpolated_precision from those precisions and R, for a measure that asks at several
--     recall levels and computes them once (AvgIPrec)
-- sqlrank.relevant_needed(num_relevant, recall, interpolation) -> BIGINT
--     how many relevant documents recall · R asks for, at least 1, as trec_eval 10 or 9 counts them
-- sqlrank.precision_sum(ranking, k, rel) -> DOUBLE
--     Σ P@r_j over the relevant documents within k, r_j the j-th one's rank: Σ j / r_j,
--     added in rank order (AP's numerator; GMAP's)
-- sqlrank.running_sum(terms) -> [DOUBLE]
--     [t1, t1 + t2, t1 + t2 + t3, ...]: the prefix sums. Up to 32 terms each is the sum of its
--     slice, added one by one as a loop adds (quadratic, and the cheapest for the short lists
--     most queries have); past that in ceil(log2 n) passes over the list, each adding the partial
--     sum 2^step places back (O(n log n); list_reduce, the one loop DuckDB's lists have, copies
--     its list accumulator at every step, which is quadratic). Those partial sums are added in a
--     tree, not one by one: equal to a loop's within a few ulps (docs/performance.md)
-- sqlrank.prefix_sums_by_doubling(terms) -> [DOUBLE]
--     running_sum's way for long lists, the doubling passes alone
--
-- An expression inside a lambda is evaluated once per element, even when it does not use the
-- element (DuckDB captures columns, not expressions): a list a lambda looks things up in is
-- computed outside it, passed in as the lambda's argument (list_zip, or `list_transform([list],
-- lambda name: ...)[1]` to give it a name), never rebuilt inside it (docs/performance.md).
--
-- A measure macro calls only these and the files before them, never another
-- measure's macro: macros are bound when they are created, and the measures
-- are created in no particular order.
--
-- Example: documents [(2, 2.0), (3, 0.0)], labels [2.0, 1.0, 0.0, -1.0], rel 1:
-- relevant_ranks(k := NULL) = [2], relevant_ranks(k := 1) = [], R = 2, N = 1.
CREATE OR REPLACE MACRO sqlrank.within(rank, k) AS
    k IS NULL OR rank <= k;

CREATE OR REPLACE MACRO sqlrank.top_documents(ranking, k) AS
    list_filter(ranking.documents, lambda d: sqlrank.within(d.rank, k));

CREATE OR REPLACE MACRO sqlrank.relevant_ranks(ranking, k, rel) AS
    list_transform(
        list_filter(ranking.documents, lambda d: sqlrank.within(d.rank, k) AND sqlrank.is_relevant(d.label, rel)),
        lambda d: d.rank);

CREATE OR REPLACE MACRO sqlrank.num_relevant(ranking, rel) AS
    len(list_filter(ranking.labels, lambda label: sqlrank.is_relevant(label, rel)));

CREATE OR REPLACE MACRO sqlrank.num_judged_nonrelevant(ranking, rel) AS
    len(list_filter(ranking.labels, lambda label: sqlrank.is_judged_nonrelevant(label, rel)));

-- adds in rank order, as trec_eval adds, so every run gives the same bits
CREATE OR REPLACE MACRO sqlrank.dcg_of(ranking, k, gain, discount, base) AS
    coalesce(list_sum(list_transform(
        sqlrank.top_documents(ranking, k),
        lambda d: sqlrank.gain(d.label, kind := gain) * sqlrank.discount(d.rank, kind := discount, base := base))), 0);

-- sqlrank.gain is bound at one place: each copy of it costs DuckDB's planner more than the work of a small run
CREATE OR REPLACE MACRO sqlrank.ideal_gains(ranking, gain, ideal) AS
    list_transform(
        [list_transform(CASE sqlrank.choice(ideal, ['qrels', 'run'], 'ideal')
                            WHEN 'run' THEN list_transform(ranking.documents, lambda d: d.label)
                            ELSE list_filter(ranking.labels, lambda label: label > 0) END,
                        lambda label: sqlrank.gain(label, kind := gain))],
        -- labels come highest first, and a higher label never has a smaller gain, except in a gain map,
        -- whose gains may also be 0 or negative: trec_eval's ideal ranking holds the positive gains only
        lambda gains: CASE WHEN ideal = 'run' THEN list_reverse_sort(gains)
                           WHEN starts_with(gain, '{') THEN list_reverse_sort(list_filter(gains, lambda positive: positive > 0))
                           ELSE gains END)[1];

CREATE OR REPLACE MACRO sqlrank.top_gain(ranking, gain) AS
    CASE WHEN starts_with(gain, '{')
         THEN list_max(list_transform(ranking.labels, lambda label: sqlrank.gain(label, kind := gain)))
         ELSE sqlrank.gain(ranking.labels[1], kind := gain) END;

-- the inner product adds in list order, so in rank order: the same bits on every run
CREATE OR REPLACE MACRO sqlrank.ideal_dcg(gains, k, discount, base) AS
    coalesce(list_inner_product(
        list_slice(gains, 1, coalesce(k, 9223372036854775807)),
        list_transform(range(1, least(coalesce(k, 9223372036854775807), len(gains)) + 1),
                       lambda i: sqlrank.discount(i, kind := discount, base := base))), 0);

CREATE OR REPLACE MACRO sqlrank.bpref_of(ranking, k, rel) AS
    -- R and N computed once and named: inside the lambda below they would be counted again for every document
    list_transform([struct_pack(r := sqlrank.num_relevant(ranking, rel), n := sqlrank.num_judged_nonrelevant(ranking, rel))],
                   lambda counts: coalesce(
        list_sum(list_transform(
            -- n_d for each relevant document: its place among the judged ones less its place among the relevant
            list_transform(
                list_filter(
                    list_transform(
                        list_filter(sqlrank.top_documents(ranking, k),
                                    lambda d: sqlrank.is_relevant(d.label, rel)
                                              OR sqlrank.is_judged_nonrelevant(d.label, rel)),
                        lambda d, judged_place: struct_pack(judged_place := judged_place,
                                                        relevant := sqlrank.is_relevant(d.label, rel))),
                    lambda d: d.relevant),
                lambda d, relevant_place: d.judged_place - relevant_place),
            lambda nonrelevant_above: CASE
                WHEN nonrelevant_above = 0 THEN 1.0
                ELSE 1.0 - CAST(least(nonrelevant_above, counts.r) AS DOUBLE) / NULLIF(least(counts.n, counts.r), 0)
            END))
        / NULLIF(counts.r, 0),
        0))[1];

CREATE OR REPLACE MACRO sqlrank.precision_sum(ranking, k, rel) AS
    coalesce(list_inner_product(
        list_transform(sqlrank.relevant_ranks(ranking, k, rel), lambda r: 1.0 / NULLIF(r, 0)),
        CAST(range(1, len(sqlrank.relevant_ranks(ranking, k, rel)) + 1) AS DOUBLE[])), 0);

-- lround as trec_eval 10 does it: round() on a DOUBLE rounds halves away from zero; trec_eval 9's
-- (long)(x + 0.9) is trunc() of the same double sum (m_iprec_at_recall.c before 10.0)
CREATE OR REPLACE MACRO sqlrank.relevant_needed(num_relevant, recall, interpolation) AS
    CAST(greatest(CASE sqlrank.choice(interpolation, ['trec_eval10', 'trec_eval9'], 'interpolation')
                      WHEN 'trec_eval9' THEN trunc(CAST(recall AS DOUBLE) * num_relevant + CAST(0.9 AS DOUBLE))
                      ELSE round(CAST(recall AS DOUBLE) * num_relevant) END, 1) AS BIGINT);

CREATE OR REPLACE MACRO sqlrank.interpolated_precision_of(precisions, num_relevant, recall, interpolation) AS
    coalesce(list_max(list_slice(precisions, sqlrank.relevant_needed(num_relevant, recall, interpolation),
                                 len(precisions))), 0);

CREATE OR REPLACE MACRO sqlrank.relevant_precisions(ranking, rel) AS
    list_transform(sqlrank.relevant_ranks(ranking, NULL, rel), lambda r, j: CAST(j AS DOUBLE) / NULLIF(r, 0));

CREATE OR REPLACE MACRO sqlrank.interpolated_precision(ranking, rel, recall, interpolation) AS
    list_transform([sqlrank.relevant_precisions(ranking, rel)], lambda precisions:
        sqlrank.interpolated_precision_of(precisions, sqlrank.num_relevant(ranking, rel), recall, interpolation))[1];

-- each step comes as a one-element list [step]: DuckDB 1.x wants list_reduce's accumulator (the
-- sums, DOUBLE[]) and the list's elements of one type
CREATE OR REPLACE MACRO sqlrank.prefix_sums_by_doubling(terms) AS
    list_reduce(list_transform(range(CAST(ceil(log2(greatest(len(terms), 1))) AS BIGINT)),
                               lambda step: [CAST(step AS DOUBLE)]),
                lambda sums, step: list_transform(sums, lambda partial, place: partial
                    + CASE WHEN place > (1 << CAST(step[1] AS BIGINT))
                           THEN sums[place - (1 << CAST(step[1] AS BIGINT))] ELSE 0 END),
                CAST(terms AS DOUBLE[]));

CREATE OR REPLACE MACRO sqlrank.running_sum(terms) AS
    list_transform([CAST(terms AS DOUBLE[])], lambda doubles: CASE WHEN len(doubles) <= 32
        THEN list_transform(doubles, lambda term, place: list_sum(list_slice(doubles, 1, place)))
        ELSE sqlrank.prefix_sums_by_doubling(doubles) END)[1];

-- sqlrank.rbp_gain_scale(ranking, gain) -> STRUCT(low, span)
--     trec_eval's rbp scales gains into [0, 1] as (gain - low) / span when one of its levels' gains is
--     below 0 or above 1 (sql/measures/graded_rbp.sql). Its levels run from 0 to the query's highest label
--     and every label the map names; the highest unnamed level is the highest label or, when the map names
--     that, one of the next ones down: at most one per name in the map.
CREATE OR REPLACE MACRO sqlrank.rbp_gain_scale(ranking, gain) AS
    list_transform(
        [struct_pack(
            low := least(0, list_min(sqlrank.map_gains(gain))),
            high := greatest(0, list_max(sqlrank.map_gains(gain)),
                             list_max(list_transform(range(0, len(sqlrank.map_gains(gain)) + 1),
                                                     lambda below: sqlrank.gain(ranking.labels[1] - below, kind := gain)))))],
        -- gains already within [0, 1] stay as they are: (gain - 0) / 1
        lambda levels: struct_pack(low := CASE WHEN levels.low < 0 OR levels.high > 1 THEN levels.low ELSE 0 END,
                                   span := CASE WHEN levels.low < 0 OR levels.high > 1 THEN levels.high - levels.low
                                                ELSE 1 END))[1];

-- sqlrank.rbp_scaled_gains(ranking, gain) -> STRUCT(document, scaled)[]
--     each document of a label >= 0 with its gain scaled by rbp_gain_scale: what GradedRBP sums, each term
--     discounted by its place (sql/measures/graded_rbp.sql: by its rank, or by its group's places under average)
CREATE OR REPLACE MACRO sqlrank.rbp_scaled_gains(ranking, gain) AS
    list_transform(
        [sqlrank.rbp_gain_scale(ranking, gain)],
        lambda scale: list_transform(
            list_filter(ranking.documents, lambda d: d.label >= 0),
            lambda d: struct_pack(document := d,
                                  scaled := (sqlrank.gain(d.label, kind := gain) - scale.low) / NULLIF(scale.span, 0))))[1];

-- sqlrank.rbp_walk(terms, num_ret) -> STRUCT(gained DOUBLE, unjudged DOUBLE, weight DOUBLE)
--     trec_eval's rbp and rbp_resid loop (m_rbp.c, m_rbp_resid.c) in its own arithmetic, so that -f trec
--     prints its digits: down ranks 1..num_ret with a weight that starts at 1 and is multiplied by 0.9 at
--     each rank (pow(0.9, i - 1) differs in the last bits), adding in rank order gain · weight (gained)
--     and, at a rank with no judged document, the weight (unjudged); weight ends as 0.9^num_ret.
--     terms: the judged documents as STRUCT(document, scaled) in rank order (sqlrank.rbp_scaled_gains).
--     Every step is the accumulator's own type: DuckDB 1.x wants list_reduce's accumulator and elements alike.
CREATE OR REPLACE MACRO sqlrank.rbp_walk(terms, num_ret) AS
    list_transform([terms], lambda judged: list_reduce(list_concat(list_concat(
        [struct_pack(gained := CAST(0 AS DOUBLE), unjudged := CAST(0 AS DOUBLE), weight := CAST(1 AS DOUBLE))],
        flatten(list_transform(judged, lambda term, place: list_concat(
            list_transform(range(CASE WHEN place = 1 THEN 1 ELSE judged[place - 1].document.rank + 1 END,
                                 term.document.rank),
                           lambda gap: struct_pack(gained := CAST(0 AS DOUBLE), unjudged := CAST(1 AS DOUBLE),
                                                   weight := CAST(0 AS DOUBLE))),
            [struct_pack(gained := CAST(term.scaled AS DOUBLE), unjudged := CAST(0 AS DOUBLE),
                         weight := CAST(0 AS DOUBLE))])))),
        list_transform(range(coalesce(judged[-1].document.rank, 0) + 1, coalesce(num_ret, 0) + 1),
                       lambda tail: struct_pack(gained := CAST(0 AS DOUBLE), unjudged := CAST(1 AS DOUBLE),
                                                weight := CAST(0 AS DOUBLE)))),
        lambda walked, step: struct_pack(gained := walked.gained + step.gained * walked.weight,
                                         unjudged := walked.unjudged + step.unjudged * walked.weight,
                                         weight := walked.weight * CAST(0.9 AS DOUBLE))))[1];
