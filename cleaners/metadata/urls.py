"""Metadata a URL gives away: its registrable domain (tldextract, offline) and a date in its path.

News URLs often carry the publication day: /2018/02/24/slug, /2018-02-24/slug, /20180224/slug.
A year and month alone (/2018/02/) is not a day and is not used.
"""
from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

from newsclean.cleaners.metadata.dates import plausible
from newsclean.cleaners.metadata.outlets import registrable_domain

_YMD = (
    re.compile(r"(?<![\d])((?:19|20)\d{2})[/_.-](0?[1-9]|1[0-2])[/_.-](0?[1-9]|[12]\d|3[01])(?![\d])"),
    re.compile(r"(?<![\d])((?:19|20)\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?![\d])"),
)


def url_path(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    return parts.path + ("?" + parts.query if parts.query else "")


def date_from_url(url: str | None, today: dt.date | None = None) -> dt.date | None:
    """The first year-month-day written in the URL's path, if it is a real, plausible date."""
    if not url:
        return None
    path = url_path(url)
    for pattern in _YMD:
        for m in pattern.finditer(path):
            try:
                d = dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
            except ValueError:
                continue
            if plausible(d, today):
                return d
    return None


def host_of(url: str | None) -> str | None:
    if not url:
        return None
    try:
        host = urlsplit(url if "//" in url else "//" + url).hostname
    except ValueError:
        return None
    return host.lower() if host else None


def domain_from_url(url: str | None) -> str | None:
    """The URL's registrable domain ("www.bbc.co.uk/news/x" -> "bbc.co.uk"), or None."""
    host = host_of(url)
    if not host or re.fullmatch(r"[\d.]+|\[?[0-9a-f:]+\]?", host):
        return None
    return registrable_domain(host)


SLUG_SPLIT = re.compile(r"[^\w]+|_")  # what separates a slug's words
_SLUG_STOP = frozenset({"html", "htm", "php", "aspx", "www", "com", "index", "article", "news", "p", "post"})


def slug_words(url: str | None) -> set[str]:
    """The words of a URL's path ("/news/2024/council-votes-bus-network" -> council, votes, bus,
    network): no numbers, no query or fragment, no file extensions or generic path words. A name
    of the trafilatura evaluation set ("kind::site-slug.html") is read after its "::"."""
    if not url:
        return set()
    path = url.split("://", 1)[-1].split("::", 1)[-1]
    path = path.split("?", 1)[0].split("#", 1)[0]
    path = path.split("/", 1)[1] if "/" in path else path
    return {w for w in SLUG_SPLIT.split(path.lower()) if len(w) > 1 and not w.isdigit()} - _SLUG_STOP
