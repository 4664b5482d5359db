"""The corpus pass of a run, between discovery and cleaning: build newsclean.cleaners.corpus.CorpusStats over
every document, save it for the cleaning batches (read-only context), and fingerprint each
source's corpus context so that incremental runs know whom a corpus change affects.

Why fingerprints: corpus repetition depends on all documents, so adding one document changes
counts that other documents see. Re-cleaning everything on every change would make incremental
runs pointless; ignoring it would leave stale decisions. A source is re-cleaned when the
*quantised* context of one of its documents changed: per line, the document frequency overall
and within the site in powers of two (1, 2-3, 4-7, ...) plus whether it reaches the template
threshold (Settings.template_min_docs), and the corpus and site sizes in powers of two. Counts
of DF_CAP documents and more are one bucket: past a few copies a line is a template whatever its
count, and the boundaries at 16, 32, 64... were what re-cleaned most documents after a small
edit (bench/context_churn.py). A line going from 40 to 41 (or 20 to 400) documents re-cleans
nobody; a line becoming a template (2 -> 3 documents) re-cleans the documents that contain it;
doubling the corpus re-cleans everything.

The pass is split so that its costly part runs in parallel and each file is read once: every
worker hashes the lines of a slice of the sources (decode, normalise, hash) into a part file of
plain arrays (hash_slice); the flow then builds the statistics and the fingerprints from the
parts alone (from_parts), never from the text again. Memory stays bounded by one part's arrays
plus the distinct-line tables.

No Prefect here; flows/clean_corpus.py calls these from its `hash-lines` and `corpus-statistics` tasks.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np
import xxhash

from newsclean.cleaners.corpus import CorpusStats, DocContext, key_hash, line_hashes
from newsclean.cleaners.engine.scoring import Steps, run_batch, run_steps
from newsclean.cleaners.metadata.resolve import record_evidence
from newsclean.cleaners.metadata.urls import domain_from_url
from newsclean.cleaners.readers import read_source
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

STATS_FILE = "corpus-stats.npz"
HASHES_FILE = "line-hashes-{:05d}.npz"
# Bump when what a part holds, or how documents are read, normalised or hashed, changes: parts of
# another format are never reused.
CACHE_FORMAT = 1


def document_lines(raw: RawDocument, settings: Settings) -> list[str]:
    """The non-empty normalised lines the line cleaner will see for this document."""
    return run_steps(_document_lines_steps(raw, settings))


def _document_lines_steps(raw: RawDocument, settings: Settings) -> Steps[list[str]]:
    """document_lines as steps: the lines of many documents are normalised together (run_batch
    answers their LinesRequests with one look at all their lines), as a cleaning batch does."""
    from newsclean.cleaners.pipeline import input_text, normalised_lines_steps

    lines = yield from normalised_lines_steps(input_text(raw), settings)
    return [ln for ln in lines if ln]


def documents_lines(raws: list[RawDocument], settings: Settings) -> list[list[str] | BaseException]:
    """document_lines of each document, normalised together; a document that fails to decode gets
    its exception instead."""
    return run_batch([_document_lines_steps(raw, settings) for raw in raws])


def site_key(raw: RawDocument) -> str | None:
    """The site a document belongs to, when a record or archive says so (its URL's domain, else its outlet)."""
    evidence = record_evidence(raw.meta)
    if evidence.url:
        dom = domain_from_url(evidence.url)
        if dom:
            return dom
    return evidence.outlet


def document_context(stats: CorpusStats, raw: RawDocument):
    """The line-model context of one document: `context(lines)` with its corpus counts, site and URL."""
    return stats.context_fn(site_key(raw), record_evidence(raw.meta).url)


def source_items(raw_dir: str | Path, source: str, settings: Settings,
                 spool: str | Path | None = None) -> tuple[list[tuple[RawDocument, str | None]], bool]:
    """(document, site_key) of each document of one source whose lines the corpus counts, and
    whether the file itself could be read (False: a read error, e.g. permissions or a file over
    max_bytes; the cleaning step quarantines it with the reader's reason). `spool`: the run's
    folder of fetched objects (read_source)."""
    items = []
    try:
        for item in read_source(raw_dir, source, settings, spool=spool):
            # HTML pages are cleaned by cue rules on trafilatura's body with the line model off,
            # so their lines would cost a second trafilatura run per page and be read by nobody.
            if isinstance(item, DocumentError) or item.format == "html":
                continue
            try:
                items.append((item, site_key(item)))
            except Exception:  # noqa: BLE001 - a record the cleaning step quarantines
                continue
    except Exception:  # noqa: BLE001
        return items, False
    return items, True


@dataclass
class LineHashes:
    """The line hashes of a slice of the corpus: document i came from sources[i], has the site key
    hash keys[i] (when has_key[i]) and the lines hashes[offsets[i]:offsets[i + 1]].

    Per file read (files[j], in order; its file_docs[j] documents are consecutive): the sha256 its
    bytes had (the manifest's), or "" when its hashes must not be reused (no hash known, or the file
    could not be read). A part is the unit of LineHashCache."""

    sources: np.ndarray  # str
    has_key: np.ndarray  # bool
    keys: np.ndarray  # uint64
    offsets: np.ndarray  # int64, one more than documents
    hashes: np.ndarray  # uint64
    files: np.ndarray | None = None  # str
    file_docs: np.ndarray | None = None  # int64
    file_sha256: np.ndarray | None = None  # str
    pipeline_version: str = ""  # cache_version of the run that wrote it

    def documents(self) -> Iterator[tuple[str, np.ndarray, np.uint64 | None]]:
        for i, source in enumerate(self.sources.tolist()):
            yield source, self.hashes[self.offsets[i]:self.offsets[i + 1]], self.keys[i] if self.has_key[i] else None

    def file_table(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(files, file_docs, file_sha256); derived from the documents for a part without one."""
        if self.files is not None:
            return self.files, self.file_docs, self.file_sha256
        names, first, counts = np.unique(self.sources, return_index=True, return_counts=True)
        order = np.argsort(first, kind="stable")
        return names[order], counts[order].astype(np.int64), np.full(len(names), "", dtype=str)

    def subset(self, file_mask: np.ndarray) -> "LineHashes":
        """The part restricted to the files where file_mask is True."""
        files, file_docs, file_sha = self.file_table()
        doc_mask = np.repeat(file_mask, file_docs)
        lens = np.diff(self.offsets)
        line_mask = np.repeat(doc_mask, lens)
        return LineHashes(self.sources[doc_mask], self.has_key[doc_mask], self.keys[doc_mask],
                          np.concatenate([[0], np.cumsum(lens[doc_mask])]).astype(np.int64), self.hashes[line_mask],
                          files[file_mask], file_docs[file_mask], file_sha[file_mask], self.pipeline_version)

    @classmethod
    def concat(cls, parts: list["LineHashes"], pipeline_version: str = "") -> "LineHashes":
        tables = [p.file_table() for p in parts]
        offsets, base = [np.zeros(1, dtype=np.int64)], 0
        for p in parts:
            offsets.append(p.offsets[1:] + base)
            base += int(p.offsets[-1])
        return cls(np.concatenate([p.sources for p in parts]).astype(str), np.concatenate([p.has_key for p in parts]).astype(bool),
                   np.concatenate([p.keys for p in parts]).astype(np.uint64), np.concatenate(offsets),
                   np.concatenate([p.hashes for p in parts]).astype(np.uint64),
                   np.concatenate([t[0] for t in tables]).astype(str), np.concatenate([t[1] for t in tables]).astype(np.int64),
                   np.concatenate([t[2] for t in tables]).astype(str), pipeline_version)


# Documents whose lines are normalised together (documents_lines): enough to share one look at
# their lines, few enough that their texts are a small part of a worker's memory.
LINES_GROUP = 256


def hash_slice(raw_dir: str | Path, sources: list[str], settings: Settings, sha256: list[str] | None = None,
               spool: str | Path | None = None) -> LineHashes:
    """Read, normalise and hash the lines of every readable document of `sources` (documents that
    fail to decode are left out: the cleaning step quarantines them). `sha256`: the content hash
    of each source (manifest.scan_table), recorded so that a later run may reuse the result. `spool`:
    the run's folder of fetched objects, which the cleaning reads again (read_source)."""
    names, has_key, keys, offsets, chunks = [], [], [], [0], []
    file_docs, file_sha = [], []
    pending: list[tuple[int, RawDocument, str | None]] = []  # (file index, document, site key)

    def flush() -> None:
        for (j, _, key), lines in zip(pending, documents_lines([raw for _, raw, _ in pending], settings)):
            if isinstance(lines, BaseException):
                continue
            h = line_hashes(lines)
            kh = key_hash(key)
            names.append(sources[j])
            has_key.append(kh is not None)
            keys.append(kh if kh is not None else 0)
            chunks.append(h)
            offsets.append(offsets[-1] + len(h))
            file_docs[j] += 1
        pending.clear()

    for j, source in enumerate(sources):
        items, readable = source_items(raw_dir, source, settings, spool)
        pending.extend((j, raw, key) for raw, key in items)
        file_docs.append(0)
        file_sha.append(sha256[j] if sha256 is not None and readable and sha256[j] else "")
        if len(pending) >= LINES_GROUP:
            flush()
    flush()
    return LineHashes(np.array(names, dtype=str), np.array(has_key, dtype=bool), np.array(keys, dtype=np.uint64),
                      np.array(offsets, dtype=np.int64),
                      np.concatenate(chunks) if chunks else np.empty(0, dtype=np.uint64),
                      np.array(list(sources), dtype=str), np.array(file_docs, dtype=np.int64), np.array(file_sha, dtype=str),
                      cache_version(settings))


def save_part(part: LineHashes, path: Path) -> Path:
    """One part as numpy .npz (plain arrays, no pickle), written atomically."""
    path = Path(path)
    files, file_docs, file_sha = part.file_table()
    arrays = {"sources": part.sources, "has_key": part.has_key, "keys": part.keys, "offsets": part.offsets,
              "hashes": part.hashes, "files": files, "file_docs": file_docs, "file_sha256": file_sha,
              "pipeline_version": np.array(part.pipeline_version), "format": np.array(CACHE_FORMAT)}
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as fh:
        np.savez(fh, **arrays)
    tmp.replace(path)
    return path


def write_slice(raw_dir: str | Path, sources: list[str], settings: Settings, folder: Path, index: int,
                sha256: list[str] | None = None, name: str | None = None, spool: str | Path | None = None) -> Path:
    """hash_slice saved as part `index` in `folder` (or under `name`)."""
    part = hash_slice(raw_dir, sources, settings, sha256, spool)
    return save_part(part, Path(folder) / (name or HASHES_FILE.format(index)))


def read_slice(path: Path) -> LineHashes:
    with np.load(path, allow_pickle=False) as z:
        fields = {name: z[name] for name in ("sources", "has_key", "keys", "offsets", "hashes")}
        if "files" in z.files:
            fields.update(files=z["files"], file_docs=z["file_docs"], file_sha256=z["file_sha256"])
        if "pipeline_version" in z.files:
            fields["pipeline_version"] = str(z["pipeline_version"])
        return LineHashes(**fields)


def _read_file_table(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, str] | None:
    """(files, file_docs, file_sha256, pipeline_version) of a cached part, without its hashes;
    None when the part is unreadable or of another format."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if "format" not in z.files or int(z["format"]) != CACHE_FORMAT:
                return None
            return z["files"], z["file_docs"], z["file_sha256"], str(z["pipeline_version"])
    except Exception:  # noqa: BLE001 - a damaged part is only a cache miss
        return None


Part = "Path | str | LineHashes | tuple[Path | str | LineHashes, np.ndarray]"


def _open_part(part) -> LineHashes:
    """A part given as a path, an in-memory LineHashes, or either with a file mask (use only those files)."""
    mask = None
    if isinstance(part, tuple):
        part, mask = part
    lh = read_slice(part) if isinstance(part, (str, Path)) else part
    return lh if mask is None or bool(np.all(mask)) else lh.subset(mask)


def from_parts(parts, sources: list[str], settings: Settings) -> tuple[CorpusStats, dict[str, str]]:
    """The statistics over every part, then each source's context fingerprint (parts are read
    twice, one at a time, when given as paths). A part may come with a file mask: (part, mask)."""
    parts = list(parts)

    def each() -> Iterator[LineHashes]:
        for part in parts:
            yield _open_part(part)

    stats = CorpusStats.from_hashes((h, kh) for part in each() for _, h, kh in part.documents())
    return stats, fingerprints_of(stats, each(), sources, settings)


def statistics_of(parts, sources: list[str], settings: Settings) -> tuple[CorpusStats, np.ndarray]:
    """from_parts with the fingerprints as one uint64 array aligned with sorted(sources)."""
    parts = list(parts)
    stats = CorpusStats.from_hashes((h, kh) for part in parts for _, h, kh in _open_part(part).documents())
    return stats, fingerprint_ints(stats, (_open_part(p) for p in parts), sorted(sources), settings)


# ---------------------------------------------------------------- the line-hash cache
# Reading, decoding and hashing every file is most of an incremental run's corpus pass, though only
# the changed files have new lines. Each run's parts are kept with its tables: the live generation
# holds line-hashes/ (OUT/.tables/current/line-hashes, published with the tables and the manifest
# by newsclean.cleaners.store.commit), keyed per file by path and sha256 (the manifest's: size + mtime, else
# the bytes). The next run reads only files with no cached part under today's content hash, pipeline
# version and code (cache_version), builds the statistics from the cached parts and the new ones
# exactly as from a full pass (the counts do not depend on the order of documents), and stages the
# parts it used (hard links, no copy) with its new ones into its own line-hashes/. The live
# generation's parts are never modified: a run that dies leaves the cache as the tables are.

CACHE_DIR = "line-hashes"
MIN_PART_FILES = 250  # smaller parts (a few changed files each run) are merged when they pile up
MAX_SMALL_PARTS = 4
MAX_STALE_SHARE = 0.25  # a part is rewritten without its stale files beyond this share of its documents


def cache_version(settings: Settings) -> str:
    """What cached line hashes were made with: pipeline_version holds the code's hash too (reading,
    decoding, normalising or the site key may have changed)."""
    return settings.pipeline_version


def _link_or_copy(src: Path, dst: Path) -> None:
    import os
    import shutil

    if dst.exists():
        return
    try:
        os.link(src, dst)
    except OSError:
        tmp = dst.with_name(f".{dst.name}.tmp")
        shutil.copyfile(src, tmp)
        tmp.replace(dst)


class LineHashCache:
    """Parts of a previous run (`source`, read only) and this run's (`target`, in its staging
    folder; published with its tables). One writer: the run that holds OUT_DIR's lock."""

    def __init__(self, source: Path | None, settings: Settings, target: Path | None = None):
        self.source = Path(source) if source is not None else None
        self.target = Path(target) if target is not None else self.source
        self.version = cache_version(settings)

    @property
    def folder(self) -> Path:
        return self.target

    def parts(self, folder: Path | None = None) -> list[Path]:
        folder = self.source if folder is None else folder
        return sorted(folder.glob("part-*.npz")) if folder is not None and folder.is_dir() else []

    def lookup(self, sources: list[str], sha256: np.ndarray) -> tuple[list[tuple[Path, np.ndarray]], np.ndarray]:
        """Cached parts that cover some of `sources` (sorted), each with its mask of files to use,
        and a bool array over `sources`: True where a cached part has the file with today's sha256
        (a bytes array, e.g. the manifest's; b"" = unknown: never cached)."""
        order = np.array(sources, dtype=str)
        sha = np.asarray(sha256, dtype="S64")
        cached = np.zeros(len(order), dtype=bool)
        use: list[tuple[Path, np.ndarray]] = []
        for path in self.parts():
            table = _read_file_table(path)
            if table is None or table[3] != self.version or not len(order):
                continue
            files, _, file_sha, _ = table
            pos = np.minimum(np.searchsorted(order, files), len(order) - 1)
            file_sha = file_sha.astype("S64")
            ok = (order[pos] == files) & (sha[pos] == file_sha) & (file_sha != b"") & ~cached[pos]
            if ok.any():
                cached[pos[ok]] = True
                use.append((path, ok))
        return use, cached

    def carry_all(self) -> None:
        """Stage every previous part unchanged (a run that needed no corpus pass)."""
        if self.source is None or self.target is None or self.source == self.target:
            return
        self.target.mkdir(parents=True, exist_ok=True)
        for path in self.parts():
            _link_or_copy(path, self.target / path.name)

    def tidy(self, used: list[tuple[Path, np.ndarray]], new_parts: list[Path], tag: str) -> None:
        """Stage the used previous parts next to the new ones: linked as they are, or rewritten
        without their stale files when those are many; small parts merged into one."""
        target = self.target
        target.mkdir(parents=True, exist_ok=True)
        staged: list[tuple[Path, np.ndarray | None]] = [(Path(p), None) for p in new_parts]
        for n, (path, mask) in enumerate(used):
            table = _read_file_table(path)
            docs = table[1] if table is not None else None
            stale = 0.0 if mask.all() else 1.0 if docs is None or not docs.sum() else \
                float(docs[~mask].sum()) / float(docs.sum())
            if stale > MAX_STALE_SHARE:
                dst = target / f"part-{tag}-t{n:05d}.npz"
                save_part(read_slice(path).subset(mask), dst)
                staged.append((dst, None))
            elif path.parent == target:
                staged.append((path, mask))
            else:
                dst = target / path.name
                _link_or_copy(path, dst)
                staged.append((dst, mask))
        small = []
        for path, mask in staged:
            if mask is not None:
                n_files = int(mask.sum())
            else:
                table = _read_file_table(path)
                n_files = len(table[0]) if table is not None else 0
            if n_files < MIN_PART_FILES:
                small.append((path, mask))
        live = {path for path, _ in staged}
        if len(small) > MAX_SMALL_PARTS:
            merged = LineHashes.concat([_open_part((p, m) if m is not None else p) for p, m in small], self.version)
            live = (live - {p for p, _ in small}) | {save_part(merged, target / f"part-{tag}-merged.npz")}
        for path in self.parts(target):  # unused, stale or merged parts (in this run's folder only)
            if path not in live:
                path.unlink(missing_ok=True)
        for tmp in target.glob(".part-*.tmp"):
            tmp.unlink(missing_ok=True)


def build(raw_dir: str | Path, sources: list[str], settings: Settings) -> CorpusStats:
    """The statistics of one slice, in memory (tests, benchmarks)."""
    return from_parts([hash_slice(raw_dir, sources, settings)], sources, settings)[0]


def _pow2_bucket(x: np.ndarray) -> np.ndarray:
    return np.floor(np.log2(np.maximum(x, 1))).astype(np.int8)


# 1% of a 10k generated corpus rewritten: uncapped, 69.8% of the unchanged documents were re-cleaned;
# capped at 16, 32.4%, and none of 400 documents the cap skips got another output when cleaned with
# the new counts (capped at 8: 0.5%, but 6 of 150 skipped documents would change).
DF_CAP = 16


def context_fingerprint(ctx: DocContext, settings: Settings, cap: int | None = DF_CAP) -> bytes:
    """`cap`: counts from this many documents up are one bucket (None: no cap; bench/context_churn.py)."""
    t = settings.template_min_docs
    df, df_site = (ctx.df, ctx.df_site) if cap is None else (np.minimum(ctx.df, cap), np.minimum(ctx.df_site, cap))
    parts = [
        _pow2_bucket(df), (df >= t).astype(np.int8),
        _pow2_bucket(df_site), (df_site >= t).astype(np.int8),
        _pow2_bucket(np.array([ctx.n_docs, ctx.n_site_docs])),
    ]
    return b"".join(p.tobytes() for p in parts)


def fingerprint_ints(stats: CorpusStats, parts: Iterable[LineHashes], sources: list[str], settings: Settings) -> np.ndarray:
    """Per source (aligned with the sorted list `sources`), the xxh3-64 of its documents' quantised
    corpus context, as uint64: one array, not an object per source. A source's documents must be
    consecutive across the parts (as hash_slice writes them); a source with no readable document
    gets the fingerprint of none."""
    order = np.array(sources, dtype=str)
    if len(order) > 1 and not np.all(order[:-1] < order[1:]):
        raise ValueError("sources must be sorted and distinct")
    out = np.full(len(sources), xxhash.xxh3_64_intdigest(b""), dtype=np.uint64)
    done = np.zeros(len(sources), dtype=bool)
    current, digest = -1, None

    def finish():
        if current >= 0:
            out[current] = digest.intdigest()
            done[current] = True

    for part in parts:
        names = part.sources
        pos = np.searchsorted(order, names) if len(names) else np.empty(0, dtype=np.int64)
        for i, (source, h, kh) in enumerate(part.documents()):
            j = int(pos[i])
            if j >= len(order) or order[j] != source:
                raise KeyError(source)
            if j != current:
                if done[j]:
                    raise ValueError(f"the documents of {source} are not consecutive in the parts")
                finish()
                current, digest = j, xxhash.xxh3_64()
            digest.update(context_fingerprint(stats.context_of(h, kh), settings))
            digest.update(b"\x00|doc|\x00")
    finish()
    return out


def fingerprint_hex(values: np.ndarray) -> list[str]:
    """uint64 fingerprints as the manifest's 16-hex strings."""
    return [v.decode() for v in fingerprint_bytes(values).tolist()]


_HEX = np.frombuffer(b"".join(f"{i:02x}".encode() for i in range(256)), dtype=np.uint8).reshape(256, 2)


def fingerprint_bytes(values: np.ndarray) -> np.ndarray:
    """uint64 fingerprints as 16-hex ASCII (numpy S16), vectorised: xxh3_64's hexdigest of each."""
    b = np.ascontiguousarray(values, dtype=">u8").view(np.uint8).reshape(-1, 8)
    return np.ascontiguousarray(_HEX[b].reshape(-1, 16)).view("S16").reshape(-1)


class Fingerprints(Mapping):
    """source -> 16-hex context fingerprint, held as two arrays (sorted sources, uint64 values)."""

    def __init__(self, sources: np.ndarray, values: np.ndarray):
        self.sources = np.asarray(sources, dtype=str)
        self.values = values

    def __len__(self) -> int:
        return len(self.sources)

    def __iter__(self):
        return iter(self.sources.tolist())

    def __getitem__(self, source: str) -> str:
        i = int(np.searchsorted(self.sources, source))
        if i >= len(self.sources) or self.sources[i] != source:
            raise KeyError(source)
        return f"{int(self.values[i]):016x}"

    def as_bytes(self) -> np.ndarray:
        return fingerprint_bytes(self.values)


def fingerprints_of(stats: CorpusStats, parts: Iterable[LineHashes], sources: list[str], settings: Settings) -> dict[str, str]:
    """Per source, a 16-hex fingerprint of its documents' quantised corpus context (a source with
    no readable document gets the fingerprint of none)."""
    srt = sorted(sources)
    return dict(zip(srt, fingerprint_hex(fingerprint_ints(stats, parts, srt, settings))))


def fingerprints(stats: CorpusStats, raw_dir: str | Path, sources: list[str], settings: Settings) -> dict[str, str]:
    """fingerprints_of for sources read now (tests, benchmarks)."""
    return fingerprints_of(stats, [hash_slice(raw_dir, sources, settings)], sources, settings)


def save(stats: CorpusStats, folder: Path) -> Path:
    """Internal, per-run file in the staging folder: numpy arrays, no pickle."""
    path = Path(folder) / STATS_FILE
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        stats.save(fh)
    tmp.replace(path)
    return path


@lru_cache(maxsize=2)
def load(path: str) -> CorpusStats:
    """Cached per process: the batches a worker process runs share one copy."""
    return CorpusStats.load(path)
