"""Saved HTML pages (.html, .htm): one document each; newsclean.cleaners.extract_html decodes and extracts."""
from __future__ import annotations

from pathlib import Path
from typing import BinaryIO, Iterator

from newsclean.cleaners.readers.source import read_whole
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument


def read(path: Path, source: str, stream: BinaryIO, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    data = read_whole(stream, settings.max_bytes)  # the file is one document
    yield RawDocument(source=source, data=data, format="html")
