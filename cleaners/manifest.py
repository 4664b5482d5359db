"""The manifest of an OUT_DIR: what each source looked like when its rows were written.

OUT/manifest.json records, per source (a path relative to RAW_DIR): size, mtime_ns, the sha256 of
its bytes and the fingerprint of its corpus context (newsclean.cleaners.corpus_context), plus the
pipeline_version the rows were cleaned with. An object in storage has its change stamp as mtime_ns
and, as its sha256, a fingerprint of the store's own metadata (ETag or version, and size:
newsclean.cleaners.readers.storage.object_fingerprint), so that no object is read to be
fingerprinted. An incremental run compares the current RAW_DIR with it to decide what to clean:

- a file whose size and mtime are unchanged keeps its recorded sha256 (no hashing: cheap);
  otherwise its bytes are hashed again, so a `touch` alone does not re-clean anything (an
  object's fingerprint is the listing's: a rewrite with the same bytes keeps its ETag);
- new or changed sources (sha256 differs), and sources whose corpus context changed, are cleaned;
- sources gone from RAW_DIR have their rows dropped;
- a different pipeline_version (code or settings) re-cleans everything.

The manifest goes live in the same atomic generation switch as the tables (newsclean.cleaners.store.commit),
so it always describes exactly the tables beside it.

The flow holds it as columns (Table: numpy arrays, scan_table, plan_table), never as an object per
source; Manifest/Entry (a dict of dataclasses) is the same content for small uses and tests,
read and written through Table.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from newsclean.cleaners.atomic import atomic_write_text
from newsclean.cleaners.readers import storage

MANIFEST = "manifest.json"
# 1: {"sources": {source: {"size", "mtime_ns", "sha256", "context"}}} (read, no longer written);
# 2: one list per field, "sources" sorted: {"sources": [...], "size": [...], "mtime_ns": [...], ...}
FORMAT = 2
_FIELDS = ("size", "mtime_ns", "sha256", "context")


@dataclass(frozen=True)
class Entry:
    size: int
    mtime_ns: int
    sha256: str
    context: str | None = None  # corpus-context fingerprint the rows were cleaned with


@dataclass
class Manifest:
    pipeline_version: str | None = None
    sources: dict[str, Entry] = field(default_factory=dict)

    def to_json(self) -> str:
        return Table.from_manifest(self).to_json()

    @classmethod
    def from_json(cls, text: str | bytes) -> "Manifest":
        return Table.from_json(text).to_manifest()


@dataclass
class Table:
    """The manifest as columns, one row per source, sorted by source: what a run holds for 100k+
    sources (numpy arrays: no object per source; the dict form, Manifest, is for small uses).
    sha256 b"" = the file could not be read; context b"" = none recorded."""

    pipeline_version: str | None
    sources: np.ndarray  # str, sorted, distinct
    size: np.ndarray  # int64
    mtime_ns: np.ndarray  # int64
    sha256: np.ndarray  # S64
    context: np.ndarray  # S16

    @classmethod
    def empty(cls, pipeline_version: str | None = None) -> "Table":
        return cls(pipeline_version, np.empty(0, dtype=str), np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64),
                   np.empty(0, dtype="S64"), np.empty(0, dtype="S16"))

    def __len__(self) -> int:
        return len(self.sources)

    @classmethod
    def from_columns(cls, pipeline_version, sources, size, mtime_ns, sha256, context) -> "Table":
        t = cls(pipeline_version, np.asarray(sources, dtype=str), np.asarray(size, dtype=np.int64),
                np.asarray(mtime_ns, dtype=np.int64), _bytes_column(sha256, "S64"), _bytes_column(context, "S16"))
        if len(t) > 1 and not np.all(t.sources[:-1] < t.sources[1:]):
            order = np.argsort(t.sources, kind="stable")
            t = cls(pipeline_version, t.sources[order], t.size[order], t.mtime_ns[order], t.sha256[order], t.context[order])
        return t

    @classmethod
    def from_manifest(cls, m: "Manifest") -> "Table":
        items = sorted(m.sources.items())
        return cls.from_columns(m.pipeline_version, [s for s, _ in items], [e.size for _, e in items],
                                [e.mtime_ns for _, e in items], [e.sha256 for _, e in items],
                                [e.context or "" for _, e in items])

    def to_manifest(self) -> "Manifest":
        return Manifest(self.pipeline_version, {s: self.entry(i) for i, s in enumerate(self.sources.tolist())})

    def entry(self, i: int) -> Entry:
        return Entry(int(self.size[i]), int(self.mtime_ns[i]), self.sha256[i].decode(), self.context[i].decode() or None)

    def index_of(self, sources: np.ndarray) -> np.ndarray:
        """Row of each of `sources` (a str array) in this table, -1 where it has none."""
        if not len(self):
            return np.full(len(sources), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.sources, sources), len(self) - 1)
        return np.where(self.sources[pos] == sources, pos, -1).astype(np.int64)

    def with_context(self, context) -> "Table":
        return Table(self.pipeline_version, self.sources, self.size, self.mtime_ns, self.sha256, _bytes_column(context, "S16"))

    def to_json(self) -> str:
        def text(col):
            return [v.decode() for v in col.tolist()]

        ctx = [v or None for v in text(self.context)]
        data = {"format": FORMAT, "pipeline_version": self.pipeline_version, "sources": self.sources.tolist(),
                "size": self.size.tolist(), "mtime_ns": self.mtime_ns.tolist(), "sha256": text(self.sha256), "context": ctx}
        return json.dumps(data, separators=(",", ":")) + "\n"

    @classmethod
    def from_json(cls, text: str | bytes) -> "Table":
        data = json.loads(text)  # not orjson: it builds its own document first, 4x the peak here
        if data.get("format") == 1:
            src = data.get("sources", {})
            names = sorted(src)
            cols = {f: [src[n].get(f) for n in names] for f in _FIELDS}
            if any(v is None for f in ("size", "mtime_ns", "sha256") for v in cols[f]):
                raise KeyError("manifest entry without size, mtime_ns or sha256")
            return cls.from_columns(data.get("pipeline_version"), names, cols["size"], cols["mtime_ns"], cols["sha256"],
                                    [c or "" for c in cols["context"]])
        if data.get("format") != FORMAT:
            return cls.empty()
        names = data["sources"]
        if not all(len(data[f]) == len(names) for f in _FIELDS):
            raise ValueError("manifest columns of different lengths")
        return cls.from_columns(data.get("pipeline_version"), names, data["size"], data["mtime_ns"], data["sha256"],
                                [c or "" for c in data["context"]])


def _bytes_column(values, dtype: str = "S") -> np.ndarray:
    """ASCII strings (hex digests) as a numpy bytes column, as wide as its longest value."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "S":
        return values
    col = np.array([v.encode() if isinstance(v, str) else (v or b"") for v in values], dtype=bytes)
    return col if len(col) else np.empty(0, dtype=dtype)


def load(out_dir: Path) -> Manifest:
    """The manifest of out_dir; an empty one when it is missing or unreadable (a full run follows)."""
    return load_table(out_dir).to_manifest()


def load_table(out_dir: Path) -> Table:
    """The manifest of out_dir as columns; an empty one when it is missing or unreadable."""
    path = Path(out_dir) / MANIFEST
    try:
        return Table.from_json(path.read_bytes())
    except (OSError, ValueError, TypeError, KeyError, AttributeError, UnicodeError):
        return Table.empty()


def save(manifest: "Manifest | Table", out_dir: Path) -> Path:
    path = Path(out_dir) / MANIFEST
    atomic_write_text(manifest.to_json(), path)
    return path


def sha256_stream(stream, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    while block := stream.read(chunk):
        h.update(block)
    return h.hexdigest()


def sha256_source(raw_dir: "str | Path", source: str) -> str:
    """The sha256 of a source's bytes, streamed (a local file, or an object in storage)."""
    with storage.open_bytes(raw_dir, source) as stream:
        return sha256_stream(stream)


def scan_table(raw_dir: "str | Path", sources: list[str], previous: Table) -> tuple[Table, int]:
    """Current size, mtime and sha256 of `sources` (sorted), and how many files had to be hashed:
    the previous sha256 is reused where size and mtime are unchanged. Context left empty. A source
    that cannot be stat'ed or read gets sha256 b"" (always "changed"): the cleaning step then
    quarantines it with the reader's reason. An object in storage has
    its size, change stamp and fingerprint from one listing of the prefix, in the sha256 column
    (newsclean.cleaners.readers.storage.object_fingerprint: from its ETag or version, never read);
    only an object whose store gives no such tag is hashed."""
    names = np.array(sources, dtype=str)
    n = len(names)
    size = np.full(n, -1, dtype=np.int64)
    mtime = np.full(n, -1, dtype=np.int64)
    sha = np.zeros(n, dtype="S64")
    prev = previous.index_of(names)
    hashed = 0
    for i, (source, st) in enumerate(zip(sources, storage.stats(raw_dir, sources))):
        if st is None:
            continue
        size[i], mtime[i], listed = st
        if listed is not None:
            sha[i] = listed.encode()
            continue
        j = prev[i]
        if j >= 0 and previous.size[j] == size[i] and previous.mtime_ns[j] == mtime[i] and previous.sha256[j]:
            sha[i] = previous.sha256[j]
            continue
        try:
            sha[i] = sha256_source(raw_dir, source).encode()
            hashed += 1
        except OSError:
            pass
    return Table(previous.pipeline_version, names, size, mtime, sha, np.zeros(n, dtype="S16")), hashed


@dataclass
class TablePlan:
    """What an incremental run does with each source: boolean masks over the current table's rows
    (the sources to clean; the others keep their rows), the deleted sources, and how many of each reason."""

    clean: np.ndarray  # bool over current rows
    deleted: np.ndarray  # str
    new: int = 0
    changed: int = 0
    context_changed: int = 0
    missing_rows: int = 0
    rechecked: int = 0
    full_reason: str | None = None

    @property
    def keep(self) -> np.ndarray:
        return ~self.clean

    def counts(self) -> dict:
        return {"sources_to_clean": int(self.clean.sum()), "sources_kept": int((~self.clean).sum()),
                "sources_deleted": len(self.deleted), "new": self.new, "changed": self.changed,
                "context_changed": self.context_changed, "missing_rows": self.missing_rows,
                "rechecked": self.rechecked, "full_reason": self.full_reason}


def plan_table(previous: Table, current: Table, pipeline_version: str, have_rows: np.ndarray | None = None,
               full: bool = False, recheck: np.ndarray | None = None) -> TablePlan:
    """Decide per source. A source is cleaned when it is new, its bytes changed (or it cannot be
    read: sha256 b""), its corpus context changed, it has no rows in the previous tables though
    the manifest lists it (`have_rows`: bool over the current rows; e.g. after a crash or a hand
    edit), or its outcome depends on other files (`recheck`: bool over the current rows; a copy
    quarantined because another file has the same bytes). Everything is cleaned on --full, without
    a previous manifest, or when the pipeline version changed (`full_reason` says which)."""
    gone = np.ones(len(previous), dtype=bool)
    prev = previous.index_of(current.sources)
    gone[prev[prev >= 0]] = False
    deleted = previous.sources[gone]
    reason = None
    if full:
        reason = "requested (--full)"
    elif not len(previous):
        reason = "no previous manifest"
    elif previous.pipeline_version != pipeline_version:
        reason = f"pipeline version changed ({previous.pipeline_version} -> {pipeline_version})"
    if reason:
        return TablePlan(np.ones(len(current), dtype=bool), deleted, new=len(current), full_reason=reason)
    known = prev >= 0
    j = np.where(known, prev, 0)
    new = ~known
    changed = known & ((current.sha256 == b"") | (current.sha256 != previous.sha256[j]))
    rest = known & ~changed
    context_changed = rest & (current.context != previous.context[j])
    rest &= ~context_changed
    missing = rest & ~have_rows if have_rows is not None else np.zeros(len(current), dtype=bool)
    rest &= ~missing
    rechecked = rest & recheck if recheck is not None else np.zeros(len(current), dtype=bool)
    clean = new | changed | context_changed | missing | rechecked
    return TablePlan(clean, deleted, new=int(new.sum()), changed=int(changed.sum()), context_changed=int(context_changed.sum()),
                     missing_rows=int(missing.sum()), rechecked=int(rechecked.sum()))
