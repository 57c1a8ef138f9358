"""The C/W/L user models, Compat and Accuracy against ir_measures itself, on generated hard cases.

ir_measures computes INST, INSQ, BPM, SDCG and NERR8..NERR11 through cwl_eval (its cwl_eval provider),
Compat and Accuracy with its own code. The cases (one batch: one sqlrank evaluation, one ir_measures
call per measure list) hold graded and negative labels, unjudged documents, runs longer than the
judgments, queries without a relevant judgment and queries the run missed; the parameters reach the
edges (a cutoff past cwl_eval's 1000 positions, min_rel above 0, T below and above one document's gain).
Scores are distinct and positive: ir_measures breaks ties by document id ascending, and gives
Compat's ideal a retrieved document with a negative score after the unretrieved ones
(docs/measures.md#compat); the tie rule is tested against trec_eval elsewhere.
"""

from __future__ import annotations

import json
import logging
import random

import ir_measures
import pytest
from ir_measures import BPM, INSQ, INST, NERR8, NERR9, NERR10, NERR11, SDCG, Accuracy, Compat

import sqlrank

TOL = 1e-9
logging.getLogger("ir_measures.cwl_eval").setLevel(logging.ERROR)  # its notes on labels past max_rel


def generated_cases(seed: int = 38, queries: int = 24):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for number in range(queries):
        query = f"q{number}"
        docs = [f"d{i}" for i in range(rng.choice([5, 30, 1200]))]
        qrels[query] = {doc: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for doc in rng.sample(docs, rng.randint(1, 5))}
        if number % 8 == 7:
            continue  # a query the run missed
        retrieved = rng.sample(docs, rng.randint(1, len(docs)))
        run[query] = {doc: score / 8 for doc, score in zip(retrieved, rng.sample(range(1, 10 * len(docs)), len(retrieved)))}
    return qrels, run


QRELS, RUN = generated_cases()
CWL = [INST(max_rel=1), INST(T=2.0, min_rel=1, max_rel=4), INSQ(max_rel=2), INSQ(T=0.5, max_rel=4),
       BPM(max_rel=4) @ 10, BPM(T=0.25, max_rel=3) @ 1100, BPM(T=2.0, min_rel=1, max_rel=2) @ 5,
       SDCG(max_rel=4) @ 5, SDCG(min_rel=1, max_rel=3) @ 1500, NERR8(max_rel=4) @ 10, NERR8(max_rel=2) @ 1000,
       NERR9(max_rel=3) @ 20, NERR9(min_rel=2, max_rel=4) @ 3, NERR10(max_rel=4), NERR10(p=0.5, max_rel=2),
       NERR11(max_rel=4), NERR11(T=3.0, min_rel=1, max_rel=3)]
COMPAT = [Compat, Compat(p=0.8), Compat(p=0.5, normalize=False)]


def ours(measures) -> dict[tuple[str, str], float]:
    result = sqlrank.evaluate(QRELS, RUN, [str(measure) for measure in measures], names="asked")
    return {(row["measure"], row["query_id"]): row["value"] for row in result.per_query.to_pylist()}


def test_the_cwl_measures_and_compat_equal_ir_measures():
    measures = CWL + COMPAT
    theirs = {(str(m.measure), m.query_id): m.value for m in ir_measures.iter_calc(measures, QRELS, RUN)}
    values = ours(measures)
    assert set(theirs) == set(values) and len(values) == len(measures) * len(QRELS)
    assert values == pytest.approx(theirs, abs=TOL)
    assert len(set(values.values())) > len(values) / 4  # not a batch of zeros
    assert min(values.values()) >= 0


def test_accuracy_equals_ir_measures_where_it_reports_a_value():
    cutoffs = (None, 1, 3, 10)
    values = ours([Accuracy, *(Accuracy @ k for k in cutoffs[1:]), Accuracy(rel=2) @ 10])
    reported = 0
    for measure, rel, k in [(Accuracy, 1, None), *((Accuracy @ k, 1, k) for k in cutoffs[1:]),
                            (Accuracy(rel=2) @ 10, 2, 10)]:
        # ir_measures divides by zero on a query whose top k holds only relevant documents: left out for it
        mixed = {query: docs for query, docs in RUN.items()
                 if any(QRELS[query].get(doc, 0) < rel for doc in sorted(docs, key=docs.get, reverse=True)[:k])}
        theirs = {m.query_id: m.value for m in ir_measures.iter_calc([measure], QRELS, mixed)}
        for query in QRELS:
            if query in theirs:
                assert values[(str(measure), query)] == pytest.approx(theirs[query], abs=TOL), (measure, query)
            else:  # no relevant document in the top k, no other one, or missed: sqlrank says 0
                assert values[(str(measure), query)] == 0.0, (measure, query)
        reported += len(theirs)
    assert reported > 20


def test_the_command_line_gives_the_same_numbers_and_the_scale_error(tmp_path):
    from cli_runner import invoke

    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.txt"
    qrels.write_text("".join(f"{q} 0 {d} {label}\n" for q, docs in QRELS.items() for d, label in docs.items()))
    run.write_text("".join(f"{q} Q0 {d} 0 {score} r\n" for q, docs in RUN.items() for d, score in docs.items()))
    measures = ["INST(T=2,max_rel=4)", "BPM(max_rel=4)@10", "NERR10(max_rel=4)", "Compat", "Accuracy@10", "LabelRBP(p=0.95)"]
    result = invoke("eval", qrels, run, *(f"-m{m}" for m in measures), "-f", "json")
    assert result.exit_code == 0, result.stderr
    expected = sqlrank.evaluate(QRELS, RUN, measures).summary
    printed_values = {row["measure"]: row["value"] for row in json.loads(result.stdout) if row["query_id"] == "all"}
    assert printed_values == pytest.approx(expected, abs=1e-12)
    refused = invoke("eval", qrels, run, "-m", "INST(min_rel=3,max_rel=2)")
    assert refused.exit_code != 0
    assert "INST: min_rel must be at least 0 and below max_rel" in refused.stderr and "Traceback" not in refused.stderr
