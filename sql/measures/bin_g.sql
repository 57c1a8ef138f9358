-- sqlrank.measure_bin_g(ranking, k, rel) -> DOUBLE
--
-- binG, binary G (trec_eval's binG, m_binG.c, an experimental measure
-- between AP and nDCG): each relevant document retrieved earns
-- 1 / log2(2 + the documents above it that are not relevant), unjudged ones
-- included; the sum is divided by R.
--   binG = (1/R) Σ_j 1 / log2(2 + r_j - j),  r_j the rank of the j-th relevant document
-- 0 when R = 0 or nothing relevant was retrieved. Whole list (no cutoff).
--
-- Example: R = 2; relevant documents at ranks 1 and 3 (one non-relevant above the second):
--   binG = (1/log2(2) + 1/log2(3)) / 2 = (1 + 0.6309) / 2 = 0.8155
CREATE OR REPLACE MACRO sqlrank.measure_bin_g(ranking, k, rel) AS
    coalesce(list_sum(list_transform(sqlrank.relevant_ranks(ranking, k, rel),
                                     lambda r, j: 1.0 / NULLIF(log2(2 + r - j), 0)))
             / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- a relevant document of a group of n places from rank s holding r relevant ones, a = s - 1 - the
-- relevant documents above the group: it has a + u non-relevant documents above it, u uniform over
-- 0..n - r (its order among the group's n - r others is uniform), so its term is averaged over u
CREATE OR REPLACE MACRO sqlrank.average_bin_g(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
        list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
        -- per document, once: the non-relevant places above its group, and its group's non-relevant places
        lambda d: list_transform(
            [struct_pack(above := d.rank - 1 - len(list_filter(ranking.documents,
                                                               lambda e: e.rank < d.rank AND sqlrank.is_relevant(e.label, rel))),
                         in_group := d.tied - len(list_filter(ranking.documents,
                                                              lambda e: e.rank = d.rank AND sqlrank.is_relevant(e.label, rel))))],
            lambda tie: list_sum(list_transform(range(tie.in_group + 1),
                                                  lambda u: 1.0 / NULLIF(log2(2 + tie.above + u), 0)))
                          / NULLIF(tie.in_group + 1, 0))[1]))
        / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);
