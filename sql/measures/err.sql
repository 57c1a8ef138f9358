-- sqlrank.measure_err(ranking, k, max_grade, gain) -> DOUBLE
--
-- ERR@k, expected reciprocal rank (Chapelle, Metzler, Zhang & Grinspan 2009),
-- as gdeval computes it (the TREC Web track's script, which ir_measures runs):
-- a user reads down the list and stops at rank i with probability R_i, having
-- read on past every document above it,
--   ERR@k = Σ_{i <= k} (R_i / i) · Π_{j < i} (1 - R_j),  R = (2^grade - 1) / 2^max_grade
-- The grade is the label (gain 'linear', gdeval's), or what a gain map gives
-- the label (ERR(gains={1:2,2:4}), ERR.1=2,2=4; the labels it does not name keep
-- their own grade); 'exp' makes it 2^label - 1. Grades <= 0, unjudged documents
-- and negative labels give R = 0. The denominator is 2^max_grade, not
-- 2^max_grade - 1: even a top-grade document stops only 15/16 of the users with
-- gdeval's max_grade 4 (fixed there, a parameter here). A grade above max_grade
-- is an error, as in gdeval.
--
-- Example: labels by rank 0, 1, 3 (max_grade 4: R = 0, 1/16, 7/16):
--   ERR = (1/16) / 2 + (15/16) · (7/16) / 3 = 0.1680;  ERR@2 = 0.03125
-- With gains={1:2}: R = 0, 3/16, 7/16:  ERR = (3/16) / 2 + (13/16) · (7/16) / 3 = 0.2122
CREATE OR REPLACE MACRO sqlrank.measure_err(ranking, k, max_grade, gain) AS
    CASE WHEN sqlrank.top_gain(ranking, gain) > max_grade
         THEN error('sqlrank: ERR: a label has the grade ' || CAST(sqlrank.top_gain(ranking, gain) AS VARCHAR)
                    || ', above max_grade (' || CAST(max_grade AS VARCHAR)
                    || '); pass ERR(max_grade=...) with the highest grade')
    -- each document with a grade, with the chance R that it stops the user, computed once and named
    ELSE coalesce(list_transform(
        [list_transform(list_filter(sqlrank.top_documents(ranking, k), lambda d: sqlrank.gain(d.label, kind := gain) > 0),
                        lambda d: struct_pack(rank := d.rank,
                                              stop := (pow(2, sqlrank.gain(d.label, kind := gain)) - 1)
                                                      / NULLIF(pow(2, max_grade), 0)))],
        lambda hits: list_sum(list_transform(hits, lambda hit, j:
            hit.stop / NULLIF(hit.rank, 0)
            * coalesce(list_product(list_transform(list_slice(hits, 1, j - 1), lambda above: 1 - above.stop)), 1))))[1], 0)
    END;

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- A document d with a stop chance, of a group of n places from rank s: the groups above stop the
-- reader with the same chance in every order (Π (1 - R) over them); of the m other documents with a
-- stop chance in d's group, those above d when it is in place j (chance 1/n) are a random t-subset,
-- t hypergeometric: E[Π (1 - R) over them] = Σ_t e_t · C(n - 1 - m, j - t) / C(n - 1, j), e_t their
-- elementary symmetric sums (sqlrank.elementary_symmetric). Polynomial: O(n · m) per document.
-- R is sqlrank.err_stop_chance, measure_err's (2^label - 1) / 2^max_grade.
CREATE OR REPLACE MACRO sqlrank.average_err(ranking, k, max_grade, gain) AS
    CASE WHEN sqlrank.top_gain(ranking, gain) > max_grade
         THEN error('sqlrank: ERR: a label has the grade ' || CAST(sqlrank.top_gain(ranking, gain) AS VARCHAR)
                    || ', above max_grade (' || CAST(max_grade AS VARCHAR)
                    || '); pass ERR(max_grade=...) with the highest grade')
    ELSE coalesce(list_sum(list_transform(
        list_filter(ranking.documents, lambda d: sqlrank.gain(d.label, kind := gain) > 0 AND sqlrank.within(d.rank, sqlrank.tied_cut(ranking, k))),
        lambda d: sqlrank.err_stop_chance(sqlrank.gain(d.label, kind := gain), max_grade)
            * coalesce(list_product(list_transform(list_filter(ranking.documents, lambda e: sqlrank.gain(e.label, kind := gain) > 0 AND e.rank < d.rank),
                                                   lambda e: 1 - sqlrank.err_stop_chance(sqlrank.gain(e.label, kind := gain), max_grade))), 1)
            * list_transform(
                -- the others of d's group with a stop chance: other labels, and d's own label once less
                [sqlrank.elementary_symmetric(list_concat(
                    list_transform(list_filter(ranking.documents,
                                               lambda e: e.rank = d.rank AND sqlrank.gain(e.label, kind := gain) > 0 AND e.label <> d.label),
                                   lambda e: 1 - sqlrank.err_stop_chance(sqlrank.gain(e.label, kind := gain), max_grade)),
                    list_transform(range(len(list_filter(ranking.documents,
                                                         lambda e: e.rank = d.rank AND e.label = d.label)) - 1),
                                   lambda twin: 1 - sqlrank.err_stop_chance(sqlrank.gain(d.label, kind := gain), max_grade))))],
                lambda e: list_sum(list_transform(
                    range(0, least(d.tied, coalesce(sqlrank.tied_cut(ranking, k), 9223372036854775806) - d.rank + 1)),
                    lambda j: list_sum(list_transform(range(0, least(j, len(e) - 1) + 1),
                                                      lambda t: e[t + 1] * sqlrank.binomial(d.tied - len(e), j - t)))
                              / NULLIF(sqlrank.binomial(d.tied - 1, j), 0) / NULLIF(d.rank + j, 0))))[1]
            / NULLIF(d.tied, 0))), 0)
    END;
