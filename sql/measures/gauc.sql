-- sqlrank.measure_gauc(ranking, k, rel) -> DOUBLE
-- sqlrank.weight_gauc(ranking, k, rel) -> DOUBLE
--
-- GAUC: RecBole's grouped AUC (recbole/evaluator/metrics.py, GAUC). Per user, the AUC of the
-- ranked list: the positives are the relevant items ranked (label >= rel), the negatives every
-- other item ranked, judged or not, as RecBole scores every candidate item and counts every one
-- that is not a test positive as a negative. With P positives at ranks r_1 < ... < r_P among
-- n ranked items, the i-th has n - r_i items below it, P - i of them positives, so
--   AUC = (P · n - P(P - 1)/2 - Σ r_i) / (P · (n - P))
-- (RecBole's pair_num with ranks counted from the top). The `all` row is the mean weighted by
-- weight_gauc, the user's P, and a user without a positive or a negative weighs 0, as RecBole
-- leaves such users out (registry aggregate 'weighted'); their own value is 0. Relevant items
-- the run did not rank take no part (RecBole ranks every item). Not limited to k. Ties: below.
--
-- Example: judgments a=1, c=1; the run ranks a, b, c, d (n = 4, P = 2, ranks 1 and 3):
--   AUC = (2·4 - 1 - 4) / (2·2) = 3/4 (a over b, d; c over d), weight 2
CREATE OR REPLACE MACRO sqlrank.measure_gauc(ranking, k, rel) AS
    list_transform([sqlrank.relevant_ranks(ranking, NULL, rel)], lambda ranks:
        coalesce((len(ranks) * ranking.num_ret - len(ranks) * (len(ranks) - 1) * 0.5 - coalesce(list_sum(ranks), 0))
                 / NULLIF(CAST(len(ranks) * (ranking.num_ret - len(ranks)) AS DOUBLE), 0), 0.0))[1];

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md): RecBole's own value,
-- which gives tied items their mean rank. A positive in a group of `tied` places starting at `rank` has
-- n - (rank + tied - 1) items after its group, the positives among them not negatives, and the group's other
-- negatives below it half the time
CREATE OR REPLACE MACRO sqlrank.average_gauc(ranking, k, rel) AS
    list_transform([list_filter(ranking.documents, lambda d: sqlrank.is_relevant(d.label, rel))], lambda positives:
        coalesce(list_sum(list_transform(positives, lambda p:
                     (ranking.num_ret - (p.rank + p.tied - 1)) - len(list_filter(positives, lambda q: q.rank > p.rank))
                     + 0.5 * (p.tied - len(list_filter(positives, lambda q: q.rank = p.rank)))))
                 / NULLIF(CAST(len(positives) * (ranking.num_ret - len(positives)) AS DOUBLE), 0), 0.0))[1];

CREATE OR REPLACE MACRO sqlrank.weight_gauc(ranking, k, rel) AS
    list_transform([len(sqlrank.relevant_ranks(ranking, NULL, rel))], lambda positives:
        CASE WHEN positives > 0 AND ranking.num_ret > positives THEN CAST(positives AS DOUBLE) ELSE 0.0 END)[1];
