"""Compressed input (`.gz`, `.zst`, `.xz`, `.bz2` of any other input: `.jsonl.zst`, `.html.gz`,
`.txt.xz`, ...), decompressed as a stream and read by the reader of the inner name, so a compressed
dump is read record by record like an uncompressed one. `.warc.gz` is not handled here: WARC files
are gzipped per record and warcio reads them directly (newsclean.cleaners.readers.warc).

The source stays the compressed file's name, so "news.jsonl.zst#L12" is line 12 of the decompressed
file. What one document may take is bounded by Settings.max_bytes as for any file, so a small file
cannot expand without bound.
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from newsclean.cleaners.readers.source import CHUNK
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument


class _Zstd(io.RawIOBase):
    """Zstandard frames one after another, decompressed as a stream. zstandard's own stream reader
    ends quietly inside a cut-off frame; this one raises EOFError there, as gzip, xz and bzip2 do.
    The compressed bytes go in in small pieces, which bounds what one piece can expand to."""

    PIECE = 1024  # text expands ~5-10x; a run of one byte repeated, far more

    def __init__(self, stream: BinaryIO):
        import zstandard

        self._stream, self._new = stream, zstandard.ZstdDecompressor().decompressobj
        self._frame = None  # the frame being decompressed; None between frames
        self._in, self._at = b"", 0  # compressed bytes read, and how far they went in
        self._out = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self._out:
            if self._at >= len(self._in):
                self._in, self._at = self._stream.read(CHUNK), 0
                if not self._in:
                    if self._frame is not None:
                        raise EOFError("the zstd data ends inside a frame")
                    return 0
            if self._frame is None:
                self._frame = self._new()
            piece = self._in[self._at:self._at + self.PIECE]
            self._at += len(piece)
            self._out = self._frame.decompress(piece)
            if self._frame.eof:  # the next frame starts in what this one left
                rest = self._frame.unused_data
                self._frame = None
                self._in, self._at = rest + self._in[self._at:], 0
        n = min(len(buffer), len(self._out))
        buffer[:n], self._out = self._out[:n], self._out[n:]
        return n


# suffix -> (the format's name in messages, its magic bytes, a decompressing reader of a stream)
FORMATS: dict[str, tuple[str, bytes, Callable[[BinaryIO], BinaryIO]]] = {
    ".gz": ("gzip", b"\x1f\x8b", lambda s: gzip.GzipFile(fileobj=s, mode="rb")),
    ".zst": ("zstd", b"\x28\xb5\x2f\xfd", _Zstd),
    ".xz": ("xz", b"\xfd7zXZ\x00", lambda s: lzma.LZMAFile(s)),
    ".bz2": ("bzip2", b"BZh", lambda s: bz2.BZ2File(s)),
}
SUFFIXES = tuple(FORMATS)


def compression(name: str) -> str | None:
    """The compression suffix a file name ends with, or None."""
    lower = name.lower()
    return next((s for s in SUFFIXES if lower.endswith(s) and len(lower) > len(s)), None)


def inner_name(name: str) -> str:
    suffix = compression(name)
    return name[: -len(suffix)] if suffix else name


def magic_suffix(head: bytes) -> str | None:
    """The compression suffix whose magic bytes `head` opens with, or None."""
    return next((s for s, (_, magic, _) in FORMATS.items() if head.startswith(magic)), None)


class _Decompressed(io.RawIOBase):
    """A decompressing reader whose failures are DocumentErrors a person can act on. What was
    decompressed before a failure is given first (in pieces of PIECE bytes), and the failure at the
    next read, so the records before a cut are read."""

    PIECE = 1 << 16

    def __init__(self, inner: BinaryIO, kind: str):
        self._inner, self._kind = inner, kind
        self._failed: DocumentError | None = None

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self._failed is not None:
            raise self._failed
        filled = 0
        while filled < len(buffer):
            try:
                data = self._inner.read(min(len(buffer) - filled, self.PIECE))
            except Exception as exc:  # noqa: BLE001 - each library's own error type, said plainly
                self._failed = self._reason(exc)
                if filled:
                    return filled
                raise self._failed from None
            if not data:
                break
            buffer[filled:filled + len(data)] = data
            filled += len(data)
        return filled

    def _reason(self, exc: Exception) -> DocumentError:
        if isinstance(exc, DocumentError):
            return exc
        if isinstance(exc, EOFError) or "truncat" in str(exc).lower() or "end of" in str(exc).lower():
            return DocumentError("read", f"the {self._kind} file is truncated (unexpected end of data); "
                                         "re-download or re-compress it")
        return DocumentError("read", f"not a valid {self._kind} file ({type(exc).__name__}: {exc}); re-compress it or remove it")


def decompressing(stream: BinaryIO, suffix: str) -> io.BufferedReader:
    """`stream`'s decompressed bytes, as a buffered stream (readline, peek)."""
    kind, _, open_ = FORMATS[suffix]
    return io.BufferedReader(_Decompressed(open_(stream), kind), CHUNK)


def read(path: Path, source: str, stream: BinaryIO, settings: Settings, **part) -> Iterator[RawDocument | DocumentError]:
    from newsclean.cleaners.readers import reader_for

    inner = inner_name(path.name)
    reader = reader_for(inner)
    if reader is None or reader is read:
        raise DocumentError("read", f"no reader for the file inside ({inner!r}); decompress it or remove it")
    yield from reader(path.with_name(inner), source, decompressing(stream, compression(path.name)), settings, **part)
