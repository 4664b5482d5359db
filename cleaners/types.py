"""The small frozen types a document travels in: RawDocument -> (lines, spans) -> CleanDocument.

Everything downstream (tables, report, tests) reads these types, never a rule's internals.
"""
from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any, Mapping

# The vocabulary of removal kinds. `boilerplate` is the generic kind: debris no specific rule explains.
KINDS: tuple[str, ...] = (
    "navigation",
    "call_to_action",
    "related_headline",
    "tag_list",
    "caption",
    "outlet_signature",
    "dateline",
    "byline",
    "comments",
    "boilerplate",
)


def doc_id_of(data: bytes, address: str | None = None) -> str:
    """First 16 hex digits of the SHA-256 of the raw bytes, and of the address they were served at
    when a reader gives one apart from them (RawDocument.address): the articles table's key."""
    h = hashlib.sha256(data)
    if address:
        h.update(b"\n" + address.encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class RawDocument:
    """One input document as a reader found it.

    `data` is the raw bytes the doc_id is computed from. `text` is set when a reader already holds
    decoded text (a record's field); otherwise the bytes are decoded by newsclean.cleaners.encoding.
    `format` is "text" or "html". `meta` holds metadata a record or archive header supplied
    (url, title, published, outlet, author, id), which wins over anything inferred.
    `address` is the URL an archive record was served at, which its bytes do not hold: the same page
    at two addresses is two documents (two outlets may carry it), the same page fetched twice at
    one address is one. Records and files need none: their bytes hold their metadata.
    """

    source: str
    data: bytes
    format: str = "text"
    text: str | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    address: str | None = None

    @property
    def doc_id(self) -> str:
        return doc_id_of(self.data, self.address)


@dataclass(frozen=True)
class Span:
    """A removed piece of one line. Offsets index the normalised line (see newsclean.cleaners.lines)."""

    line: int  # 1-based line number in the raw text
    start: int
    end: int
    kind: str
    text: str
    by: str  # the rule (or "model") that proposed it
    whole_line: bool = False  # the span is the entire line


@dataclass(frozen=True)
class Found:
    """A metadata value with where it came from (e.g. "dateline", "record", "html", "url")."""

    value: Any
    source: str


@dataclass(frozen=True)
class CleanDocument:
    doc_id: str
    source: str
    title: str | None
    text: str
    removed: tuple[Span, ...]
    outlet: Found | None = None
    outlet_domain: str | None = None
    published: Found | None = None
    url: str | None = None
    author: str | None = None
    # where title and author came from (newsclean.cleaners.metadata.resolve.PROVENANCE), as Found.source
    title_source: str | None = None
    author_source: str | None = None
    notes: tuple[str, ...] = ()
    kept_lines: tuple[int, ...] = ()  # raw line numbers whose (remaining) text is in `text`
    # the normalised lines `removed` indexes: lines[n - 1] is line n (Span.line), "" where blank
    lines: tuple[str, ...] = ()

    @property
    def n_words(self) -> int:
        return len(self.text.split())

    @property
    def published_date(self) -> dt.date | None:
        return self.published.value if self.published else None


class DocumentError(Exception):
    """A document that cannot be cleaned. `stage` names the step, the message says what to do."""

    def __init__(self, stage: str, reason: str, source: str | None = None):
        super().__init__(reason)
        self.stage = stage
        self.reason = reason
        if source is not None:  # one record of a file: "news.jsonl#L12", "archive.warc.gz#3"
            self.source = source
