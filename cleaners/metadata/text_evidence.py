"""The metadata one plain text states about itself, read from what the cleaner removed: datelines,
bylines, signatures, and the dated meta line under the headline.

This is the lowest-precedence evidence (newsclean.cleaners.metadata.resolve: record > html > url > text).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Sequence

from newsclean.cleaners import shape
from newsclean.cleaners.metadata.authors import author_from_headline_lines, author_from_spans, author_from_stamps
from newsclean.cleaners.metadata.dates import DATE_EVIDENCE_KINDS, is_headline_stamp, near_headline, publication_date
from newsclean.cleaners.metadata.outlets import outlet_from_spans
from newsclean.cleaners.types import Span


@dataclass(frozen=True)
class TextMetadata:
    published: dt.date | None
    outlet: tuple[str, str | None] | None  # (name, registrable domain or None)
    author: str | None


def read_text_metadata(spans: Sequence[Span], body: Sequence[tuple[int, str]], headline: int | None) -> TextMetadata:
    """`spans`: the removed spans; `body`: the kept lines as (line number, text); `headline`: the
    title's line number, if the text has one."""
    ordered = sorted(spans, key=lambda s: (s.line, s.start))
    evidence = [(s.kind, s.text) for s in ordered]
    body_end = body[-1][0] if body else None
    # the meta line under the headline, whatever kind of debris it was removed as
    stamps = [(s.line, s.text) for s in ordered if s.kind not in DATE_EVIDENCE_KINDS and is_headline_stamp(s, headline)
              and (body_end is None or s.line <= body_end)]
    published = publication_date([(s.line, s.text) for s in ordered if s.kind in DATE_EVIDENCE_KINDS], body_end, stamps,
                                 headline)
    author = author_from_spans(evidence)
    near = [(s.line, s.text, s.by) for s in ordered if near_headline(s, headline)]
    if author is None and near:  # the body's lower-case words only when a line may name the author
        body_lower = _BodyLowerCaseWords([t for _, t in body])
        author = author_from_stamps([t for _, t in stamps], body_lower) \
            or author_from_headline_lines(near, headline, body_lower, [s.text for s in ordered] + [t for _, t in body])
    # an author's bio names the places the writer worked before too ("… previously at The Times")
    outlet = outlet_from_spans([(s.kind, s.text) for s in ordered if s.by != "author_bio"])
    return TextMetadata(published, outlet, author)


class _BodyLowerCaseWords:
    """The words the body writes in lower case, as proper_names asks them: one at a time. A word
    that is no substring of the body is none of them; the body's words are gathered (once) only
    when a word is."""

    __slots__ = ("texts", "joined", "words")

    def __init__(self, texts: list[str]):
        self.texts = texts
        self.joined: str | None = None
        self.words: frozenset[str] | None = None

    def __contains__(self, word: str) -> bool:
        if self.joined is None:
            self.joined = "\n".join(self.texts)
        if word not in self.joined:
            return False
        if self.words is None:
            seen: set[str] = set()  # each distinct word tested once: a body repeats most of its words
            for t in self.texts:
                seen.update(shape.words(t))
            self.words = frozenset(w for w in seen if w.islower())
        return word in self.words
