"""One discovered file, opened safely as a stream, and the bounded reads readers make of it.

A file is never read whole to be split into documents: record files and archives are read record
by record from the stream, so a reader's memory is bounded by its largest record (`max_bytes`), not
by the file. A file that is one document (a page, a text) is one record, read with the same bound.
A cap on a whole file is an opt-in setting (`max_file_bytes`).
"""
from __future__ import annotations

import io
import os
import stat
from pathlib import Path
from typing import BinaryIO

from newsclean.cleaners.readers import storage
from newsclean.cleaners.readers.storage import over_limit
from newsclean.cleaners.types import DocumentError

CHUNK = 1 << 20


class _FileReader(io.RawIOBase):
    """A regular file's bytes through os.read, refusing to read past `limit` (a file that grows
    after its size was checked: the check can be outrun by a file still being written)."""

    def __init__(self, fd: int, size: int, limit: int | None, limit_name: str):
        self._fd, self.size, self._limit, self._limit_name = fd, size, limit, limit_name
        self._total = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, offset: int, whence: int = 0) -> int:
        self._total = os.lseek(self._fd, offset, whence)
        return self._total

    def tell(self) -> int:
        return self._total

    def readinto(self, buffer) -> int:
        want = len(buffer)
        if self._limit is not None:
            want = min(want, self._limit + 1 - self._total)
        try:
            chunk = os.read(self._fd, max(want, 0))
        except PermissionError:
            raise DocumentError("read", "file is not readable (permission denied); fix its permissions") from None
        except OSError as exc:
            raise DocumentError("read", f"file could not be read ({exc.strerror or exc}); check the disk and the file") from None
        self._total += len(chunk)
        if self._limit is not None and self._total > self._limit:
            raise DocumentError("read", f"file grew over the {self._limit_name} limit of {self._limit:,} while being read; "
                                        "re-run when the corpus is stable, or raise the limit")
        buffer[:len(chunk)] = chunk
        return len(chunk)

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


class SourceStream(io.BufferedReader):
    """A source file's buffered stream; `size` is the file's size when it was opened."""

    size: int


def open_source(raw_dir: str | Path, source: str, max_file_bytes: int | None = None,
                limit_name: str = "max_file_bytes", spool: str | Path | None = None) -> SourceStream:
    """RAW_DIR/source opened for reading, after the checks a person can act on: a path that resolves
    outside RAW_DIR (a link that changed after discovery), something that is not a regular file (a
    folder, a FIFO: opened non-blocking so it cannot hang the run, a device), a file that vanished
    or cannot be opened, and a file over `max_file_bytes` when that cap is set (by its size, before
    reading; or because it grew while being read). RAW_DIR in object storage: the object opened
    through fsspec (newsclean.cleaners.readers.storage), its size checked the same way; with a
    `spool` folder, from the run's one fetch of it (a local file, not a local path's checks)."""
    where = storage.location(raw_dir)
    if isinstance(where, storage.Objects):
        reader, size = storage.open_object(where, source, max_file_bytes, limit_name, spool)
        stream = SourceStream(reader, CHUNK)
        stream.size = size
        return stream
    raw_dir = where
    root = Path(raw_dir).resolve()
    path = Path(raw_dir) / source
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        if path.is_symlink():
            raise DocumentError("read", "symlink is broken (its target does not exist); fix or remove it") from None
        raise DocumentError("read", "file disappeared between discovery and reading; re-run when the corpus is stable") from None
    except (OSError, RuntimeError) as exc:
        raise DocumentError("read", f"path cannot be resolved ({exc}); a symlink loop? fix or remove it") from None
    if not real.is_relative_to(root):
        raise DocumentError("read", f"resolves outside RAW_DIR ({real}); not followed. Copy the file in if it belongs to the corpus")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except FileNotFoundError:
        raise DocumentError("read", "file disappeared between discovery and reading; re-run when the corpus is stable") from None
    except PermissionError:
        raise DocumentError("read", "file is not readable (permission denied); fix its permissions") from None
    except OSError as exc:
        raise DocumentError("read", f"file could not be opened ({exc.strerror or exc}); it changed after discovery? check it and re-run") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise DocumentError("read", "is a directory, not a file; rename it or move its files up")
        if not stat.S_ISREG(st.st_mode):
            raise DocumentError("read", "is not a regular file (a FIFO, socket or device); not read. Replace it with a regular file")
        if max_file_bytes is not None and st.st_size > max_file_bytes:
            raise DocumentError("read", over_limit(st.st_size, max_file_bytes, limit_name))
    except BaseException:
        os.close(fd)
        raise
    stream = SourceStream(_FileReader(fd, st.st_size, max_file_bytes, limit_name), CHUNK)
    stream.size = st.st_size
    return stream


def read_whole(stream: BinaryIO, limit: int) -> bytes:
    """All of `stream`, one document's bytes: never more than `limit` of them read. A file whose
    size says it is over the limit is refused before reading; a decompressed stream by what it gives."""
    size = getattr(stream, "size", None)
    if size is not None and size > limit:
        raise DocumentError("read", over_limit(size, limit))
    data = stream.read(limit + 1)
    if len(data) > limit:
        if size is None:
            raise DocumentError("read", f"decompresses to more than the max_bytes limit of {limit:,} bytes; split it or raise the limit")
        raise DocumentError("read", f"file grew over the max_bytes limit of {limit:,} while being read; re-run when the corpus is stable, or raise the limit")
    return data


def read_bounded(raw_dir: str | Path, source: str, max_bytes: int) -> bytes:
    """The bytes of RAW_DIR/source as one document, never more than max_bytes of them read."""
    with open_source(raw_dir, source, max_bytes, "max_bytes") as stream:
        return read_whole(stream, max_bytes)
