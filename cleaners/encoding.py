"""Bytes to text: BOMs, strict UTF-8, then charset-normalizer for legacy code pages and BOM-less UTF-16."""
from __future__ import annotations

import codecs

from charset_normalizer import from_bytes

from newsclean.cleaners.types import DocumentError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# Single-byte Western code pages first: cp1252 is what legacy English news text overwhelmingly is,
# and charset-normalizer otherwise often names a near-identical cousin (cp1250, mac_roman).
_PREFERRED = ("utf_8", "cp1252", "latin_1", "iso8859_15")


# what a binary file's first bytes say it is
BINARY_SIGNATURES = ((b"\x89PNG", "a PNG image"), (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive or office document"),
                     (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"), (b"\x1f\x8b", "gzip data"))
_BINARY_MAGIC = tuple(magic for magic, _ in BINARY_SIGNATURES)


def looks_binary(data: bytes) -> bool:
    """NUL bytes in the head of a file that has no UTF-16/32 BOM, or a known binary signature."""
    head = data[:4096]
    if any(head.startswith(bom) for bom, _ in _BOMS):
        return False  # UTF-16/32 text is full of NUL bytes
    if head.startswith(_BINARY_MAGIC):
        return True
    return b"\x00" in head and not _utf16_without_bom(head)


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16 text has a NUL in every other byte for ASCII-range characters."""
    if len(head) < 4:
        return None
    even, odd = head[0::2], head[1::2]
    if odd.count(0) > 0.4 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.4 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def detect_encoding(data: bytes) -> tuple[str, int]:
    """(encoding, number of BOM bytes to skip)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name, len(bom)
    try:
        data.decode("utf-8")
        return "utf-8", 0
    except UnicodeDecodeError:
        pass
    wide = _utf16_without_bom(data[:4096])
    if wide:
        return wide, 0
    bad, multibyte = _utf8_damage(data)
    if multibyte and (bad <= multibyte or bad <= 16):
        # UTF-8 text with a few invalid bytes (a damaged or spliced file): those become U+FFFD.
        return "utf-8", 0
    results = from_bytes(data[:200_000], cp_isolation=list(_PREFERRED)) or from_bytes(data[:200_000])
    best = results.best()
    if best is None:
        if multibyte and bad * 20 <= len(data):
            return "utf-8", 0
        raise DocumentError("decode", "could not determine the text encoding; re-save the file as UTF-8")
    return best.encoding, 0


def _utf8_damage(data: bytes) -> tuple[int, int]:
    """(invalid byte sequences, valid multi-byte characters) when `data` is read as UTF-8."""
    text = data.decode("utf-8", errors="replace")
    bad = text.count("\ufffd") - data.count(b"\xef\xbf\xbd")
    multibyte = sum(1 for c in text if c > "\x7f") - text.count("\ufffd")
    return bad, max(multibyte, 0)


def decode(data: bytes) -> str:
    """Decode raw bytes to str. A few undecodable bytes in UTF-8 text are dropped; in a legacy code
    page they become U+FFFD. Mostly undecodable bytes are a DocumentError."""
    if looks_binary(data):
        raise DocumentError("decode", "file is binary (not text); remove it from the corpus or convert it to text")
    encoding, skip = detect_encoding(data)
    body = data[skip:]
    if encoding == "utf-8":
        text = body.decode("utf-8", errors="replace")
        bad = text.count("\ufffd") - body.count(b"\xef\xbf\xbd")
        if bad > max(16, len(text) // 20):
            raise DocumentError("decode", "more than 5% of the bytes are not valid utf-8; re-save the file as UTF-8")
        # A few damaged bytes in UTF-8 text (a spliced or truncated write) are dropped: a run of
        # U+FFFD would read as mojibake, and the bytes carry no recoverable character anyway.
        return body.decode("utf-8", errors="ignore") if bad else text
    text = body.decode(encoding, errors="replace")
    if text.count("\ufffd") > max(16, len(text) // 20):
        raise DocumentError("decode", f"more than 5% of the bytes are not valid {encoding}; re-save the file as UTF-8")
    return text
