-- The C/W/L framework's pieces (Moffat et al.; Azzopardi, Thomas & Moffat 2019, cwl_eval), which the
-- user-model measures INST, INSQ, BPM, SDCG and NERR8..NERR11 share (sql/measures/), as ir_measures'
-- cwl_eval provider runs them:
--
-- sqlrank.cwl_positions() -> BIGINT
--     1000: cwl_eval reads every ranking as 1000 positions, the documents past the run's end gaining 0,
--     and those past 1000 not read (ir_measures passes cwl_eval's default, max_n = 1000)
-- sqlrank.cwl_scale_ok(min_rel, max_rel, measure) -> BOOLEAN
--     true when 0 <= min_rel < max_rel, else an error naming the measure: below 0 a judged
--     non-relevant document would gain more than an unjudged one, which sqlrank's ranking pass does not keep
-- sqlrank.cwl_gains(ranking, min_rel, max_rel, n) -> DOUBLE[]
--     the gain of each of the first n positions, in rank order:
--       gain = (min(max(label, min_rel), max_rel) - min_rel) / (max_rel - min_rel)
--     0 for an unjudged document, a negative label (cwl_eval clips it to 0) and a position past the run
-- sqlrank.running_product(factors) -> DOUBLE[]
--     [f1, f1 f2, f1 f2 f3, ...], in ceil(log2 n) passes each multiplying by the partial product 2^step
--     places back (as sqlrank.prefix_sums_by_doubling adds): within a few ulps of a loop's
-- sqlrank.cwl_expected_gain(gains, continuations) -> DOUBLE
--     the C/W/L expected rate of gain: a user at position i reads on to i + 1 with the chance C(i)
--     (continuations[i]), so reaches i with the chance Π_{j<i} C(j); W(i) is that reach over the
--     sum of the reaches of the n positions, and the measure is Σ_i W(i) · gain_i. C(n) is not read.
--
-- Example: gains [1, 0, 0.5] and C = [0.5, 0.5, ·]: reaches 1, 0.5, 0.25 (sum 1.75),
--   expected gain = (1 · 1 + 0.25 · 0.5) / 1.75 = 0.642857...
CREATE OR REPLACE MACRO sqlrank.cwl_positions() AS
    1000;

CREATE OR REPLACE MACRO sqlrank.cwl_scale_ok(min_rel, max_rel, measure) AS
    CASE WHEN min_rel >= 0 AND min_rel < max_rel THEN true
         -- the words of sqlrank/checks/messages.py's GAIN_SCALE, which the parser says in Python
         ELSE error('sqlrank: ' || measure || ': min_rel must be at least 0 and below max_rel (labels from min_rel '
                    || 'to max_rel gain 0 to 1), got min_rel=' || printf('%g', CAST(min_rel AS DOUBLE)) || ', max_rel='
                    || printf('%g', CAST(max_rel AS DOUBLE)) || '; give the lowest and the highest label of the judgments'' scale')
    END;

-- the judged documents with a gain, each with its gain, then every gap before it filled with zeros
CREATE OR REPLACE MACRO sqlrank.cwl_gains(ranking, min_rel, max_rel, n) AS
    list_transform(
        [list_transform(
            list_filter(ranking.documents, lambda d: d.rank <= n AND d.label > min_rel),
            lambda d: struct_pack(rank := d.rank,
                                  gain := (least(d.label, max_rel) - min_rel) / NULLIF(max_rel - min_rel, 0)))],
        lambda hits: list_resize(
            CAST(flatten(list_transform(hits, lambda hit, j: list_concat(
                list_resize(CAST([] AS DOUBLE[]), hit.rank - CASE WHEN j = 1 THEN 0 ELSE hits[j - 1].rank END - 1, 0.0),
                [CAST(hit.gain AS DOUBLE)]))) AS DOUBLE[]),
            n, 0.0))[1];

-- each step comes as a one-element list [step]: DuckDB wants list_reduce's accumulator and elements of one type
CREATE OR REPLACE MACRO sqlrank.running_product(factors) AS
    list_reduce(list_transform(range(CAST(ceil(log2(greatest(len(factors), 1))) AS BIGINT)),
                               lambda step: [CAST(step AS DOUBLE)]),
                lambda products, step: list_transform(products, lambda partial, place: partial
                    * CASE WHEN place > (1 << CAST(step[1] AS BIGINT))
                           THEN products[place - (1 << CAST(step[1] AS BIGINT))] ELSE 1 END),
                CAST(factors AS DOUBLE[]));

CREATE OR REPLACE MACRO sqlrank.cwl_expected_gain(gains, continuations) AS
    list_transform(
        [sqlrank.running_product(list_concat([1.0], list_slice(continuations, 1, len(continuations) - 1)))],
        lambda reach: coalesce(list_inner_product(reach, gains) / NULLIF(list_sum(reach), 0), 0))[1];
