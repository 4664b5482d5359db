"""Clean one document: decode, normalise, tag, decide, infer metadata. No Prefect here.

bytes -> text (cleaners.encoding) -> normalised lines (cleaners.lines) -> rule proposals and model
scores -> decision (cleaners.decide) -> CleanDocument with metadata and provenance.
"""
from __future__ import annotations

from pathlib import Path

from cleaners.fixpoint import decide_stable
from cleaners.encoding import decode
from cleaners.lines import normalise_lines
from cleaners.metadata.dates import date_from_datelines
from cleaners.metadata.outlets import outlet_from_spans
from cleaners.settings import Settings
from cleaners.types import CleanDocument, DocumentError, Found, RawDocument


def document_text(raw: RawDocument) -> str:
    if raw.text is not None:
        return raw.text
    return decode(raw.data)


def clean_text(text: str, settings: Settings, *, source: str = "", doc_id: str = "",
               meta: dict | None = None) -> CleanDocument:
    """Clean already-decoded text. Raises DocumentError when no article body is left."""
    lines = normalise_lines(text, settings.keep_curly_quotes)
    decision = decide_stable(lines, settings)  # decide until nothing more goes: idempotent (cleaners.fixpoint)
    spans = decision.spans
    evidence = [(s.kind, s.text) for s in sorted(spans, key=lambda s: (s.line, s.start))]

    published = None
    when = date_from_datelines([t for k, t in evidence if k == "dateline"])
    if when is not None:
        published = Found(when, "dateline")
    outlet, outlet_domain = None, None
    found = outlet_from_spans(evidence)
    if found is not None:
        outlet, outlet_domain = Found(found[0], "text"), found[1]

    return CleanDocument(
        doc_id=doc_id,
        source=source,
        title=decision.title.text if decision.title else None,
        text="\n\n".join(t for _, t in decision.kept),
        removed=tuple(spans),
        outlet=outlet,
        outlet_domain=outlet_domain,
        published=published,
    )


def clean_document(raw: RawDocument, settings: Settings) -> CleanDocument:
    if raw.format != "text":
        raise DocumentError("read", f"unsupported input format {raw.format!r}")
    text = document_text(raw)
    return clean_text(text, settings, source=raw.source, doc_id=raw.doc_id, meta=dict(raw.meta))


def normalised_lines_for(raw_dir: Path, source: str, settings: Settings | None = None) -> list[str]:
    """The normalised lines a document's removed-span offsets refer to (for reports and review)."""
    settings = settings or Settings()
    data = (Path(raw_dir) / source).read_bytes()
    return normalise_lines(decode(data), settings.keep_curly_quotes)
