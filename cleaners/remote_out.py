"""OUT_DIR in object storage (`s3://bucket/prefix`, any fsspec URL): a run works in a local copy of
it, then publishes the run's tables as one generation.

Object storage has no rename and no symlink, so the switch of a local OUT_DIR's generation
(newsclean.cleaners.store.commit) is made of three steps here, the last one a single PUT:

1. stage: every file of the run's generation (the tables, manifest.json, and the line hashes and
   near-duplicate index the next run reads) is uploaded under OUT/.tables/<generation>/. Nothing
   a reader looks at has changed yet.
2. final names: each table and manifest.json is copied on the server to OUT/<name>
   (OUT/articles.parquet, ...), where a local OUT_DIR has them, so that pandas, polars or pyarrow
   read them by the same names. Each object is replaced whole (one copy request: atomic per object).
3. pointer: OUT/_current, a small JSON object naming the generation, is written last.

A reader that needs the tables as one set (the articles and the removed rows of the same run)
reads OUT/_current and the tables under its generation's prefix; the final names are each whole,
but while a run is in step 2 they may be of two runs. A run that dies before step 3 leaves
OUT/_current naming the previous generation, all of whose files are still there: the next run
starts from it, and removes the dead run's uploads. After step 3, every generation but the new one
and the one before it is removed (a reader that has just read the pointer still finds its files).

The local working copy (newsclean.cleaners.readers.storage.working_copy: one folder per OUT URL under
$NEWSCLEAN_WORK_DIR, by default the user's cache folder) is an ordinary local OUT_DIR: the run's lock, its staging folder and the
previous tables its rows are carried over from are there. pull() makes it hold the generation
OUT/_current names (downloading it, unless it holds it already: the usual case when runs on one
OUT keep to one machine); publish() uploads the run's. One run at a time per OUT URL: the lock is
the working copy's, so two machines must not write the same OUT.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import uuid
from pathlib import Path

from newsclean.cleaners import store
from newsclean.cleaners.manifest import MANIFEST
from newsclean.cleaners.readers import storage

POINTER = "_current"  # OUT/_current: {"generation": ..., "files": [...], "published_at": ...}
# Beside the tables in OUT, written after them (newsclean.flows.clean_corpus): one PUT each.
RUN_FILES = ("run.json", "report.html")


def problem(out_url: str) -> str | None:
    """Why an OUT_DIR in object storage cannot be used, in one line; None when it can: its bucket
    (the URL's first folder) must exist, and its working copy be writable."""
    try:
        where = storage.location(out_url)
    except storage.StorageError as exc:
        return f"OUT_DIR {out_url}: {exc}"
    bucket = where.root.split("/")[0]
    try:
        where.fs.invalidate_cache()
        if not where.fs.exists(bucket):
            return f"OUT_DIR {out_url} cannot be written: its bucket {bucket} does not exist"
    except Exception as exc:  # noqa: BLE001 - a store's error (credentials, endpoint) as one line
        return f"OUT_DIR {out_url} cannot be reached ({' '.join(str(exc).split()) or type(exc).__name__})"
    work = storage.working_copy(out_url)
    try:
        work.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"the working copy {work} of OUT_DIR {out_url} cannot be made ({exc.strerror or exc}); set {storage.WORK_DIR_ENV}"
    return None


def current(out_url: str) -> dict | None:
    """OUT/_current as published (the live generation's name and files); None when OUT has none yet."""
    where = storage.location(out_url)
    where.fs.invalidate_cache()
    try:
        return json.loads(where.fs.cat_file(where.key(POINTER)))
    except FileNotFoundError:
        return None


def live_generation(work: Path) -> str | None:
    """The generation a local OUT_DIR serves (the target of .tables/current), None when it has none."""
    try:
        return os.readlink(Path(work) / store.GENERATIONS / store.CURRENT)
    except OSError:
        return None


def pull(out_url: str, work: Path) -> str | None:
    """Make the working copy hold the generation OUT/_current names: nothing to do when it holds it
    already, else its files are downloaded and committed locally under the same name. When OUT has
    no generation yet, the working copy is emptied of tables too (a first run). Returns the name."""
    pointer = current(out_url)
    work = Path(work)
    if pointer is None:
        if live_generation(work) is not None or (work / MANIFEST).exists():
            _forget_tables(work)
        return None
    generation = pointer["generation"]
    if live_generation(work) == generation:
        return generation
    where = storage.location(out_url)
    stage = work / store.STAGING / f"pull-{uuid.uuid4().hex[:12]}"
    stage.mkdir(parents=True)
    where.fs.get(where.key(f"{store.GENERATIONS}/{generation}") + "/", str(stage) + "/", recursive=True)
    store.commit(stage, work, generation)
    return generation


def publish(work: Path, out_url: str) -> dict[str, str]:
    """Upload the working copy's live generation to OUT (stage, final names, pointer: see the module's
    docstring), then remove older generations. Returns the tables' URLs."""
    where = storage.location(out_url)
    fs = where.fs
    generation = live_generation(work)
    if generation is None:
        raise RuntimeError(f"{work} has no generation to publish")
    local = Path(work) / store.GENERATIONS / generation
    prefix = where.key(f"{store.GENERATIONS}/{generation}")
    before = current(out_url)
    fs.put(str(local) + "/", prefix + "/", recursive=True)
    names = [f"{name}.parquet" for name in store.TABLES if (local / f"{name}.parquet").is_file()]
    names += [MANIFEST] if (local / MANIFEST).is_file() else []
    for name in names:
        fs.copy(f"{prefix}/{name}", where.key(name))
    pointer = {"generation": generation, "files": names,
               "published_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    fs.pipe(where.key(POINTER), (json.dumps(pointer, indent=2) + "\n").encode())
    _remove_old_generations(out_url, {generation, (before or {}).get("generation")})
    return {name: f"{where.url.rstrip('/')}/{name}.parquet" for name in store.TABLES}


def upload(work: Path, out_url: str, name: str) -> str | None:
    """One file of the working copy (run.json, report.html) to OUT/<name> in one PUT; its URL, None
    when the working copy has no such file."""
    path = Path(work) / name
    if not path.is_file():
        return None
    where = storage.location(out_url)
    where.fs.put_file(str(path), where.key(name))
    return f"{where.url.rstrip('/')}/{name}"


def _remove_old_generations(out_url: str, keep: set) -> None:
    """Every folder under OUT/.tables/ but those in `keep`: older generations, and the uploads of
    runs that died before their pointer (one writer per OUT: none is in progress)."""
    where = storage.location(out_url)
    folder = where.key(store.GENERATIONS)
    where.fs.invalidate_cache()
    try:
        entries = where.fs.ls(folder, detail=False)
    except FileNotFoundError:
        return
    for entry in entries:
        if entry.rstrip("/").rpartition("/")[2] not in keep:
            where.fs.rm(entry, recursive=True)


def _forget_tables(work: Path) -> None:
    """A working copy's tables, manifest and generations removed (its lock and staging stay)."""
    for name in (*(f"{t}.parquet" for t in store.TABLES), MANIFEST, *RUN_FILES):
        (work / name).unlink(missing_ok=True)
    shutil.rmtree(work / store.GENERATIONS, ignore_errors=True)
