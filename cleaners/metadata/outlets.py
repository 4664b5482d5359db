"""The outlet a document comes from, from evidence that names the publisher: a dateline's
"(FoxNews.com)", a signature "Videos by Rare", a call to action "Email In Touch at".

Only debris spans of those kinds count: an organisation the article body cites ("CNN reported")
is a source of the story, never its outlet.
"""
from __future__ import annotations

import re

import tldextract

from newsclean.cleaners.metadata.registry import load_registry
from newsclean.cleaners.rules.dateline import TIME
from newsclean.cleaners.rules.signature import DOMAIN, RIGHTS_RESERVED

EVIDENCE_KINDS = ("dateline", "byline", "outlet_signature", "call_to_action")
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=())  # the bundled public-suffix snapshot; no network
_DOMAIN = re.compile(DOMAIN, re.I)
_DATELINE_OUTLET = re.compile(r"\(([^()]{2,40})\)")
# A time with its zone ("3:45 PM ET") names no outlet, though "ET" is The Economic Times' initials.
_TIME = re.compile(TIME, re.I)


def registrable_domain(host_or_url: str) -> str | None:
    ext = _EXTRACT(host_or_url)
    return ext.top_domain_under_public_suffix.lower() if ext.domain and ext.suffix else None


def outlet_from_spans(spans: list[tuple[str, str]]) -> tuple[str, str | None] | None:
    """(name, domain) from (kind, text) debris spans, in document order, or None."""
    registry = load_registry()
    for kind, text in spans:
        if kind not in EVIDENCE_KINDS:
            continue
        if kind == "dateline":
            text = _TIME.sub(" ", text)
        known = registry.find_in(text)
        if known:
            return known.name, registry.domain_of(known)
        m = _DOMAIN.search(text)
        if m:
            domain = registrable_domain(m.group(0))
            if domain:
                known = registry.by_domain(m.group(0))
                return (known.name, registry.domain_of(known)) if known else (m.group(0), domain)
        if kind == "dateline":
            m = _DATELINE_OUTLET.search(text)
            if m:
                return m.group(1).strip(), None
        if kind == "outlet_signature" and (holder := copyright_holder(text)):
            return holder, None
    return None


# A copyright notice's holder: "Copyright © 2024 The Daily Herald. All rights reserved." -> "The
# Daily Herald"; a publisher the registry does not know is still the page's (its parent company
# at worst: "Nexstar Media Inc.").
_COPYRIGHT_PREFIX = re.compile(r"^(?:(?:copyright|©|\(c\)|\d{4}(?:\s*[-–]\s*\d{4})?),?\s*)+", re.I)
# a notice has the sign or a year ("Copyright Policy" is a link's text)
_NOTICE_MARK = re.compile(r"©|\(c\)|\d{4}", re.I)
_HOLDER_END = re.compile(r"\.(?=\s|$)|\s*[|,;]|\s+[-–—]\s|\s+all\s+rights|$", re.I)
_ABBREVIATION = re.compile(r"(?:^|\s)[A-Z][a-z]{0,2}$")  # "St.", "Co.", "Inc." end no name
_ROMAN_YEAR = re.compile(r"\s+[MDCLXVI]{4,}$")  # "© Simply Thrilled Ltd MMXXIII"
_RIGHTS_RESERVED = re.compile(RIGHTS_RESERVED, re.I)
_HOLDER_JOINERS = frozenset({"of", "and", "the", "&", "de", "la", "du", "der", "die"})
_HOLDER_MAX_WORDS = 6


def copyright_holder(text: str) -> str | None:
    """The holder a copyright notice names, when it reads as a name (capitalised words), or None."""
    text = text.strip()
    prefix = _COPYRIGHT_PREFIX.match(text)
    if prefix is None or _NOTICE_MARK.search(prefix.group(0)) is None:
        return None
    rest = text[prefix.end():]
    end = next(m for m in _HOLDER_END.finditer(rest)
               if not (m.group(0).startswith(".") and _ABBREVIATION.search(rest, 0, m.start())))
    holder = _ROMAN_YEAR.sub("", rest[:end.start()].strip())
    words = holder.split()
    if not 1 <= len(words) <= _HOLDER_MAX_WORDS or any(c.isdigit() or c == "/" for c in holder) \
            or _RIGHTS_RESERVED.match(holder) or not words[0][0].isupper() \
            or not all(w[0].isupper() or w.lower() in _HOLDER_JOINERS for w in words) \
            or any(not w.isupper() and sum(map(str.isupper, w)) > 2 for w in words):  # "SomerhausPrivacyTerms"
        return None
    return holder
