-- The measures' expected values under ties := 'average' (docs/tie-policies.md):
-- every ordering of each group of equally scored documents equally likely
-- (McSherry & Najork, ECIR 2008). They read sqlrank.tied_rankings' struct, whose
-- documents are (rank, label, tied): rank the first place of the document's tie
-- group, tied the group's size; a group's other places hold unjudged documents.
-- Each is exact and closed over the groups' places (no ordering is enumerated):
--
-- sqlrank.average_<macro>(ranking, k, <the measure's parameters>) -> DOUBLE, in the
--     measure's own file: the expectation of sqlrank.measure_<macro>; the registry's
--     `ties_average` says which measures have one ('average'), or need none because
--     they do not read the order ('same': their own macro reads this struct too)
--
-- The pieces they share, here:
-- sqlrank.tied_cut(ranking, k) -> BIGINT
--     the last place a measure at cutoff k reads: k, or the depth when it comes first (ranking.cut,
--     sqlrank.tie_groups): places beyond the depth hold no document. NULL: the whole list.
--     Every place below stands for it; k itself stays where a measure divides by it (P@k).
-- sqlrank.tied_share(d, k) -> DOUBLE
--     the chance that document d lands within k: the share of its group's places <= k
-- sqlrank.expected_relevant(ranking, k, rel) -> DOUBLE
--     the expected number of relevant documents within k (P, R, Rprec, NumRelRet)
-- sqlrank.tied_discount(d, k, discount, base) -> DOUBLE
--     the mean discount of d's group's places within k (0 beyond k), for DCG
-- sqlrank.none_within(n, r, j) -> DOUBLE
--     the chance that none of the r relevant documents of a group of n lands in its
--     first j places: C(n - r, j) / C(n, j) = Π_{i<r} (n - j - i) / (n - i)
-- sqlrank.first_relevant_group(ranking, rel) -> STRUCT(rank, tied, relevant)
--     the first group holding a relevant document and its number of relevant ones
--     (NULL fields when there is none): RR and Success read only that group
-- sqlrank.expected_dcg(ranking, k, gain, discount, base) -> DOUBLE
--     Σ gain(label) · tied_discount over the documents: DCG's and nDCG's expectation
-- sqlrank.expected_precision_sum(ranking, k, rel) -> DOUBLE
--     the expectation of Σ P@rank over the relevant documents within k (AP's numerator)
--
-- Example: three tied documents at ranks 1-3, one relevant: P@1 = 1/3, RR =
-- (1 + 1/2 + 1/3) / 3, AP (R = 1) the same, Success@2 = 2/3.
CREATE OR REPLACE MACRO sqlrank.tied_cut(ranking, k) AS
    least(k, ranking.cut);

CREATE OR REPLACE MACRO sqlrank.tied_share(d, k) AS
    CASE WHEN k IS NULL THEN 1.0
         ELSE greatest(least(CAST(k - d.rank + 1 AS DOUBLE) / NULLIF(d.tied, 0), 1.0), 0.0) END;

CREATE OR REPLACE MACRO sqlrank.expected_relevant(ranking, k, rel) AS
    coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
                                     lambda d: sqlrank.tied_share(d, sqlrank.tied_cut(ranking, k)))), 0.0);

CREATE OR REPLACE MACRO sqlrank.tied_discount(d, k, discount, base) AS
    coalesce(list_sum(list_transform(range(d.rank, least(d.rank + d.tied, coalesce(k, 9223372036854775806) + 1)),
                                     lambda place: sqlrank.discount(place, kind := discount, base := base))), 0.0)
    / NULLIF(d.tied, 0);

CREATE OR REPLACE MACRO sqlrank.none_within(n, r, j) AS
    list_reduce(list_transform(range(r), lambda i: greatest(CAST(n - j - i AS DOUBLE), 0.0) / NULLIF(n - i, 0)),
                lambda a, b: a * b, 1.0);

CREATE OR REPLACE MACRO sqlrank.first_relevant_group(ranking, rel) AS
    struct_pack(
        rank := list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel))[1].rank,
        tied := list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel))[1].tied,
        relevant := len(list_filter(ranking.documents,
                                    lambda d: sqlrank.is_relevant(d.label, rel)
                                              AND d.rank = list_filter(ranking.documents,
                                                                       lambda e: sqlrank.is_relevant(e.label, rel))[1].rank)));

-- A relevant document of a group of n places from rank s holding r relevant ones, b relevant
-- documents in the groups above: in place j (chance 1/n) its precision is expected to be
-- (b + 1 + j (r - 1) / (n - 1)) / (s + j), the other r - 1 spread evenly over the other places
CREATE OR REPLACE MACRO sqlrank.expected_precision_sum(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
        list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
        lambda d: coalesce(list_sum(list_transform(
            range(0, least(d.tied, coalesce(sqlrank.tied_cut(ranking, k), 9223372036854775806) - d.rank + 1)),
            lambda j: (len(list_filter(ranking.documents, lambda e: sqlrank.is_relevant(e.label, rel) AND e.rank < d.rank))
                       + 1
                       + j * coalesce(CAST(len(list_filter(ranking.documents,
                                                          lambda e: sqlrank.is_relevant(e.label, rel) AND e.rank = d.rank)) - 1
                                          AS DOUBLE) / NULLIF(d.tied - 1, 0), 0))
                      / NULLIF(d.rank + j, 0))), 0.0) / NULLIF(d.tied, 0))), 0.0);

CREATE OR REPLACE MACRO sqlrank.expected_dcg(ranking, k, gain, discount, base) AS
    coalesce(list_sum(list_transform(ranking.documents,
                                     lambda d: sqlrank.gain(d.label, kind := gain)
                                               * sqlrank.tied_discount(d, sqlrank.tied_cut(ranking, k), discount, base))),
           0.0);

-- sqlrank.tied_power_mean(d, k, p) -> DOUBLE
--     the mean of p^(place - 1) over d's group's places within k (0 beyond k): RBP's weights
CREATE OR REPLACE MACRO sqlrank.tied_power_mean(d, k, p) AS
    coalesce(list_sum(list_transform(range(d.rank, least(d.rank + d.tied, coalesce(k, 9223372036854775806) + 1)),
                                     lambda place: pow(p, place - 1))), 0.0)
    / NULLIF(d.tied, 0);

-- sqlrank.expected_bpref(ranking, rel) -> DOUBLE
--     bpref's expectation (GMbpref's per query). A relevant document of a group holding m judged
--     non-relevant ones, with b judged non-relevant documents in the groups above, has b + u of them
--     above it, u uniform over 0..m: its order among those m + 1 documents is uniform, whatever the
--     group's other documents. Its term is averaged over u; R and N do not read the order.
CREATE OR REPLACE MACRO sqlrank.expected_bpref(ranking, rel) AS
    coalesce(
        list_sum(list_transform(
            list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
            -- per document, once: the judged non-relevant documents above its group, and in it
            lambda d: list_transform(
                [struct_pack(
                    above := len(list_filter(ranking.documents,
                                             lambda e: e.rank < d.rank AND sqlrank.is_judged_nonrelevant(e.label, rel))),
                    in_group := len(list_filter(ranking.documents,
                                                lambda e: e.rank = d.rank AND sqlrank.is_judged_nonrelevant(e.label, rel))))],
                lambda tie: list_sum(list_transform(range(tie.in_group + 1), lambda u: CASE
                    WHEN tie.above + u = 0 THEN 1.0
                    ELSE 1.0 - CAST(least(tie.above + u, sqlrank.num_relevant(ranking, rel)) AS DOUBLE)
                               / NULLIF(least(sqlrank.num_judged_nonrelevant(ranking, rel),
                                              sqlrank.num_relevant(ranking, rel)), 0)
                END)) / NULLIF(tie.in_group + 1, 0))[1]))
        / NULLIF(sqlrank.num_relevant(ranking, rel), 0),
        0);

-- sqlrank.binomial(n, j) -> DOUBLE
--     C(n, j), 0 outside 0..n: exact (rounded) while it fits a double's integers, else to 1e-15 relative
CREATE OR REPLACE MACRO sqlrank.binomial(n, j) AS
    CASE WHEN j < 0 OR j > n THEN CAST(0 AS DOUBLE)
         WHEN exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1)) < 1e15
         THEN round(exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1)))
         ELSE exp(lgamma(n + 1) - lgamma(j + 1) - lgamma(n - j + 1)) END;

-- sqlrank.elementary_symmetric(xs) -> DOUBLE[]
--     [e_0, e_1, ..., e_len(xs)] of the values: e_t the sum of the products of every t of them (e_0 = 1),
--     one step a value (e_t += x · e_{t-1}): what a random t-subset of them multiplies to, times C(len, t)
CREATE OR REPLACE MACRO sqlrank.elementary_symmetric(xs) AS
    list_reduce(list_transform(xs, lambda x: [CAST(x AS DOUBLE)]),
                lambda e, x: list_transform(range(1, len(e) + 2),
                                            lambda i: coalesce(e[i], 0) + x[1] * CASE WHEN i > 1 THEN e[i - 1] ELSE 0 END),
                [CAST(1 AS DOUBLE)]);

-- sqlrank.err_stop_chance(label, max_grade) -> DOUBLE
--     ERR's chance that a document stops the reader, (2^label - 1) / 2^max_grade (sql/measures/err.sql)
CREATE OR REPLACE MACRO sqlrank.err_stop_chance(label, max_grade) AS
    (pow(2, label) - 1) / NULLIF(pow(2, max_grade), 0);
