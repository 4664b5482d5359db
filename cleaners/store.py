"""Output tables on disk: validated batch parts in a staging folder, merged and renamed into place.

A run writes OUT/.staging/<run_id>/<table>/part-NNNNN.parquet per batch, then streams the parts
into one file per table (one row group per part, never the whole corpus in memory). commit()
publishes the finished tables (and the manifest) as ONE generation: they are moved into one
folder, that folder is renamed to OUT/.tables/<generation>, and the symlink OUT/.tables/current is
switched to it with a single os.replace. OUT/articles.parquet, removed.parquet, quarantine.parquet,
lines.parquet and manifest.json are relative symlinks `.tables/current/<name>`, so readers see either the whole
previous run or the whole new one, never a mix. A crash at any point leaves a readable, consistent
OUT_DIR; leftovers (unpublished or old generations) are removed by the next commit. An OUT_DIR in
object storage is such a folder locally, published to the store by newsclean.cleaners.remote_out.
"""
from __future__ import annotations

import functools
import json
import os
import shutil
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from newsclean.schemas import ARROW_SCHEMAS
from newsclean.schemas.validate import arrow_table, resolve_duplicates, to_arrow, validate_batch
from newsclean.cleaners.atomic import atomic_file, atomic_write_text  # noqa: F401  (atomic_write_text: part of this module's API)
from newsclean.cleaners.batch import BatchResult
from newsclean.cleaners.manifest import MANIFEST
from newsclean.cleaners import syndication
from newsclean.cleaners.settings import Settings

# lines: the normalised lines removed's offsets index (Settings.audit_lines), carried with their doc_ids as removed's are
TABLES = ("articles", "removed", "quarantine", "lines")
STAGING = ".staging"
CARRY_PART = "part-carry.parquet"
GENERATIONS = ".tables"  # OUT/.tables/<generation>/ + OUT/.tables/current -> <generation>
CURRENT = "current"
MANIFEST_NAME = MANIFEST  # saved into the staging folder by the flow, published with the tables
# Folders a run may stage that go live with its tables but get no link in OUT_DIR, read by the next
# run: the corpus pass's per-file line hashes (newsclean.cleaners.corpus_context.CACHE_DIR) and the
# near-duplicate index (newsclean.cleaners.syndication.INDEX_DIR).
SIDECARS = ("line-hashes", syndication.INDEX_DIR)


def live_path(out_dir: Path, name: str) -> Path:
    """OUT/.tables/current/<name>: a file or folder of the live generation."""
    return Path(out_dir) / GENERATIONS / CURRENT / name


def part_name(index: int, piece: int = 0) -> str:
    """The file name, less its suffix, of piece `piece` of batch `index` (newsclean.cleaners.batch.
    clean_sources_in_pieces): names sort in the order the batches and their pieces were read."""
    return f"part-{index:05d}-{piece:04d}"


def write_part(stage_dir: Path, index: int, result: BatchResult, settings: Settings | None = None, piece: int = 0) -> dict:
    """Validate one batch, or piece `piece` of it, and write its part of each table, and the MinHash
    signatures of its articles (newsclean.cleaners.syndication.write_part). Returns its counts
    (small, picklable); the run's own counts are read off the merged tables (table_counts)."""
    tables = {name: arrow_table(name, getattr(result, name)) for name in TABLES}  # validated, then written
    result = validate_batch(result, tables)
    name_of_part = part_name(index, piece)
    for name in TABLES:
        table = tables.get(name)
        folder = stage_dir / name
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_parquet(to_arrow(name, getattr(result, name)) if table is None else table,
                             folder / f"{name_of_part}.parquet")
    syndication.write_part(stage_dir, name_of_part, result.articles, (settings or Settings()).dup_shingle_words)
    return {
        "docs_read": result.docs_read,
        "docs_cleaned": len(result.articles),
        "docs_quarantined": len(result.quarantine),
    }


def table_counts(articles: Path, removed: Path, quarantine: Path) -> dict:
    """Rows of the articles and quarantine tables, quarantine rows by stage, and removed rows by
    kind, whole lines and spans apart. Streamed: only the counted columns are read."""
    import pyarrow.compute as pc

    def count(acc: Counter, values: pa.Array) -> None:
        counted = pc.value_counts(values)
        acc.update(dict(zip(counted.field("values").to_pylist(), counted.field("counts").to_pylist())))

    whole, spans, stages = Counter(), Counter(), Counter()
    for batch in iter_batches(removed, ["kind", "whole_line"]):
        is_whole = pc.fill_null(batch.column(1), False)
        count(whole, batch.column(0).filter(is_whole))
        count(spans, batch.column(0).filter(pc.invert(is_whole)))
    for batch in iter_batches(quarantine, ["stage"]):
        count(stages, batch.column(0))
    n_articles = pq.ParquetFile(articles).metadata.num_rows if Path(articles).exists() else 0
    return {"articles": n_articles, "quarantine": sum(stages.values()), "quarantined_by_stage": stages,
            "lines_removed": whole, "spans_removed": spans}


def atomic_write_parquet(table: pa.Table, path: Path) -> None:
    with atomic_file(path, fsync=False) as fh:
        pq.write_table(table, fh, compression="zstd")


def merge_parts(stage_dir: Path, name: str) -> Path:
    """Stream the parts of one table into stage_dir/<name>.parquet, row group by row group: the
    carried-over part of an incremental run is the whole previous table. Articles take their
    dup_cluster and dup_similarity from the run's near-duplicate index when it was built
    (newsclean.cleaners.syndication.build_index), carried-over rows included."""
    clusters = syndication.ClusterColumns.load(stage_dir / syndication.INDEX_DIR) if name == "articles" else None
    target = stage_dir / f"{name}.parquet"
    # Rows carried over from the previous tables (incremental runs) come first, then the batches.
    parts = sorted((stage_dir / name).glob("part-*.parquet"), key=lambda p: (p.name != CARRY_PART, p.name)) \
        if (stage_dir / name).exists() else []
    with pq.ParquetWriter(target, ARROW_SCHEMAS[name], compression="zstd") as writer:
        for part in parts:
            pf = pq.ParquetFile(part)
            for i in range(pf.num_row_groups):
                table = pf.read_row_group(i)
                if table.num_rows:
                    table = table.cast(ARROW_SCHEMAS[name])
                    writer.write_table(clusters.fill(table) if clusters is not None else table)
    return target


def duplicate_keys(stage_dir: Path) -> list[str]:
    """Sources or doc_ids that occur twice across batches (reads only those two columns), after
    identical documents in different batches were resolved (the later copies quarantined)."""
    resolve_duplicates(stage_dir)
    problems = []
    arts = pq.read_table(stage_dir / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    for col in ("doc_id", "source"):
        dup = arts[col][arts[col].duplicated()]
        problems += [f"{col} {v} occurs more than once" for v in dup.head(10)]
    return problems


def commit(stage_dir: Path, out_dir: Path, generation: str | None = None) -> dict[str, Path]:
    """Publish the merged tables of stage_dir (and stage_dir/manifest.json, when the flow saved it
    there) as one generation of out_dir, atomically as a set, then remove the staging folder and
    older generations. Returns the public paths of the tables (symlinks into the generation).
    `generation`: its name (default: a new one; an OUT_DIR in object storage names the generation
    its local working copy takes: newsclean.cleaners.remote_out)."""
    stage_dir, out_dir = Path(stage_dir), Path(out_dir)
    tables = out_dir / GENERATIONS
    tables.mkdir(exist_ok=True)
    names = [f"{name}.parquet" for name in TABLES]
    if (stage_dir / MANIFEST_NAME).exists():
        names.append(MANIFEST_NAME)
    side = [name for name in SIDECARS if (stage_dir / name).is_dir()]
    _migrate_legacy(out_dir, tables)
    generation = _publish_generation(stage_dir, tables, names + side, generation)
    _switch_current(tables, generation)
    _ensure_links(out_dir, names)
    _remove_old_generations(tables)
    shutil.rmtree(stage_dir, ignore_errors=True)
    return {name: out_dir / f"{name}.parquet" for name in TABLES}


def _link_target(name: str) -> str:
    return f"{GENERATIONS}/{CURRENT}/{name}"


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _new_generation_name(tag: str) -> str:
    return f"gen-{time.time_ns():020d}-{tag}"


def _publish_generation(stage_dir: Path, tables: Path, names: list[str], generation: str | None = None) -> str:
    """Move the finished files into stage_dir/generation/ (invisible to readers), then rename that
    folder into OUT/.tables/ in one step. Not live until _switch_current."""
    folder = stage_dir / "generation"
    folder.mkdir(exist_ok=True)
    for name in names:
        os.replace(stage_dir / name, folder / name)
    _fsync_dir(folder)
    generation = generation or _new_generation_name(stage_dir.name)
    if (tables / generation).exists():  # left by a commit of the same name that died before its switch
        shutil.rmtree(tables / generation)
    os.rename(folder, tables / generation)
    _fsync_dir(tables)
    return generation


def _switch_current(tables: Path, generation: str) -> None:
    """Point OUT/.tables/current at `generation`: a temp symlink renamed over it (atomic)."""
    tmp = tables / f".{CURRENT}.{generation}.tmp"
    if tmp.is_symlink() or tmp.exists():
        tmp.unlink()
    os.symlink(generation, tmp)
    try:
        os.replace(tmp, tables / CURRENT)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(tables)


def _ensure_links(out_dir: Path, names: list[str]) -> None:
    """OUT/<name> -> .tables/current/<name> for each name. A missing entry or another symlink is
    (re)created; a regular file of the older layout is replaced, only now that a generation that
    holds <name> is live (each replacement is one atomic rename)."""
    for name in names:
        path = out_dir / name
        target = _link_target(name)
        if path.is_symlink() and os.readlink(path) == target:
            continue
        if path.exists() and not path.is_symlink() and not path.is_file():
            raise RuntimeError(f"{path} is in the way of the output table link (not a file); move it away")
        tmp = out_dir / f".{name}.link.tmp"
        if tmp.is_symlink() or tmp.exists():
            tmp.unlink()
        os.symlink(target, tmp)
        try:
            os.replace(tmp, path)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    _fsync_dir(out_dir)


def _migrate_legacy(out_dir: Path, tables: Path) -> None:
    """OUT_DIR of the older layout (regular table files, no live generation): hard-link those files
    into a generation of their own, make it current, then swap each regular file for its symlink.
    Every name reads the same bytes before and after each step, so even a crash mid-migration leaves
    one consistent set. Nothing is copied. Where hard links are not possible, the regular files are
    left alone here and replaced by _ensure_links after the new generation is live."""
    names = [f"{name}.parquet" for name in TABLES] + [MANIFEST_NAME]
    legacy = [n for n in names if (out_dir / n).is_file() and not (out_dir / n).is_symlink()]
    if not legacy:
        return
    current = tables / CURRENT
    if current.is_symlink() and current.resolve().is_dir():
        # A live generation already exists. A regular file that is a hard link into it (a crash
        # mid-migration) is swapped for its symlink now, before the switch; any other regular
        # file (copied in by hand) is replaced by _ensure_links after this run's switch.
        same = []
        for name in legacy:
            try:
                if os.path.samefile(out_dir / name, current / name):
                    same.append(name)
            except OSError:
                pass
        _ensure_links(out_dir, same)
        return
    folder = tables / f".legacy.{os.getpid()}.tmp"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    try:
        for name in legacy:
            os.link(out_dir / name, folder / name)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
        return
    generation = _new_generation_name("legacy")
    os.rename(folder, tables / generation)
    _switch_current(tables, generation)
    _ensure_links(out_dir, legacy)


def _remove_old_generations(tables: Path) -> None:
    """Everything in OUT/.tables except `current` and its target: older generations, folders of
    commits that died before their switch, temp links. Only one run writes an OUT_DIR (run lock)."""
    live = os.readlink(tables / CURRENT)
    for entry in tables.iterdir():
        if entry.name in (CURRENT, live):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def write_summary(summary: dict, out_dir: Path) -> Path:
    path = out_dir / "run.json"
    atomic_write_text(json.dumps(summary, indent=2, sort_keys=True, default=str) + "\n", path)
    return path


def read_table(out_dir: Path, name: str) -> pd.DataFrame:
    return pq.read_table(Path(out_dir) / f"{name}.parquet").to_pandas()


# ---------------------------------------------------------------- incremental runs
# An incremental run cleans only some sources; the rows of the others are carried over from the
# previous tables in OUT_DIR. carry_over streams those rows (filtered row group by row group, never
# the whole table in memory) into a first part of each table; merge_parts puts them ahead of the
# new batches' parts; commit() renames the result into place.

def file_source(row_source: str, sources) -> str | None:
    """The discovered source (file) a row belongs to: the row's own `source`, or, for a record of
    a multi-document file written as e.g. `dump.jsonl#12`, the file whose path prefixes it.
    `sources` must be sorted: a list of str, or a numpy str array (searched without a list)."""
    if isinstance(sources, np.ndarray):
        i = int(np.searchsorted(sources, row_source, side="right")) - 1
    else:
        import bisect

        i = bisect.bisect_right(sources, row_source) - 1
    while i >= 0:
        cand = str(sources[i])
        if row_source == cand:
            return cand
        if row_source.startswith(cand) and row_source[len(cand)] in "#:!/":
            return cand
        if not row_source.startswith(cand[:1]):
            break
        i -= 1
    return None


def previous_schema_ok(out_dir: Path) -> bool:
    """True when every previous table exists and has today's Arrow schema (else: clean all)."""
    for name in TABLES:
        path = Path(out_dir) / f"{name}.parquet"
        try:
            schema = pq.read_schema(path)
        except (OSError, pa.ArrowException):
            return False
        if not schema.remove_metadata().equals(ARROW_SCHEMAS[name].remove_metadata()):
            return False
    return True


def iter_batches(path: Path, columns: list[str] | None = None, rows: int = 200_000):
    """A parquet file's record batches (of the named columns it has; all when None): for reading the
    tables that grow with the corpus (removed.parquet: ~230 rows per document) in bounded memory.
    pre_buffer=False: with pre-buffering, pyarrow keeps every row group's bytes it has read until the
    file is closed, so "streaming" a 23M-row table held 340 MB more at its end."""
    if not Path(path).exists():
        return
    pf = pq.ParquetFile(path, pre_buffer=False)
    cols = None if columns is None else [c for c in columns if c in pf.schema_arrow.names]
    yield from pf.iter_batches(batch_size=rows, columns=cols)


def sources_with_rows(out_dir: Path, sources: list[str]) -> set[str]:
    """Discovered sources that have at least one row in the previous articles or quarantine table."""
    found: set[str] = set()
    srt = sorted(sources)
    for name in ("articles", "quarantine"):
        path = Path(out_dir) / f"{name}.parquet"
        if not path.exists():
            continue
        col = pq.read_table(path, columns=["source"]).column("source").unique().to_pylist()
        found.update(f for f in (file_source(s, srt) for s in col if s is not None) if f)
    return found


def _file_mask(row_sources: pa.Array, files: np.ndarray, value_set: pa.Array) -> np.ndarray:
    """For each row's `source`, whether it belongs to one of `files` (a sorted str array; value_set:
    the same as an arrow array): equal to one, or a record of one (`dump.jsonl#12`: file_source)."""
    import pyarrow.compute as pc

    hit = pc.fill_null(pc.is_in(row_sources, value_set=value_set), False).to_numpy(zero_copy_only=False)
    if hit.all() or not len(files):
        return hit
    miss = np.flatnonzero(~hit)
    names = row_sources.take(pa.array(miss)).to_pylist()
    for i, s in zip(miss.tolist(), names):
        if s is not None:
            hit[i] = file_source(s, files) is not None
    return hit


def _sorted_str_array(sources) -> np.ndarray:
    arr = np.asarray(sources, dtype=str)
    if len(arr) > 1 and not np.all(arr[:-1] <= arr[1:]):
        arr = np.sort(arr)
    return arr


def carry_over(stage_dir: Path, out_dir: Path, keep) -> dict[str, int]:
    """Write the previous rows of the `keep` sources (a list or str array) as each table's first part
    (stage/<table>/part-carry.parquet). Removed and lines rows follow their doc_ids. Returns rows
    per table. Streamed row group by row group; the sources are held as one array, not a set of strings."""
    import pyarrow.compute as pc

    keep_arr = _sorted_str_array(keep)
    keep_values = pa.array(keep_arr, pa.string())
    counts: dict[str, int] = {}
    kept_ids: dict[str, list[pa.Array]] = {"articles": [], "quarantine": []}
    # removed rows belong to an article or a quarantined document, lines rows to an article
    by_doc_id = {"removed": ("articles", "quarantine"), "lines": ("articles",)}
    for name in ("articles", "quarantine", *by_doc_id):
        src = Path(out_dir) / f"{name}.parquet"
        folder = Path(stage_dir) / name
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / CARRY_PART
        tmp = target.with_name(f".{CARRY_PART}.tmp")
        n = 0
        if name in by_doc_id:
            ids = [a for owner in by_doc_id[name] for a in kept_ids[owner]]
            id_set = pa.concat_arrays(ids) if ids else pa.array([], pa.string())
        with pq.ParquetWriter(tmp, ARROW_SCHEMAS[name], compression="zstd") as writer:
            if len(keep_arr) and src.exists():
                pf = pq.ParquetFile(src, pre_buffer=False)
                for i in range(pf.num_row_groups):
                    rg = pf.read_row_group(i)
                    for batch in rg.to_batches():
                        if name in by_doc_id:
                            mask = pc.fill_null(pc.is_in(batch.column(batch.schema.get_field_index("doc_id")), value_set=id_set), False)
                        else:
                            mask = pa.array(_file_mask(batch.column(batch.schema.get_field_index("source")), keep_arr, keep_values))
                        sel = batch.filter(mask)
                        if sel.num_rows:
                            writer.write_table(pa.Table.from_batches([sel]).cast(ARROW_SCHEMAS[name]))
                            n += sel.num_rows
                            if name not in by_doc_id:
                                ids = sel.column(sel.schema.get_field_index("doc_id")).drop_null()
                                kept_ids[name].append(ids.cast(pa.string()))
        os.replace(tmp, target)
        counts[name] = n
    return counts


def rows_mask(out_dir: Path, sources) -> np.ndarray:
    """sources_with_rows as a bool array over `sources` (a sorted str array)."""
    files = _sorted_str_array(sources)
    found = np.zeros(len(files), dtype=bool)
    for name in ("articles", "quarantine"):
        path = Path(out_dir) / f"{name}.parquet"
        if not path.exists() or not len(files):
            continue
        col = pq.read_table(path, columns=["source"]).column("source").unique().drop_null()
        _mark_files(found, files, col)
    return found


def _mark_files(found: np.ndarray, files: np.ndarray, row_sources: pa.Array) -> None:
    """Set found[i] for each file that one of row_sources is, or is a record of."""
    import pyarrow.compute as pc

    if isinstance(row_sources, pa.ChunkedArray):
        row_sources = row_sources.combine_chunks()
    exact = pc.fill_null(pc.index_in(pa.array(files, pa.string()), value_set=row_sources), -1).to_numpy(zero_copy_only=False) >= 0
    found |= exact
    hit = pc.fill_null(pc.is_in(row_sources, value_set=pa.array(files, pa.string())), False).to_numpy(zero_copy_only=False)
    for s in row_sources.filter(pa.array(~hit)).to_pylist():
        f = file_source(s, files)
        if f is not None:
            found[int(np.searchsorted(files, f))] = True


def quarantined_at_mask(out_dir: Path, stage: str, sources, errors: tuple[str, ...] = ()) -> np.ndarray:
    """sources_quarantined_at as a bool array over `sources` (a sorted str array); with `errors`,
    only rows whose error starts with one of them."""
    import pyarrow.compute as pc

    files = _sorted_str_array(sources)
    found = np.zeros(len(files), dtype=bool)
    path = Path(out_dir) / "quarantine.parquet"
    if not path.exists() or not len(files):
        return found
    t = pq.read_table(path, columns=["source", "stage", "error"])
    keep = pc.equal(t.column("stage"), stage)
    if errors:
        starts = [pc.fill_null(pc.starts_with(t.column("error"), e), False) for e in errors]
        keep = pc.and_(keep, functools.reduce(pc.or_, starts))
    hit = t.filter(keep).column("source").drop_null().unique()
    _mark_files(found, files, hit)
    return found


def sources_quarantined_at(out_dir: Path, stage: str, sources: list[str]) -> set[str]:
    """Discovered sources with a previous quarantine row of this stage (e.g. "validate": a copy of
    another file, whose outcome changes when that file changes or goes)."""
    import pyarrow.compute as pc

    path = Path(out_dir) / "quarantine.parquet"
    if not path.exists():
        return set()
    t = pq.read_table(path, columns=["source", "stage"])
    hit = t.filter(pc.equal(t.column("stage"), stage)).column("source").to_pylist()
    srt = sorted(sources)
    return {f for f in (file_source(s, srt) for s in hit if s) if f}
