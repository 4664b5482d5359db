"""Plain-text files: one document each, decoded later by newsclean.cleaners.encoding (HTML markup saved as
.txt is read as HTML)."""
from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Iterator

from newsclean.cleaners import front_matter
from newsclean.cleaners.readers.markup import bytes_look_like_html
from newsclean.cleaners.readers.source import read_whole
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument


def read(path: Path, source: str, stream: BinaryIO, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    data = read_whole(stream, settings.max_bytes)  # the file is one document
    # a page saved under a .txt name goes the HTML path (newsclean.cleaners.readers.markup)
    if bytes_look_like_html(data):
        yield RawDocument(source=source, data=data, format="html")
        return
    # a static-site post's front matter ("---", "title: …", "date: …", "---") is its metadata
    meta = front_matter.fields(data[:front_matter.HEAD_CHARS].decode("utf-8", "replace"))
    yield RawDocument(source=source, data=data, format="text", meta=meta)
