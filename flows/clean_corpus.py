"""The `clean-corpus` Prefect flow:

    discover -> fingerprint (manifest) -> corpus statistics -> clean in batches -> near-duplicate clusters
    -> validate -> write -> artifacts

It only orchestrates; all cleaning is in cleaners/, the table contract in schemas/.

- Batches: one task cleans a batch of sources (Settings.batch_size documents at most, balanced over
  the workers), never one document: Prefect's own cost per task run (measured: 5 ms in the client,
  20-25 ms of server CPU, against 20-50 s per 500-page batch) then stays far under 5% of the run
  (bench/prefect_overhead.py). Under 2 * MIN_BATCH sources the one batch runs in this process.
- A big record file or archive (over 8 MB) is scanned and cut into parts of about batch_size
  records (newsclean.cleaners.readers.ranges), each part a batch of its own: one file, every worker.
- Tasks have no result caching (NO_CACHE): they write files and take source lists.
- Tasks get small arguments (paths, source lists, a batch index) and read their data themselves;
  they write validated parquet parts into OUT/.staging/<run>/ and return only counts.
- Retries apply to the reading steps (discovery, fingerprints, the corpus pass), never to
  cleaning: a document that fails to clean fails deterministically and is quarantined instead.
- Incremental: OUT/manifest.json (newsclean.cleaners.manifest) says which sources changed; only those are
  cleaned, the rows of the others are carried over, the rows of deleted sources dropped.
- RAW_DIR in object storage: objects are fingerprinted from the listing (ETag or version, and size),
  never read for it, and each object a run reads is fetched once, into the run's spool
  (OUT/.staging/<run>/raw-spool, removed after the cleaning): the corpus pass, the scan of a big
  file's parts and the cleaning batches all read that copy (newsclean.cleaners.readers.storage).
- The corpus pass reads only files whose line hashes are not cached with the live tables
  (OUT/.tables/current/line-hashes, newsclean.cleaners.corpus_context.LineHashCache), keyed by the
  manifest's sha256: a re-run after a few edits re-reads those files, not the corpus.
- Per-source state is columnar (manifest.Table, plan masks, fingerprint arrays); the process
  pool's workers are stopped once the cleaning is done, and report.html is built in a child
  process, so the flow's own process does not grow with the corpus (bench/RESULTS.md, end to end and memory).
- Near-duplicate clusters (newsclean.cleaners.syndication) are computed over the whole corpus after
  the batches, from the MinHash signatures the batches wrote and those of the carried-over
  articles (kept with the live tables, OUT/.tables/current/minhash): no carried text is hashed again.
- One writer per OUT_DIR (newsclean.cleaners.runlock): a second run on the same OUT_DIR fails at once.
- OUT_DIR in object storage (s3://bucket/prefix): the run works in a local working copy of it
  (pull-tables first), then uploads its generation and switches OUT/_current to it
  (publish-tables; newsclean.cleaners.remote_out), then run.json and report.html.
"""
from __future__ import annotations

import datetime as dt
import gc
import math
import multiprocessing
import os
import platform
import queue
import shutil
import signal
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path
from typing import Iterator

import numpy as np
from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.exceptions import TerminationSignal
from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner

from newsclean.cleaners import corpus_context, language, manifest, remote_out, store, syndication
from newsclean.cleaners.batch import clean_sources_in_pieces
from newsclean.cleaners.readers import discover, ranges, storage
from newsclean.cleaners.runlock import RunLock
from newsclean.cleaners.settings import Settings
from newsclean.flows import progress
from newsclean.flows.prefect_api import share_api_with_workers

# A batch smaller than this is not worth a task of its own, nor a worker process: spawning workers
# and importing the cleaners in them costs seconds, so a corpus under 2 * MIN_BATCH sources is
# cleaned in one batch in the flow's own process.
MIN_BATCH = 500
SPOOL = "raw-spool"  # in the run's staging folder: the objects the run fetched (RAW_DIR in object storage)


def _log():
    """Prefect's run logger inside a flow or task run; a plain logger when a task's .fn() is called
    directly (tests, benchmarks)."""
    try:
        return get_run_logger()
    except Exception:  # noqa: BLE001 - MissingContextError
        import logging
        return logging.getLogger("newsclean.flow")


@task(name="discover-sources", retries=2, retry_delay_seconds=1, cache_policy=NO_CACHE)
def discover_sources(raw_dir: str) -> tuple[list[str], list[tuple[str, str]]]:
    sources, skipped = discover(raw_dir)
    _log().info("discovered %d sources (%d skipped) under %s", len(sources), len(skipped), raw_dir)
    return sources, skipped


@task(name="fingerprint-sources", retries=2, retry_delay_seconds=1, cache_policy=NO_CACHE)
def fingerprint_sources(raw_dir: str, sources: list[str], out_dir: str) -> tuple[manifest.Table, int]:
    """Size + mtime against the previous manifest; sha256 only for files that look different.
    Columns (manifest.Table), not an object per source."""
    previous = manifest.load_table(Path(out_dir))
    entries, hashed = manifest.scan_table(raw_dir, sources, previous)
    _log().info("fingerprinted %d sources, hashed %d", len(entries), hashed)
    return entries, hashed


@task(name="hash-lines", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def hash_lines(raw_dir: str, sources: list[str], settings: dict, folder: str, index: int,
               sha256: list[str] | None = None, name: str | None = None, spool: str | None = None) -> str:
    """The costly half of the corpus pass, one slice of the sources per task: read, normalise and
    hash every line (newsclean.cleaners.corpus_context.write_slice) into a part of the line-hash cache.
    Returns the part file's path."""
    return str(corpus_context.write_slice(raw_dir, sources, Settings(**settings), Path(folder), index, sha256, name, spool))


@task(name="corpus-statistics", retries=1, retry_delay_seconds=1, cache_policy=NO_CACHE)
def corpus_statistics(parts: list, sources: list[str], settings: dict, stage_dir: str,
                      cache_dir: str | None = None, new_parts: list[str] = (), tag: str = "") -> dict:
    """Line repetition over the whole corpus (newsclean.cleaners.corpus) from the hashed parts (cached ones
    with their masks of files to use, and this run's), saved in the staging folder as the cleaning
    batches' read-only context, and each source's context fingerprint (uint64, aligned with
    `sources`). Then the line-hash cache is tidied for the next run."""
    cfg = Settings(**settings)
    stats, prints = corpus_context.statistics_of(parts, sources, cfg)
    path = corpus_context.save(stats, Path(stage_dir))
    if cache_dir:
        used = [p for p in parts if isinstance(p, tuple)]
        corpus_context.LineHashCache(None, cfg, target=Path(cache_dir)).tidy(used, [Path(p) for p in new_parts], tag)
    return {"path": str(path), "n_docs": stats.n_docs, "n_distinct_lines": stats.n_distinct_lines,
            "fingerprints": corpus_context.Fingerprints(np.array(sorted(sources), dtype=str), prints)}


def _line_hash_cache(out: Path, stage: Path, cfg: Settings) -> corpus_context.LineHashCache:
    """The live generation's line hashes (read only) and this run's staged folder, published with
    its tables by store.commit."""
    return corpus_context.LineHashCache(store.live_path(out, corpus_context.CACHE_DIR), cfg,
                                        target=stage / corpus_context.CACHE_DIR)


def corpus_pass(raw_dir: str, sources: list[str], cfg: Settings, stage: Path, out: Path,
                sha256=None, reuse: bool = True, spool: str | None = None) -> dict:
    """hash-lines over slices of the sources whose line hashes are not cached under OUT (in
    parallel on the flow's task runner when there is more than one slice), then corpus-statistics
    over the cached parts and the new ones. `sha256`: each source's content hash (bytes array
    aligned with `sources`); without it, or with reuse=False (--full), every file is read again.
    `spool`: the run's folder of fetched objects (RAW_DIR in object storage)."""
    t0 = time.perf_counter()
    cache = _line_hash_cache(out, stage, cfg)
    cache.target.mkdir(parents=True, exist_ok=True)
    if reuse and sha256 is not None:
        used, cached = cache.lookup(sources, sha256)
    else:
        used, cached = [], np.zeros(len(sources), dtype=bool)
    todo = np.flatnonzero(~cached).tolist()
    pairs = [(sources[i], sha256[i].decode() if sha256 is not None else "") for i in todo]
    slices = plan_batches(pairs, cfg.batch_size, _workers())
    tag = stage.name
    args = [(raw_dir, [s for s, _ in part], cfg.model_dump(), str(cache.target), i, [h for _, h in part],
             f"part-{tag}-{i:05d}.npz", spool) for i, part in enumerate(slices)]
    if len(slices) <= 1:  # one slice: here, as with one cleaning batch (see MIN_BATCH)
        new = [hash_lines(*a) for a in args]
    else:
        new = _results([hash_lines.submit(*a) for a in args])
    corpus = corpus_statistics([*used, *new], sources, cfg.model_dump(), str(stage), str(cache.target), new, tag)
    corpus["seconds"] = round(time.perf_counter() - t0, 3)
    corpus["files_read"] = len(todo)
    _log().info("corpus statistics: %d documents, %d distinct lines in %.1f s (%d files read in %d slices, %d cached)",
                corpus["n_docs"], corpus["n_distinct_lines"], corpus["seconds"], len(todo), len(slices),
                len(sources) - len(todo))
    return corpus


_WARMED = False


def _warm_worker() -> None:
    """Once per worker process, before its first batch: load (and compile) the line model and
    freeze the garbage collector's view of it (newsclean.cleaners.model.warm_up: gc 5.6% -> 0.3% of the
    cleaner's CPU). Not in the flow's own process, whose gc settings stay as they are."""
    global _WARMED
    if _WARMED or multiprocessing.current_process().name == "MainProcess":
        return
    _WARMED = True
    from newsclean.cleaners.model import warm_up

    warm_up()


@task(name="clean-batch", cache_policy=NO_CACHE)
def clean_batch(raw_dir: str, sources: list["str | ranges.Part"], settings: dict, stage_dir: str, index: int,
                cleaned_at: str, stats_path: str | None = None, spool: str | None = None) -> dict:
    """Clean one batch of sources and write its validated parts, one per piece of Settings.piece_docs
    documents (the worker holds one piece's rows at a time). Returns only counts. No retries:
    cleaning is deterministic and a failing document is quarantined, not retried."""
    _warm_worker()
    cfg = Settings(**settings)
    stats = corpus_context.load(stats_path) if stats_path else None
    t0 = time.perf_counter()
    counts = {"docs_read": 0, "docs_cleaned": 0, "docs_quarantined": 0}
    pieces = clean_sources_in_pieces(raw_dir, sources, cfg, dt.datetime.fromisoformat(cleaned_at), corpus=stats, spool=spool,
                                     stop=_interrupted)
    for piece, result in enumerate(pieces):
        for key, n in store.write_part(Path(stage_dir), index, result, cfg, piece).items():
            counts[key] += n
        del result
    _shed()  # the next batch of this worker starts from its steady state, not this batch's peak
    counts["seconds"] = time.perf_counter() - t0
    _log().info("batch %d: %d sources, %d documents, %d cleaned, %d quarantined in %.2f s", index,
                          len(sources), counts["docs_read"], counts["docs_cleaned"], counts["docs_quarantined"], counts["seconds"])
    return counts


@task(name="cluster-duplicates", cache_policy=NO_CACHE)
def cluster_duplicates(stage_dir: str, out_dir: str, settings: dict) -> dict:
    """Near-duplicate clusters over the whole corpus (newsclean.cleaners.syndication.build_index): the
    batches' signatures and those of the carried-over articles, from the live index. Writes the
    run's index into the staging folder, which the articles' merge reads. Returns counts."""
    cfg = Settings(**settings)
    stage = Path(stage_dir)
    carried = stage / "articles" / store.CARRY_PART
    counts = syndication.build_index(stage, store.live_path(Path(out_dir), syndication.INDEX_DIR),
                                     carried if carried.exists() else None, cfg.dup_shingle_words, cfg.dup_threshold)
    _log().info("near-duplicate clusters: %d documents, %d clusters of 2 or more (%d documents, largest %d) in %.2f s",
                counts["documents"], counts["clusters"], counts["documents_in_clusters"], counts["largest_cluster"],
                counts["seconds"])
    return counts


def language_summary(out_dir: Path) -> dict:
    """Articles per language (the written table's `language` column) and what that means for the
    cleaner's language-bound word lists and rules (newsclean.cleaners.language.coverage)."""
    counts = language.language_counts(
        v for batch in store.iter_batches(Path(out_dir) / "articles.parquet", ["language"]) for v in batch.column(0).to_pylist())
    return {"articles": counts, **language.coverage(counts)}


@task(name="validate-tables", cache_policy=NO_CACHE)
def validate_tables(stage_dir: str) -> tuple[dict, dict]:
    """Merge the carried-over rows and the batches' parts into one staged file per table (streamed),
    then run the checks across batches (unique keys, every removed row belongs to a document).
    Returns the rows per table, and this run's counts as the tables hold them (run_counts)."""
    from newsclean.schemas.validate import check_tables

    stage = Path(stage_dir)
    for name in store.TABLES:
        store.merge_parts(stage, name)
    problems = store.duplicate_keys(stage) or check_tables(stage)
    if problems:
        raise RuntimeError("the merged tables fail validation: " + "; ".join(problems))
    import pyarrow.parquet as pq
    rows = {name: pq.ParquetFile(stage / f"{name}.parquet").metadata.num_rows for name in store.TABLES}
    return rows, run_counts(stage)


def run_counts(stage: Path) -> dict:
    """This run's documents and removals as the merged tables hold them: the tables' counts less
    those of the rows carried over (which come first and are never dropped, so the rest are this
    run's). Documents that validation quarantined, and later copies of a document, are counted
    where they ended up, so run.json agrees with the tables."""
    final = store.table_counts(*(stage / f"{name}.parquet" for name in ("articles", "removed", "quarantine")))
    carried = store.table_counts(*(stage / name / store.CARRY_PART for name in ("articles", "removed", "quarantine")))
    return {
        "docs_cleaned": final["articles"] - carried["articles"],
        "docs_quarantined": final["quarantine"] - carried["quarantine"],
        **{key: dict(sorted((final[key] - carried[key]).items()))
           for key in ("quarantined_by_stage", "lines_removed", "spans_removed")},
    }


@task(name="write-tables", cache_policy=NO_CACHE)
def write_tables(stage_dir: str, out_dir: str, new_manifest: "manifest.Table | dict") -> dict:
    """Publish the staged tables and the new manifest into OUT_DIR as one generation (one atomic
    switch: newsclean.cleaners.store.commit), so the manifest always describes exactly the live tables.
    new_manifest: a manifest.Table, or {"pipeline_version", "sources": Table or {source: Entry}}."""
    if isinstance(new_manifest, dict):
        entries = new_manifest["sources"]
        if isinstance(entries, manifest.Table):
            new_manifest = manifest.Table(new_manifest["pipeline_version"], entries.sources, entries.size,
                                          entries.mtime_ns, entries.sha256, entries.context)
        else:
            new_manifest = manifest.Manifest(new_manifest["pipeline_version"], entries)
    manifest.save(new_manifest, Path(stage_dir))
    paths = store.commit(Path(stage_dir), Path(out_dir))
    return {k: str(v) for k, v in paths.items()}


@task(name="pull-tables", retries=2, retry_delay_seconds=1, cache_policy=NO_CACHE)
def pull_tables(out_url: str, work_dir: str) -> str | None:
    """The working copy of an OUT_DIR in object storage made to hold its live generation (downloaded
    unless it holds it already: newsclean.cleaners.remote_out.pull). Returns the generation's name."""
    generation = remote_out.pull(out_url, Path(work_dir))
    _log().info("working copy %s holds generation %s of %s", work_dir, generation or "(none yet)", out_url)
    return generation


@task(name="publish-tables", retries=2, retry_delay_seconds=1, cache_policy=NO_CACHE)
def publish_tables(work_dir: str, out_url: str) -> dict:
    """The run's generation uploaded to an OUT_DIR in object storage, its tables under their final
    names, OUT/_current switched to it last (newsclean.cleaners.remote_out.publish). Every step can
    be repeated: a retry uploads the same generation again."""
    return remote_out.publish(Path(work_dir), out_url)


@task(name="publish-artifacts", cache_policy=NO_CACHE)
def publish_artifacts(out_dir: str, summary: dict) -> list[str]:
    """Prefect artifacts (visible in the UI with a server): a markdown summary, removals by kind and
    quarantined documents by reason, over the tables as written (carried-over rows included)."""
    from prefect.artifacts import create_markdown_artifact, create_table_artifact

    kinds, reasons = table_breakdowns(Path(out_dir))
    keys = []
    try:
        create_markdown_artifact(markdown=summary_markdown(summary, kinds, reasons), key="newsclean-summary",
                                 description=f"newsclean run over {summary['raw_dir']}")
        keys.append("newsclean-summary")
        create_table_artifact(table=kinds or [{"kind": "-", "whole lines": 0, "spans": 0, "total": 0}],
                              key="newsclean-removals", description="removed.parquet rows by kind")
        keys.append("newsclean-removals")
        create_table_artifact(table=reasons or [{"stage": "-", "reason": "nothing quarantined", "documents": 0}],
                              key="newsclean-quarantine", description="quarantine.parquet rows by reason")
        keys.append("newsclean-quarantine")
    except Exception as exc:  # noqa: BLE001 - artifacts are a view: never fail a finished run for them
        _log().warning("could not publish artifacts: %s", exc)
    return keys


# Up to this many documents in the tables (the number report.html shows at most, so nothing is
# sampled), the report is built in the flow's own process: a child's start-up (Python, pandas,
# pyarrow and the cleaners: ~3 s here) costs more than such a report (~0.4 s at 200 short
# documents), and what the report holds is freed when it returns. Larger tables build it apart.
REPORT_IN_PROCESS_MAX_DOCS = 500


@task(name="write-report", cache_policy=NO_CACHE)
def write_report(out_dir: str, raw_dir: str, n_docs: int) -> list[str]:
    """OUT/report.html for people to look at, and a link artifact to it. A view: never fails a run.
    n_docs: the documents in the tables (articles and quarantine rows)."""
    from newsclean.flows.report import build_report, publish_report

    try:
        if n_docs <= REPORT_IN_PROCESS_MAX_DOCS:
            path = build_report(Path(out_dir), raw_dir)
        else:
            path = _build_report_apart(Path(out_dir), raw_dir)
    except Exception as exc:  # noqa: BLE001
        _log().warning("could not write report.html: %s", exc)
        return []
    return [str(path), *publish_report(path)]


def _build_report_apart(out_dir: Path, raw_dir: str) -> Path:
    """newsclean.flows.report.build_report in a short-lived child process: the report reads per-document
    columns of the whole tables (its memory grows with the corpus), and a child gives all of it
    back when it exits, instead of leaving the flow's process at the report's peak."""
    import subprocess
    import sys

    root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    code = ("import sys; from pathlib import Path; from newsclean.flows.report import build_report; "
            "print(build_report(Path(sys.argv[1]), sys.argv[2]))")
    done = subprocess.run([sys.executable, "-c", code, str(Path(out_dir).resolve()), storage.display(raw_dir)],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError((done.stderr or done.stdout).strip().splitlines()[-1] if (done.stderr or done.stdout).strip()
                           else f"exit status {done.returncode}")
    return Path(done.stdout.strip().splitlines()[-1])


def _release_workers() -> bool:
    """Every cleaning batch is done: stop a process pool's workers now (each holds the line model
    and its caches, ~0.5 GB) instead of when the flow returns, so validation, the artifacts and
    the report do not run beside idle workers. Nothing is submitted after this point. Other task
    runners (threads, a Dask cluster) are left alone."""
    from concurrent.futures import ProcessPoolExecutor

    from prefect.context import FlowRunContext

    ctx = FlowRunContext.get()
    executor = getattr(getattr(ctx, "task_runner", None), "_executor", None) if ctx else None
    if isinstance(executor, ProcessPoolExecutor):
        try:
            executor.shutdown(wait=True)
            return True
        except Exception:  # noqa: BLE001 - an optimisation only: the runner stops them at the end anyway
            return False
    return False


def table_breakdowns(out_dir: Path, max_reasons: int = 50) -> tuple[list[dict], list[dict]]:
    import pyarrow.parquet as pq

    total, whole = Counter(), Counter()
    for batch in store.iter_batches(out_dir / "removed.parquet", ["kind", "whole_line"]):  # streamed: it grows with the corpus
        df = batch.to_pandas()
        total.update(df["kind"].value_counts().to_dict())
        whole.update(df.loc[df["whole_line"].fillna(False).astype(bool), "kind"].value_counts().to_dict())
    kinds = [{"kind": kind, "whole lines": int(whole[kind]), "spans": int(n - whole[kind]), "total": int(n)}
             for kind, n in sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))]
    q = pq.read_table(out_dir / "quarantine.parquet", columns=["stage", "error"]).to_pandas()
    reasons = [{"stage": stage, "reason": error, "documents": int(n)}
               for (stage, error), n in q.value_counts(["stage", "error"]).head(max_reasons).items()]
    return kinds, reasons


def summary_markdown(summary: dict, kinds: list[dict], reasons: list[dict]) -> str:
    inc = summary["incremental"]
    rows = summary["tables"]
    lines = [
        f"# newsclean run {summary['started_at'][:19]}Z",
        "",
        f"`{summary['raw_dir']}` → `{summary['out_dir']}`, pipeline `{summary['pipeline_version']}`",
        "",
        "| | |", "|---|---|",
        f"| sources | {inc['sources_total']} ({inc['new']} new, {inc['changed']} changed, {inc['context_changed']} with a changed corpus context, {inc['sources_deleted']} deleted) |",
        f"| cleaned this run | {summary['docs_cleaned']} documents ({summary['docs_quarantined']} quarantined) in {summary['batches']} batches |",
        f"| carried over | {inc['sources_kept']} sources |",
        f"| full re-clean | {inc['full_reason'] or 'no'} |",
        f"| tables | {rows['articles']} articles, {rows['removed']} removed spans, {rows['quarantine']} quarantined |",
        "| corpus statistics | " + ("unchanged corpus: reused" if summary['corpus'].get('reused') else
                                     f"{summary['corpus']['n_docs']} documents, {summary['corpus']['n_distinct_lines']} distinct lines") + " |",
        *([f"| near duplicates | {summary['syndication']['clusters']} clusters of two or more articles "
           f"({summary['syndication']['documents_in_clusters']} articles, largest {summary['syndication']['largest_cluster']}) |"]
          if summary.get("syndication") else []),
        *(["| languages | " + ", ".join(f"{k} {n}" for k, n in list(summary['languages']['articles'].items())[:8]) + " |"]
          if summary.get("languages") else []),
        f"| time | {summary['durations_s']['total']:.1f} s |",
        "",
        "## Removed by kind",
        "",
        "| kind | whole lines | spans | total |", "|---|---:|---:|---:|",
        *(f"| {k['kind']} | {k['whole lines']} | {k['spans']} | {k['total']} |" for k in kinds),
        "",
        "## Quarantined by reason",
        "",
        "| stage | reason | documents |", "|---|---|---:|",
        *(f"| {r['stage']} | {str(r['reason']).replace('|', '/')} | {r['documents']} |" for r in reasons),
    ]
    return "\n".join(lines) + "\n"


def _corpus_unchanged(previous: manifest.Table, entries: manifest.Table, pipeline_version: str) -> bool:
    """Same sources, every one read with the same sha256, every context recorded, same pipeline."""
    return (len(previous) > 0 and previous.pipeline_version == pipeline_version
            and np.array_equal(previous.sources, entries.sources)
            and bool(np.all(entries.sha256 != b"")) and bool(np.all(entries.sha256 == previous.sha256))
            and bool(np.all(previous.context != b"")))


def _versions() -> dict:
    out = {"python": platform.python_version()}
    for pkg in ("newsclean", "prefect", "pandera", "trafilatura", "ftfy", "pyarrow"):
        try:
            out[pkg] = metadata.version(pkg)
        except metadata.PackageNotFoundError:
            out[pkg] = None
    return out


@task(name="split-source", cache_policy=NO_CACHE)
def split_source(raw_dir: str, source: str, settings: dict, every: int, spool: str | None = None) -> list[ranges.Part]:
    """A big record file or archive as parts of about `every` records (one scan of its record
    boundaries). A file that cannot be scanned is read whole, where its failure is quarantined."""
    try:
        return ranges.split(raw_dir, source, Settings(**settings), every, spool=spool)
    except Exception as exc:  # noqa: BLE001 - the cleaning step reads it and says what is wrong
        _log().info("%s is read whole: scanning it failed (%s)", source, exc)
        return [ranges.Part(source)]


def split_big_sources(raw_dir: str, sources: list[str], cfg: Settings, sizes: list[int] | None = None,
                      spool: str | None = None) -> list["str | ranges.Part"]:
    """`sources` with every big record file or archive replaced by its parts (scanned in parallel),
    so that one big file is many batches on every worker. `sizes`: the sources' sizes from the
    manifest (no stat or request per source). `spool`: the run's folder of fetched objects."""
    big = [s for s, n in zip(sources, sizes or [None] * len(sources)) if ranges.worth_splitting(raw_dir, s, size=n)]
    if not big:
        return sources
    scans = dict(zip(big, _results([split_source.submit(raw_dir, s, cfg.model_dump(), cfg.batch_size, spool) for s in big])))
    units: list = []
    for source in sources:
        parts = scans.get(source)
        units += [source] if not parts or parts[0].whole else parts
    return units


def plan_batches(sources: list, size: int, workers: int) -> list[list]:
    """At most `size` sources per batch, at least as many batches as workers when every batch can
    still hold MIN_BATCH sources, and batches of equal size (contiguous, in source order)."""
    n = len(sources)
    if not n:
        return []
    k = math.ceil(n / max(size, 1))
    if k < workers:
        k = max(k, min(workers, n // MIN_BATCH))
    elif k % workers:
        k += workers - k % workers  # full rounds: no core idles on a last lonely batch
    step = math.ceil(n / k)
    return [sources[i:i + step] for i in range(0, n, step)]


def _workers() -> int:
    from prefect.context import FlowRunContext

    ctx = FlowRunContext.get()
    runner = getattr(ctx, "task_runner", None) if ctx else None
    cores = os.cpu_count() or 1
    client = getattr(runner, "_client", None)  # prefect-dask: the cluster's worker threads
    if client is not None:
        try:
            return max(1, sum(client.nthreads().values()))
        except Exception:  # noqa: BLE001
            return cores
    n = getattr(runner, "_max_workers", None) or getattr(runner, "max_workers", None)
    return min(int(n), cores) if isinstance(n, int) and n > 0 else cores


def _flow_run_id() -> str | None:
    from prefect.runtime import flow_run

    try:
        return str(flow_run.id) if flow_run.id else None
    except Exception:  # noqa: BLE001
        return None


def _leave_interrupts_to_the_parent() -> None:
    """A pool worker's first step: a Ctrl-C at the terminal reaches the whole process group, and
    the run's own process handles it (it stops the workers, _stopping_workers_on_interrupt). A
    worker that took it too would hand its KeyboardInterrupt back through Prefect's result callback,
    which lets no BaseException through: the pool's result thread dies and the run waits forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_runner() -> ProcessPoolTaskRunner:
    """Processes over all cores (batches are CPU-bound), each leaving Ctrl-C to the run."""
    return ProcessPoolTaskRunner(max_workers=os.cpu_count() or 1, initializer=_leave_interrupts_to_the_parent)


# How often the run's process wakes while it waits for its workers: a wait without a timeout sees
# a Ctrl-C only when the next task ends (a batch: seconds to minutes).
WAIT_SLICE_S = 0.5


def _each_finished(futures: list) -> Iterator:
    """Each of `futures` as it finishes, waiting in slices of WAIT_SLICE_S."""
    finished: queue.SimpleQueue = queue.SimpleQueue()
    for fut in futures:
        fut.add_done_callback(finished.put)
    left = len(futures)
    while left:
        try:
            fut = finished.get(timeout=WAIT_SLICE_S)
        except queue.Empty:
            continue
        left -= 1
        yield fut


def _results(futures: list) -> list:
    """Every future's result, in order, once all have finished (_each_finished)."""
    for _ in _each_finished(futures):
        pass
    return [fut.result() for fut in futures]


# Set when the run is interrupted. A batch cleaning in one of the run's own threads (the thread
# task runner: threads cannot be killed) asks it before each lock-step group and stops
# (newsclean.cleaners.batch.BatchStopped) instead of cleaning to its end. A worker process never
# sees it set: it is killed.
_INTERRUPTED = threading.Event()


def _interrupted() -> bool:
    return _INTERRUPTED.is_set()


@contextmanager
def _stopping_workers_on_interrupt() -> Iterator[None]:
    """On a Ctrl-C, or a SIGTERM (Prefect raises it in the flow as TerminationSignal), the pool's
    worker processes are killed, and batches cleaning in the run's threads told to stop
    (_INTERRUPTED), before the interrupt goes on: the task runner's exit would otherwise wait for
    the batches they are cleaning. What they wrote is in the run's staging folder, which the next
    run removes (_remove_leftover_staging)."""
    _INTERRUPTED.clear()
    try:
        yield
    except (KeyboardInterrupt, TerminationSignal):
        _INTERRUPTED.set()
        for child in multiprocessing.active_children():
            child.kill()
        for child in multiprocessing.active_children():
            child.join(timeout=5)
        raise


@flow(name="clean-corpus", log_prints=False, task_runner=process_runner())
def clean_corpus(raw_dir: str = "raw", out_dir: str = "clean", settings: Settings | None = None, full: bool = False) -> dict:
    """Clean RAW_DIR into OUT_DIR. Incremental unless `full` (or the pipeline version changed).
    `settings`: newsclean's Settings (a dict of them is validated into one; None: the defaults).
    RAW_DIR may be a URL of objects (s3://bucket/prefix: newsclean.cleaners.readers.storage), and so
    may OUT_DIR (the run works in a local copy of it: newsclean.cleaners.remote_out)."""
    raw_dir = storage.plain(raw_dir)
    published = storage.plain(out_dir).rstrip("/") if storage.is_remote(out_dir) else None
    out = storage.out_folder(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    had_url = "PREFECT_API_URL" in os.environ
    share_api_with_workers()  # before the first batch spawns a worker process
    try:
        with RunLock(out, run=_flow_run_id()) as lock:
            if lock.stale:
                _log().warning("took over the lock of a run that died (%s)", lock.stale)
            if published:
                pull_tables(published, str(out))
            with _heap_frozen(), _stopping_workers_on_interrupt():
                return _clean_corpus(raw_dir, out, Settings.model_validate(settings or {}), full, published)
    finally:
        if not had_url:
            os.environ.pop("PREFECT_API_URL", None)


def _clean_corpus(raw_dir: str, out: Path, cfg: Settings, full: bool, published: str | None = None) -> dict:
    """The run in the local OUT_DIR `out`; `published`: the URL of the OUT_DIR in object storage
    whose working copy `out` is, where the run's tables and files are uploaded once written."""
    log = _log()
    started = time.perf_counter()
    started_at = dt.datetime.now(dt.timezone.utc)
    leftovers = _remove_leftover_staging(out)
    if leftovers:
        log.info("removed %d staging folders left by runs that did not finish", leftovers)
    stage = out / store.STAGING / uuid.uuid4().hex[:12]
    stage.mkdir(parents=True)
    # objects are fetched once, into this folder, for every step that reads them (None: local files)
    spool = str(stage / SPOOL) if storage.is_remote(raw_dir) else None
    durations: dict[str, float] = {}
    memory: dict[str, dict] = {}

    def lap(name: str, t0: float) -> float:
        _shed()
        now = time.perf_counter()
        durations[name] = round(now - t0, 3)
        memory[name] = _memory_mb()
        return now

    t = time.perf_counter()
    sources, skipped = discover_sources(raw_dir)
    t = lap("discover", t)
    progress.report("fingerprint", 0, len(sources))
    entries, hashed = fingerprint_sources(raw_dir, sources, str(out))
    t = lap("fingerprint", t)
    previous = manifest.load_table(out)
    unchanged = not full and _corpus_unchanged(previous, entries, cfg.pipeline_version)
    if unchanged:
        # Same files, same bytes, same pipeline: the statistics and every context fingerprint are
        # what the manifest holds. Skip the corpus pass (it reads every file).
        corpus = {"path": None, "n_docs": None, "n_distinct_lines": None, "seconds": 0.0, "reused": True,
                  "files_read": 0}
        contexts = previous.context
        _line_hash_cache(out, stage, cfg).carry_all()  # the next run's corpus pass still has them
        log.info("corpus unchanged since the last run: statistics not recomputed")
    else:
        progress.report("corpus statistics", 0, len(sources))
        corpus = corpus_pass(raw_dir, sources, cfg, stage, out, entries.sha256, reuse=not full, spool=spool)
        contexts = corpus.pop("fingerprints").as_bytes()
    t = lap("corpus_statistics", t)
    entries = entries.with_context(contexts)
    entries.pipeline_version = cfg.pipeline_version

    full_reason = "requested (--full)" if full else None
    if not full and len(previous) and not store.previous_schema_ok(out):
        full, full_reason = True, "previous tables are missing or have another schema"
    have_rows = store.rows_mask(out, entries.sources) if len(previous) and not full else None
    # A file quarantined as a copy of another is decided again whenever the corpus changed.
    recheck = store.quarantined_at_mask(out, "validate", entries.sources) if len(previous) and not full and not unchanged else None
    if len(previous) and not full and storage.is_remote(raw_dir):
        # An object the store would not give (access denied, a failed request) has its fingerprint
        # from the listing all the same, as a file that cannot be read has none: read it again.
        unread = store.quarantined_at_mask(out, "read", entries.sources, storage.FETCH_ERRORS)
        recheck = unread if recheck is None else recheck | unread
    plan = manifest.plan_table(previous, entries, cfg.pipeline_version, have_rows=have_rows, full=full, recheck=recheck)
    del previous, have_rows, recheck
    if full_reason:
        plan.full_reason = full_reason
    to_clean = [sources[i] for i in np.flatnonzero(plan.clean).tolist()]  # the discovered str objects, not copies
    log.info("plan: clean %d sources, keep %d, drop %d deleted%s", len(to_clean), len(sources) - len(to_clean),
             len(plan.deleted), f" (full re-clean: {plan.full_reason})" if plan.full_reason else "")
    keep = entries.sources[plan.keep]
    carried = store.carry_over(stage, out, keep) if len(keep) else {name: 0 for name in store.TABLES}
    del keep
    if to_clean and corpus["path"] is None:  # rows missing from the tables: clean them with real statistics
        corpus = corpus_pass(raw_dir, sources, cfg, stage, out, entries.sha256, spool=spool)
        corpus.pop("fingerprints")

    _shed()
    memory["plan"] = _memory_mb()  # the plan and the carried-over rows (timed within "clean")
    units = split_big_sources(raw_dir, to_clean, cfg, entries.size[plan.clean].tolist(), spool)
    # a part of a big file is a batch of its own (about batch_size records); the longest go first
    batches = [[u] for u in units if isinstance(u, ranges.Part)]
    batches += plan_batches([u for u in units if not isinstance(u, ranges.Part)], cfg.batch_size, _workers())
    totals = Counter()
    skipped_rows = [{"source": s, "doc_id": None, "stage": "discover", "error": why} for s, why in skipped]
    store.atomic_write_parquet(store.to_arrow("quarantine", skipped_rows), _part_path(stage, "quarantine", len(batches)))
    totals["docs_read"] += len(skipped_rows)

    cleaned_at = started_at.isoformat()
    done_docs, task_seconds = 0, 0.0
    progress.report("clean", 0, len(units))
    if len(batches) == 1:
        # One batch: run it here. Starting worker processes (spawn + imports, seconds) would cost
        # more than the batch, and there is nothing to run in parallel with it.
        futures = [clean_batch(raw_dir, batches[0], cfg.model_dump(), str(stage), 0, cleaned_at, corpus["path"], spool,
                               return_state=True)]
        done = futures
    else:
        futures = [clean_batch.submit(raw_dir, batch, cfg.model_dump(), str(stage), i, cleaned_at, corpus["path"], spool)
                   for i, batch in enumerate(batches)]
        done = _each_finished(futures)
    index_of = {id(f): i for i, f in enumerate(futures)}
    for fut in done:
        counts = fut.result()
        totals["docs_read"] += counts["docs_read"]
        task_seconds += counts["seconds"]
        done_docs += len(batches[index_of[id(fut)]])
        progress.report("clean", done_docs, len(units))
    _release_workers()
    if spool:
        shutil.rmtree(spool, ignore_errors=True)  # every read is done: give the disk back now
    t = lap("clean", t)
    clusters = cluster_duplicates(str(stage), str(out), cfg.__dict__)
    t = lap("syndication", t)

    rows, counts = validate_tables(str(stage))
    t = lap("validate", t)
    outputs = write_tables(str(stage), str(out), entries)
    if published:
        outputs = publish_tables(str(out), published)
    t = lap("write", t)
    where = published or str(out)

    summary = {
        "raw_dir": str(raw_dir),
        "out_dir": where,
        "started_at": started_at.isoformat(),
        "pipeline_version": cfg.pipeline_version,
        "settings": cfg.model_dump(),
        "docs_read": totals["docs_read"],
        "docs_cleaned": counts["docs_cleaned"],
        "docs_quarantined": counts["docs_quarantined"],
        "quarantined_by_stage": counts["quarantined_by_stage"],
        "lines_removed": counts["lines_removed"],
        "spans_removed": counts["spans_removed"],
        "removed_by_kind": dict(sorted((Counter(counts["lines_removed"]) + Counter(counts["spans_removed"])).items())),
        "batches": len(batches),
        "batch_task_seconds": round(task_seconds, 3),
        "incremental": {"sources_total": len(sources), "files_hashed": hashed, **plan.counts(),
                        "rows_carried": carried},
        "corpus": {k: corpus.get(k, False) for k in ("n_docs", "n_distinct_lines", "seconds", "reused", "files_read")},
        "tables": rows,
        "syndication": clusters,
        "languages": language_summary(out),
        "durations_s": durations,
        "memory_mb": memory,
        "versions": _versions(),
        "outputs": outputs | {"run": f"{where}/run.json", "manifest": f"{where}/{manifest.MANIFEST}"},
    }
    summary["artifacts"] = publish_artifacts(str(out), summary | {"durations_s": durations | {"total": time.perf_counter() - started}})
    durations["total"] = round(time.perf_counter() - started, 3)
    memory["artifacts"] = _memory_mb()
    store.write_summary(summary, out)
    # reads run.json, so it comes after it
    report = write_report(str(out), str(raw_dir), rows.get("articles", 0) + rows.get("quarantine", 0))
    memory["report"] = _memory_mb()
    if report:
        summary["outputs"]["report"] = remote_out.upload(out, published, "report.html") if published else report[0]
        summary["artifacts"] += report[1:]
        store.write_summary(summary, out)
    if published:
        remote_out.upload(out, published, "run.json")
    return summary


@contextmanager
def _heap_frozen() -> Iterator[None]:
    """For the length of a run, hide from the garbage collector what was alive before it (Prefect,
    pandas and the modules: ~400k objects here). A full collection then walks only what the run
    allocated: _shed's gc.collect() drops from ~0.3 s to milliseconds, and a run calls it after
    every phase and, with threads, after every batch. What was alive is collected once first, and
    unfrozen afterwards, so a process that runs many flows (`newsclean serve`) keeps nothing
    frozen across runs."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _shed() -> None:
    """Give freed memory back to the system after a phase that held a lot of it for a while (the
    corpus pass's arrays, carried-over row groups, a batch's rows): Arrow's pool keeps freed
    buffers, and glibc keeps freed heap pages, both counted in the process's RSS until reused."""
    gc.collect()
    try:
        import pyarrow as pa

        pa.default_memory_pool().release_unused()
    except Exception:  # noqa: BLE001 - an optimisation only
        pass
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except Exception:  # noqa: BLE001 - not glibc
        pass


def _memory_mb() -> dict:
    """This (the flow's) process after a phase: resident now, and its peak so far (ru_maxrss), so
    that run.json shows which phase raised the peak."""
    out = {}
    try:
        import resource

        out["peak"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)  # KiB on Linux
    except (ImportError, OSError):
        pass
    try:
        with open("/proc/self/statm") as fh:
            out["rss"] = round(int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return out


def _remove_leftover_staging(out: Path) -> int:
    """Staging folders of runs that died. Safe: this run holds OUT_DIR's lock, so no other run is
    writing one."""
    folder = out / store.STAGING
    n = 0
    if folder.is_dir():
        for d in folder.iterdir():
            shutil.rmtree(d, ignore_errors=True) if d.is_dir() else d.unlink(missing_ok=True)
            n += 1
    return n


def _part_path(stage: Path, name: str, index: int) -> Path:
    folder = stage / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"part-{index:05d}.parquet"


class MissingExtra(ImportError):
    """A task runner whose packages are an optional extra that is not installed."""


def runner_for(name: str, dask_address: str | None = None):
    """The task runner: processes over all cores by default (batches are CPU-bound)."""
    if name == "thread":
        return ThreadPoolTaskRunner(max_workers=os.cpu_count() or 1)
    if name == "process":
        return process_runner()
    if name == "dask":
        try:  # the optional extra `dask`: only scaling out needs it
            from prefect_dask import DaskTaskRunner
        except ImportError as exc:
            raise MissingExtra(f"the dask task runner needs prefect-dask and dask.distributed ({exc}): "
                               "pip install 'newsclean[dask]'") from exc
        return DaskTaskRunner(address=dask_address) if dask_address else DaskTaskRunner(cluster_kwargs={"n_workers": os.cpu_count() or 1, "threads_per_worker": 1})
    raise ValueError(f"unknown task runner {name!r}: use process, thread or dask")
