"""bpref (sql/measures/bpref.sql)."""

# R = 2, N = 2; the run ranks relevant, non-relevant, (unjudged), relevant
QRELS = {"q": {"r1": 1, "r2": 1, "n1": 0, "n2": 0}}
RUN = {"q": {"r1": 4.0, "n1": 3.0, "u": 2.5, "r2": 2.0}}


def test_the_worked_example(score):
    assert score("bpref", QRELS, RUN) == {"q": 0.75}  # (1 + (1 - 1/2)) / 2


def test_negative_labels_are_skipped_like_unjudged_documents(score):
    assert score("bpref", {"q": {**QRELS["q"], "u": -1}}, RUN) == {"q": 0.75}


def test_no_judged_nonrelevant_document_gives_full_terms(score):
    assert score("bpref", {"q": {"r1": 1, "r2": 1}}, RUN) == {"q": 1.0}
