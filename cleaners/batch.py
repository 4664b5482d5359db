"""Clean a batch of sources into table rows. Plain Python: Prefect tasks call this, so do tests.

Every document ends in exactly one place: an articles row or a quarantine row.
"""
from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from cleaners.pipeline import clean_document
from cleaners.readers import read_source
from cleaners.settings import Settings
from cleaners.types import CleanDocument, DocumentError, RawDocument, doc_id_of


@dataclass
class BatchResult:
    articles: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    quarantine: list[dict] = field(default_factory=list)
    docs_read: int = 0
    lines_removed: Counter = field(default_factory=Counter)
    spans_removed: Counter = field(default_factory=Counter)

    def extend(self, other: "BatchResult") -> None:
        self.articles += other.articles
        self.removed += other.removed
        self.quarantine += other.quarantine
        self.docs_read += other.docs_read
        self.lines_removed += other.lines_removed
        self.spans_removed += other.spans_removed


def article_row(doc: CleanDocument, settings: Settings, cleaned_at: dt.datetime) -> dict:
    return {
        "doc_id": doc.doc_id,
        "source": doc.source,
        "url": doc.url,
        "title": doc.title,
        "text": doc.text,
        "author": doc.author,
        "outlet": doc.outlet.value if doc.outlet else None,
        "outlet_domain": doc.outlet_domain,
        "outlet_source": doc.outlet.source if doc.outlet else None,
        "published": doc.published.value if doc.published else None,
        "published_source": doc.published.source if doc.published else None,
        "n_words": doc.n_words,
        "n_removed": len(doc.removed),
        "pipeline_version": settings.pipeline_version,
        "cleaned_at": cleaned_at,
    }


def removed_rows(doc: CleanDocument) -> list[dict]:
    return [{"doc_id": doc.doc_id, "line": s.line, "start": s.start, "end": s.end, "text": s.text, "kind": s.kind, "rule": s.by, "whole_line": s.whole_line}
            for s in sorted(doc.removed, key=lambda s: (s.line, s.start))]


def quarantine_row(source: str, err: DocumentError, doc_id: str | None = None) -> dict:
    return {"source": source, "doc_id": doc_id, "stage": err.stage, "error": err.reason}


def _clean_one(raw: RawDocument, settings: Settings, cleaned_at: dt.datetime, out: BatchResult) -> None:
    try:
        doc = clean_document(raw, settings)
    except DocumentError as err:
        out.quarantine.append(quarantine_row(raw.source, err, raw.doc_id))
        return
    except Exception as exc:  # a bug must not sink the run: quarantine the document and say so
        err = DocumentError("clean", f"internal error {type(exc).__name__}: {exc}; please report it with this file")
        out.quarantine.append(quarantine_row(raw.source, err, raw.doc_id))
        return
    out.articles.append(article_row(doc, settings, cleaned_at))
    out.removed.extend(removed_rows(doc))
    for s in doc.removed:
        (out.lines_removed if s.whole_line else out.spans_removed)[s.kind] += 1


def clean_sources(raw_dir: Path, sources: Iterable[str], settings: Settings,
                  cleaned_at: dt.datetime | None = None) -> BatchResult:
    cleaned_at = cleaned_at or dt.datetime.now(dt.timezone.utc)
    out = BatchResult()
    for source in sources:
        try:
            for item in read_source(raw_dir, source, settings):
                out.docs_read += 1
                if isinstance(item, DocumentError):
                    out.quarantine.append(quarantine_row(getattr(item, "source", source), item))
                else:
                    _clean_one(item, settings, cleaned_at, out)
        except DocumentError as err:
            out.docs_read += 1
            out.quarantine.append(quarantine_row(source, err))
        except Exception as exc:
            out.docs_read += 1
            out.quarantine.append(quarantine_row(source, DocumentError("read", f"internal error {type(exc).__name__}: {exc}; please report it with this file")))
    return out
