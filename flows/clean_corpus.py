"""The `clean-corpus` Prefect flow: discover -> clean in batches -> validate -> write.

It only orchestrates; all cleaning is in cleaners/, the table contract in schemas/.
"""
from __future__ import annotations

import datetime as dt
import os
import platform
import time
import uuid
from collections import Counter
from importlib import metadata
from pathlib import Path

from prefect import flow, get_run_logger, task
from prefect.futures import as_completed
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

from cleaners import store
from cleaners.batch import clean_sources
from cleaners.readers import discover
from cleaners.settings import Settings
from flows import progress


@task(name="discover-sources", retries=2, retry_delay_seconds=1)
def discover_sources(raw_dir: str) -> tuple[list[str], list[tuple[str, str]]]:
    return discover(Path(raw_dir))


@task(name="clean-batch")
def clean_batch(raw_dir: str, sources: list[str], settings: dict, stage_dir: str, index: int, cleaned_at: str) -> dict:
    """Clean one batch of sources and write its validated parts. Returns only counts."""
    result = clean_sources(Path(raw_dir), sources, Settings(**settings), dt.datetime.fromisoformat(cleaned_at))
    return store.write_part(Path(stage_dir), index, result)


@task(name="write-tables")
def write_tables(stage_dir: str, out_dir: str) -> dict:
    stage = Path(stage_dir)
    for name in store.TABLES:
        store.merge_parts(stage, name)
    problems = store.duplicate_keys(stage)
    if problems:
        raise RuntimeError("duplicate keys across batches: " + "; ".join(problems))
    return {k: str(v) for k, v in store.commit(stage, Path(out_dir)).items()}


def _versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in ("newsclean", "prefect", "pandera", "trafilatura", "ftfy", "pyarrow"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    return out


def _batches(sources: list[str], size: int) -> list[list[str]]:
    return [sources[i:i + size] for i in range(0, len(sources), size)]


@flow(name="clean-corpus", log_prints=False)
def clean_corpus(raw_dir: str = "raw", out_dir: str = "clean", settings: dict | None = None) -> dict:
    log = get_run_logger()
    cfg = Settings(**(settings or {}))
    started = time.perf_counter()
    started_at = dt.datetime.now(dt.timezone.utc)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stage = out / store.STAGING / uuid.uuid4().hex[:12]
    stage.mkdir(parents=True)

    sources, skipped = discover_sources(raw_dir)
    t_discover = time.perf_counter() - started
    batches = _batches(sources, cfg.batch_size)
    log.info("%d sources in %d batches, %d skipped", len(sources), len(batches), len(skipped))

    totals = Counter()
    lines_removed, spans_removed = Counter(), Counter()
    skipped_rows = [{"source": s, "doc_id": None, "stage": "discover", "error": why} for s, why in skipped]
    store.atomic_write_parquet(store.to_arrow("quarantine", skipped_rows), _part_path(stage, "quarantine", len(batches)))
    for name in ("articles", "removed"):
        store.atomic_write_parquet(store.to_arrow(name, []), _part_path(stage, name, len(batches)))
    totals["docs_read"] += len(skipped_rows)
    totals["docs_quarantined"] += len(skipped_rows)

    cleaned_at = started_at.isoformat()
    futures = [clean_batch.submit(raw_dir, batch, cfg.__dict__, str(stage), i, cleaned_at) for i, batch in enumerate(batches)]
    done_docs = 0
    progress.report("clean", 0, len(sources))
    for fut in as_completed(futures):
        counts = fut.result()
        for key in ("docs_read", "docs_cleaned", "docs_quarantined"):
            totals[key] += counts[key]
        lines_removed.update(counts["lines_removed"])
        spans_removed.update(counts["spans_removed"])
        done_docs += len(batches[futures.index(fut)])
        progress.report("clean", done_docs, len(sources))
    t_clean = time.perf_counter() - started - t_discover

    summary = {
        "raw_dir": str(raw_dir),
        "out_dir": str(out),
        "started_at": started_at.isoformat(),
        "pipeline_version": cfg.pipeline_version,
        "settings": cfg.__dict__,
        "docs_read": totals["docs_read"],
        "docs_cleaned": totals["docs_cleaned"],
        "docs_quarantined": totals["docs_quarantined"],
        "lines_removed": dict(sorted(lines_removed.items())),
        "spans_removed": dict(sorted(spans_removed.items())),
        "removed_by_kind": dict(sorted((lines_removed + spans_removed).items())),
        "batches": len(batches),
        "durations_s": {"discover": round(t_discover, 3), "clean": round(t_clean, 3)},
        "versions": _versions(),
    }
    t_write = time.perf_counter()
    summary["outputs"] = write_tables(str(stage), str(out)) | {"run": str(out / "run.json")}
    summary["durations_s"]["write"] = round(time.perf_counter() - t_write, 3)
    summary["durations_s"]["total"] = round(time.perf_counter() - started, 3)
    store.write_summary(summary, out)
    return summary


def _part_path(stage: Path, name: str, index: int) -> Path:
    folder = stage / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"part-{index:05d}.parquet"


def runner_for(name: str, dask_address: str | None = None):
    """The task runner: processes over all cores by default (batches are CPU-bound)."""
    if name == "thread":
        return ThreadPoolTaskRunner(max_workers=os.cpu_count() or 1)
    if name == "process":
        return ProcessPoolTaskRunner(max_workers=os.cpu_count() or 1)
    if name == "dask":
        from prefect_dask import DaskTaskRunner
        return DaskTaskRunner(address=dask_address) if dask_address else DaskTaskRunner(cluster_kwargs={"n_workers": os.cpu_count() or 1, "threads_per_worker": 1})
    raise ValueError(f"unknown task runner {name!r}: use process, thread or dask")
