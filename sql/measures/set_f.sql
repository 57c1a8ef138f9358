-- sqlrank.measure_set_f(ranking, k, rel, beta) -> DOUBLE
--
-- SetF, the set F measure: with set precision P = x / n and set recall
-- R' = x / R over the whole list (x relevant retrieved, n retrieved after
-- depth, R relevant judgments),
--   SetF = (beta + 1) · P · R' / (beta · P + R') = (beta + 1) · x / (beta · R + n)
-- beta is used as given, not squared (trec_eval's set_F.x, m_set_F.c, and
-- ir_measures' SetF(beta=x), which passes it on): the usual F_b is beta = b².
-- 0 when nothing relevant was retrieved.
--
-- Example: 4 retrieved, 2 relevant among them, R = 8 (P = 0.5, R' = 0.25):
--   SetF = 2 · 2 / (8 + 4) = 0.3333;  SetF(beta=4) = 5 · 2 / (32 + 4) = 0.2778
CREATE OR REPLACE MACRO sqlrank.measure_set_f(ranking, k, rel, beta) AS
    coalesce((beta + 1.0) * len(sqlrank.relevant_ranks(ranking, NULL, rel))
             / NULLIF(beta * sqlrank.num_relevant(ranking, rel) + ranking.num_ret, 0), 0);
