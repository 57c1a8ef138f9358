-- sqlrank.measure_utility(ranking, k, rel, relevant_retrieved, nonrelevant_retrieved, relevant_missed) -> DOUBLE
--
-- Utility, trec_eval's set utility (m_utility.c): a weighted count of the
-- contingency table of the whole retrieved set (after depth),
--   Utility = relevant_retrieved · x + nonrelevant_retrieved · (n - x) + relevant_missed · (R - x)
-- x relevant retrieved, n retrieved, R relevant judgments; unjudged documents
-- count as non-relevant. Defaults 1, -1, 0 (trec_eval's utility.1,-1,0,0). trec_eval's
-- fourth weight, for non-relevant documents not retrieved, needs the collection
-- size (-N), which sqlrank does not take: it is 0 here. The `all` row is the mean,
-- as in trec_eval. A query the run missed scores relevant_missed · R (0 by default;
-- trec_eval -c prints 0 whatever the weights).
--
-- Example: 4 retrieved, 2 of them relevant, R = 5:
--   Utility = 2 - 2 = 0;  Utility(relevant_retrieved=2,relevant_missed=-0.5) = 4 - 2 - 1.5 = 0.5
CREATE OR REPLACE MACRO sqlrank.measure_utility(ranking, k, rel, relevant_retrieved, nonrelevant_retrieved,
                                                relevant_missed) AS
    CAST(relevant_retrieved AS DOUBLE) * len(sqlrank.relevant_ranks(ranking, NULL, rel))
    + CAST(nonrelevant_retrieved AS DOUBLE) * (ranking.num_ret - len(sqlrank.relevant_ranks(ranking, NULL, rel)))
    + CAST(relevant_missed AS DOUBLE) * (sqlrank.num_relevant(ranking, rel) - len(sqlrank.relevant_ranks(ranking, NULL, rel)));

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md): linear in the
-- relevant documents retrieved, which only a depth across a tie group makes vary with the order
CREATE OR REPLACE MACRO sqlrank.average_utility(ranking, k, rel, relevant_retrieved, nonrelevant_retrieved,
                                                relevant_missed) AS
    CAST(relevant_retrieved AS DOUBLE) * sqlrank.expected_relevant(ranking, NULL, rel)
    + CAST(nonrelevant_retrieved AS DOUBLE) * (ranking.num_ret - sqlrank.expected_relevant(ranking, NULL, rel))
    + CAST(relevant_missed AS DOUBLE) * (sqlrank.num_relevant(ranking, rel) - sqlrank.expected_relevant(ranking, NULL, rel));
