"""The headline's own words: a headline line often carries a label after a spaced separator
("Headline | Outlet", "Headline - Part 1", "Headline – Opinion", "Headline / Dec 2025"). The label
is not part of the headline; `headline_text` drops it when it is recognisably one:
- the outlet: its words spell the URL's domain name ("… – Artlyst" on artlyst.com; a name, not a
  sentence after it: "… - DRK: Immer mehr Menschen …" on drk.de), or the same label ends another
  line of the page after a separator (a site template's suffix);
- a short label: at most MAX_LABEL_WORDS words, none of them a function word, not a sentence
  (a section, a part number, a date), after the line's only separator (several separators make a
  breadcrumb or a list), while what it follows is headline-sized itself.
A subtitle after a colon is the headline's (": A Beginner's Guide"), and is never cut.
"""
from __future__ import annotations

import re
from typing import Iterable

from newsclean.cleaners.metadata.outlets import registrable_domain
from newsclean.cleaners.shape import STOP_WORDS, ends_sentence, fold, words

MAX_LABEL_WORDS = 3
MIN_HEAD_WORDS = 2
# a separator with space on both sides (a hyphen inside a word, "Debt-Free", is not one)
_SEP = re.compile(r"\s+(?:\|{1,2}|-{1,2}|–|—|/|·)\s+")


def _domain_name(url: str | None) -> str:
    """The site's name in its URL: "riverside-gazette" -> "riversidegazette" for
    https://www.riverside-gazette.co.uk/news/1 (offline public-suffix list, newsclean.cleaners.metadata)."""
    if not url:
        return ""
    try:
        domain = registrable_domain(url)
    except Exception:  # a malformed URL names no site
        return ""
    return domain.split(".", 1)[0].replace("-", "") if domain else ""


def _is_site(label: str, domain: str) -> bool:
    ws = words(label.lower())
    squashed = "".join(ws[1:] if ws[:1] == ("the",) and len(ws) > 1 else ws).replace("'", "").replace("’", "")
    # "Riverside Gazette" on riversidegazette.com, "Example News Online" on examplenews.com; a
    # shorter label must still spell most of the name ("Spice AI" on spiceai.dev, not "News" on newsday.com)
    # a name, not a sentence that starts with it ("DRK: Immer mehr Menschen …" on drk.de)
    return len(domain) >= 3 and len(squashed) >= 3 and ":" not in label and (
        squashed.startswith(domain) or (domain.startswith(squashed) and len(squashed) >= 0.6 * len(domain)))


def _is_short_label(label: str) -> bool:
    ws = words(label.lower())
    return 1 <= len(ws) <= MAX_LABEL_WORDS and not any(w in STOP_WORDS for w in ws) and not ends_sentence(label)


def _template_suffixes(lines: Iterable[str]) -> dict[str, set[str]]:
    """label -> the (folded) heads it ends on the page's separated lines ("Head | Label")."""
    suffixes: dict[str, set[str]] = {}
    for s in lines or ():
        parts = _SEP.split(s)
        if len(parts) > 1:
            suffixes.setdefault(fold(parts[-1]), set()).add(fold(" ".join(parts[:-1])))
    return suffixes


def label_cut(title: str, url: str | None = None, lines: Iterable[str] = ()) -> tuple[int, str] | None:
    """Where the trailing label(s) of a headline line start (the offset of the first cut separator)
    and their kind ("outlet_signature" when an outlet is among them, else "navigation"), or None
    when nothing trailing is recognisably a label (see the module's doc). `lines`, the page's lines,
    are read only when the title has a label that does not spell the URL's site."""
    if not _SEP.search(title):
        return None
    domain = _domain_name(url)
    suffixes: dict[str, set[str]] | None = None
    cut, kind = None, "navigation"
    head = title
    while True:  # label by label until one is not recognisably a label: cutting the rest again cuts nothing
        seps = list(_SEP.finditer(head))
        if not seps:
            break
        m = seps[-1]
        label = head[m.end():].strip()
        rest = head[:m.start()].strip()
        if len(words(rest)) < MIN_HEAD_WORDS or not words(label):
            break
        # a line of several separated parts is a breadcrumb or a list: only an outlet is cut there
        short = len(seps) == 1 and _is_short_label(label)
        outlet = _is_site(label, domain)
        if not outlet:
            # it ends another headline too (not a copy of this one inside a longer line: a "next post" link)
            if suffixes is None:
                suffixes = _template_suffixes(lines)
            fh = fold(rest)
            outlet = any(fh not in h for h in suffixes.get(fold(label), ()))
        if not (outlet or short):
            break
        if outlet:
            kind = "outlet_signature"
        cut, head = m.start(), head[:m.start()]
    return None if cut is None else (cut, kind)


def headline_text(title: str, url: str | None = None, lines: Iterable[str] = ()) -> str:
    """`title` without its trailing outlet or short label (label_cut), or unchanged."""
    cut = label_cut(title, url, lines)
    return title if cut is None else title[:cut[0]]
