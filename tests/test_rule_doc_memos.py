"""The shortcuts the in-context rules take over a whole document give the answers of the plain
computations they stand for, on the lines of real pages and on look-alikes."""
from __future__ import annotations

from functools import cache

from newsclean.cleaners.rules import byline, related
from newsclean.cleaners.rules.base import Doc, Line
from tests.test_rule_conditions import LOOKALIKES, _local_docs

TRICKY = ["Jane Roe", "jane.roe@example.com wrote to us", "See www.janeroe.com or https://roe.example/jane",
          "Video", "VIDEO:", "watch", "Related stories", "Lesen Sie auch", "İstanbul'da bugün", "Use Case studies",
          "the use cases of roe", "By Jane Roe"]


@cache
def _docs() -> list[Doc]:
    return [Doc([Line(i, i + 1, t) for i, t in enumerate(lines)]) for lines in _local_docs() + [LOOKALIKES, TRICKY]]


def test_writes_in_lower_case_is_membership_of_the_lower_case_words():
    for doc in _docs():
        asked = {w.lower() for ln in doc.lines for w in ln.words} | {w for ln in doc.lines for w in ln.text.split()}
        asked |= {"jane", "roe", "use", "case", "cases", "example", "com", "www"}
        full = doc.lower_case_words
        assert {w for w in asked if doc.writes_in_lower_case(w)} == {w for w in asked if w in full}


def test_the_related_neighbourhood_is_the_plain_one():
    for doc in _docs():
        headers = [ln.index for ln in doc.lines if related._is_header(ln.text)]
        assert related._header_indexes(doc) == headers
        under_label, near_header = related._related_neighbourhood(doc)
        assert under_label == {ln.index + 1 for ln in doc.lines if related._MEDIA_LABEL.match(ln.text)}
        assert near_header == {k for h in headers for k in range(h + 1, h + 1 + related._UNDER_HEADER_MAX_LINKS)}


def test_proper_names_reads_the_document_as_its_lower_case_words_do():
    for doc in _docs():
        for ln in doc.lines:
            names = byline.names_alone(ln.text)
            if names:
                words = byline.name_words(names)
                assert byline._proper(words, doc) == byline.proper_names(words, doc.lower_case_words)
