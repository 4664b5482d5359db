"""Input discovery and readers, one module per format. A reader turns one file into documents.

`discover` lists the files under RAW_DIR that some reader accepts; `read_source` yields the
RawDocuments of one file (several for record files and archives). File-level failures raise
DocumentError; per-record failures are yielded as DocumentError instances so that one bad record
never loses its file's other records.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator

from cleaners.readers import text
from cleaners.settings import Settings
from cleaners.types import DocumentError, RawDocument

Reader = Callable[[Path, str, bytes, Settings], Iterator["RawDocument | DocumentError"]]

# Suffix (lower case, longest first wins) -> reader.
READERS: dict[str, Reader] = {
    ".txt": text.read,
}


def reader_for(name: str) -> Reader | None:
    lower = name.lower()
    for suffix in sorted(READERS, key=len, reverse=True):
        if lower.endswith(suffix):
            return READERS[suffix]
    return None


def discover(raw_dir: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """(sources, skipped): sources are paths relative to raw_dir that a reader accepts, sorted;
    skipped are (source, reason) for entries that look like input but cannot be read safely."""
    raw_dir = Path(raw_dir)
    root = raw_dir.resolve()
    sources, skipped = [], []
    for dirpath, dirnames, filenames in os.walk(raw_dir, followlinks=False):
        dirnames.sort()
        base = Path(dirpath)
        for name in dirnames:
            path = base / name
            if reader_for(name) and not path.is_symlink():
                skipped.append((path.relative_to(raw_dir).as_posix(), "is a directory, not a file; rename it or move its files up"))
        for name in sorted(filenames):
            path = base / name
            rel = path.relative_to(raw_dir).as_posix()
            if reader_for(name) is None:
                continue
            if path.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(root):
                    skipped.append((rel, f"symlink points outside RAW_DIR ({target}); not followed. Copy the file in if it belongs to the corpus"))
                    continue
            sources.append(rel)
    return sorted(sources), skipped


def read_source(raw_dir: Path, source: str, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    path = Path(raw_dir) / source
    reader = reader_for(source)
    if reader is None:
        raise DocumentError("read", "no reader for this file type")
    try:
        size = path.stat().st_size
        if size > settings.max_bytes:
            raise DocumentError("read", f"file is {size:,} bytes, over the max_bytes limit of {settings.max_bytes:,}; split it or raise the limit")
        data = path.read_bytes()
    except FileNotFoundError:
        raise DocumentError("read", "file disappeared between discovery and reading; re-run when the corpus is stable") from None
    except IsADirectoryError:
        raise DocumentError("read", "is a directory, not a file") from None
    except PermissionError:
        raise DocumentError("read", "file is not readable (permission denied); fix its permissions") from None
    except OSError as exc:
        raise DocumentError("read", f"file could not be read ({exc.strerror or exc}); check the disk and the file") from None
    yield from reader(path, source, data, settings)
