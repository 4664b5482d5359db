"""Build OUT/report.html from a run's tables.

Reads articles.parquet, removed.parquet, quarantine.parquet and run.json from `out_dir` and the raw
documents from `raw_dir`, and renders one self-contained HTML file (inline CSS, JS and SVG; nothing
is loaded from the network) with Jinja2 and autoescaping: every piece of document text is escaped.

Scale: overview numbers, outliers and the quarantine list are computed from the whole tables, which
are read column by column (the articles' `text` column is never loaded). The per-document view shows
at most `max_docs` documents: the outliers plus a seeded random sample of the rest.
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
from typing import Any, Callable, Iterable

import jinja2
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from cleaners.types import KINDS

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
                    "pipeline_version", "cleaned_at", "title_source")


# --------------------------------------------------------------------------------------------------
# Raw lines


def _fallback_normalised_lines(raw_dir: Path, source: str) -> list[str]:
    return (Path(raw_dir) / source).read_text(encoding="utf-8", errors="replace").splitlines()


def _lines_reader(run: dict | None = None) -> Callable[[Path, str], list[str]]:
    """The pipeline's own normalisation when it exists, so offsets index the same lines; with the
    run's settings (from run.json) when it takes them, since settings can change normalisation."""
    try:
        from cleaners.pipeline import normalised_lines_for  # type: ignore[attr-defined]
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


def _run_settings(run: dict) -> Any:
    raw = run.get("settings")
    if not isinstance(raw, dict):
        return None
    try:
        import dataclasses

        from cleaners.settings import Settings

        known = {f.name for f in dataclasses.fields(Settings)}
        return Settings(**{k: v for k, v in raw.items() if k in known})
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


def segment_line(line: str, spans: Iterable[dict]) -> tuple[list[Segment], list[dict]]:
    """Split one normalised line into kept and removed segments.

    `spans` are dicts with start, end, kind, text (and optionally by). Offsets that do not fit the
    line are repaired by finding the recorded text in the line; overlaps are clipped (the earlier
    span wins). Returns the segments and the spans that could not be placed at all.
    """
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


# --------------------------------------------------------------------------------------------------
# Reading the run


def _read_parquet(path: Path, columns: Iterable[str] | None = None) -> pa.Table | None:
    if not path.exists():
        return None
    schema = pq.read_schema(path)
    cols = None if columns is None else [c for c in columns if c in schema.names]
    return pq.read_table(path, columns=cols)


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


@dataclass
class RemovedSummary:
    n_rows: int
    kinds: Counter  # rows per kind
    whole: Counter | None  # whole-line rows per kind (None: the table has no whole_line column)
    per_doc: pd.DataFrame  # index doc_id: n_spans, removed_words
    kinds_per_doc: pd.Series  # doc_id -> sorted kinds


REMOVED_BATCH_ROWS = 50_000


def _removed_batches(path: Path, columns: list[str] | None):
    """removed.parquet batch by batch: the report never holds all of it."""
    from cleaners.store import iter_batches

    yield from iter_batches(path, columns, REMOVED_BATCH_ROWS)


def _removed_summary(path: Path) -> RemovedSummary:
    """Counts over removed.parquet, streamed batch by batch."""
    n, kinds, whole, has_whole = 0, Counter(), Counter(), False
    spans: Counter = Counter()
    words: Counter = Counter()
    kind_sets: dict[str, set] = {}
    for batch in _removed_batches(path, ["doc_id", "kind", "whole_line", "text"]):
        table = pa.Table.from_batches([batch])
        n += table.num_rows
        df = table.select([c for c in ("doc_id", "kind", "whole_line") if c in table.column_names]).to_pandas()
        df["doc_id"] = df["doc_id"].astype(str)
        df["kind"] = df["kind"].astype(str) if "kind" in df else "?"
        df["words"] = _removed_words(table)
        kinds.update(df["kind"].value_counts().to_dict())
        if "whole_line" in df:
            has_whole = True
            whole.update(df.loc[df["whole_line"].fillna(False).astype(bool), "kind"].value_counts().to_dict())
        grouped = df.groupby("doc_id", sort=False)
        spans.update(grouped.size().to_dict())
        words.update(grouped["words"].sum().to_dict())
        for doc_id, ks in grouped["kind"].unique().items():
            kind_sets.setdefault(doc_id, set()).update(ks)
    per_doc = pd.DataFrame({"n_spans": pd.Series(spans, dtype=np.int64),
                            "removed_words": pd.Series(words, dtype=np.int64)})
    kinds_per_doc = pd.Series({d: sorted(ks) for d, ks in kind_sets.items()}, dtype=object)
    return RemovedSummary(n, kinds, whole if has_whole else None, per_doc, kinds_per_doc)


def _removed_rows_of(path: Path, doc_ids: set[str]) -> list[dict]:
    """The removed rows of a few documents, streamed."""
    value_set = pa.array(sorted(doc_ids), pa.string())
    rows: list[dict] = []
    for batch in _removed_batches(path, None):
        table = pa.Table.from_batches([batch])
        rows.extend(table.filter(pc.is_in(table["doc_id"].cast(pa.string()), value_set=value_set)).to_pylist())
    return rows


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


def _coverage(articles: pd.DataFrame) -> list[dict]:
    n = len(articles)
    rows = []
    for name, src_col in _META_FIELDS:
        if name not in articles.columns:
            continue
        col = articles[name]
        has = col.notna()
        if col.dtype == object:
            has &= col.astype(str).str.strip().ne("")
        k = int(has.sum())
        sources = []
        if src_col in articles.columns and k:
            vc = articles.loc[has, src_col].fillna("(unknown)").astype(str).value_counts()
            sources = [{"name": s, "n": int(c), "share": c / k} for s, c in vc.items()]
        rows.append({"field": name, "n": k, "share": (k / n) if n else 0.0, "sources": sources,
                     "has_source_column": src_col in articles.columns})
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


def _sample(articles: pd.DataFrame, outlier_ids: list[str], max_docs: int, seed: int) -> tuple[list[int], bool]:
    """Row positions to show: every outlier, then a seeded random sample of the rest."""
    n = len(articles)
    if n <= max_docs:
        return list(range(n)), False
    pos_of = {d: i for i, d in enumerate(articles["doc_id"].tolist())} if outlier_ids else {}
    chosen = [pos_of[d] for d in outlier_ids if d in pos_of][:max_docs]
    rest_n = max(0, max_docs - len(chosen))
    mask = np.ones(n, dtype=bool)
    mask[chosen] = False
    rest = np.flatnonzero(mask)
    rng = np.random.default_rng(seed)
    picked = rng.choice(rest, size=min(rest_n, len(rest)), replace=False) if rest_n else []
    return sorted(set(chosen) | {int(i) for i in picked}), True


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


def _quarantine_preview(raw_dir: Path, source: str) -> str | None:
    try:
        path = (Path(raw_dir) / str(source))
        if not path.is_file():
            return None
        with path.open("rb") as fh:
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
        line_spans = by_line.pop(no, [])
        segs, unplaced = segment_line(text, line_spans)
        doc.unplaced.extend(unplaced)
        is_title = False
        if title_sq and not title_marked and not any(s.kind for s in segs) and _squash(text) == title_sq:
            is_title = title_marked = True
        removed = bool(text.strip()) and all(s.kind or not s.text.strip() for s in segs) \
            and any(s.kind for s in segs)
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


def build_report(out_dir: Path, raw_dir: Path, *, max_docs: int = 500, seed: int = 0) -> Path:
    """Write out_dir/report.html (atomically) and return its path."""
    out_dir, raw_dir = Path(out_dir), Path(raw_dir)
    t0 = datetime.now(timezone.utc)
    run = _read_run_json(out_dir)

    art_tbl = _read_parquet(out_dir / "articles.parquet", _ARTICLE_COLUMNS)
    articles = art_tbl.to_pandas() if art_tbl is not None else pd.DataFrame(columns=["doc_id", "source"])
    for c in ("doc_id", "source"):
        if c not in articles.columns:
            articles[c] = pd.Series(dtype=object)
    articles = articles.reset_index(drop=True)

    removed = _removed_summary(out_dir / "removed.parquet")

    q_tbl = _read_parquet(out_dir / "quarantine.parquet")
    quarantine = q_tbl.to_pandas() if q_tbl is not None else pd.DataFrame(columns=["source", "stage", "error"])

    # ---- overview counts
    docs_read = _as_int(_lookup(run, "docs_read"))
    docs_cleaned = _as_int(_lookup(run, "docs_cleaned"))
    docs_quar = _as_int(_lookup(run, "docs_quarantined"))
    counts = {
        "read": docs_read if docs_read is not None else len(articles) + len(quarantine),
        "cleaned": docs_cleaned if docs_cleaned is not None else len(articles),
        "quarantined": docs_quar if docs_quar is not None else len(quarantine),
    }
    table_counts = {"articles": len(articles), "quarantine": len(quarantine),
                    "removed": removed.n_rows}
    # An incremental run cleans only new or changed sources and carries the other rows over: the run's
    # counts then cover this run, the tables the whole corpus.
    incremental = _lookup(run, "incremental")
    carried_raw = incremental.get("rows_carried") if isinstance(incremental, dict) else None
    carried = {k: _as_int(carried_raw.get(k)) or 0 for k in ("articles", "quarantine", "removed")} \
        if isinstance(carried_raw, dict) else {"articles": 0, "quarantine": 0, "removed": 0}
    count_notes = []
    if docs_cleaned is not None and docs_cleaned + carried["articles"] != len(articles):
        count_notes.append(f"run.json says {docs_cleaned} cleaned (+{carried['articles']} carried over); "
                           f"articles.parquet holds {len(articles)} rows.")
    if docs_quar is not None and docs_quar + carried["quarantine"] != len(quarantine):
        count_notes.append(f"run.json says {docs_quar} quarantined (+{carried['quarantine']} carried over); "
                           f"quarantine.parquet holds {len(quarantine)} rows.")

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
    if not versions and "pipeline_version" in articles.columns and len(articles):
        versions = [("pipeline_version", v) for v in sorted(articles["pipeline_version"].dropna().astype(str).unique())[:5]]

    # ---- per-document stats over the whole corpus
    per_doc, kinds_per_doc = removed.per_doc, removed.kinds_per_doc
    ids = articles["doc_id"].astype(str)
    n_spans = ids.map(per_doc["n_spans"]).fillna(0).astype(np.int64).to_numpy() if len(per_doc) else np.zeros(len(articles), np.int64)
    rw = ids.map(per_doc["removed_words"]).fillna(0).astype(np.int64).to_numpy() if len(per_doc) else np.zeros(len(articles), np.int64)
    n_words = pd.to_numeric(articles["n_words"], errors="coerce").fillna(0).astype(np.int64).to_numpy() \
        if "n_words" in articles.columns else np.zeros(len(articles), np.int64)
    denom = rw + n_words
    share = np.divide(rw, denom, out=np.zeros(len(articles), dtype=float), where=denom > 0)
    articles["_n_spans"], articles["_rw"], articles["_share"], articles["_n_words"] = n_spans, rw, share, n_words

    order = np.lexsort((-n_spans, -share))  # largest share first, then most spans
    outlier_pos = [int(i) for i in order[:N_OUTLIERS] if share[i] > 0 or n_spans[i] > 0]
    outlier_ids = [str(articles.at[i, "doc_id"]) for i in outlier_pos]

    shown_pos, sampled = _sample(articles, outlier_ids, max(1, int(max_docs)), seed)
    shown = articles.iloc[shown_pos].copy()
    shown["_src_sort"] = shown["source"].astype(str)
    shown = shown.sort_values(["_src_sort", "doc_id"], kind="stable")
    outlier_set = set(outlier_ids)

    # ---- removed rows of the shown documents only
    shown_ids = set(shown["doc_id"].astype(str))
    rem_shown = _removed_rows_of(out_dir / "removed.parquet", shown_ids) if removed.n_rows and shown_ids else []
    spans_of: dict[str, list[dict]] = {}
    for r in rem_shown:
        spans_of.setdefault(str(r["doc_id"]), []).append(r)

    read_lines = _lines_reader(run)
    per_doc_chars = max(MIN_DOC_CHARS, min(MAX_DOC_CHARS, TOTAL_CHARS_BUDGET // max(1, len(shown))))
    docs: list[DocView] = []
    n_mismatch = 0
    n_unplaced = 0
    for i, row in enumerate(shown.to_dict("records")):
        doc_id = str(row["doc_id"])
        kinds = list(kinds_per_doc.get(doc_id, [])) if len(kinds_per_doc) else []
        title = _cell(row.get("title"))
        doc = DocView(anchor=_anchor(doc_id, i), doc_id=doc_id, source=str(row["source"]),
                      meta=_meta_rows(row), n_words=int(row["_n_words"]), n_spans=int(row["_n_spans"]),
                      removed_words=int(row["_rw"]), share=float(row["_share"]), kinds=kinds,
                      is_outlier=doc_id in outlier_set, title=title if isinstance(title, str) else None)
        spans = sorted(spans_of.get(doc_id, []), key=lambda r: (int(r["line"]), int(r["start"])))
        try:
            lines = read_lines(raw_dir, doc.source)
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
        r = articles.iloc[i]
        title = _cell(r.get("title")) if "title" in articles.columns else None
        outliers.append({"doc_id": str(r["doc_id"]), "source": str(r["source"]), "title": title,
                         "share": float(r["_share"]), "n_spans": int(r["_n_spans"]),
                         "removed_words": int(r["_rw"]), "n_words": int(r["_n_words"]),
                         "anchor": anchor_of.get(str(r["doc_id"])),
                         "kinds": list(kinds_per_doc.get(str(r["doc_id"]), [])) if len(kinds_per_doc) else []})

    q_rows = []
    q_records = quarantine.head(MAX_QUARANTINE_ROWS).to_dict("records")
    for j, r in enumerate(q_records):
        err = _cell(r.get("error"))
        err = "" if err is None else str(err)
        q_rows.append({"source": str(_cell(r.get("source"))), "stage": _cell(r.get("stage")),
                       "doc_id": _cell(r.get("doc_id")),
                       "error": err[:MAX_ERROR_CHARS] + ("…" if len(err) > MAX_ERROR_CHARS else ""),
                       "preview": _quarantine_preview(raw_dir, str(r.get("source")))
                       if j < MAX_QUARANTINE_PREVIEWS else None})
    q_by_stage = quarantine["stage"].fillna("(none)").astype(str).value_counts().items() \
        if "stage" in quarantine.columns and len(quarantine) else []

    kinds_shown = Counter(k for d in docs for ln in d.lines for s in ln.segments if s.kind for k in [s.kind])
    filter_kinds = [(k, kinds_shown.get(k, 0)) for k in ordered_kinds]

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(_TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["pct"] = lambda x, d=1: f"{100 * float(x):.{d}f}%"
    template = env.get_template("report.html.j2")
    html = template.render(
        title=f"newsclean report: {out_dir.name}",
        out_dir=str(out_dir), raw_dir=str(raw_dir),
        generated_at=t0.strftime("%Y-%m-%d %H:%M:%S UTC"),
        counts=counts, table_counts=table_counts, count_notes=count_notes, carried=carried,
        chart=chart, by_kind=by_kind, n_removed_total=removed.n_rows,
        coverage=_coverage(articles), n_articles=len(articles),
        durations=durations, versions=versions,
        run_json=json.dumps(run, indent=2, sort_keys=True, default=str)[:50_000],
        outliers=outliers, n_outliers=N_OUTLIERS,
        quarantine=q_rows, n_quarantine=len(quarantine), q_by_stage=list(q_by_stage),
        q_truncated=len(quarantine) > MAX_QUARANTINE_ROWS, max_q_rows=MAX_QUARANTINE_ROWS,
        docs=docs, sampled=sampled, max_docs=max_docs, seed=seed,
        n_outliers_shown=sum(1 for d in docs if d.is_outlier),
        filter_kinds=filter_kinds, kind_css=kind_css, known_kinds=KINDS,
        n_mismatch=n_mismatch, n_unplaced=n_unplaced, per_doc_chars=per_doc_chars,
        nonce=secrets.token_urlsafe(18),
    )
    out_dir.mkdir(parents=True, exist_ok=True)
    final = out_dir / "report.html"
    tmp = out_dir / f".report.html.{os.getpid()}.tmp"
    try:
        tmp.write_text(html, encoding="utf-8")
        os.replace(tmp, final)
    finally:
        if tmp.exists():
            tmp.unlink()
    return final
