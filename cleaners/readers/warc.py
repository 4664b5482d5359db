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
import zlib
from collections import Counter
from pathlib import Path
from typing import Iterator

from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

HTML_TYPES = ("text/html", "application/xhtml+xml")


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def read(path: Path, source: str, data: bytes, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    from warcio.archiveiterator import ArchiveIterator

    if not data.strip():
        return
    if not _looks_like_warc(data):
        raise DocumentError("read", "not a WARC archive (it does not start with a WARC/ or ARC header); check the file")
    stream = io.BytesIO(data)
    index = -1
    found = 0  # documents and damaged-record errors yielded
    kinds: Counter[str] = Counter()  # what the records are, to say so when none is a page
    records = iter(ArchiveIterator(stream, arc2warc=True, check_digests=True))
    while True:
        index += 1
        where = f"{source}#{index}"
        try:
            record = next(records)
        except StopIteration:
            if index == 0 and data.strip():
                raise DocumentError("read", "no WARC record found; check the file is a WARC archive") from None
            if data[:2] == b"\x1f\x8b" and not _gzip_complete(data):
                yield DocumentError("read", f"the archive is cut short after record {index - 1} (its gzip data ends early); re-download it", source=where)
            elif not found:
                held = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common(5))
                raise DocumentError("read", f"no HTML page among its {index} record{'s' * (index != 1)} ({held}); newsclean reads a WARC's "
                                            "HTML responses (status 2xx), HTML resources and text conversions")
            return
        except Exception as exc:  # ArchiveLoadFailed, or warcio tripping over a cut-off header
            if index == 0:
                raise DocumentError("read", f"not a readable WARC file ({exc}); check it is a WARC archive") from None
            yield DocumentError("read", f"WARC record {index} cannot be read, the archive is cut short or damaged there ({type(exc).__name__}: {exc}); the rest of it is skipped. Re-download the archive", source=where)
            return
        kinds[_kind(record)] += 1
        try:
            doc = _document(record, where)
        except Exception as exc:  # a damaged record body: quarantine it, go on with the next record
            if getattr(record.raw_stream, "limit", 0) > 0:
                yield DocumentError("read", f"the archive is cut short inside record {index}; re-download it", source=where)
                return
            found += 1
            yield DocumentError("read", f"WARC record {index} is damaged ({type(exc).__name__}: {exc}); re-download the archive", source=where)
            continue
        if doc is not None:
            found += 1
            yield doc
        elif _truncated(record):  # a skipped record cut short: the archive ends here
            yield DocumentError("read", f"the archive is cut short inside record {index}; re-download it", source=where)
            return


def _kind(record) -> str:
    """A record's type, with its HTTP status and content type for a response ("response 404",
    "response image/png")."""
    if record.rec_type != "response" or record.http_headers is None:
        return str(record.rec_type or "without a type")
    status = record.http_headers.get_statuscode() or "?"
    if not status.startswith("2"):
        return f"response {status}"
    return f"response {_mime(record.http_headers.get_header('Content-Type')) or 'without a type'}"


def _looks_like_warc(data: bytes) -> bool:
    head = data[:4096]
    if head[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 64)
        except zlib.error:
            return False
    return head.lstrip().startswith((b"WARC/", b"filedesc://"))


def _gzip_complete(data: bytes) -> bool:
    """Every gzip member of the archive ends properly (warcio stops quietly at a cut-off member)."""
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            while True:
                d.decompress(data, 1 << 20)
                if d.eof or not d.unconsumed_tail:
                    break
                data = d.unconsumed_tail
        except zlib.error:
            return False
        if not d.eof:
            return False
        data = d.unused_data
    return True


def _truncated(record) -> bool:
    try:
        record.raw_stream.read()
    except Exception:
        return True
    return getattr(record.raw_stream, "limit", 0) > 0


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
    # warcio returns what is there: a record cut short or altered must not pass as a page
    if getattr(record.raw_stream, "limit", 0) > 0:
        raise ValueError("the record is cut short")
    if getattr(record.digest_checker, "passed", None) is False:
        raise ValueError("its content does not match its WARC digest")
    if not payload.strip():
        return None
    meta = {"url": url} if url else {}
    if content_type:
        meta["http_content_type"] = content_type
    warc_id = record.rec_headers.get_header("WARC-Record-ID")
    if warc_id:
        meta["warc_record_id"] = warc_id
    return RawDocument(source=where, data=payload, format=fmt, meta=meta, address=url or None)
