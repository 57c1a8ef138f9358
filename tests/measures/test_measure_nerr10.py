"""NERR10(p, min_rel, max_rel) (sql/measures/nerr10.sql), Azzopardi et al.'s equation 10 as cwl_eval computes it."""

import pytest

import sqlrank


def test_the_worked_example(score):
    # labels 0, 2: reaches 1, p; a label-2 document first stops every user there
    assert score("NERR10(max_rel=2)", {"q": {"a": 0, "b": 2}, "r": {"a": 2}},
                 {"q": {"a": 2.0, "b": 1.0}, "r": {"a": 1.0}}) == pytest.approx({"q": 0.9 / 1.9, "r": 1.0}, abs=1e-15)
    assert sqlrank.evaluate({"q": {"a": 0, "b": 2}}, {"q": {"a": 2.0, "b": 1.0}}, ["NERR10(p=0.5,max_rel=2)"]
                            ).summary["NERR10(p=0.5,max_rel=2)"] == pytest.approx(0.5 / 1.5, abs=1e-15)


def test_its_p_defaults_to_ir_measures_0_9_not_rbps_0_8():
    (measure,) = sqlrank.parse_measures("NERR10(max_rel=2)")
    assert measure.param("p") == 0.9
    assert str(measure) == "NERR10(max_rel=2)"
    assert str(sqlrank.parse_measures("NERR10(p=0.8,max_rel=2)")[0]) == "NERR10(max_rel=2,p=0.8)"
