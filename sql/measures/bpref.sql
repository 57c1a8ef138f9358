-- sqlrank.measure_bpref(ranking, k, rel) -> DOUBLE
--
-- bpref (Buckley & Voorhees 2004), as trec_eval computes it:
--   bpref = (1/R) Σ_{relevant retrieved d} (1 - min(n_d, R) / min(N, R))
-- R = relevant judgments, N = judged non-relevant ones (0 <= label < rel),
-- n_d = judged non-relevant documents ranked above d. A term is 1 when n_d = 0
-- (also when N = 0). Unjudged documents and negative labels are skipped;
-- 0 when R = 0. It needs the label-0 judgments (registry: judged_nonrelevant).
--
-- How: among the judged documents in rank order, the j-th relevant one in
-- place i has i - j judged non-relevant documents above it.
--
-- Example: R = 2, N = 2; ranking relevant, non-relevant, relevant:
--   bpref = (1 + (1 - 1/2)) / 2 = 0.75
CREATE OR REPLACE MACRO sqlrank.measure_bpref(ranking, k, rel) AS
    coalesce(
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
                ELSE 1.0 - CAST(least(nonrelevant_above, sqlrank.num_relevant(ranking, rel)) AS DOUBLE)
                           / NULLIF(least(sqlrank.num_judged_nonrelevant(ranking, rel),
                                          sqlrank.num_relevant(ranking, rel)), 0)
            END))
        / NULLIF(sqlrank.num_relevant(ranking, rel), 0),
        0);
