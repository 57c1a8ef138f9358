"""Read back the rows of a machine-readable output (csv, tsv, json, jsonl, parquet), for the tests."""

from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq


def read_rows(fmt: str, data: bytes) -> list[dict]:
    if fmt == "parquet":
        return pq.read_table(io.BytesIO(data)).to_pylist()
    if fmt == "json":
        return json.loads(data)
    if fmt == "jsonl":
        return [json.loads(line) for line in data.decode().splitlines()]
    if fmt in ("csv", "tsv"):
        return list(csv.DictReader(io.StringIO(data.decode()), delimiter="," if fmt == "csv" else "\t"))
    raise ValueError(f"not a machine-readable format: {fmt}")
