"""Encoded data saved as text: a base64 blob (whole, or wrapped at 64 or 76 characters), an inline
image's `data:` URI, a hex dump, an image's file name standing in for its alt text
("northern-lights-in-iceland-when-to-see-the-aurora-22.jpg"). A scraper that keeps a page's raw
fields, or a file read as text that is not text, puts such runs into the corpus.

A run counts when it is longer than a word of a language that writes with spaces, is written in
the alphabet of base64, hex, URL encoding and file names (so not Chinese, Japanese or Thai prose,
which writes whole sentences without a space, and not a line of code, which a technical article
may quote), and is not a web address (a long link is the writer's). The line goes whole when such
runs are most of its characters, unless the rest is a sentence that quotes one.

No named kind covers them, so they are `boilerplate` with their own rule name.
"""
from __future__ import annotations

import re

from newsclean.cleaners import shape
from newsclean.cleaners.rules.base import Doc, Line, Proposal, when, whole_line

DATA_RUN_MIN_CHARS = 48  # under base64's wrapped lines (64, 76), over a word's length
_OUTSIDE_ALPHABET_MAX = 0.05  # "data:image/png;base64," has two such characters in thousands
_OUTSIDE_ALPHABET = re.compile(r"[^A-Za-z0-9+/=_.%-]")
_CODE_BRACKETS = re.compile(r"[()\[\]{}<>\"']")  # a call or markup in a line of code: never in these alphabets
_WEB_ADDRESS = re.compile(r"://|(?:^|\W)www\.", re.I)
SENTENCE_MIN_WORDS = 4  # other words that, ending in a full stop, make the line a sentence quoting a run


def is_encoded_data(text: str) -> bool:
    """Runs of encoded data (see the module) are most of the text's characters, white space aside,
    and the rest is not a sentence of its own words around a quoted run."""
    if len(text) < DATA_RUN_MIN_CHARS:
        return False
    runs = text.split()
    if max(map(len, runs), default=0) < DATA_RUN_MIN_CHARS:  # a cheap first test: most lines have no such run
        return False
    data = other = other_words = 0
    for run in runs:
        if len(run) >= DATA_RUN_MIN_CHARS \
                and len(_OUTSIDE_ALPHABET.findall(run)) <= _OUTSIDE_ALPHABET_MAX * len(run) \
                and _CODE_BRACKETS.search(run) is None \
                and (_WEB_ADDRESS.search(run) is None or "base64," in run):
            data += len(run)
        else:
            other += len(run)
            other_words += 1
    return data > other and not (other_words >= SENTENCE_MIN_WORDS and shape.ends_sentence(text))


def _may_hold_data_run():
    """is_encoded_data's tests, widened: a run of DATA_RUN_MIN_CHARS characters without white space
    (Python's: Rust's plus \\x1c-\\x1f), and in some run at least 15 characters of the alphabet in a
    row (a run of n >= 48 with at most 5% outside it holds floor(0.05 n) + 1 stretches of it, one of
    them at least ceil((n - floor(0.05 n)) / (floor(0.05 n) + 1)) >= 15 long, the least at n = 60)."""
    import polars as pl

    text = pl.col("text").str
    return (pl.col("n_chars") >= DATA_RUN_MIN_CHARS) & text.contains("[A-Za-z0-9+/=_.%-]{15}") \
        & text.contains(rf"[^\s\x1c-\x1f]{{{DATA_RUN_MIN_CHARS}}}")


@when(_may_hold_data_run)
def encoded_data(line: Line, doc: Doc) -> Proposal | None:
    return whole_line("boilerplate", "encoded_data") if is_encoded_data(line.text) else None
