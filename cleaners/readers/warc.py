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

import logging
import zlib
from collections import Counter, deque
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO, Iterator

from newsclean.cleaners.readers.ranges import Part
from newsclean.cleaners.readers.source import CHUNK
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

HTML_TYPES = ("text/html", "application/xhtml+xml")
RECENT_RECORDS = 16  # records remembered to place a damaged gzip member (it decodes into a few at most)


@lru_cache(maxsize=1)
def _quiet_iterator() -> type:
    """warcio's ArchiveIterator without its notes on damaged records: it writes "Record not followed
    by newline" with the raw bytes that follow straight to stderr, and logs a damaged record's
    header bytes as its "invalid WARC-Target-URI"; on a corrupt archive that is binary noise on the
    terminal. The damage is a quarantine row instead, naming the record and what to do."""
    from warcio.archiveiterator import ArchiveIterator

    logging.getLogger("warcio").setLevel(logging.ERROR)

    class QuietArchiveIterator(ArchiveIterator):
        INC_RECORD = ""  # the format of warcio's note (written with sys.stderr.write): nothing

    return QuietArchiveIterator


def archive_iterator(stream: BinaryIO, **options):
    """warcio's ArchiveIterator(stream, **options), quiet (_quiet_iterator)."""
    return _quiet_iterator()(stream, **options)


def _mime(content_type: str | None) -> str:
    return (content_type or "").split(";", 1)[0].strip().lower()


def read(path: Path, source: str, stream: BinaryIO, settings: Settings, part: Part | None = None) -> Iterator[RawDocument | DocumentError]:
    """The archive's documents, record by record from the stream (one record in memory at a time);
    with a part, the records of the part (newsclean.cleaners.readers.ranges)."""
    head = stream.peek(4096)[:4096]
    if not head.strip():
        return
    if not _looks_like_warc(head):
        raise DocumentError("read", "not a WARC archive (it does not start with a WARC/ or ARC header); check the file")
    gzipped = head[:2] == b"\x1f\x8b"
    part = part or Part(source)
    index = -1
    if part.start and part.offset is not None:
        stream.seek(part.offset)
        index = part.start - 1
    found = 0  # documents and damaged-record errors yielded
    kinds: Counter[str] = Counter()  # what the records are, to say so when none is a page
    # the last records read: (index, offset, whether it was skipped as no page), to find which one a
    # damaged gzip member belongs to (_damaged_member)
    recent: deque[tuple[int, int | None, bool]] = deque(maxlen=RECENT_RECORDS)
    archive = archive_iterator(stream, arc2warc=True, check_digests=True)
    records = iter(archive)
    checked_from = part.offset if part.start and part.offset is not None else 0  # a gzip member's start
    while True:
        index += 1
        where = f"{source}#{index}"
        if part.stop is not None and index >= part.stop:
            return
        try:
            record = next(records)
        except StopIteration:
            if index == 0:
                raise DocumentError("read", "no WARC record found; check the file is a WARC archive") from None
            if gzipped and not _gzip_complete(stream, checked_from):
                last = recent[-1] if recent else None
                state = _member_state(stream, last[1]) if last is not None and last[1] is not None else "whole"
                if state != "whole":
                    # the last record's own gzip member is damaged or cut short, not one after it: that
                    # record is quarantined when it was skipped as no page, and was said otherwise
                    if last[2]:
                        found += 1
                        why = "its gzip data does not check" if state == "damaged" else "its gzip data ends early"
                        yield DocumentError("read", f"WARC record {last[0]} is damaged ({why}); re-download the archive",
                                            source=f"{source}#{last[0]}")
                else:
                    yield DocumentError("read", f"the archive is cut short after record {index - 1} (its gzip data ends early); re-download it", source=where)
            elif not found and part.whole:
                held = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common(5))
                raise DocumentError("read", f"no HTML page among its {index} record{'s' * (index != 1)} ({held}); newsclean reads a WARC's "
                                            "HTML responses (status 2xx), HTML resources and text conversions")
            return
        except Exception as exc:  # ArchiveLoadFailed, or warcio tripping over a cut-off header
            if index == 0 and not gzipped:
                raise DocumentError("read", f"not a readable WARC file ({exc}); check it is a WARC archive") from None
            # a record gzipped on its own: the next one starts a gzip member of its own, so reading
            # goes on from there and only the damaged record is lost (the first one too: the file
            # opened as a WARC)
            failed_at = getattr(archive, "offset", None)
            damaged = _damaged_member(stream, failed_at, recent) if gzipped else None
            if damaged is not None:
                # Not a record at all: the rest of an earlier record's gzip member, whose damaged data
                # warcio decoded as far as it could (it drops the error). That earlier record is the
                # damaged one. When every record read after it was skipped as no page, those were
                # pieces of its member (its data may have run on into the members after it): they take
                # no place in the archive, the damaged record is quarantined if it was skipped too (one
                # already quarantined or read stays as it is), and reading goes on at the first record
                # after it. Otherwise only this failure takes no place, and reading goes on after it.
                # A resume point always lies past the last one, so reading always ends.
                damaged_index, was_skipped, damaged_at, pieces = damaged
                resume = _next_record(stream, damaged_at) if pieces else None
                if pieces and (resume is None or resume > checked_from):
                    index = damaged_index
                    if was_skipped:
                        found += 1
                        yield DocumentError("read", f"WARC record {index} is damaged (its gzip data does not check); "
                                                    "re-download the archive", source=f"{source}#{index}")
                else:
                    index -= 1
                    resume = _next_record(stream, failed_at)
                if resume is None or resume <= checked_from:  # nothing readable after it
                    return
                recent.clear()
                stream.seek(resume)
                checked_from = resume
                archive = archive_iterator(stream, arc2warc=True, check_digests=True)
                records = iter(archive)
                continue
            resume = _next_record(stream, failed_at) if gzipped else None
            if resume is not None and resume <= checked_from:  # no way past it: reading ends here
                resume = None
            if resume is None:
                yield DocumentError("read", f"WARC record {index} cannot be read, the archive is cut short or damaged there ({type(exc).__name__}: {exc}); the rest of it is skipped. Re-download the archive", source=where)
                return
            found += 1
            yield DocumentError("read", f"WARC record {index} cannot be read, its header is damaged ({type(exc).__name__}: {exc}); "
                                        "reading goes on at the next record. Re-download the archive to get it", source=where)
            recent.clear()  # a damaged member found later lies after this point
            stream.seek(resume)
            checked_from = resume  # the damage before it is said already
            archive = archive_iterator(stream, arc2warc=True, check_digests=True)
            records = iter(archive)
            continue
        offset = getattr(archive, "offset", None)
        if index < part.start:  # before the part: read past, not into a document
            continue
        kinds[_kind(record)] += 1
        recent.append((index, offset, False))
        try:
            doc = _document(record, where, settings.max_bytes)
        except DocumentError as err:  # a record over max_bytes: that record alone
            found += 1
            yield DocumentError(err.stage, err.reason, source=where)
            continue
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
        else:
            recent[-1] = (index, offset, True)


def _kind(record) -> str:
    """A record's type, with its HTTP status and content type for a response ("response 404",
    "response image/png")."""
    if record.rec_type != "response" or record.http_headers is None:
        return str(record.rec_type or "without a type")
    status = record.http_headers.get_statuscode() or "?"
    if not status.startswith("2"):
        return f"response {status}"
    return f"response {_mime(record.http_headers.get_header('Content-Type')) or 'without a type'}"


def _looks_like_warc(head: bytes) -> bool:
    head = head[:4096]
    if head[:2] == b"\x1f\x8b":
        try:
            head = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 64)
        except zlib.error:
            return False
    return head.lstrip().startswith((b"WARC/", b"filedesc://"))


def _next_record(stream: BinaryIO, damaged_at: int | None) -> int | None:
    """The offset of the first gzip member after `damaged_at` that opens with a WARC header, or None
    (a stream that cannot seek, no offset known, none found)."""
    if damaged_at is None or not stream.seekable():
        return None
    at = damaged_at + 1
    while True:
        stream.seek(at)
        chunk = stream.read(CHUNK)
        if len(chunk) < 3:
            return None
        found = chunk.find(b"\x1f\x8b\x08")
        while found >= 0:
            if _opens_a_record(stream, at + found):
                return at + found
            found = chunk.find(b"\x1f\x8b\x08", found + 1)
        at += len(chunk) - 2  # a gzip header split over two chunks is seen whole in the next


def _opens_member(stream: BinaryIO, offset: int) -> bool:
    stream.seek(offset)
    return stream.read(3) == b"\x1f\x8b\x08"


def _damaged_member(stream: BinaryIO, failed_at: int | None, recent) -> tuple[int, bool, int, bool] | None:
    """When the unreadable record at `failed_at` starts inside a gzip member rather than at one (the
    tail of a damaged member): the last recent record (index, offset, skipped as no page) that starts
    a member, as (its index, whether it was skipped, its offset, whether every record read after it
    was skipped as no page: pieces of its member). None when the failure starts a member of its
    own, or no recent record does."""
    if failed_at is None or _opens_member(stream, failed_at):
        return None
    after_skipped = True
    for index, offset, skipped in reversed(recent):
        if offset is not None and offset < failed_at and _opens_member(stream, offset):
            return index, skipped, offset, after_skipped
        after_skipped = after_skipped and skipped
    return None


def _opens_a_record(stream: BinaryIO, offset: int) -> bool:
    stream.seek(offset)
    head = stream.read(4096)
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head, 16).startswith((b"WARC/", b"filedesc://"))
    except zlib.error:
        return False


def _gzip_complete(stream: BinaryIO, start: int = 0) -> bool:
    """Every gzip member of the archive from `start` (a member's start) ends properly (warcio stops
    quietly at a cut-off member). Read again, a chunk at a time; a stream that cannot seek is taken
    as complete."""
    return not stream.seekable() or _gzip_state(stream, start) == "whole"


def _member_state(stream: BinaryIO, offset: int) -> str:
    """The one gzip member at `offset`, as _gzip_state tells it."""
    return _gzip_state(stream, offset, first_only=True)


def _gzip_state(stream: BinaryIO, start: int, first_only: bool = False) -> str:
    """The gzip members from `start` (only the first with `first_only`): "whole", "damaged" (zlib
    finds data or a check wrong) or "short" (the data ends inside a member)."""
    stream.seek(start)
    member = None  # the member being decompressed; None between members
    try:
        while chunk := stream.read(CHUNK):
            while chunk:
                if member is None:
                    member = zlib.decompressobj(16 + zlib.MAX_WBITS)
                member.decompress(chunk, CHUNK)  # the output is not kept: only where members end
                chunk = member.unconsumed_tail
                if member.eof:
                    if first_only:
                        return "whole"
                    chunk, member = member.unused_data, None
    except zlib.error:
        return "damaged"
    return "whole" if member is None else "short"


def _truncated(record) -> bool:
    try:
        record.raw_stream.read()
    except Exception:
        return True
    return getattr(record.raw_stream, "limit", 0) > 0


def _document(record, where: str, max_bytes: int) -> RawDocument | None:
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
    payload = record.content_stream().read(max_bytes + 1)
    if len(payload) > max_bytes:
        raise DocumentError("read", f"the record's content is over the max_bytes limit of {max_bytes:,}; raise the limit to read it")
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
