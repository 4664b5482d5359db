"""Web archives (`.warc`, `.warc.gz`, read with warcio), the format news crawls such as CC-NEWS ship in.

Each HTML response record (HTTP 2xx, Content-Type text/html or application/xhtml+xml) is one
document in format "html"; its URL comes from the record's WARC-Target-URI and the HTTP
Content-Type header (with its charset) travels along for decoding. `resource` records holding
HTML count too, and `conversion` records of plain text (WET files) are documents in format "text".
Other records (requests, metadata, images, redirects, errors) are not documents and are skipped.

Sources are "archive.warc.gz#3": the 0-based position of the record in the archive. The WARC-Date
is the crawl time, not the publication date, so it is not used as `published`.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import Iterator

from cleaners.settings import Settings
from cleaners.types import DocumentError, RawDocument

HTML_TYPES = ("text/html", "application/xhtml+xml")


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def read(path: Path, source: str, data: bytes, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    from warcio.archiveiterator import ArchiveIterator
    from warcio.exceptions import ArchiveLoadFailed

    stream = io.BytesIO(data)
    index = -1
    records = iter(ArchiveIterator(stream, arc2warc=True))
    while True:
        index += 1
        where = f"{source}#{index}"
        try:
            record = next(records)
        except StopIteration:
            return
        except (ArchiveLoadFailed, ValueError, OSError, EOFError) as exc:
            if index == 0:
                raise DocumentError("read", f"not a readable WARC file ({exc}); check it is a WARC archive") from None
            yield DocumentError("read", f"WARC record {index} cannot be read ({exc}); the rest of the archive is skipped. Re-download the archive", source=where)
            return
        try:
            doc = _document(record, where)
        except Exception as exc:  # a damaged record body: quarantine it, go on with the next record
            yield DocumentError("read", f"WARC record {index} is damaged ({type(exc).__name__}: {exc}); re-download the archive", source=where)
            continue
        if doc is not None:
            yield doc


def _document(record, where: str) -> RawDocument | None:
    url = record.rec_headers.get_header("WARC-Target-URI")
    rtype = record.rec_type
    if rtype == "response":
        if record.http_headers is None:
            return None
        status = record.http_headers.get_statuscode() or ""
        content_type = record.http_headers.get_header("Content-Type")
        if not status.startswith("2") or _mime(content_type) not in HTML_TYPES:
            return None
        fmt = "html"
    elif rtype == "resource":
        content_type = record.rec_headers.get_header("Content-Type")
        if _mime(content_type) not in HTML_TYPES:
            return None
        fmt = "html"
    elif rtype == "conversion":
        content_type = record.rec_headers.get_header("Content-Type")
        if _mime(content_type) not in ("text/plain", ""):
            return None
        fmt = "text"
    else:
        return None
    payload = record.content_stream().read()
    if not payload.strip():
        return None
    meta = {"url": url} if url else {}
    if content_type:
        meta["http_content_type"] = content_type
    warc_id = record.rec_headers.get_header("WARC-Record-ID")
    if warc_id:
        meta["warc_record_id"] = warc_id
    return RawDocument(source=where, data=payload, format=fmt, meta=meta)
