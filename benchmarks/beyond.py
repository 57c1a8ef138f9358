"""Beyond accuracy: sqlrank's list measures against recommenders' python_evaluation on the same data.

    python benchmarks/beyond.py --data DIR make                         # the data, once (Parquet files in DIR)
    python benchmarks/beyond.py --data DIR sqlrank                      # sqlrank's timings
    OTHER_PYTHON benchmarks/beyond.py --data DIR recommenders           # recommenders' (pandas < 3, which it needs)
    python benchmarks/beyond.py --data DIR --top 10 sqlrank-similarity  # Diversity and Serendipity at --top
    OTHER_PYTHON benchmarks/beyond.py --data DIR --top 10 recommenders-similarity

The data: 10,000 users × 100 recommendations (1M rows, scores falling down each list), drawn from 100,000
items with a popularity skew; 1M training interactions drawn the same way; a truth of one item per user.
Times (wall and CPU of this process, median of --repeat, after --warm-ups untimed calls, 1 by default):
sqlrank.evaluate of the three measures recommenders has (Novelty, CatalogCoverage, DistributionalCoverage) and of
all seven list measures, reading the Parquet files (the reading is timed); recommenders' novelty, catalog_coverage
and distributional_coverage on
pandas DataFrames read beforehand (untimed). recommenders has no ARP, APLT, Gini or personalization. Each side
prints its values, which must agree.

The similarity measures (Diversity and Serendipity, by co-occurrence in the history and by 16-d feature
vectors) read every pair of items of each user's top k: 4,950 pairs a user at k = 100 (49.5M pairs), 45 at
k = 10. Their training log is `history.parquet`, the training log's 1M rows folded onto the recommended
users (a user needs a history for Serendipity), each (user, item) once, less the user's recommendations.
`--top` sets k; recommenders gets each user's top k rows (its functions take no cutoff) and, for Serendipity,
the truth as its relevance column (1 for the truth's item, else 0), which sqlrank reads from the truth.
`--skip` leaves measures out by name (`--skip Serendipity,Serendipity(similarity=features)`). Each similarity
measure is timed in its own call on each side; recommenders' similarity table, which it caches between calls, is
cleared before each, since sqlrank makes its own in each call. `--warm-ups 0` times the first call (at k = 100,
where a call takes minutes).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

USERS, LENGTH, ITEMS, INTERACTIONS = 10_000, 100, 100_000, 1_000_000
SHARED = ["Novelty", "CatalogCoverage", "DistributionalCoverage"]
ALL = SHARED + ["ARP", "APLT", "Gini", "Personalization"]
FEATURES = 16  # the length of each item's feature vector


def similar(top: int, skip: tuple[str, ...] = ()) -> list[str]:
    """The similarity measures at cutoff `top`, by co-occurrence and by features, less those named in `skip`."""
    names = [f"{name}{options}" for name in ("Diversity", "Serendipity") for options in ("", "(similarity=features)")]
    return [f"{name}@{top}" for name in names if name not in skip]


def make(folder: Path, seed: int = 0) -> None:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    weights = 1 / np.arange(1, ITEMS + 1) ** 0.8  # a long tail of popularity
    weights /= weights.sum()
    # each user's 100 distinct items: drawn with the skew, more than needed, the first 100 distinct kept
    lists = []
    for _ in range(USERS):
        drawn = rng.choice(ITEMS, 3 * LENGTH, p=weights)
        lists.append(drawn[np.sort(np.unique(drawn, return_index=True)[1])][:LENGTH])
    users = np.repeat(np.arange(USERS), LENGTH)
    items = np.concatenate(lists)
    scores = np.tile(np.arange(LENGTH, 0, -1), USERS).astype(float)
    pq.write_table(pa.table({"user_id": users, "item_id": items, "score": scores}), folder / "recs.parquet")
    # other users than the recommendations' (recommenders refuses a recommendation already in the training data)
    pq.write_table(pa.table({"user_id": rng.integers(USERS, USERS + 50_000, INTERACTIONS),
                             "item_id": rng.choice(ITEMS, INTERACTIONS, p=weights)}), folder / "train.parquet")
    pq.write_table(pa.table({"user_id": np.arange(USERS), "item_id": np.array([chosen[0] for chosen in lists])}),
                   folder / "truth.parquet")
    pq.write_table(pa.table({"item_id": np.arange(ITEMS)}), folder / "items.parquet")
    # Serendipity reads each recommended user's own history: the training log given to the recommended users
    # (its users folded onto them), each (user, item) once, since recommenders would count a repeat twice
    history = pa.table({"user_id": (pq.read_table(folder / "train.parquet")["user_id"].to_numpy() - USERS) % USERS,
                        "item_id": pq.read_table(folder / "train.parquet")["item_id"]})
    # without the user's own recommendations, which recommenders refuses to find in the training data
    recommended = pq.read_table(folder / "recs.parquet").select(["user_id", "item_id"])
    history = history.group_by(["user_id", "item_id"]).aggregate([])
    pq.write_table(history.join(recommended, ["user_id", "item_id"], join_type="left anti"),
                   folder / "history.parquet")
    vectors = rng.random((ITEMS, FEATURES))
    pq.write_table(pa.table({"item_id": np.arange(ITEMS), "features": list(vectors)}), folder / "features.parquet")


WARM_UPS = 1  # untimed calls before the timed ones (--warm-ups)


def timed(call, repeat: int) -> tuple[dict, object]:
    """The median wall and CPU seconds (this process's, every thread) of `repeat` calls after WARM_UPS calls."""
    for _ in range(WARM_UPS):
        value = call()
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        value = call()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus)}, value


def run_sqlrank(folder: Path, repeat: int) -> dict:
    import sqlrank

    def evaluate(measures):
        return sqlrank.evaluate(str(folder / "truth.parquet"), str(folder / "recs.parquet"), measures,
                                train=str(folder / "train.parquet"), items=str(folder / "items.parquet")).summary

    shared_time, shared = timed(lambda: evaluate(SHARED), repeat)
    all_time, values = timed(lambda: evaluate(ALL), repeat)
    return {"contender": "sqlrank", "shared_seconds": shared_time, "all_seconds": all_time, "values": values,
            "shared_values": shared}


def timed_each(contender: str, evaluate, top: int, skip: tuple[str, ...], repeat: int) -> dict:
    """Each similarity measure timed in calls of its own (timed), with its value."""
    found = {name: timed(lambda: evaluate(name), repeat) for name in similar(top, skip)}
    return {"contender": contender, "top": top, "similarity_seconds": {name: found[name][0] for name in found},
            "values": {name: found[name][1] for name in found}}


def run_sqlrank_similarity(folder: Path, repeat: int, top: int, skip: tuple[str, ...]) -> dict:
    import sqlrank

    def evaluate(name):
        return sqlrank.evaluate(str(folder / "truth.parquet"), str(folder / "recs.parquet"), [name],
                                train=str(folder / "history.parquet"),
                                features=str(folder / "features.parquet")).summary[name]

    return timed_each("sqlrank", evaluate, top, skip, repeat)


def run_recommenders_similarity(folder: Path, repeat: int, top: int, skip: tuple[str, ...]) -> dict:
    import pandas as pd
    from recommenders.evaluation.python_evaluation import _get_cosine_similarity, diversity, serendipity

    train = pd.read_parquet(folder / "history.parquet")
    reco = pd.read_parquet(folder / "recs.parquet")
    reco = reco[reco.groupby("user_id")["score"].rank(ascending=False, method="first") <= top]
    truth = pd.read_parquet(folder / "truth.parquet").assign(relevance=1.0)
    reco = reco.merge(truth, on=["user_id", "item_id"], how="left").fillna({"relevance": 0.0})
    features = pd.read_parquet(folder / "features.parquet")
    columns = {"col_user": "user_id", "col_item": "item_id"}
    by_features = {"item_feature_df": features, "item_sim_measure": "item_feature_vector",
                   "col_item_features": "features"}
    calls = dict(zip(similar(top), (
        lambda: diversity(train, reco, **columns),
        lambda: diversity(train, reco, **by_features, **columns),
        lambda: serendipity(train, reco, col_relevance="relevance", **columns),
        lambda: serendipity(train, reco, col_relevance="relevance", **by_features, **columns))))

    def evaluate(name):
        _get_cosine_similarity.cache_clear()  # it keeps its last similarity table: each call makes its own
        return calls[name]()

    return timed_each("recommenders", evaluate, top, skip, repeat)


def run_recommenders(folder: Path, repeat: int) -> dict:
    import pandas as pd
    from recommenders.evaluation.python_evaluation import catalog_coverage, distributional_coverage, novelty

    train = pd.read_parquet(folder / "train.parquet")
    reco = pd.read_parquet(folder / "recs.parquet")
    # its catalogue is the training items: sqlrank's above is the items table, so give it that
    catalogue = pd.DataFrame({"user_id": -1, "item_id": pd.read_parquet(folder / "items.parquet")["item_id"]})
    columns = {"col_user": "user_id", "col_item": "item_id"}

    def evaluate():
        return {"Novelty": novelty(train, reco, **columns),
                "CatalogCoverage": catalog_coverage(catalogue, reco, **columns),
                "DistributionalCoverage": distributional_coverage(train, reco, **columns)}

    seconds, values = timed(evaluate, repeat)
    return {"contender": "recommenders", "shared_seconds": seconds, "values": values}


def main() -> None:
    global WARM_UPS  # the option sets the module's constant that timed() reads
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=10, help="the similarity measures' cutoff k")
    parser.add_argument("--warm-ups", type=int, default=WARM_UPS, help="untimed calls before the timed ones")
    parser.add_argument("--skip", default="", help="similarity measures left out, by name: Serendipity,...")
    parser.add_argument("what", choices=("make", "sqlrank", "recommenders", "sqlrank-similarity",
                                         "recommenders-similarity"))
    arguments = parser.parse_args()
    WARM_UPS = arguments.warm_ups
    arguments.data.mkdir(parents=True, exist_ok=True)
    if arguments.what == "make":
        make(arguments.data)
        return
    if arguments.what.endswith("-similarity"):
        run = run_sqlrank_similarity if arguments.what.startswith("sqlrank") else run_recommenders_similarity
        found = run(arguments.data, arguments.repeat, arguments.top, tuple(filter(None, arguments.skip.split(","))))
    else:
        found = (run_sqlrank if arguments.what == "sqlrank" else run_recommenders)(arguments.data, arguments.repeat)
    print(json.dumps(found, default=float, indent=1))


if __name__ == "__main__":
    main()
