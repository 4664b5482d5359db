"""Debris glued onto a paragraph: a scraper that joins blocks leaves "… in March. Share this
article", "… in the area. Watch LIVE", "… he said. Read more: Mayor resigns". The short run of
words after the paragraph's last sentence end is judged as a line of its own by the whole-line
rules that need no context; what one of them would remove is cut, with that rule's kind."""
from __future__ import annotations

import re
from functools import lru_cache

from newsclean.cleaners.rules import call_to_action, navigation, related, signature, tag_list
from newsclean.cleaners.rules.base import GLUE_SEPARATORS, Doc, Line, Proposal, glued_tail, tail_start, when
from newsclean.cleaners.rules.prefilter import Prefilter

TAIL_RULES = (
    call_to_action.reader_engagement,
    navigation.ui_words,
    related.link_prefix,
    tag_list.tag_prefix,
    signature.signed_by_outlet,
    signature.copyright_line,
    signature.bare_domain,
)


# A link to the rest of a story ("… Read more", "… mehr >>", "… Weiterlesen"): it ends a teaser of
# another story more often than the article's own paragraph, so the line is left whole for the
# line model to judge (cut off, the teaser reads as a sentence of the body).
_CONTINUATION = re.compile(
    r"""[\W_]*(?:(?:read|view|see|show|lesen\ sie|lire)\s+)?
        (?:more|mehr|weiterlesen|continue\ reading|la\ suite|leer\ más|leggi\ tutto|lees\ meer|czytaj\ dalej|saiba\ mais)
        [\W_]*""",
    re.IGNORECASE | re.VERBOSE,
)


_TAIL_MAX_WORDS = 8  # glued_tail's default: what glued_debris asks for
# each tail rule with whether it has start patterns (base.starts_with: it proposes nothing where none matches)
_TAIL_RULE_STARTS = tuple((rule, bool(getattr(rule, "start_patterns", ()))) for rule in TAIL_RULES)


@lru_cache(maxsize=1)
def _tail_starts() -> Prefilter:
    """RE2 over the tail rules' start patterns, built on first use."""
    return Prefilter([pattern for rule in TAIL_RULES for pattern in getattr(rule, "start_patterns", ())])


def _may_start_a_tail_rule(tail: str) -> bool:
    """Whether one of the tail rules' start patterns may match `tail`: a necessary test, one RE2 pass
    instead of five rules' calls."""
    return _tail_starts().may_match(tail)


def _has_sentence_end_then_short_tail():
    """glued_tail's search (base._SENTENCE_END_THEN_MORE): a sentence end and its closers, then
    white space and at most _TAIL_MAX_WORDS white-space-separated words to the end of the line
    (Python's \\s also holds \\x1c-\\x1f, Rust's does not)."""
    import polars as pl

    space, word = "[\\s\\x1c-\\x1f]", "[^\\s\\x1c-\\x1f]+"
    return pl.col("text").str.contains(
        f"[.!?…][\"'’”)\\]]*{space}+(?:{word}{space}+){{0,{_TAIL_MAX_WORDS - 1}}}{word}{space}*$")


@when(_has_sentence_end_then_short_tail)
def glued_debris(line: Line, doc: Doc) -> Proposal | None:
    """The tail glued_tail finds, cut where a tail rule removes it whole. The test that the text
    before the tail is a sentence comes last: it reads the whole line, the tail rules a few words."""
    at = tail_start(line.text, _TAIL_MAX_WORDS)
    if at is None:
        return None
    tail = Line(line.index, line.number, line.text[at:].lstrip(GLUE_SEPARATORS))  # "… gesegnet. | © dpa"
    if _CONTINUATION.fullmatch(tail.text):
        return None
    started = _may_start_a_tail_rule(tail.text)
    for rule, has_start in _TAIL_RULE_STARTS:
        if has_start and not started:
            continue
        p = rule(tail, doc)
        if p is not None and p.strong and (p.start, p.end) == (0, None):
            if glued_tail(line, _TAIL_MAX_WORDS) != at:
                return None
            return Proposal(p.kind, "glued_" + p.rule, start=at)
    return None
