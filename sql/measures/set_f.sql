-- sqlrank.measure_set_f(ranking, k, rel, beta) -> DOUBLE
--
-- SetF, the set F measure: with set precision P = x / n and set recall
-- R' = x / R over the whole list (x relevant retrieved, n retrieved after
-- depth, R relevant judgments),
--   SetF = (beta + 1) · P · R' / (beta · P + R') = (beta + 1) · x / (beta · R + n)
-- beta is used as given, not squared (trec_eval's set_F.x, m_set_F.c, and
-- ir_measures' SetF(beta=x), which passes it on): the usual F_b is beta = b².
-- 0 when nothing relevant was retrieved. With a cutoff, SetF@k is the F of
-- P@k and R@k (x relevant within k, n = k as P@k divides by k): ranx's f1@k.
--
-- Example: 4 retrieved, 2 relevant among them, R = 8 (P = 0.5, R' = 0.25):
--   SetF = 2 · 2 / (8 + 4) = 0.3333;  SetF(beta=4) = 5 · 2 / (32 + 4) = 0.2778;
--   with 1 relevant in the top 2, SetF@2 = 2 · 1 / (8 + 2) = 0.2
CREATE OR REPLACE MACRO sqlrank.measure_set_f(ranking, k, rel, beta) AS
    coalesce((beta + 1.0) * len(sqlrank.relevant_ranks(ranking, k, rel))
             / NULLIF(beta * sqlrank.num_relevant(ranking, rel) + coalesce(k, ranking.num_ret), 0), 0);

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- (beta + 1) n / (beta R + k), n the relevant documents within k: linear in n, so n's expectation
CREATE OR REPLACE MACRO sqlrank.average_set_f(ranking, k, rel, beta) AS
    coalesce((beta + 1.0) * sqlrank.expected_relevant(ranking, k, rel)
             / NULLIF(beta * sqlrank.num_relevant(ranking, rel) + coalesce(k, ranking.num_ret), 0), 0);
