"""The error for an unknown measure suggests only known names close to the typed one, never itself."""

from __future__ import annotations

import pytest

import sqlrank


def message(spelling: str) -> str:
    with pytest.raises(sqlrank.MeasureError) as error:
        sqlrank.parse_measures(spelling)
    return str(error.value)


def test_names_that_exist_now_are_read_not_corrected():
    # they used to suggest RR@10 (another measure) and hit@5 (Success, another measure)
    assert [str(m) for m in sqlrank.parse_measures(["ERR@10", "hits@5"])] == ["ERR@10", "Hits@5"]


def test_a_trec_family_with_at_k_is_told_its_two_spellings_not_itself():
    text = message("ndcg_cut@10")
    assert "(did you mean 'ndcg_cut_10' or 'nDCG@10'?)" in text
    assert "'ndcg_cut@10'?" not in text
    assert "(did you mean 'map_cut_5' or 'AP@5'?)" in message("map_cut@5")


@pytest.mark.parametrize("typed, suggested", [
    ("nDGC@10", "nDCG@10"), ("succes@5", "Success@5"), ("reciprank", "recip_rank"), ("precison@5", "precision@5"),
])
def test_typos_get_the_name_meant(typed, suggested):
    assert f"(did you mean '{suggested}'?)" in message(typed)


@pytest.mark.parametrize("typed", ["EER@10", "foo@10", "f2@10", "xyz"])
def test_names_close_to_nothing_get_no_suggestion(typed):
    assert "did you mean" not in message(typed)
