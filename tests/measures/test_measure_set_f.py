"""SetF (sql/measures/set_f.sql), trec_eval's set_F."""

import pytest

# R = 8; 4 retrieved, 2 of them relevant: P = 0.5, R' = 0.25
QRELS = {"q": {"a": 1, "c": 1, **{f"r{i}": 1 for i in range(6)}}}
RUN = {"q": {"a": 4.0, "b": 3.0, "c": 2.0, "d": 1.0}}


def test_the_worked_example(score):
    assert score("SetF", QRELS, RUN)["q"] == pytest.approx(2 * 0.5 * 0.25 / (0.5 + 0.25), abs=1e-15)


def test_beta_is_used_unsquared(score):
    # trec_eval's set_F.4 and ir_measures' SetF(beta=4): (4 + 1) P R / (4 P + R)
    assert score("SetF(beta=4)", QRELS, RUN)["q"] == pytest.approx(5 * 0.5 * 0.25 / (4 * 0.5 + 0.25), abs=1e-15)


def test_nothing_relevant_retrieved_scores_0(score):
    assert score("SetF", {"q": {"x": 1}}, RUN) == {"q": 0.0}
    assert score("SetF", {**QRELS, "missed": {"a": 1}}, RUN)["missed"] == 0.0


def test_at_k_is_the_f_of_p_at_k_and_r_at_k(score):
    # a at rank 1, c at rank 3: 1 relevant in the top 2, P@2 = 0.5, R@2 = 1/8; ranx's f1@2
    p, r = 0.5, 1 / 8
    assert score("SetF@2", QRELS, RUN)["q"] == pytest.approx(2 * p * r / (p + r), abs=1e-15)
    # P@10 divides by 10 although only 4 were retrieved
    p, r = 2 / 10, 2 / 8
    assert score("f1@10", QRELS, RUN)["q"] == pytest.approx(2 * p * r / (p + r), abs=1e-15)


def test_several_betas_give_one_measure_each_with_trec_eval_s_values(trec_data):
    # out.test.set_F_betas: trec_eval -q -m set_F.1.0 (then .0.5, .2.4) qrels.test results.test, one beta a run
    import sqlrank

    expected = {}
    for line in (trec_data / "out.test.set_F_betas").read_text().splitlines():
        name, query, value = (field.strip() for field in line.split("\t"))
        expected[(name.removeprefix("set_F_"), query)] = float(value)
    result = sqlrank.evaluate(trec_data / "qrels.test", trec_data / "results.test", ["set_F.1.0,0.5,2.4"])
    assert result.measures == ["set_F", "set_F_.5", "set_F_2.4"]
    betas = {"set_F": "1.0", "set_F_.5": "0.5", "set_F_2.4": "2.4"}
    actual = {(betas[row["measure"]], row["query_id"]): row["value"] for row in result.to_arrow().to_pylist()}
    assert actual == pytest.approx(expected, abs=5e-5)
