"""Saved HTML pages (.html, .htm): one document each; newsclean.cleaners.extract_html decodes and extracts."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument


def read(path: Path, source: str, data: bytes, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    yield RawDocument(source=source, data=data, format="html")
