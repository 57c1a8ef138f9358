"""The trec layout names a measure asked with trec_eval's value list (`-m set_F.0.5`) as trec_eval does: its
name, `_`, and the values as typed (`set_F_0.5`, not `set_F_.5`).

out.test.values_as_typed is trec_eval 10's output (tests/data/trec_eval/README.md) of `trec_eval -q -m M qrels.test
results.test` for each M below, one command a measure, runid and num_q left out.
"""

from __future__ import annotations

from sqlrank.cli import run

AS_TYPED = ["set_F.0.5", "set_F.1", "ndcg.1=3.0,2=9", "11pt_avg.0.25,0.5", "utility.2.0,-1,0,0"]


def test_value_lists_are_printed_as_typed(trec_data, capsysbinary):
    asked = [option for measure in AS_TYPED for option in ("-m", measure)]
    assert run(["eval", "-q", "-f", "trec", *asked, str(trec_data / "qrels.test"), str(trec_data / "results.test")]) == 0
    printed = capsysbinary.readouterr().out.decode().splitlines()
    # trec_eval prints one measure a command, sqlrank every measure of a query together: the same lines
    assert sorted(printed) == sorted((trec_data / "out.test.values_as_typed").read_text().splitlines())
