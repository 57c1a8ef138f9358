"""connect() copies the macro library from a database file made once (sqlrank/library_file.py): the same library as
installing its SQL, made again when damaged, and never needed (the SQL installs) where no file can be kept."""

from __future__ import annotations

import os
import re
from collections import Counter

import duckdb
import pytest

import sqlrank
from sqlrank import library_file, macros

# a call into the library, with its worked value: 2^3 - 1 = 7 (sql/02_gain.sql)
EXP_GAIN_OF_3 = "SELECT sqlrank.gain(3, kind := 'exp')"
# what a macro is: its name, kind, parameters, their types and its body
_MACROS = """
SELECT function_name, function_type, parameters::VARCHAR, parameter_types::VARCHAR, macro_definition, varargs
FROM duckdb_functions() WHERE schema_name = 'sqlrank' ORDER BY ALL
"""


def _macros(con) -> list[tuple]:
    """The library's macros, each body as its tokens counted: DuckDB prints an EXCLUDE or REPLACE list from a set,
    in an order a copied catalog need not keep."""
    return sorted((*row[:4], tuple(sorted(Counter(re.findall(r"\w+|[^\w\s]", row[4] or "")).items())), row[5])
                  for row in con.execute(_MACROS).fetchall())


def _files(folder) -> list:
    return sorted(path.name for path in folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize("table_macros", [True, False], ids=["whole library", "without the shell's table macros"])
def test_a_copied_library_is_the_installed_one(tmp_path, monkeypatch, table_macros):
    installed = _macros(duckdb.connect().execute(macros.library_sql(table_macros, measure_macros=True)))
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    made = sqlrank.connect(table_macros=table_macros)  # writes the file, then copies from it
    [name] = _files(tmp_path)
    assert name.startswith("library-") and name.endswith(".duckdb")
    written = (tmp_path / name).stat().st_mtime_ns
    copied = sqlrank.connect(table_macros=table_macros)  # copies from the file the first made
    assert (tmp_path / name).stat().st_mtime_ns == written
    assert len(installed) > 90
    assert _macros(made) == installed
    assert _macros(copied) == installed
    # nothing of the file stays attached
    assert copied.execute("SELECT count(*) FROM duckdb_databases() WHERE NOT internal").fetchone() == (1,)


def test_an_evaluation_in_a_copied_library_gives_the_installed_librarys_numbers(tmp_path, monkeypatch):
    qrels = {"q1": {"d1": 2, "d2": 0, "d3": 1}, "q2": {"d4": 1}}
    run = {"q1": {"d1": 0.5, "d2": 0.9, "d3": 0.1, "d9": 0.7}, "q2": {"d5": 1.0, "d4": 0.2}}
    measures = ["nDCG@10", "AP", "RR", "P@2"]
    results = []
    for folder in ("off", str(tmp_path), str(tmp_path)):
        monkeypatch.setenv(library_file.FOLDER_VARIABLE, folder)
        con = sqlrank.connect(table_macros=False)
        results.append(sqlrank.evaluate(qrels, run, measures, connection=con).to_arrow().to_pylist())
    assert results[0] == results[1] == results[2]
    values = {(row["query_id"], row["measure"]): row["value"] for row in results[0]}
    # q1: d2 (0), d9 (unjudged), d1 (2), d3 (1): RR 1/3, AP (1/3 + 2/4) / 2
    assert values["q1", "RR"] == pytest.approx(1 / 3, abs=1e-12)
    assert values["q1", "AP"] == pytest.approx((1 / 3 + 2 / 4) / 2, abs=1e-12)


def test_a_damaged_file_is_made_again(tmp_path, monkeypatch):
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    path = library_file.path_for(macros.library_sql(False, measure_macros=True))
    tmp_path.mkdir(exist_ok=True)
    path.write_bytes(b"not a database" * 100)
    con = sqlrank.connect(table_macros=False)  # the damaged file refused, the library installed from its SQL
    assert con.execute(EXP_GAIN_OF_3).fetchone() == (7.0,)
    assert not path.exists()
    sqlrank.connect(table_macros=False)  # the next connection makes the file again
    assert path.exists() and path.read_bytes()[:14] != b"not a database"
    assert _files(tmp_path) == [path.name]  # no temporary file left behind


def test_no_file_is_kept_where_none_can_be(tmp_path, monkeypatch):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(blocked / "sqlrank"))
    con = sqlrank.connect(table_macros=False)
    assert con.execute(EXP_GAIN_OF_3).fetchone() == (7.0,)
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, "off")
    assert library_file.path_for("SELECT 1") is None
    assert sqlrank.connect(table_macros=False).execute("SELECT sqlrank.gain(2)").fetchone() == (2.0,)


def test_the_file_is_named_by_the_sql_and_duckdbs_version(tmp_path, monkeypatch):
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    first, second = library_file.path_for("CREATE SCHEMA a;"), library_file.path_for("CREATE SCHEMA b;")
    assert first != second and first.parent == second.parent == tmp_path
    assert duckdb.__version__ in first.name


def test_the_users_cache_folder_by_default(monkeypatch, tmp_path):
    monkeypatch.delenv(library_file.FOLDER_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(library_file.sys, "platform", "linux")
    assert library_file.folder() == tmp_path / "sqlrank"


def test_a_database_of_the_users_own_is_installed_into_not_copied_into(tmp_path, monkeypatch):
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path / "files"))
    con = sqlrank.connect(str(tmp_path / "mine.duckdb"), table_macros=False)
    assert con.execute(EXP_GAIN_OF_3).fetchone() == (7.0,)
    assert _files(tmp_path / "files") == []


def test_a_copied_database_for_evaluations_holds_every_measure_file(tmp_path, monkeypatch):
    """Copying is cheap enough to bring the measure files and shared files along, so nothing is installed later."""
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    con = sqlrank.connect(table_macros=False)
    names = {name for (name,) in con.execute(
        "SELECT function_name FROM duckdb_functions() WHERE schema_name = 'sqlrank'").fetchall()}
    assert {"measure_ndcg", "measure_inf_ap", "fuse", "randomization", "subtopic_rankings"} <= names
    assert "ndcg" not in names  # the shell's table macros stay out
    assert con not in macros._MEASURES_ON_DEMAND


def test_connections_made_at_once_in_threads_share_one_file(tmp_path, monkeypatch):
    """Each writer renames a file of its own into place, so readers never see a half-written one."""
    import threading

    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    values, errors = [], []

    def connect_and_call() -> None:
        try:
            values.append(sqlrank.connect(table_macros=False).execute(EXP_GAIN_OF_3).fetchone())
        except Exception as error:  # noqa: BLE001 - any failure is the test's finding
            errors.append(error)

    threads = [threading.Thread(target=connect_and_call) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and values == [(7.0,)] * 4
    assert len(_files(tmp_path)) == 1


def test_no_home_folder_means_no_file(monkeypatch):
    monkeypatch.delenv(library_file.FOLDER_VARIABLE, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(library_file.sys, "platform", "linux")

    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(library_file.Path, "home", no_home)
    assert library_file.folder() is None
    assert sqlrank.connect(table_macros=False).execute("SELECT sqlrank.gain(2)").fetchone() == (2.0,)


def test_the_folder_keeps_the_newest_files_only(tmp_path, monkeypatch):
    """Each edit of the SQL makes a new file: the folder keeps the newest library_file.KEPT."""
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))
    old = [tmp_path / f"library-duckdb0.0-{number:020d}.duckdb" for number in range(library_file.KEPT + 2)]
    for age, path in enumerate(old):
        path.write_bytes(b"")
        os.utime(path, (1_000_000 + age, 1_000_000 + age))  # the last written is the newest
    new = library_file.path_for(macros.library_sql(False, measure_macros=True))
    sqlrank.connect(table_macros=False)
    assert _files(tmp_path) == sorted([new.name] + [path.name for path in old[-(library_file.KEPT - 1):]])


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path, monkeypatch):
    """Ctrl-C while the file is made: the interrupt goes on, the folder keeps nothing of the half-made file."""
    monkeypatch.setenv(library_file.FOLDER_VARIABLE, str(tmp_path))

    def interrupted_connect(path, *arguments, **options):
        open(path, "wb").close()  # DuckDB had begun the file
        raise KeyboardInterrupt

    monkeypatch.setattr(library_file.duckdb, "connect", interrupted_connect)
    with pytest.raises(KeyboardInterrupt):
        library_file.copy_into(None, "CREATE SCHEMA IF NOT EXISTS sqlrank;")
    assert _files(tmp_path) == []
