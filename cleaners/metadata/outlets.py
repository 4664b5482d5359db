"""The outlet a document comes from, from evidence that names the publisher: a dateline's
"(FoxNews.com)", a signature "Videos by Rare", a call to action "Email In Touch at".

Only debris spans of those kinds count: an organisation the article body cites ("CNN reported")
is a source of the story, never its outlet.
"""
from __future__ import annotations

import re

import tldextract

from cleaners.metadata.registry import load_registry
from cleaners.rules.dateline import TIME
from cleaners.rules.signature import DOMAIN

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
    return None
