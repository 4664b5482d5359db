"""The manifest of an OUT_DIR: what each source looked like when its rows were written.

OUT/manifest.json records, per source (a path relative to RAW_DIR): size, mtime_ns, the sha256 of
its bytes and the fingerprint of its corpus context (cleaners.corpus_context), plus the
pipeline_version the rows were cleaned with. An incremental run compares the current RAW_DIR with
it to decide what to clean:

- a source whose size and mtime are unchanged keeps its recorded sha256 (no hashing: cheap);
  otherwise its bytes are hashed again, so a `touch` alone does not re-clean anything;
- new or changed sources (sha256 differs), and sources whose corpus context changed, are cleaned;
- sources gone from RAW_DIR have their rows dropped;
- a different pipeline_version (code or settings) re-cleans everything.

The manifest goes live in the same atomic generation switch as the tables (cleaners.store.commit),
so it always describes exactly the tables beside it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cleaners.atomic import atomic_write_text

MANIFEST = "manifest.json"
FORMAT = 1


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
        return json.dumps({"format": FORMAT, "pipeline_version": self.pipeline_version,
                           "sources": {s: asdict(e) for s, e in sorted(self.sources.items())}},
                          indent=1, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> "Manifest":
        data = json.loads(text)
        if data.get("format") != FORMAT:
            return cls()
        return cls(data.get("pipeline_version"), {s: Entry(**e) for s, e in data.get("sources", {}).items()})


def load(out_dir: Path) -> Manifest:
    """The manifest of out_dir; an empty one when it is missing or unreadable (a full run follows)."""
    path = Path(out_dir) / MANIFEST
    try:
        return Manifest.from_json(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError, KeyError):
        return Manifest()


def save(manifest: Manifest, out_dir: Path) -> Path:
    path = Path(out_dir) / MANIFEST
    atomic_write_text(manifest.to_json(), path)
    return path


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(chunk):
            h.update(block)
    return h.hexdigest()


def scan(raw_dir: Path, sources: list[str], previous: Manifest) -> tuple[dict[str, Entry], int]:
    """Current entries (without context) for `sources`, and how many files had to be hashed.

    A source that cannot be stat'ed or read gets sha256 "" (always "changed"): the cleaning step
    then quarantines it with the reader's reason.
    """
    out: dict[str, Entry] = {}
    hashed = 0
    for source in sources:
        path = Path(raw_dir) / source
        try:
            st = path.stat()
        except OSError:
            out[source] = Entry(-1, -1, "")
            continue
        old = previous.sources.get(source)
        if old is not None and old.size == st.st_size and old.mtime_ns == st.st_mtime_ns and old.sha256:
            out[source] = Entry(st.st_size, st.st_mtime_ns, old.sha256)
            continue
        try:
            digest = sha256_file(path)
            hashed += 1
        except OSError:
            digest = ""
        out[source] = Entry(st.st_size, st.st_mtime_ns, digest)
    return out, hashed


@dataclass
class Plan:
    """What an incremental run does with each source."""

    clean: list[str]  # sorted; new + changed + context-changed (+ all when full)
    keep: list[str]  # rows carried over unchanged
    deleted: list[str]  # in the old manifest, gone from RAW_DIR
    new: int = 0
    changed: int = 0
    context_changed: int = 0
    missing_rows: int = 0
    rechecked: int = 0
    full_reason: str | None = None

    def counts(self) -> dict:
        return {"sources_to_clean": len(self.clean), "sources_kept": len(self.keep), "sources_deleted": len(self.deleted),
                "new": self.new, "changed": self.changed, "context_changed": self.context_changed,
                "missing_rows": self.missing_rows, "rechecked": self.rechecked, "full_reason": self.full_reason}


def plan(previous: Manifest, current: dict[str, Entry], pipeline_version: str,
         have_rows: set[str] | None = None, full: bool = False, recheck: set[str] | None = None) -> Plan:
    """Decide per source. `have_rows`: sources that have rows in the previous tables (a source the
    manifest lists but the tables lack, e.g. after a crash or a hand edit, is cleaned again).
    `recheck`: unchanged sources whose outcome depends on other files (a copy quarantined because
    another file has the same bytes): cleaned again too."""
    deleted = sorted(set(previous.sources) - set(current))
    reason = None
    if full:
        reason = "requested (--full)"
    elif not previous.sources:
        reason = "no previous manifest"
    elif previous.pipeline_version != pipeline_version:
        reason = f"pipeline version changed ({previous.pipeline_version} -> {pipeline_version})"
    if reason:
        return Plan(sorted(current), [], deleted, new=len(current), full_reason=reason)
    clean, keep = [], []
    p = Plan([], [], deleted)
    for source in sorted(current):
        cur, old = current[source], previous.sources.get(source)
        if old is None:
            p.new += 1
        elif not cur.sha256 or cur.sha256 != old.sha256:
            p.changed += 1
        elif cur.context != old.context:
            p.context_changed += 1
        elif have_rows is not None and source not in have_rows:
            p.missing_rows += 1
        elif recheck and source in recheck:
            p.rechecked += 1
        else:
            keep.append(source)
            continue
        clean.append(source)
    p.clean, p.keep = clean, keep
    return p
