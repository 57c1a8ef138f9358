-- sqlrank.measure_inf_ap(ranking, k, rel) -> DOUBLE
--
-- infAP, inferred average precision (Yilmaz & Aslam 2006), as trec_eval
-- computes it (m_infap.c) for judgments that sampled the pool: a negative
-- label means "in the pool, not judged", a document absent from the qrels
-- "not in the pool". At each relevant document (label >= rel) at rank k the
-- expected precision is
--   1/k + ((k-1)/k) · (pooled above / (k-1)) · (relevant above + ε) / (relevant above + non-relevant above + 2ε)
-- (1 at rank 1), ε = 1e-5: documents above that were never pooled count as
-- non-relevant, the pooled but unjudged ones are assumed relevant in the same
-- proportion as the judged ones. The sum is divided by R. With complete
-- judgments (no negative label) it is close to AP. It needs the label-0 and
-- the negative judgments (registry: judged_nonrelevant, negative_labels).
--
-- Example: the run ranks x (not in the qrels), n (label -1), r (relevant), R = 1:
--   infAP = 1/3 + (2/3) · (1/2) · ε / (0 + 0 + 2ε) = 1/3 + 1/6 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_inf_ap(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
        list_filter(
            list_transform(
                list_filter(
                    -- each pooled document with its place among the pooled ones (pooled above = place - 1)
                    list_transform(sqlrank.top_documents(ranking, k),
                                   lambda d, place: struct_pack(rank := d.rank, place := place, label := d.label)),
                    lambda pooled: sqlrank.is_relevant(pooled.label, rel) OR sqlrank.is_judged_nonrelevant(pooled.label, rel)),
                -- and its place among the judged ones (judged above = judged_place - 1)
                lambda judged, judged_place: struct_pack(rank := judged.rank, place := judged.place,
                                                         judged_place := judged_place,
                                                         relevant := sqlrank.is_relevant(judged.label, rel))),
            lambda judged: judged.relevant),
        -- the j-th relevant one has j - 1 relevant and judged_place - j judged non-relevant documents above it
        lambda hit, j: CASE WHEN hit.rank = 1 THEN 1.0
            ELSE 1.0 / NULLIF(hit.rank, 0) + ((hit.rank - 1.0) / NULLIF(hit.rank, 0))
                 * ((hit.place - 1.0) / NULLIF(hit.rank - 1.0, 0))
                 * ((j - 1 + 1e-5) / NULLIF(j - 1 + (hit.judged_place - j) + 2 * 1e-5, 0))
        END))
        / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- A relevant document d of a group of n places from rank s, in place j (chance 1/n): the groups above
-- hold R0 relevant, N0 judged non-relevant and P0 pooled documents; of the group's n - 1 others, the j
-- above d hold a relevant and b judged non-relevant ones with the multivariate hypergeometric chance
-- C(r, a) C(q, b) C(n - 1 - r - q, j - a - b) / C(n - 1, j), and the rest of the j are pooled with the
-- share of the unjudged others that are negative labels (linear in that count). Its term is averaged
-- over j, a and b: polynomial, O(n · r · q) per relevant document.
CREATE OR REPLACE MACRO sqlrank.average_inf_ap(ranking, k, rel) AS
    coalesce(list_sum(list_transform(
        list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel)),
        lambda d: list_transform(
            -- [relevant, judged non-relevant, negative] among the group's others, [relevant, judged
            -- non-relevant, pooled] in the groups above
            [[len(list_filter(ranking.documents, lambda e: e.rank = d.rank AND sqlrank.is_relevant(e.label, rel))) - 1,
              len(list_filter(ranking.documents, lambda e: e.rank = d.rank AND sqlrank.is_judged_nonrelevant(e.label, rel))),
              len(list_filter(ranking.documents, lambda e: e.rank = d.rank AND e.label < 0)),
              len(list_filter(ranking.documents, lambda e: e.rank < d.rank AND sqlrank.is_relevant(e.label, rel))),
              len(list_filter(ranking.documents, lambda e: e.rank < d.rank AND sqlrank.is_judged_nonrelevant(e.label, rel))),
              len(list_filter(ranking.documents, lambda e: e.rank < d.rank))]],
            lambda c: list_sum(list_transform(
                range(0, least(d.tied, coalesce(sqlrank.tied_cut(ranking, k), 9223372036854775806) - d.rank + 1)),
                lambda j: CASE WHEN d.rank + j = 1 THEN 1.0 ELSE
                    list_sum(list_transform(range(0, least(j, c[1]) + 1), lambda a:
                        list_sum(list_transform(range(0, least(j - a, c[2]) + 1), lambda b:
                            sqlrank.binomial(c[1], a) * sqlrank.binomial(c[2], b)
                            * sqlrank.binomial(d.tied - 1 - c[1] - c[2], j - a - b)
                            * (1.0 / NULLIF(d.rank + j, 0)
                               + (c[6] + a + b + (j - a - b) * coalesce(CAST(c[3] AS DOUBLE)
                                                                         / NULLIF(d.tied - 1 - c[1] - c[2], 0), 0))
                                 / NULLIF(d.rank + j, 0)
                                 * ((c[4] + a + 1e-5) / NULLIF(c[4] + a + c[5] + b + 2 * 1e-5, 0)))))))
                    / NULLIF(sqlrank.binomial(d.tied - 1, j), 0) END)) / NULLIF(d.tied, 0))[1]))
        / NULLIF(sqlrank.num_relevant(ranking, rel), 0), 0);
