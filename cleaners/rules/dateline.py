"""Datelines: "WASHINGTON (AP) —", "Feb 24, 2018 (Reuters) -", "Posted Feb 24, 2018 by …".

A dateline glued to the first sentence is removed as a span; a line that is only a dateline is
removed whole. cleaners.metadata reads the date and outlet back out of these spans.
"""
from __future__ import annotations

import re

from cleaners.rules.base import Doc, Line, Proposal, in_context, whole_line, starts_with

MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
TIME = r"(?:,?\s*(?:at\s+)?\d{1,2}:\d{2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?:\s*[A-Z]{2,4})?)"
DATE = (
    r"(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"|" + MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
    r"|\d{1,2}(?:st|nd|rd|th)?\s+" + MONTH + r",?\s+\d{4}"
    r"|\d{1,2}/\d{1,2}/\d{2,4})"
)
_DASH = r"\s*[-–—:]+"
_OUTLET = r"\((?P<outlet>[^()]{2,40})\)"
_PLACE = r"(?P<place>[A-Z][A-Z.'’-]+(?:\s+[A-Z][A-Z.'’-]+){0,3}(?:,\s*[A-Z][\w.]*(?:\s+[A-Z][\w.]*){0,2})?)"
# Tried in order; each is anchored at the start of the line.
_LEADING = tuple(re.compile(p, re.I) for p in (
    r"^(?:date\s+)?(?:" + TIME + r"\s*)?" + DATE + TIME + r"?\s*" + _OUTLET + _DASH,  # "Feb 24, 2018 (Reuters) -"
    r"^" + _PLACE + r",?\s*" + DATE + r"\s*(?:" + _OUTLET + r")?" + _DASH,            # "LONDON, Feb 24, 2018 -"
    r"^" + _PLACE + r"\s*" + _OUTLET + _DASH,                                        # "WASHINGTON (AP) —"
    r"^" + _PLACE + r"\s*[–—]",                                                      # "WASHINGTON —"
))

_HAS_DIGIT = re.compile(r"\d").search  # every DATE form has digits
# What each _LEADING pattern cannot match without: a date's digits, the outlet's bracket, the dash.
_LEADING_NEEDS = (
    lambda t: "(" in t and _HAS_DIGIT(t) is not None,
    lambda t: _HAS_DIGIT(t) is not None,
    lambda t: "(" in t,
    lambda t: "–" in t or "—" in t,
)

_STAMP = re.compile(
    r"^(?P<label>posted|published|updated|last\ updated|modified|created|first\ published|date)?\s*(?:on|at)?:?\s*"
    r"(?:" + TIME + r"\s*)?(?P<date>" + DATE + r")" + TIME + r"?(?:\s*(?:\||by\b|[-–—•·]).{0,60})?$",
    re.I | re.X,
)


@in_context  # no text gate: the position test below is cheaper than any test of the text
def leading_dateline(line: Line, doc: Doc) -> Proposal | None:
    """A dateline glued to the front of a sentence (only in the document's first lines)."""
    if line.index > 8:
        return None
    text = line.text
    # Each pattern needs some character the line may lack (a shortcut; the first match is the same)
    m = next((m for pattern, needs in zip(_LEADING, _LEADING_NEEDS) if needs(text) and (m := pattern.search(text))), None)
    if m is None:
        return None
    groups = m.groupdict()
    place, outlet = groups.get("place"), groups.get("outlet")
    if outlet and not any(c.isalpha() for c in outlet):
        return None  # "Best Coffee Makers (2026): …" is a headline, not "WASHINGTON (AP) —"
    # Without an outlet, only an all-capital place ("WASHINGTON —") marks a dateline, not a subject.
    if place and not outlet and place.split(",")[0].upper() != place.split(",")[0]:
        return None
    rest = line.text[m.end():].strip()
    if not rest:
        return whole_line("dateline", "leading_dateline")
    return Proposal("dateline", "leading_dateline", start=0, end=m.end())


@starts_with(_STAMP)
def date_stamp(line: Line, doc: Doc) -> Proposal | None:
    """A line that is a publication stamp: "Posted Feb 24, 2018 by Jane Doe", "Updated: 2018-02-24"."""
    if line.n_words <= 16 and _STAMP.search(line.text):
        return whole_line("dateline", "date_stamp")
    return None
