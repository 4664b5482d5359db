"""Output tables on disk: validated batch parts in a staging folder, merged and renamed into place.

A run writes OUT/.staging/<run_id>/<table>/part-NNNNN.parquet per batch, then streams the parts
into one file per table (one row group per part, never the whole corpus in memory) and renames
each finished file over the old one. A crash at any point leaves the previous files intact.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from schemas import ARROW_SCHEMAS
from schemas.validate import validate_batch
from cleaners.batch import BatchResult

TABLES = ("articles", "removed", "quarantine")
STAGING = ".staging"


def to_arrow(name: str, rows: list[dict]) -> pa.Table:
    return pa.Table.from_pylist(rows, schema=ARROW_SCHEMAS[name])


def write_part(stage_dir: Path, index: int, result: BatchResult) -> dict:
    """Validate one batch and write its three parts. Returns the batch's counts (small, picklable)."""
    result = validate_batch(result)
    for name in TABLES:
        rows = getattr(result, name)
        folder = stage_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_parquet(to_arrow(name, rows), folder / f"part-{index:05d}.parquet")
    return {
        "docs_read": result.docs_read,
        "docs_cleaned": len(result.articles),
        "docs_quarantined": len(result.quarantine),
        "lines_removed": dict(result.lines_removed),
        "spans_removed": dict(result.spans_removed),
    }


def atomic_write_parquet(table: pa.Table, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(text: str, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def merge_parts(stage_dir: Path, name: str) -> Path:
    """Stream the parts of one table into stage_dir/<name>.parquet, one row group per part."""
    target = stage_dir / f"{name}.parquet"
    parts = sorted((stage_dir / name).glob("part-*.parquet")) if (stage_dir / name).exists() else []
    with pq.ParquetWriter(target, ARROW_SCHEMAS[name], compression="zstd") as writer:
        for part in parts:
            table = pq.read_table(part, schema=ARROW_SCHEMAS[name])
            if table.num_rows:
                writer.write_table(table)
    return target


def duplicate_keys(stage_dir: Path) -> list[str]:
    """Sources or doc_ids that occur twice across batches (reads only those two columns)."""
    problems = []
    arts = pq.read_table(stage_dir / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    for col in ("doc_id", "source"):
        dup = arts[col][arts[col].duplicated()]
        problems += [f"{col} {v} occurs more than once" for v in dup.head(10)]
    return problems


def commit(stage_dir: Path, out_dir: Path) -> dict[str, Path]:
    """Rename the merged tables into out_dir and remove the staging folder."""
    paths = {}
    for name in TABLES:
        dest = out_dir / f"{name}.parquet"
        os.replace(stage_dir / f"{name}.parquet", dest)
        paths[name] = dest
    shutil.rmtree(stage_dir, ignore_errors=True)
    return paths


def write_summary(summary: dict, out_dir: Path) -> Path:
    path = out_dir / "run.json"
    atomic_write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n", path)
    return path


def read_table(out_dir: Path, name: str) -> pd.DataFrame:
    return pq.read_table(Path(out_dir) / f"{name}.parquet").to_pandas()
