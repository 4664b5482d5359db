"""Build OUT/report.html from a run's tables.

Reads articles.parquet, removed.parquet, quarantine.parquet and run.json from `out_dir` and the raw
documents from `raw_dir`, and renders one self-contained HTML file (inline CSS, JS and SVG; nothing
is loaded from the network) with Jinja2 and autoescaping: every piece of document text is escaped.

Scale: overview numbers, outliers and the quarantine list are computed from the whole tables, which
are read a few columns and one batch at a time (the articles' `text` column is never loaded). The
per-document view shows at most `max_docs` documents: the outliers plus a seeded random sample of the
rest. Memory is flat in the corpus size: per-document numbers (removed rows and words, kinds, share)
are numpy arrays over the articles' positions (~80 bytes per document in all), only the shown
documents' rows of articles.parquet and removed.parquet are read, the removed rows become dicts one
document at a time, and the page is streamed to its file.
"""
from __future__ import annotations

import inspect
import json
import math
import os
import re
import secrets
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Sequence

import jinja2
import markupsafe
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from newsclean.cleaners import language
from newsclean.cleaners.readers import storage
from newsclean.cleaners.types import KINDS
from newsclean.schemas.validate import string_array

N_OUTLIERS = 20
# Per-document cap on raw characters shown, and the total budget they share (keeps the file small).
MAX_DOC_CHARS = 60_000
MIN_DOC_CHARS = 4_000
TOTAL_CHARS_BUDGET = 8_000_000
# Quarantine list: every row up to this many (each is small); raw previews for the first few.
MAX_QUARANTINE_ROWS = 20_000
MAX_QUARANTINE_PREVIEWS = 100
PREVIEW_BYTES = 4_096
MAX_ERROR_CHARS = 600

_TEMPLATES = Path(__file__).parent / "templates"
_KIND_RE = re.compile(r"^[a-z][a-z0-9_]{0,40}$")
# Metadata fields whose coverage the overview reports, with the column naming where each came from.
_META_FIELDS = (("title", "title_source"), ("published", "published_source"),
                ("outlet", "outlet_source"), ("author", "author_source"), ("url", "url_source"))
_ARTICLE_COLUMNS = ("doc_id", "source", "title", "outlet", "outlet_domain", "outlet_source",
                    "published", "published_source", "author", "url", "n_words", "n_removed",
                    "pipeline_version", "cleaned_at", "title_source", "author_source", "language", "language_score",
                    "dup_cluster", "dup_similarity")


# --------------------------------------------------------------------------------------------------
# Raw lines


def _fallback_normalised_lines(raw_dir: Path, source: str) -> list[str]:
    return (Path(raw_dir) / source).read_text(encoding="utf-8", errors="replace").splitlines()


def _lines_reader(run: dict | None = None) -> Callable[[Path, str], list[str]]:
    """The pipeline's own normalisation when it exists, so offsets index the same lines; with the
    run's settings (from run.json) when it takes them, since settings can change normalisation."""
    try:
        from newsclean.cleaners.pipeline import normalised_lines_for  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - module missing or broken: the report must still render
        return _fallback_normalised_lines
    settings = _run_settings(run or {})
    if settings is None:
        return normalised_lines_for
    try:
        takes_settings = "settings" in inspect.signature(normalised_lines_for).parameters
    except (TypeError, ValueError):
        takes_settings = False
    if not takes_settings:
        return normalised_lines_for
    return lambda raw_dir, source: normalised_lines_for(raw_dir, source, settings=settings)


def _audit_lines(path: Path, doc_ids: set[str]) -> dict[str, list[str]]:
    """The normalised lines of these documents from the run's lines.parquet (the audit trail), a
    blank line where a number is missing; {} when the table is absent or holds none of them (the
    setting audit_lines off). Reading them here, not from RAW_DIR, keeps the report's cost bounded
    by the documents it shows: a record deep inside a big archive is not read past to be found."""
    if not doc_ids or not path.exists():
        return {}
    try:
        table = pq.read_table(path, columns=["doc_id", "line", "text"], filters=[("doc_id", "in", sorted(doc_ids))])
    except Exception:  # noqa: BLE001 - an older OUT_DIR or a damaged file: the raw text is read instead
        return {}
    out: dict[str, list[str]] = {}
    for doc_id, line, text in zip(*(table.column(c).to_pylist() for c in ("doc_id", "line", "text"))):
        lines = out.setdefault(doc_id, [])
        lines.extend([""] * (line - 1 - len(lines)))
        lines.append(text)
    return out


def _run_settings(run: dict) -> Any:
    raw = run.get("settings")
    if not isinstance(raw, dict):
        return None
    try:
        from newsclean.cleaners.settings import Settings

        return Settings(**{k: v for k, v in raw.items() if k in Settings.model_fields})
    except Exception:  # noqa: BLE001 - unknown or invalid settings: use the defaults
        return None


# --------------------------------------------------------------------------------------------------
# Spans -> segments


@dataclass
class Segment:
    text: str
    kind: str | None = None  # None: kept text
    css: str = ""
    note: str = ""  # hover text
    mismatch: bool = False


@dataclass
class Line:
    no: int
    segments: list[Segment]
    is_title: bool = False
    removed: bool = False  # the whole (non-blank) line is removed


def _squash(s: str) -> str:
    return " ".join(s.split())


def kind_css(kind: str) -> str:
    """A CSS class for a kind; kinds outside the known vocabulary share one class."""
    if kind in KINDS:
        return f"k-{kind}"
    return "k-other"


def segment_line(line: str, spans: Sequence[dict]) -> tuple[list[Segment], list[dict]]:
    """Split one normalised line into kept and removed segments.

    `spans` are dicts with start, end, kind, text (and optionally by). Offsets that do not fit the
    line are repaired by finding the recorded text in the line; overlaps are clipped (the earlier
    span wins). Returns the segments and the spans that could not be placed at all.
    """
    if not spans:  # most lines: kept whole
        return ([Segment(line)] if line else []), []
    placed: list[tuple[int, int, dict, bool]] = []
    unplaced: list[dict] = []
    for sp in spans:
        start, end = int(sp["start"]), int(sp["end"])
        text = sp.get("text") or ""
        if not (0 <= start < end <= len(line)):
            idx = line.find(text) if text else -1
            if idx < 0 and text:
                idx = _squash(line).find(_squash(text))
                if idx >= 0 and _squash(line) != line:
                    idx = -1  # positions in the squashed line do not index the line
            if idx < 0:
                unplaced.append(sp)
                continue
            start, end = idx, idx + len(text)
        mismatch = bool(text) and _squash(line[start:end]) != _squash(text)
        placed.append((start, end, sp, mismatch))
    placed.sort(key=lambda t: (t[0], -t[1]))
    segments: list[Segment] = []
    pos = 0
    for start, end, sp, mismatch in placed:
        start = max(start, pos)
        if start >= end:
            continue  # fully inside an earlier span
        if start > pos:
            segments.append(Segment(line[pos:start]))
        kind = str(sp["kind"])
        by = sp.get("by") or sp.get("rule")
        note = kind if not by else f"{kind} (by {by})"
        if mismatch:
            note += f" - recorded text differs: {sp.get('text')!r}"
        segments.append(Segment(line[start:end], kind, kind_css(kind), note, mismatch))
        pos = end
    if pos < len(line):
        segments.append(Segment(line[pos:]))
    return segments, unplaced


def lines_html(anchor: str, lines: list[Line]) -> markupsafe.Markup:
    """A document's raw lines as the report shows them: one <div> a line, its removed segments
    struck (<del>, with their kind and hover note). Written here rather than as a template loop:
    the loop's per-segment calls were half of a 500-document report's build."""
    esc = markupsafe.escape
    anchor = esc(anchor)
    out: list[str] = []
    for ln in lines:
        out.append(f'<div class="ln{" removed" if ln.removed else ""}{" title-line" if ln.is_title else ""}" '
                   f'id="{anchor}-L{ln.no}" data-n="{ln.no}">')
        for s in ln.segments:
            if s.kind:
                out.append(f'<del class="rm {esc(s.css)}{" mismatch" if s.mismatch else ""}" '
                           f'data-kind="{esc(s.kind)}" title="{esc(s.note)}">{esc(s.text)}</del>')
            else:
                out.append(esc(s.text))
        out.append("</div>\n")
    return markupsafe.Markup("".join(out))


# --------------------------------------------------------------------------------------------------
# Reading the run


def _read_run_json(out_dir: Path) -> dict:
    path = out_dir / "run.json"
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _lookup(run: dict, key: str) -> Any:
    """A key at the top of run.json or under its `counts`."""
    if key in run:
        return run[key]
    counts = run.get("counts")
    if isinstance(counts, dict) and key in counts:
        return counts[key]
    return None


def _as_int(v: Any) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _fmt_seconds(v: Any) -> str:
    try:
        s = float(v)
    except (TypeError, ValueError):
        return str(v)
    if s < 1:
        return f"{s * 1000:.0f} ms"
    if s < 120:
        return f"{s:.1f} s"
    m, s = divmod(s, 60)
    if m < 120:
        return f"{int(m)} min {s:.0f} s"
    h, m = divmod(m, 60)
    return f"{int(h)} h {int(m)} min"


def _flatten(d: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """{"a": {"b": 1}} -> [("a.b", 1)]"""
    if isinstance(d, dict) and d:
        out: list[tuple[str, Any]] = []
        for k, v in d.items():
            out.extend(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return [(prefix or "value", d)]


def _cell(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    if v is pd.NaT:
        return None
    if isinstance(v, (pd.Timestamp, datetime)):
        return v.isoformat()
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return v


def _removed_words(table: pa.Table) -> np.ndarray:
    if table.num_rows == 0 or "text" not in table.column_names:
        return np.zeros(table.num_rows, dtype=np.int64)
    # trimmed first: arrow splits "a " into ["a", ""] where str.split() gives ["a"]
    text = pc.utf8_trim_whitespace(pc.fill_null(table["text"], ""))
    n = pc.list_value_length(pc.utf8_split_whitespace(text)).to_numpy(zero_copy_only=False)
    return np.where(pc.equal(text, "").to_numpy(zero_copy_only=False), 0, n)


def _value_counts(arr: pa.Array) -> Counter:
    """Non-null values -> count."""
    vc = pc.value_counts(arr.drop_null())
    return Counter(dict(zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist())))


@dataclass
class RemovedSummary:
    """Counts over removed.parquet. Per-document statistics are arrays aligned with `ids` (the
    documents asked about, e.g. the articles' distinct doc_ids): no per-document Python objects."""

    n_rows: int
    kinds: Counter  # rows per kind
    whole: Counter | None  # whole-line rows per kind (None: the table has no whole_line column)
    ids: pa.Array  # distinct doc_ids (string) the arrays below are indexed by
    n_spans: np.ndarray  # int64 per id: removed rows
    words: np.ndarray  # int64 per id: removed words
    kind_names: list[str]  # the columns of kind_seen
    kind_seen: np.ndarray  # bool [id, kind]: the document has a row of that kind

    def kinds_at(self, i: int | None) -> list[str]:
        """Sorted kinds of the document at index i of `ids` (none for None)."""
        if i is None or not len(self.kind_names):
            return []
        return sorted(self.kind_names[j] for j in np.flatnonzero(self.kind_seen[i]))

    @property
    def per_doc(self) -> pd.DataFrame:
        """index doc_id: n_spans, removed_words (the documents with at least one row)."""
        has = self.n_spans > 0
        index = pd.Index(np.asarray(self.ids.to_pylist(), dtype=object)[has], name=None)
        return pd.DataFrame({"n_spans": self.n_spans[has], "removed_words": self.words[has]}, index=index)

    @property
    def kinds_per_doc(self) -> pd.Series:
        """doc_id -> sorted kinds (the documents with at least one row)."""
        ids = self.ids.to_pylist()
        return pd.Series({ids[i]: self.kinds_at(i) for i in np.flatnonzero(self.n_spans > 0)}, dtype=object)


REMOVED_BATCH_ROWS = 50_000


def _removed_batches(path: Path, columns: list[str] | None):
    """removed.parquet batch by batch: the report never holds all of it."""
    from newsclean.cleaners.store import iter_batches

    yield from iter_batches(path, columns, REMOVED_BATCH_ROWS)


def _removed_ids(path: Path) -> pa.Array:
    """The distinct non-null doc_ids of removed.parquet (streamed)."""
    parts = [pc.unique(string_array(b.column(0)).drop_null()) for b in _removed_batches(path, ["doc_id"])]
    return pc.unique(pa.concat_arrays(parts)) if parts else pa.array([], pa.string())


def _removed_summary(path: Path, ids: pa.Array | None = None) -> RemovedSummary:
    """Counts over removed.parquet, streamed batch by batch; per-document counts for `ids` (distinct
    doc_ids; default: every doc_id removed.parquet names). Rows of other documents count in the
    totals only. Null doc_ids and kinds count in n_rows only (pandas' group-by drops them)."""
    ids = _removed_ids(path) if ids is None else string_array(ids)
    n_ids = len(ids)
    n, kinds, whole, has_whole = 0, Counter(), Counter(), False
    spans = np.zeros(n_ids, np.int64)
    words = np.zeros(n_ids, np.int64)
    kind_names: list[str] = []
    kind_code: dict[str, int] = {}
    seen = np.zeros((n_ids, 0), dtype=bool)
    lookup = pc.SetLookupOptions(value_set=ids, skip_nulls=True)
    for batch in _removed_batches(path, ["doc_id", "kind", "whole_line", "text"]):
        table = pa.Table.from_batches([batch])
        m = table.num_rows
        n += m
        if not m:
            continue
        names = table.column_names
        kind = string_array(table["kind"]) if "kind" in names else pa.array(["?"] * m, pa.string())
        kinds.update(_value_counts(kind))
        if "whole_line" in names:
            has_whole = True
            is_whole = pc.fill_null(table["whole_line"].cast(pa.bool_()), False)
            whole.update(_value_counts(pc.filter(kind, is_whole)))
        if not n_ids or "doc_id" not in names:
            continue
        at = pc.index_in(string_array(table["doc_id"]), options=lookup)
        at = pc.fill_null(at, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        sel = at >= 0
        if not sel.any():
            continue
        doc = at[sel]
        spans += np.bincount(doc, minlength=n_ids)
        words += np.bincount(doc, weights=_removed_words(table)[sel], minlength=n_ids).astype(np.int64)
        enc = pc.dictionary_encode(kind.filter(pa.array(sel)))
        codes = []
        for k in enc.dictionary.to_pylist():
            if k not in kind_code:
                kind_code[k] = len(kind_names)
                kind_names.append(k)
            codes.append(kind_code[k])
        if seen.shape[1] < len(kind_names):
            seen = np.hstack([seen, np.zeros((n_ids, len(kind_names) - seen.shape[1]), dtype=bool)])
        idx = enc.indices
        valid = idx.is_valid().to_numpy(zero_copy_only=False)
        idx = pc.fill_null(idx, 0).to_numpy(zero_copy_only=False)
        if len(codes):
            seen[doc[valid], np.asarray(codes, np.int64)[idx[valid]]] = True
    return RemovedSummary(n, kinds, whole if has_whole else None, ids, spans, words, kind_names, seen)


def _removed_table_of(path: Path, doc_ids: set[str]) -> pa.Table | None:
    """The removed rows of a few documents (in table order), streamed; None when there are none."""
    value_set = pa.array(sorted(doc_ids), pa.string())
    parts = []
    for batch in _removed_batches(path, None):
        table = pa.Table.from_batches([batch])
        part = table.filter(pc.is_in(table["doc_id"].cast(pa.string()), value_set=value_set))
        if part.num_rows:
            parts.append(part)
    return pa.concat_tables(parts) if parts else None


def _removed_rows_of(path: Path, doc_ids: set[str]) -> list[dict]:
    """The removed rows of a few documents, streamed."""
    table = _removed_table_of(path, doc_ids)
    return table.to_pylist() if table is not None else []


class _SpansOf:
    """doc_id -> that document's removed rows as dicts (in table order), made when asked for: the
    shown documents' rows stay one arrow table, not ~100k dicts held through the whole report."""

    def __init__(self, table: pa.Table | None):
        self.table, self.rows_of = table, {}
        if table is None or not table.num_rows:
            return
        # one chunk: a take from a table of many batches' chunks costs ~1 ms a document
        self.table = table = table.combine_chunks()
        ids = pc.dictionary_encode(string_array(table["doc_id"]))
        codes = ids.indices.to_numpy(zero_copy_only=False)
        order = np.argsort(codes, kind="stable")
        bounds = np.searchsorted(codes[order], np.arange(len(ids.dictionary) + 1))
        self.rows_of = {d: order[bounds[k]:bounds[k + 1]] for k, d in enumerate(ids.dictionary.to_pylist())}

    def get(self, doc_id: str) -> list[dict]:
        at = self.rows_of.get(doc_id)
        if at is None or not len(at):
            return []
        return self.table.take(pa.array(at)).to_pylist()


# --------------------------------------------------------------------------------------------------
# Report model


@dataclass
class DocView:
    anchor: str
    doc_id: str
    source: str
    meta: list[dict]  # {name, value, source}
    n_words: int
    n_spans: int
    removed_words: int
    share: float
    kinds: list[str]
    lines: list[Line] = field(default_factory=list)
    unplaced: list[dict] = field(default_factory=list)
    error: str | None = None
    truncated_at: int | None = None
    n_lines: int = 0
    is_outlier: bool = False
    prev: str | None = None
    next: str | None = None
    title: str | None = None
    clean_text: str | None = None  # shown when the raw text cannot be read


ARTICLE_BATCH_ROWS = 8_192


def _article_batches(path: Path, columns: list[str] | None):
    """A table's named columns (articles.parquet's; quarantine's), batch by batch: bounded memory at
    any row-group size."""
    from newsclean.cleaners.store import iter_batches

    yield from iter_batches(path, columns, ARTICLE_BATCH_ROWS)


def _coverage(path: Path, names: list[str], n: int) -> list[dict]:
    """Metadata coverage over the whole articles table, read batch by batch and only the metadata
    columns: per field the rows that have it and, where a column names where each value came from,
    those rows by origin (most first; ties in order of first appearance, as pandas' value_counts)."""
    fields = [(name, src) for name, src in _META_FIELDS if name in names]
    if not fields:
        return []
    cols = list(dict.fromkeys(c for name, src in fields for c in (name, src) if c in names))
    have = {name: 0 for name, _ in fields}
    by_source: dict[str, dict[str, int]] = {name: {} for name, _ in fields}
    for batch in _article_batches(path, cols):
        df = batch.to_pandas()
        for name, src_col in fields:
            col = df[name]
            has = col.notna()
            if col.dtype == object:
                has &= col.astype(str).str.strip().ne("")
            k = int(has.sum())
            have[name] += k
            if src_col in names and k:
                acc = by_source[name]
                for s, c in df.loc[has, src_col].fillna("(unknown)").astype(str).value_counts(sort=False).items():
                    acc[s] = acc.get(s, 0) + int(c)
    rows = []
    for name, src_col in fields:
        k = have[name]
        sources = []
        if src_col in names and k:
            ranked = sorted(by_source[name].items(), key=lambda kv: -kv[1])  # stable: ties keep first appearance
            sources = [{"name": s, "n": c, "share": c / k} for s, c in ranked]
        rows.append({"field": name, "n": k, "share": (k / n) if n else 0.0, "sources": sources,
                     "has_source_column": src_col in names})
    return rows


def _bar_chart(by_kind: list[tuple[str, int]], whole: Counter | None = None) -> dict:
    """Horizontal bars, one per kind; when `whole` (whole-line removals per kind) is known, each bar
    is split into whole lines (solid) and spans inside a kept line (light)."""
    width, label_w, count_w, row_h = 640, 150, 170, 24
    bar_w = width - label_w - count_w
    top = max((n for _, n in by_kind), default=0)
    bars = []
    for i, (kind, n) in enumerate(by_kind):
        w = 0 if top == 0 else max(1, round(bar_w * n / top)) if n else 0
        n_whole = None if whole is None else int(whole.get(kind, 0))
        w_whole = w if n_whole is None or n == 0 else round(w * n_whole / n)
        label = str(n) if n_whole is None else f"{n}  ({n_whole} lines, {n - n_whole} spans)"
        bars.append({"kind": kind, "n": n, "css": kind_css(kind), "y": i * row_h, "w": w,
                     "w_whole": w_whole, "n_whole": n_whole, "label": label,
                     "label_x": label_w - 8, "bar_x": label_w, "count_x": label_w + w + 6})
    return {"width": width, "height": max(row_h, row_h * len(by_kind)), "row_h": row_h,
            "bars": bars, "split": whole is not None}


def _sample(n: int, chosen: list[int], max_docs: int, seed: int) -> tuple[list[int], bool]:
    """Row positions to show: every outlier (`chosen`, positions), then a seeded random sample of
    the rest."""
    if n <= max_docs:
        return list(range(n)), False
    chosen = chosen[:max_docs]
    rest_n = max(0, max_docs - len(chosen))
    mask = np.ones(n, dtype=bool)
    mask[chosen] = False
    rest = np.flatnonzero(mask)
    rng = np.random.default_rng(seed)
    picked = rng.choice(rest, size=min(rest_n, len(rest)), replace=False) if rest_n else []
    return sorted(set(chosen) | {int(i) for i in picked}), True


def _take_rows(path: Path, columns: list[str], positions: list[int]) -> pd.DataFrame:
    """The rows at `positions` (sorted, distinct) of articles.parquet, read batch by batch: only a
    few hundred rows are ever held, whatever the table's size."""
    want = np.asarray(positions, dtype=np.int64)
    parts, offset = [], 0
    for batch in _article_batches(path, columns):
        lo, hi = np.searchsorted(want, [offset, offset + batch.num_rows])
        if hi > lo:
            parts.append(pa.Table.from_batches([batch.take(pa.array(want[lo:hi] - offset))]))
        offset += batch.num_rows
    if not parts:
        return pd.DataFrame(columns=columns)
    return pa.concat_tables(parts).to_pandas().reset_index(drop=True)


def _anchor(doc_id: str, i: int) -> str:
    safe = re.sub(r"[^A-Za-z0-9_-]", "", str(doc_id))[:40]
    return f"doc-{safe}" if safe else f"doc-n{i}"


def _meta_rows(row: dict) -> list[dict]:
    out = []
    for name, src_col in (("title", "title_source"), ("published", "published_source"),
                          ("outlet", "outlet_source"), ("outlet_domain", None),
                          ("author", "author_source"), ("url", "url_source")):
        if name not in row:
            continue
        val = _cell(row.get(name))
        if isinstance(val, str) and not val.strip():
            val = None
        src = _cell(row.get(src_col)) if src_col else None
        out.append({"name": name, "value": val, "source": src})
    return out


def _quarantine_preview(raw_dir: str | Path, source: str) -> str | None:
    try:
        if not storage.is_file(raw_dir, str(source)):
            return None
        with storage.open_bytes(raw_dir, str(source)) as fh:
            data = fh.read(PREVIEW_BYTES + 1)
    except OSError:
        return None
    more = len(data) > PREVIEW_BYTES
    text = data[:PREVIEW_BYTES].decode("utf-8", errors="replace")
    return text + ("\n…" if more else "")


def _render_doc_lines(doc: DocView, lines: list[str], spans: list[dict], title: str | None,
                      max_chars: int) -> None:
    by_line: dict[int, list[dict]] = {}
    for sp in spans:
        by_line.setdefault(int(sp["line"]), []).append(sp)
    doc.n_lines = len(lines)
    title_sq = _squash(title) if title else None
    used = 0
    title_marked = False
    for no, text in enumerate(lines, start=1):
        if used >= max_chars:
            doc.truncated_at = no - 1
            break
        segs, unplaced = segment_line(text, by_line.pop(no, ()))
        doc.unplaced.extend(unplaced)
        removed = any(s.kind for s in segs) and bool(text.strip()) \
            and all(s.kind or not s.text.strip() for s in segs)
        is_title = False
        # squashing only shortens a line: a shorter one cannot squash to the title
        if (title_sq and not title_marked and len(text) >= len(title_sq) and not any(s.kind for s in segs)
                and _squash(text) == title_sq):
            is_title = title_marked = True
        doc.lines.append(Line(no, segs, is_title, removed))
        used += len(text) + 1
    # spans on lines past the end (or past the truncation) are listed below the text
    for no in sorted(by_line):
        if doc.truncated_at is not None and no > doc.truncated_at:
            continue  # not shown, but not wrong either
        doc.unplaced.extend(by_line[no])


def _attach_clean_text(path: Path, docs: list[DocView], max_chars: int) -> None:
    """For documents whose raw text cannot be read, read their clean text (those rows only)."""
    if not docs or not path.exists() or "text" not in pq.read_schema(path).names:
        return
    ids = [d.doc_id for d in docs]
    try:
        tbl = pq.read_table(path, columns=["doc_id", "text"], filters=[("doc_id", "in", ids)])
    except Exception:  # noqa: BLE001 - a report without it is still a report
        return
    text_of = dict(zip(tbl["doc_id"].to_pylist(), tbl["text"].to_pylist()))
    for d in docs:
        t = text_of.get(d.doc_id)
        if isinstance(t, str):
            d.clean_text = t if len(t) <= max_chars else t[:max_chars] + "\n…"


N_CLUSTERS = 10  # the largest near-duplicate clusters shown
MAX_CLUSTER_MEMBERS = 12  # members listed per cluster (outlets are counted over all of them)


def _languages(path: Path, names: list[str], n: int) -> list[dict]:
    """Articles per language over the whole table (the `language` column, batch by batch), and
    whether the cleaner's language-bound rule sets read each (newsclean.cleaners.language.rule_sets)."""
    if "language" not in names or not n:
        return []
    counts: Counter = Counter()
    for batch in _article_batches(path, ["language"]):
        counts.update(_value_counts(batch.column(0)))
        counts[None] += batch.column(0).null_count
    counts = Counter({k: v for k, v in counts.items() if v})
    return [{"language": "none" if lang is None else str(lang), "n": int(k), "share": k / n, **language.rule_sets(lang)}
            for lang, k in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))]


def _largest_clusters(path: Path, names: list[str], anchor_of: dict[str, str]) -> tuple[list[dict], int, int]:
    """The N_CLUSTERS largest near-duplicate clusters (two or more articles), each with its
    representative, size, outlets (over every member) and its first members; and the number of
    such clusters and of the articles in them. Two passes over a few columns: the cluster sizes,
    then the rows of the largest clusters only."""
    if "dup_cluster" not in names:
        return [], 0, 0
    sizes: Counter = Counter()
    for batch in _article_batches(path, ["dup_cluster"]):
        sizes.update(_value_counts(batch.column(0)))
    multi = {c: k for c, k in sizes.items() if c is not None and k > 1}
    top = sorted(multi.items(), key=lambda kv: (-kv[1], str(kv[0])))[:N_CLUSTERS]
    if not top:
        return [], 0, 0
    wanted = pa.array([c for c, _ in top], pa.string())
    cols = [c for c in ("doc_id", "source", "title", "outlet", "outlet_domain", "published", "dup_cluster",
                        "dup_similarity", "language") if c in names]
    members: dict[str, list[dict]] = {c: [] for c, _ in top}
    for batch in _article_batches(path, cols):
        hit = pc.fill_null(pc.is_in(batch.column(cols.index("dup_cluster")), value_set=wanted), False)
        for row in batch.filter(hit).to_pylist():
            members[row["dup_cluster"]].append(row)
    clusters = []
    for cluster, size in top:
        rows = sorted(members[cluster], key=lambda r: (r["doc_id"] != cluster, -(r.get("dup_similarity") or 0), str(r["source"])))
        outlets = Counter(r.get("outlet") or r.get("outlet_domain") or "(unknown outlet)" for r in rows)
        rep = rows[0] if rows else {"doc_id": cluster, "source": "", "title": None}
        clusters.append({
            "representative": rep["doc_id"], "source": rep.get("source"), "title": rep.get("title"), "size": size,
            "anchor": anchor_of.get(rep["doc_id"]),
            "outlets": sorted(outlets.items(), key=lambda kv: (-kv[1], kv[0])),
            "members": [{"doc_id": r["doc_id"], "source": r["source"], "outlet": r.get("outlet") or r.get("outlet_domain"),
                         "published": None if r.get("published") is None else str(r["published"]),
                         "similarity": r.get("dup_similarity"), "anchor": anchor_of.get(r["doc_id"])}
                        for r in rows[:MAX_CLUSTER_MEMBERS]],
        })
    return clusters, len(multi), int(sum(multi.values()))


def build_report(out_dir: Path, raw_dir: str | Path, *, max_docs: int = 500, seed: int = 0) -> Path:
    """Write out_dir/report.html (atomically) and return its path. RAW_DIR: a folder or a URL of
    objects (newsclean.cleaners.readers.storage)."""
    out_dir, raw_dir = Path(out_dir), storage.plain(raw_dir)
    t0 = datetime.now(timezone.utc)
    run = _read_run_json(out_dir)

    # The whole tables are only ever read a few columns and a batch at a time: per-document numbers
    # are numpy arrays over the articles' positions, and only the shown documents' rows are read.
    art_path = out_dir / "articles.parquet"
    art_exists = art_path.exists()
    art_cols = [c for c in _ARTICLE_COLUMNS if c in pq.read_schema(art_path).names] if art_exists else []
    n_articles = pq.ParquetFile(art_path).metadata.num_rows if art_exists else 0
    # each article's index into the distinct doc_ids (-1: none), the ids the removed stats are kept for
    ids = pa.array([], pa.string())
    art_at = np.full(n_articles, -1, dtype=np.int64)
    if "doc_id" in art_cols and n_articles:
        art_ids = string_array(pa.chunked_array([b.column(0) for b in _article_batches(art_path, ["doc_id"])]))
        ids = pc.unique(art_ids.drop_null())
        at = pc.index_in(art_ids, options=pc.SetLookupOptions(value_set=ids, skip_nulls=True))
        art_at = pc.fill_null(at, -1).to_numpy(zero_copy_only=False).astype(np.int64)
        del art_ids, at

    removed = _removed_summary(out_dir / "removed.parquet", ids)

    q_path = out_dir / "quarantine.parquet"
    if q_path.exists():
        n_quarantine = pq.ParquetFile(q_path).metadata.num_rows
        q_names = pq.read_schema(q_path).names
        q_parts, q_got = [], 0
        for batch in _article_batches(q_path, None):
            if q_got >= MAX_QUARANTINE_ROWS:
                break
            q_parts.append(batch.slice(0, MAX_QUARANTINE_ROWS - q_got))
            q_got += q_parts[-1].num_rows
        q_head = pa.Table.from_batches(q_parts).to_pandas() if q_parts \
            else pq.read_table(q_path).to_pandas()
        q_stage = pq.read_table(q_path, columns=["stage"]).to_pandas()["stage"] if "stage" in q_names else None
    else:
        n_quarantine, q_head, q_stage = 0, pd.DataFrame(columns=["source", "stage", "error"]), None

    # ---- overview counts
    docs_read = _as_int(_lookup(run, "docs_read"))
    docs_cleaned = _as_int(_lookup(run, "docs_cleaned"))
    docs_quar = _as_int(_lookup(run, "docs_quarantined"))
    counts = {
        "read": docs_read if docs_read is not None else n_articles + n_quarantine,
        "cleaned": docs_cleaned if docs_cleaned is not None else n_articles,
        "quarantined": docs_quar if docs_quar is not None else n_quarantine,
    }
    table_counts = {"articles": n_articles, "quarantine": n_quarantine,
                    "removed": removed.n_rows}
    # An incremental run cleans only new or changed sources and carries the other rows over: the run's
    # counts then cover this run, the tables the whole corpus.
    incremental = _lookup(run, "incremental")
    carried_raw = incremental.get("rows_carried") if isinstance(incremental, dict) else None
    carried = {k: _as_int(carried_raw.get(k)) or 0 for k in ("articles", "quarantine", "removed")} \
        if isinstance(carried_raw, dict) else {"articles": 0, "quarantine": 0, "removed": 0}
    count_notes = []
    if docs_cleaned is not None and docs_cleaned + carried["articles"] != n_articles:
        count_notes.append(f"run.json says {docs_cleaned} cleaned (+{carried['articles']} carried over); "
                           f"articles.parquet holds {n_articles} rows.")
    if docs_quar is not None and docs_quar + carried["quarantine"] != n_quarantine:
        count_notes.append(f"run.json says {docs_quar} quarantined (+{carried['quarantine']} carried over); "
                           f"quarantine.parquet holds {n_quarantine} rows.")

    kind_counts = removed.kinds
    run_by_kind = _lookup(run, "removed_by_kind")
    if not isinstance(run_by_kind, dict):
        lines_rm, spans_rm = _lookup(run, "lines_removed"), _lookup(run, "spans_removed")
        if isinstance(lines_rm, dict) or isinstance(spans_rm, dict):
            run_by_kind = Counter()
            for part in (lines_rm, spans_rm):
                if isinstance(part, dict):
                    run_by_kind.update({str(k): _as_int(v) or 0 for k, v in part.items()})
            run_by_kind = dict(run_by_kind)
    if isinstance(run_by_kind, dict):
        run_by_kind = {str(k): _as_int(v) or 0 for k, v in run_by_kind.items()}
        if carried["removed"]:
            if sum(run_by_kind.values()) + carried["removed"] != removed.n_rows:
                count_notes.append(f"run.json counts {sum(run_by_kind.values())} removals this run "
                                   f"(+{carried['removed']} carried over); removed.parquet holds {removed.n_rows} rows.")
        elif {k: v for k, v in run_by_kind.items() if v} != {k: v for k, v in kind_counts.items() if v}:
            count_notes.append("run.json's removed_by_kind differs from removed.parquet "
                               f"({json.dumps(run_by_kind, sort_keys=True)}); the chart shows removed.parquet.")
    ordered_kinds = [k for k in KINDS if kind_counts.get(k)] + sorted(k for k in kind_counts if k not in KINDS)
    by_kind = [(k, int(kind_counts[k])) for k in ordered_kinds]
    chart = _bar_chart(by_kind, removed.whole)

    durations_raw = _lookup(run, "durations")
    if durations_raw is None:
        durations_raw = _lookup(run, "durations_s")
    durations: list[tuple[str, str]] = []
    if isinstance(durations_raw, dict):
        durations = [(k, _fmt_seconds(v)) for k, v in _flatten(durations_raw)]
    elif durations_raw is not None:
        durations = [("total", _fmt_seconds(durations_raw))]
    for key in ("duration_s", "duration", "elapsed_s"):
        v = _lookup(run, key)
        if v is not None and not durations:
            durations = [("total", _fmt_seconds(v))]
    versions_raw = _lookup(run, "versions")
    versions = [(k, str(v)) for k, v in _flatten(versions_raw)] if isinstance(versions_raw, dict) else []
    if _lookup(run, "pipeline_version") is not None and "pipeline_version" not in dict(versions):
        versions.insert(0, ("pipeline_version", str(_lookup(run, "pipeline_version"))))
    if _lookup(run, "started_at") is not None:
        durations.insert(0, ("started at", str(_lookup(run, "started_at"))))
    if not versions and "pipeline_version" in art_cols and n_articles:
        seen_versions: set[str] = set()
        for batch in _article_batches(art_path, ["pipeline_version"]):
            seen_versions.update(batch.to_pandas()["pipeline_version"].dropna().astype(str).unique())
        versions = [("pipeline_version", v) for v in sorted(seen_versions)[:5]]

    # ---- per-document stats over the whole corpus
    known = art_at >= 0
    safe_at = np.where(known, art_at, 0)
    n_spans = np.where(known, removed.n_spans[safe_at], 0).astype(np.int64) if len(ids) else np.zeros(n_articles, np.int64)
    rw = np.where(known, removed.words[safe_at], 0).astype(np.int64) if len(ids) else np.zeros(n_articles, np.int64)
    del safe_at, known
    if "n_words" in art_cols and n_articles:
        n_words_col = pq.read_table(art_path, columns=["n_words"]).to_pandas()["n_words"]
        n_words = pd.to_numeric(n_words_col, errors="coerce").fillna(0).astype(np.int64).to_numpy()
        del n_words_col
    else:
        n_words = np.zeros(n_articles, np.int64)
    denom = rw + n_words
    share = np.divide(rw, denom, out=np.zeros(n_articles, dtype=float), where=denom > 0)

    order = np.lexsort((-n_spans, -share))  # largest share first, then most spans
    outlier_pos = [int(i) for i in order[:N_OUTLIERS] if share[i] > 0 or n_spans[i] > 0]
    del order
    # an outlier's id stands for the last row with that id (ids are unique in a valid table)
    chosen = [int(np.flatnonzero(art_at == art_at[i])[-1]) for i in outlier_pos if art_at[i] >= 0] \
        if n_articles > max(1, int(max_docs)) else []
    shown_pos, sampled = _sample(n_articles, chosen, max(1, int(max_docs)), seed)

    # ---- the rows of the shown documents and the outliers only
    take = sorted(set(shown_pos) | set(outlier_pos))
    articles = _take_rows(art_path, art_cols, take) if art_exists else pd.DataFrame(columns=["doc_id", "source"])
    for c in ("doc_id", "source"):
        if c not in articles.columns:
            articles[c] = pd.Series(dtype=object)
    sel = np.asarray(take, dtype=np.int64)
    articles["_n_spans"], articles["_rw"], articles["_share"], articles["_n_words"] = \
        n_spans[sel], rw[sel], share[sel], n_words[sel]
    articles["_at"] = art_at[sel]
    row_of = {p: k for k, p in enumerate(take)}
    outlier_ids = [str(articles.at[row_of[i], "doc_id"]) for i in outlier_pos]

    shown = articles.iloc[[row_of[p] for p in shown_pos]].copy()
    shown["_src_sort"] = shown["source"].astype(str)
    shown = shown.sort_values(["_src_sort", "doc_id"], kind="stable")
    outlier_set = set(outlier_ids)

    # ---- removed rows of the shown documents only
    shown_ids = set(shown["doc_id"].astype(str))
    spans_of = _SpansOf(_removed_table_of(out_dir / "removed.parquet", shown_ids)
                        if removed.n_rows and shown_ids else None)

    read_lines = _lines_reader(run)
    audit = _audit_lines(out_dir / "lines.parquet", shown_ids)
    per_doc_chars = max(MIN_DOC_CHARS, min(MAX_DOC_CHARS, TOTAL_CHARS_BUDGET // max(1, len(shown))))
    docs: list[DocView] = []
    n_mismatch = 0
    n_unplaced = 0
    for i, row in enumerate(shown.to_dict("records")):
        doc_id = str(row["doc_id"])
        kinds = removed.kinds_at(int(row["_at"]) if row["_at"] >= 0 else None)
        title = _cell(row.get("title"))
        doc = DocView(anchor=_anchor(doc_id, i), doc_id=doc_id, source=str(row["source"]),
                      meta=_meta_rows(row), n_words=int(row["_n_words"]), n_spans=int(row["_n_spans"]),
                      removed_words=int(row["_rw"]), share=float(row["_share"]), kinds=kinds,
                      is_outlier=doc_id in outlier_set, title=title if isinstance(title, str) else None)
        spans = sorted(spans_of.get(doc_id), key=lambda r: (int(r["line"]), int(r["start"])))
        try:
            lines = audit[doc_id] if doc_id in audit else read_lines(raw_dir, doc.source)
        except Exception as exc:  # noqa: BLE001 - show why instead of failing the report
            doc.error = f"raw text unavailable: {type(exc).__name__}: {exc}"[:MAX_ERROR_CHARS]
            doc.unplaced = spans
        else:
            _render_doc_lines(doc, list(lines), spans, doc.title, per_doc_chars)
            if doc.unplaced:
                n_unplaced += len(doc.unplaced)
        n_mismatch += sum(1 for ln in doc.lines for s in ln.segments if s.mismatch)
        docs.append(doc)
    for a, b in zip(docs, docs[1:]):
        a.next, b.prev = b.anchor, a.anchor
    _attach_clean_text(out_dir / "articles.parquet", [d for d in docs if d.error], per_doc_chars)

    anchor_of = {d.doc_id: d.anchor for d in docs}
    outliers = []
    for i in outlier_pos:
        r = articles.iloc[row_of[i]]
        title = _cell(r.get("title")) if "title" in articles.columns else None
        outliers.append({"doc_id": str(r["doc_id"]), "source": str(r["source"]), "title": title,
                         "share": float(r["_share"]), "n_spans": int(r["_n_spans"]),
                         "removed_words": int(r["_rw"]), "n_words": int(r["_n_words"]),
                         "anchor": anchor_of.get(str(r["doc_id"])),
                         "kinds": removed.kinds_at(int(r["_at"]) if int(r["_at"]) >= 0 else None)})

    q_rows = []
    q_records = q_head.head(MAX_QUARANTINE_ROWS).to_dict("records")
    for j, r in enumerate(q_records):
        err = _cell(r.get("error"))
        err = "" if err is None else str(err)
        q_rows.append({"source": str(_cell(r.get("source"))), "stage": _cell(r.get("stage")),
                       "doc_id": _cell(r.get("doc_id")),
                       "error": err[:MAX_ERROR_CHARS] + ("…" if len(err) > MAX_ERROR_CHARS else ""),
                       "preview": _quarantine_preview(raw_dir, str(r.get("source")))
                       if j < MAX_QUARANTINE_PREVIEWS else None})
    q_by_stage = q_stage.fillna("(none)").astype(str).value_counts().items() \
        if q_stage is not None and n_quarantine else []

    kinds_shown = Counter(k for d in docs for ln in d.lines for s in ln.segments if s.kind for k in [s.kind])
    filter_kinds = [(k, kinds_shown.get(k, 0)) for k in ordered_kinds]

    clusters, n_clusters, n_in_clusters = _largest_clusters(art_path, art_cols, anchor_of) if art_exists else ([], 0, 0)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda x, d=1: f"{100 * float(x):.{d}f}%"
    template = env.get_template("report.html.j2")
    context = dict(
        title=f"newsclean report: {out_dir.name}",
        out_dir=str(out_dir), raw_dir=str(raw_dir),
        generated_at=t0.strftime("%Y-%m-%d %H:%M:%S UTC"),
        counts=counts, table_counts=table_counts, count_notes=count_notes, carried=carried,
        chart=chart, by_kind=by_kind, n_removed_total=removed.n_rows,
        coverage=_coverage(art_path, art_cols, n_articles) if art_exists else [], n_articles=n_articles,
        durations=durations, versions=versions,
        run_json=json.dumps(run, indent=2, sort_keys=True, default=str)[:50_000],
        outliers=outliers, n_outliers=N_OUTLIERS,
        clusters=clusters, n_clusters=n_clusters, n_in_clusters=n_in_clusters, n_clusters_shown=N_CLUSTERS,
        languages=_languages(art_path, art_cols, n_articles) if art_exists else [],
        english_only_rules=language.ENGLISH_ONLY_RULES, cue_rule_languages=language.CUE_LANGUAGES,
        quarantine=q_rows, n_quarantine=n_quarantine, q_by_stage=list(q_by_stage),
        q_truncated=n_quarantine > MAX_QUARANTINE_ROWS, max_q_rows=MAX_QUARANTINE_ROWS,
        docs=docs, sampled=sampled, max_docs=max_docs, seed=seed,
        n_outliers_shown=sum(1 for d in docs if d.is_outlier),
        filter_kinds=filter_kinds, kind_css=kind_css, lines_html=lines_html, known_kinds=KINDS,
        n_mismatch=n_mismatch, n_unplaced=n_unplaced, per_doc_chars=per_doc_chars,
        nonce=secrets.token_urlsafe(18),
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    final = out_dir / "report.html"
    tmp = out_dir / f".report.html.{os.getpid()}.tmp"
    try:
        # streamed to the file piece by piece (the same text as render()): the ~30 MB page is never
        # held whole, nor its list of pieces, nor its encoded copy
        with tmp.open("w", encoding="utf-8") as fh:
            for piece in template.generate(**context):
                fh.write(piece)
        os.replace(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()
    return final
