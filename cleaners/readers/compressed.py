"""`.gz` of any other input (`.jsonl.gz`, `.html.gz`, `.txt.gz`, ...): decompressed in memory, then
read by the reader of the inner name. `.warc.gz` is not handled here: WARC files are gzipped per
record and warcio reads them directly (newsclean.cleaners.readers.warc).

The source stays the compressed file's name, so "news.jsonl.gz#L12" is line 12 of the decompressed
file. Decompression stops at Settings.max_bytes, so a small file cannot expand without bound.
"""
from __future__ import annotations

import zlib
from pathlib import Path
from typing import Iterator

from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

SUFFIX = ".gz"


def inner_name(name: str) -> str:
    return name[: -len(SUFFIX)] if name.lower().endswith(SUFFIX) else name


def gunzip(data: bytes, limit: int) -> bytes:
    """Decompress all gzip members of `data`, refusing to produce more than `limit` bytes."""
    out, total = [], 0
    while data:
        d = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            chunk = d.decompress(data, limit - total + 1)
        except zlib.error as exc:
            raise DocumentError("read", f"not a valid gzip file ({exc}); re-compress it or remove it") from None
        total += len(chunk)
        out.append(chunk)
        if total > limit:
            raise DocumentError("read", f"decompresses to more than the max_bytes limit of {limit:,} bytes; split it or raise the limit")
        if d.unconsumed_tail:
            raise DocumentError("read", f"decompresses to more than the max_bytes limit of {limit:,} bytes; split it or raise the limit")
        if not d.eof:
            raise DocumentError("read", "the gzip file is truncated (unexpected end of data); re-download or re-compress it")
        data = d.unused_data.lstrip(b"\x00")
    return b"".join(out)


def read(path: Path, source: str, data: bytes, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    from newsclean.cleaners.readers import reader_for

    inner = inner_name(path.name)
    reader = reader_for(inner)
    if reader is None or reader is read:
        raise DocumentError("read", f"no reader for the file inside ({inner!r}); decompress it or remove it")
    raw = gunzip(data, settings.max_bytes)
    yield from reader(path.with_name(inner), source, raw, settings)

