"""Files whose name does not say their format: the content does.

A site mirrored with `wget -m` or `httrack` saves pages as `news/2020/05/story` (no extension),
`article.php?id=3`, `index.aspx` or `page.shtml`; a scraper may save `story.text` or `page.out`.
Such a file is read by what it holds (WARC, gzip, JSON records, else text, which goes the HTML path
when it is markup: newsclean.cleaners.readers.markup).

What a mirror also holds is not documents: images, style sheets, scripts, fonts, media and feeds are
left out (`IGNORED_SUFFIXES`). Formats that are documents newsclean cannot read (PDF, Office files,
archives) are reported, so that a corpus never loses one silently (`UNREADABLE_SUFFIXES`).
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import BinaryIO, Iterator

from newsclean.cleaners.encoding import BINARY_SIGNATURES, looks_binary
from newsclean.cleaners.readers import compressed, records, text, warc
from newsclean.cleaners.readers.source import read_whole
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument

# a mirrored site's assets and machine files: not articles
IGNORED_SUFFIXES = frozenset(
    ".jpg .jpeg .png .gif .webp .avif .svg .ico .bmp .tif .tiff .heic "  # images
    ".css .js .mjs .map .wasm "  # page code
    ".woff .woff2 .ttf .otf .eot "  # fonts
    ".mp3 .mp4 .m4a .webm .ogg .ogv .wav .mov .avi .mkv .flv "  # media
    ".xml .rss .atom .xsl .swp .tmp .pyc".split())  # feeds, sitemaps, editor and tool files
# documents in formats newsclean does not read: reported, with what to do
UNREADABLE_SUFFIXES = {
    **dict.fromkeys(".pdf".split(), "a PDF document; newsclean reads text, HTML, records and WARC. Convert it to text (e.g. pdftotext) and put the .txt in RAW_DIR"),
    **dict.fromkeys(".doc .docx .odt .rtf .epub .pages .ppt .pptx .xls .xlsx .ods".split(),
                    "an office or e-book document; newsclean reads text, HTML, records and WARC. Export it as text or HTML into RAW_DIR"),
    **dict.fromkeys(".zip .tar .tgz .7z .rar".split(),
                    "an archive of several files; unpack it into RAW_DIR (newsclean reads .gz, .zst, .xz and .bz2 "
                    "of single files, and WARC)"),
}
# a file name's extension: a dot, then letters and digits only (".php", ".aspx"; not "v2.0-final"'s ".0-final")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,8}$")
COMPRESSED_TWICE = "compressed twice (gzip inside gzip, or the like); decompress it once and put the file in RAW_DIR"
HEAD_BYTES = 65536


def name_kind(name: str) -> tuple[str, str | None]:
    """How discovery treats a file that no reader takes by its name: ("ignore", None) for dot files
    and a mirror's assets, ("report", reason) for documents in formats newsclean cannot read,
    ("sniff", None) for the rest, read by content (`read`)."""
    base = name.rsplit("/", 1)[-1]
    if base.startswith("."):
        return "ignore", None  # .DS_Store, .gitkeep, editor state
    if compressed.compression(base):
        inner = compressed.inner_name(base)
        if compressed.compression(inner):
            return "report", COMPRESSED_TWICE
        return name_kind(inner)  # style.css.gz, report.pdf.xz, story.zst
    stem = base.split("?", 1)[0]  # wget keeps a page's query string in its name
    suffix = (_EXTENSION.search(stem) or _EXTENSION.search(base))
    ext = suffix.group(0).lower() if suffix else ""
    if ext in IGNORED_SUFFIXES or base.endswith("~"):
        return "ignore", None
    if ext in UNREADABLE_SUFFIXES:
        return "report", UNREADABLE_SUFFIXES[ext]
    return "sniff", None


def _records_reader(head: bytes):
    """The JSON reader when the content opens like JSON Lines or a JSON array of records; "maybe"
    when it opens with "{" but its first line is not a whole object (one JSON value over several
    lines, or text that opens with "{"): the whole content decides."""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"["):
        return records.read_json
    if head.startswith(b"{"):
        first = head.split(b"\n", 1)[0]
        try:
            if isinstance(json.loads(first), dict):
                return records.read_jsonl
        except ValueError:
            return "maybe"
    return None


def _parses_as_object(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), (dict, list))
    except ValueError:
        return False


def _head(stream: BinaryIO) -> bytes:
    return stream.peek(HEAD_BYTES)[:HEAD_BYTES]


def read(path: Path, source: str, stream: BinaryIO, settings: Settings) -> Iterator[RawDocument | DocumentError]:
    """Read a file by its content (see the module docstring)."""
    head = _head(stream)
    if head.startswith(b"WARC/"):
        yield from warc.read(path, source, stream, settings)
        return
    suffix = compressed.magic_suffix(head)
    if suffix is not None:
        inner = compressed.decompressing(stream, suffix)
        if compressed.magic_suffix(_head(inner)) is not None:
            raise DocumentError("read", COMPRESSED_TWICE)
        yield from read(path, source, inner, settings)
        return
    if looks_binary(head):
        what = next((name for magic, name in BINARY_SIGNATURES if head.startswith(magic)), "binary data")
        raise DocumentError("read", f"its name has no known extension and it holds {what}, not text, HTML, "
                                    "records or WARC; convert it to text or remove it from RAW_DIR")
    reader = _records_reader(head)
    if reader == "maybe":
        data = read_whole(stream, settings.max_bytes)
        reader, stream = (records.read_json if _parses_as_object(data) else text.read), io.BytesIO(data)
    yield from (reader or text.read)(path, source, stream, settings)
