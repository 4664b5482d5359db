"""Text to normalised lines. Line numbers match the raw file's: CRLF, CR and LF all end a line.

A normalised line is ftfy-repaired (only where a cheap check finds something to repair), has
no-break and other odd spaces turned into spaces, runs of white space collapsed and is trimmed.
Span offsets in removed.parquet index these normalised lines.
"""
from __future__ import annotations

import re

import ftfy

_LINE_END = re.compile(r"\r\n|\r|\n")
# Line and paragraph separators other than CR/LF (and what ftfy turns them into) become spaces too:
# a normalised line never holds a line break, whatever the input.
_SPACES = re.compile(r"[ \t\n\r\x0b\x0c\x1c-\x1f\x85\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
# Characters that ftfy.fix_text may change in an otherwise ASCII line: entities and control chars.
_ASCII_SUSPECT = re.compile(r"[&\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_CURLY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                        "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"'})


def split_lines(text: str) -> list[str]:
    return _LINE_END.split(text)


def _repair(line: str, keep_curly_quotes: bool) -> str:
    # Pure-ASCII lines without entities or control characters are what ftfy leaves alone; skip it.
    if line.isascii() and not _ASCII_SUSPECT.search(line):
        return line
    return ftfy.fix_text(line, uncurl_quotes=not keep_curly_quotes)


def normalise_line(line: str, keep_curly_quotes: bool = False) -> str:
    line = _repair(line, keep_curly_quotes)
    return _SPACES.sub(" ", line).strip()


def normalise_lines(text: str, keep_curly_quotes: bool = False) -> list[str]:
    return [normalise_line(line, keep_curly_quotes) for line in split_lines(text)]


def straighten_quotes(text: str) -> str:
    return text.translate(_CURLY)
