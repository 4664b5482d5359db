"""One value per metadata field, from every source that offers one, with provenance.

Precedence, highest first: the record's own fields ("record"), the HTML (trafilatura metadata,
htmldate: "html"), the URL (domain, date in the path: "url"), the text itself (its headline, and
its debris spans: datelines, bylines, signatures, calls to action: "dateline" for dates, "text" for
the title, the author and outlets). A source that offers nothing, or a date outside
[1990-01-01, today], leaves the field to the next source. Each value's source is in
PROVENANCE's vocabulary.

Outlet names are canonicalised through the registry (newsclean.cleaners.metadata.registry): an alias or a
domain the registry knows maps to its one canonical name and domain.
"""
from __future__ import annotations

import datetime as dt
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from dateutil import parser as dateparser

from newsclean.cleaners.metadata.dates import plausible
from newsclean.cleaners.metadata.nested import nested_value
from newsclean.cleaners.metadata.outlets import registrable_domain
from newsclean.cleaners.metadata.registry import Outlet, load_registry
from newsclean.cleaners.metadata.urls import date_from_url, domain_from_url, host_of
from newsclean.cleaners.types import Found

# Record fields, first present wins: content is read by the record readers.
RECORD_FIELDS = {
    "title": ("title", "headline"),
    # and the names of common scraper exports: news-please (date_publish, source_domain),
    # newspaper (publish_date), CC-News (date, domain), schema.org (datePublished)
    "published": ("published", "date", "published_at", "publish_date", "date_published", "date_publish",
                  "datePublished", "published_date", "publication_date", "pub_date", "pubdate"),
    "outlet": ("outlet", "site", "sitename", "source_name", "publisher", "source_domain", "domain"),
    "url": ("url", "link", "uri"),
    "author": ("author", "authors", "byline"),
    "id": ("id", "doc_id", "_id"),
}
# Where each field's value may come from, highest precedence first: the closed vocabularies of the
# articles table's *_source columns (newsclean.schemas.tables).
PROVENANCE = {
    "title": ("record", "html", "text"),
    "author": ("record", "html", "text"),
    "published": ("record", "html", "url", "dateline"),
    "outlet": ("record", "html", "url", "text"),
}
_DOMAINISH = re.compile(r"^(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:/.*)?$", re.I)


@dataclass(frozen=True)
class Evidence:
    """What one source says (each field optional)."""

    title: str | None = None
    published: dt.date | None = None
    outlet: str | None = None
    url: str | None = None
    author: str | None = None


@dataclass(frozen=True)
class Resolved:
    title: Found | None
    published: Found | None
    outlet: Found | None
    outlet_domain: str | None
    url: str | None
    author: Found | None


def present(value: Any) -> Any:
    """None for missing values: None, NaN, empty or blank strings, empty lists, objects that wrap
    no value (see nested_value)."""
    value = nested_value(value)
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str):
        value = " ".join(value.split())
        return value or None
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in map(present, value) if v is not None]
        return "; ".join(items) or None
    try:  # pandas NaT and friends
        if value != value:
            return None
    except Exception:
        pass
    return value


def parse_any_date(value: Any, today: dt.date | None = None) -> dt.date | None:
    """A record's date field: ISO or free-form string, date/datetime, or a Unix epoch (s or ms)."""
    value = present(value)
    if value is None:
        return None
    if isinstance(value, dt.datetime):
        return plausible(value.date(), today)
    if isinstance(value, dt.date):
        return plausible(value, today)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        seconds = value / 1000 if value > 1e11 else value
        try:
            return plausible(dt.datetime.fromtimestamp(seconds, dt.timezone.utc).date(), today)
        except (OverflowError, OSError, ValueError):
            return None
    text = str(value)
    try:
        return plausible(dt.date.fromisoformat(text[:10]), today)
    except ValueError:
        pass
    try:
        return plausible(dateparser.parse(text, default=dt.datetime(2000, 1, 1)).date(), today)
    except (ValueError, OverflowError, TypeError):
        return None


def record_value(meta: Mapping[str, Any], field: str) -> Any:
    for key in RECORD_FIELDS[field]:
        if key in meta and present(meta[key]) is not None:
            return present(meta[key])
    return None


def record_evidence(meta: Mapping[str, Any]) -> Evidence:
    def text(field):
        v = record_value(meta, field)
        return str(v) if v is not None else None
    return Evidence(title=text("title"), published=parse_any_date(record_value(meta, "published")),
                    outlet=text("outlet"), url=record_url(meta), author=text("author"))


def record_url(meta: Mapping[str, Any]) -> str | None:
    """The record's URL field, when it is text (a number or a flag is no address)."""
    url = record_value(meta, "url")
    return url if isinstance(url, str) else None


def _compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _same_outlet(name: str, outlet: Outlet) -> bool:
    """Does a free-form name refer to this registry outlet? ("The Guardian US" ~ "The Guardian")."""
    c = _compact(name)
    if len(c) < 3:
        return False
    label = outlet.domain.split(".")[0]
    for alias in (outlet.name, *outlet.aliases, label):
        a = _compact(alias)
        if len(a) >= 3 and (a in c or c in a):
            return True
    return False


def canonical_outlet(name: str, source: str, url: str | None) -> tuple[Found, str | None]:
    """(outlet, outlet_domain) for a name a record or the HTML gave."""
    registry = load_registry()
    known = registry.by_alias(name)
    if known is None and _DOMAINISH.match(name):
        host = host_of(name)
        known = registry.by_domain(host) if host else None
        d = registrable_domain(host) if host else None
        if known is None and d:
            return Found(d, source), d
    if known is not None:
        return Found(known.name, source), registry.domain_of(known)
    host = host_of(url)
    at_url = registry.by_domain(host) if host else None
    if at_url is not None:
        if _same_outlet(name, at_url):
            return Found(at_url.name, source), registry.domain_of(at_url)
        return Found(name, source), None  # the URL's domain belongs to a different outlet
    return Found(name, source), domain_from_url(url)


def _sitename_is_host(sitename: str, url: str | None) -> bool:
    """trafilatura falls back to the URL's host name when a page names no site."""
    host = host_of(url) or ""
    s = sitename.lower().removeprefix("www.")
    return bool(host) and (s == host.removeprefix("www.") or (_DOMAINISH.match(s) is not None and s in host))


def resolve(record: Evidence, html: Evidence | None = None, *, text_title: str | None = None,
            text_published: dt.date | None = None, text_outlet: tuple[str, str | None] | None = None,
            text_author: str | None = None,
            today: dt.date | None = None) -> Resolved:
    html = html or Evidence()
    url = record.url or html.url
    url_domain = domain_from_url(url)
    registry = load_registry()

    # published: record > html > url > dateline
    published = None
    for value, source in ((record.published, "record"), (html.published, "html"),
                          (date_from_url(url, today), "url"), (text_published, "dateline")):
        if plausible(value, today) is not None:
            published = Found(value, source)
            break

    # outlet: record > html (og:site_name) > url (registrable domain) > text evidence
    outlet, outlet_domain = None, None
    if record.outlet:
        outlet, outlet_domain = canonical_outlet(record.outlet, "record", url)
    elif html.outlet and not _sitename_is_host(html.outlet, url):
        outlet, outlet_domain = canonical_outlet(html.outlet, "html", url)
    elif url_domain:
        known = registry.by_domain(host_of(url) or url_domain)
        outlet, outlet_domain = (Found(known.name, "url"), registry.domain_of(known)) if known else (Found(url_domain, "url"), url_domain)
    elif text_outlet is not None:
        outlet, outlet_domain = Found(text_outlet[0], "text"), text_outlet[1]

    return Resolved(
        title=_first((record.title, "record"), (html.title, "html"), (text_title, "text")),
        published=published,
        outlet=outlet,
        outlet_domain=outlet_domain,
        url=url,
        author=_first((record.author, "record"), (html.author, "html"), (text_author, "text")),
    )


def _first(*offers: tuple[str | None, str]) -> Found | None:
    """The first value offered, with its source."""
    return next((Found(value, source) for value, source in offers if value), None)
