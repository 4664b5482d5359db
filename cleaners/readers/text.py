"""Plain-text files: one document each, decoded later by cleaners.encoding (HTML markup saved as
.txt is read as HTML)."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from cleaners import front_matter
from cleaners.readers.markup import bytes_look_like_html
from cleaners.settings import Settings
from cleaners.types import DocumentError, RawDocument


def read(path: Path, source: str, data: bytes, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    # a page saved under a .txt name goes the HTML path (cleaners.readers.markup)
    if bytes_look_like_html(data):
        yield RawDocument(source=source, data=data, format="html")
        return
    # a static-site post's front matter ("---", "title: …", "date: …", "---") is its metadata
    meta = front_matter.fields(data[:front_matter.HEAD_CHARS].decode("utf-8", "replace"))
    yield RawDocument(source=source, data=data, format="text", meta=meta)
