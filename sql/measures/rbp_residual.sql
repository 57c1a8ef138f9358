-- sqlrank.measure_rbp_residual(ranking, k) -> DOUBLE
--
-- RBPResidual, trec_eval 10's rbp_resid (m_rbp_resid.c): how much GradedRBP
-- could still grow if the unjudged documents were all relevant and the list
-- went on for ever: the weight (1 - p) p^(i-1) of every unjudged rank (no
-- judgment, or a negative label) plus the weight p^n of the ranks past the
-- n retrieved, p = 0.9. Since all the weights add to 1, that is
--   RBPResidual = 1 - (1 - p) Σ_{judged ranks i} p^(i-1)
-- It is the residual alone, not RBP plus it, and trec_eval sets it to 0
-- when no retrieved document is unjudged, however short the list (the
-- tail p^n is then left out too). It needs the label-0 judgments (registry:
-- judged_nonrelevant) to tell judged documents from unjudged ones.
--
-- Example: labels by rank 1, (unjudged), 0: 0.9³ + 0.1 · 0.9 = 1 - 0.1 · (1 + 0.81) = 0.819;
--   labels 1, 0, 0 (nothing unjudged): 0
-- Computed as trec_eval computes it (sqlrank.rbp_walk): 0.9^n + (1 - 0.9) Σ_{unjudged i} 0.9^(i-1), the
-- weights multiplied down rank by rank, so that -f trec prints trec_eval's last digit.
CREATE OR REPLACE MACRO sqlrank.measure_rbp_residual(ranking, k) AS
    CASE WHEN len(list_filter(ranking.documents, lambda d: d.label >= 0)) < ranking.num_ret
         THEN list_transform([sqlrank.rbp_walk(list_transform(list_filter(ranking.documents, lambda d: d.label >= 0),
                                                              lambda d: struct_pack(document := d, scaled := 0)),
                                               ranking.num_ret)],
                             lambda walked: walked.weight + (CAST(1 AS DOUBLE) - CAST(0.9 AS DOUBLE)) * walked.unjudged)[1]
         ELSE CAST(0 AS DOUBLE)
    END;

-- the expectation under ties := 'average' (sql/30_tie_average.sql, docs/tie-policies.md)
-- whether a document is unjudged does not read the order; each judged weight averaged over its group's places
CREATE OR REPLACE MACRO sqlrank.average_rbp_residual(ranking, k) AS
    CASE WHEN len(list_filter(ranking.documents, lambda d: d.label >= 0)) < ranking.num_ret
         THEN 1 - (1 - 0.9) * coalesce(list_sum(list_transform(list_filter(ranking.documents, lambda d: d.label >= 0),
                                                               lambda d: sqlrank.tied_power_mean(d, NULL, 0.9))), 0)
         ELSE CAST(0 AS DOUBLE)
    END;
