"""The HTML page's publication date, ranked among every date the page offers.

htmldate's pick is one candidate among others: the schema.org JSON-LD dates, the <meta> tags that
name a date (article:published_time, pubdate, dc.date, parsely-pub-date...; any whose name says
publish, date or time), itemprop dates, <time> elements, the URL's date and the dates written in
the page's short texts (bylines, stamps). Each candidate carries its source and where it sits
(inside the article or in a comment, a sidebar, a related-articles list). The candidates are
grouped by day; each day is described by features that hold across sites (which kinds of source
name it, how many agree, is it the earliest or the latest, how far from the URL's date and from
htmldate's pick, where it sits relative to the headline) and scored by a small LightGBM model
(files/date_ranker.lgb.txt, trained by newsclean.cleaners.metadata.train_date_ranker). The best
day wins when its score reaches the threshold in files/date_ranker.json; below it the page gets
no date from its HTML (a wrong date is worse for a corpus than none).

htmldate's search is the dearest step of the page's metadata, and most pages state their date
plainly. So the page's own dates are ranked first by a model trained without htmldate's pick
(files/date_ranker_own.lgb.txt): where its best day scores at least `own_decides_at` and every other
day at most 1 - `own_decides_at` (date_ranker.json, chosen out of fold so that no right date is lost
and no wrong one added), that day is the answer and htmldate never runs; elsewhere htmldate's pick
joins the candidates and the full model decides.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from lxml import etree

from newsclean.cleaners.metadata.dates import _UPDATED, parse_date, plausible
from newsclean.cleaners.metadata.jsonld import jsonld_blocks
from newsclean.cleaners.rules.dateline import DATE_RE, UPDATE_WORD
from newsclean.cleaners.metadata.urls import date_from_url
from newsclean.cleaners.rules.prefilter import Prefilter

MODEL_DIR = Path(__file__).resolve().parent / "files"
MODEL_FILE = MODEL_DIR / "date_ranker.lgb.txt"
META_FILE = MODEL_DIR / "date_ranker.json"
OWN_MODEL_FILE = MODEL_DIR / "date_ranker_own.lgb.txt"  # the same features, trained without htmldate's pick

# Where a candidate comes from. "modified" sources date a revision, not the publication.
SOURCES = (
    "htmldate",  # htmldate's original-date pick (extensive search), as trafilatura's metadata ran it
    "jsonld_published", "jsonld_modified", "jsonld_nested",  # nested: a date of an object inside another
    "meta_published", "meta_modified", "meta_date",
    "itemprop_published", "itemprop_modified",
    "time", "time_modified",
    "text", "text_modified",
    "url",
)
MODIFIED_SOURCES = frozenset({"jsonld_modified", "meta_modified", "itemprop_modified", "time_modified", "text_modified"})

_ISO = re.compile(r"((?:19|20)\d{2})-(\d{2})-(\d{2})")
_COMPACT = re.compile(r"^((?:19|20)\d{2})(\d{2})(\d{2})(?:\D|$)")
_META_KEY = re.compile(r"date|time|publish|modif|updat|created|issued|posted", re.I)
_META_SKIP = re.compile(r"viewport|format|theme|zone|read|refresh|expire|cache|duration|generat|verif", re.I)
_MODIFIED = re.compile(r"modif|updat|revis|" + UPDATE_WORD, re.I)
_PUBLISHED = re.compile(r"publi|creat|issue|release|pub|original|posted|first", re.I)
# a candidate's surroundings that date something else: readers' comments, lists of other articles
_ASIDE = re.compile(r"comment|related|sidebar|widget|recommend|popular|trending|teaser|reply|footer", re.I)
_ASIDE_TAGS = frozenset({"aside", "footer", "nav"})
_ARTICLE_TAGS = frozenset({"article", "main", "header"})
_YEARISH = re.compile(r"(?:19|20)\d{2}")
_ARTICLE_TYPES = re.compile(r"article|posting|report|news|blog|story|video|webpage", re.I)
TEXT_MAX_CHARS = 160  # a stamp or byline is short; a paragraph's dates are the story's events
TEXT_MAX_CANDIDATES = 40


@dataclass(frozen=True)
class Candidate:
    """One date the page offers: its day, its source (SOURCES), its element's place in document
    order (None for the head's and the URL's), and its surroundings."""

    date: dt.date
    source: str
    index: int | None = None
    in_article: bool = False
    in_aside: bool = False
    article_type: bool = False  # a JSON-LD object of an article type
    shown: bool = False  # written in the page's visible text (a <time>, a stamp), not only in markup


def _value_date(value: str | None, today: dt.date | None = None) -> dt.date | None:
    """A machine-written date (ISO, 20180224...), else a written one (newsclean.cleaners.metadata.dates)."""
    if not value:
        return None
    value = value.strip()
    m = _ISO.search(value[:40]) or _COMPACT.match(value)
    if m is not None:
        try:
            return plausible(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))), today)
        except ValueError:
            return None
    if len(value) > TEXT_MAX_CHARS or not _YEARISH.search(value):
        return None
    d = parse_date(value)
    return plausible(d, today) if d else None


def _surroundings(el, known: dict) -> tuple[bool, bool]:
    """(inside the article's own markup, inside a comment, sidebar, related list or footer).
    `known`: for each element already looked at, the same pair for its children (a page's
    candidates share most of their ancestors: each is tested once)."""
    chain = []
    a = el.getparent()
    while a is not None and a not in known:
        chain.append(a)
        a = a.getparent()
    in_article, in_aside = known[a] if a is not None else (False, False)
    for a in reversed(chain):
        tag = a.tag if isinstance(a.tag, str) else ""
        in_article = in_article or tag in _ARTICLE_TAGS or a.get("itemprop") == "articleBody"
        in_aside = in_aside or tag in _ASIDE_TAGS or _ASIDE.search((a.get("class") or "") + " " + (a.get("id") or "")) is not None
        known[a] = (in_article, in_aside)
    return in_article, in_aside


def _json_dates(data, out: list, depth: int = 0) -> None:
    """(value, source, of an article-type object) for every date of a JSON-LD document; a date of
    an object nested in another (a series, a list of other articles) is "jsonld_nested"."""
    if depth > 6:
        return
    if isinstance(data, list):
        for item in data:
            _json_dates(item, out, depth)
        return
    if not isinstance(data, dict):
        return
    kind = data.get("@type")
    kind = " ".join(kind) if isinstance(kind, list) else str(kind or "")
    is_article = bool(_ARTICLE_TYPES.search(kind))
    for key, value in data.items():
        if key in ("datePublished", "dateCreated", "uploadDate", "dateModified") and isinstance(value, str):
            source = "jsonld_nested" if depth > 0 else ("jsonld_modified" if key == "dateModified" else "jsonld_published")
            out.append((value, source, is_article))
        elif key == "@graph":
            _json_dates(value, out, depth)  # the graph's members are top-level objects
        elif isinstance(value, (dict, list)):
            _json_dates(value, out, depth + 1)


@dataclass(frozen=True)
class PageDates:
    """A page's candidates, where its headline sits (the first <h1> of the body, in document
    order) and how many nodes it has."""

    candidates: list[Candidate]
    h1_index: int | None
    n_nodes: int


# What date_candidates reads is found by lxml's own iteration (<meta>, <time>, <h1>: no element
# proxy for the others) and by libxml2 (itemprop dates, short texts that may hold a year), then
# placed in document order in one pass (a Python test on every element and text costs twice as much)
_DATE_ITEMPROPS = etree.XPath("/html/body/descendant::*/@itemprop[starts-with(., 'date')]/..")
# short texts that may hold a year, in document order (date_candidates reads their dates)
_YEAR_TEXTS = etree.XPath("/html/body/descendant::text()[contains(., '20') or contains(., '19')]"
                          "[string-length(.) <= $most]")
_NOT_TEXT = frozenset({"script", "style", "noscript", "template", "time"})
_DATE_TEXT = Prefilter([DATE_RE], at_start=False)  # RE2 rules out most texts before DATE_RE runs


def _in_body(el, root) -> bool:
    """Whether /html/body/descendant::* holds `el` (`root`: its tree's root element)."""
    top = None  # the root's child on the way up
    for a in el.iterancestors():
        if a is root:
            return top is not None and top.tag == "body" and root.tag == "html"
        top = a
    return False


def date_candidates(tree, url: str | None = None, htmldate: str | None = None,
                    today: dt.date | None = None, jsonld: tuple | None = None) -> PageDates:
    """Every date `tree` (an lxml HTML tree) offers, plus the URL's date and htmldate's pick (an
    ISO string, as trafilatura's metadata holds it). `jsonld`: the page's jsonld_blocks when the
    caller has them."""
    out: list[Candidate] = []
    placed: list[tuple] = []  # (element, date, source, shown): placed in document order at the end

    def add(value, source, el=None, article_type=False, shown=False):
        d = _value_date(value, today) if isinstance(value, str) else value
        if d is None:
            return
        if el is not None:
            placed.append((el, d, source, shown))
        else:
            out.append(Candidate(d, source, article_type=article_type))

    add(date_from_url(url, today) if url else None, "url")
    root = tree.getroottree().getroot() if hasattr(tree, "getroottree") else tree
    metas: list = []
    shown_els: set = set()
    h1 = None  # /html/body/descendant::h1[1]: the body's first <h1>
    for el in root.iter("meta", "time", "h1"):  # one walk, in C
        tag = el.tag
        if tag == "meta":
            metas.append(el)
        elif tag == "time":
            if _in_body(el, root):
                shown_els.add(el)
        elif h1 is None and _in_body(el, root):
            h1 = el
    for el in metas:
        key = " ".join(filter(None, (el.get("name"), el.get("property"), el.get("itemprop"), el.get("http-equiv"))))
        if not key or not _META_KEY.search(key) or _META_SKIP.search(key):
            continue
        content = el.get("content") or el.get("datetime")
        if el.get("itemprop") and any(a.tag == "body" for a in el.iterancestors()):
            add(content, "itemprop_modified" if _MODIFIED.search(key) else "itemprop_published", el)
        else:
            add(content, "meta_modified" if _MODIFIED.search(key) else (
                "meta_published" if _PUBLISHED.search(key) else "meta_date"))
    for data in jsonld_blocks(root) if jsonld is None else jsonld:
        found: list = []
        _json_dates(data, found)
        for value, source, article in found:
            add(value, source, article_type=article)
    # /html/body/descendant::*[self::time or starts-with(@itemprop, 'date')][not(self::meta)]
    shown_els.update(el for el in _DATE_ITEMPROPS(root) if el.tag != "meta")
    texts: list[tuple] = []
    for text in _YEAR_TEXTS(root, most=TEXT_MAX_CHARS):
        el = text.getparent()  # a tail's is the element it follows: "<legend>Title</legend> 20 December 2025"
        if (el is None or (text.is_text and el.tag in _NOT_TEXT) or not _YEARISH.search(text)
                or not _DATE_TEXT.may_match(text) or not DATE_RE.search(text)):
            continue
        texts.append((text, el))
        if len(texts) >= TEXT_MAX_CANDIDATES:
            break
    wanted = {el for el, *_ in placed} | shown_els | {el for _, el in texts} | ({h1} if h1 is not None else set())
    order: dict = {}
    n = 0
    for n, el in enumerate(root.iter()):
        if el in wanted:
            order[el] = n
    for el in sorted(shown_els, key=order.__getitem__):
        prop = el.get("itemprop") or ""
        value = el.get("datetime") or el.get("content") or (el.text_content() or "")[:TEXT_MAX_CHARS]
        parent = el.getparent()
        context = " ".join(filter(None, (prop, el.get("class"), parent.get("class") if parent is not None else None)))
        modified = bool(_MODIFIED.search(context))
        if prop:
            add(value, "itemprop_modified" if modified else "itemprop_published", el, shown=True)
        else:
            add(value, "time_modified" if modified else "time", el, shown=True)
    for text, el in texts:
        add(str(text), "text_modified" if _UPDATED.search(text + " " + (el.get("class") or "")) else "text", el, shown=True)
    known: dict = {}  # _surroundings' ancestors
    for el, d, source, shown in placed:
        inside, aside = _surroundings(el, known)
        out.append(Candidate(d, source, order.get(el), inside, aside, shown=shown))
    return with_htmldate(PageDates(out, order.get(h1) if h1 is not None else None, n + 1), htmldate, today)


def with_htmldate(page: PageDates, htmldate: str | None, today: dt.date | None = None) -> PageDates:
    """`page` with htmldate's pick (an ISO string, as trafilatura's metadata holds it) among its
    candidates, first, as date_candidates places it."""
    d = _value_date(htmldate, today) if isinstance(htmldate, str) else htmldate
    if d is None:
        return page
    return PageDates([Candidate(d, "htmldate"), *page.candidates], page.h1_index, page.n_nodes)


FEATURES = (
    *(f"n_{s}" for s in SOURCES),
    "n_sources", "n_mentions", "n_published_type", "only_modified",
    "n_dates", "is_earliest", "is_latest", "rank_from_earliest",
    "has_url", "days_to_url", "after_url",
    "has_htmldate", "days_to_htmldate",
    "days_to_earliest", "days_to_latest",
    "first_index_frac", "elements_from_h1", "before_h1",
    "any_in_article", "any_in_aside", "all_in_aside", "jsonld_article",
    "text_order", "head_mentions",
    "order_after_h1", "nearest_from_h1", "n_days_after_h1", "shown_after_h1",
)


def day_features(page: PageDates) -> tuple[list[dt.date], list[list[float]]]:
    """The distinct days among the page's candidates (earliest first) and one FEATURES row for each."""
    h1_index, n_elements = page.h1_index, page.n_nodes
    # a day written only in readers' comments, a sidebar or a list of other articles dates something
    # else (615 such days on the dev pages, 1 of them a publication date): it counts among the
    # page's dates but is never chosen
    candidates = page.candidates
    days = sorted({c.date for c in candidates})
    chosen = {c.date for c in candidates if not (c.shown and c.in_aside)}
    if not days:
        return [], []
    url_day = next((c.date for c in candidates if c.source == "url"), None)
    pick = next((c.date for c in candidates if c.source == "htmldate"), None)
    text_days = list(dict.fromkeys(c.date for c in sorted(
        (c for c in candidates if c.source in ("text", "text_modified")), key=lambda c: c.index or 0)))
    # the days the page shows under its headline, nearest first (comments and related lists aside)
    shown = sorted((c for c in candidates if c.shown and not c.in_aside and c.index is not None
                    and (h1_index is None or c.index > h1_index)), key=lambda c: c.index)
    shown_days = list(dict.fromkeys(c.date for c in shown))
    rows = []
    n = len(days)
    for r, day in enumerate(days):
        mine = [c for c in candidates if c.date == day]
        counts = [sum(c.source == s for c in mine) for s in SOURCES]
        sources = {c.source for c in mine}
        placed = [c for c in mine if c.index is not None]
        first = min((c.index for c in placed), default=None)
        in_page = [c for c in mine if c.shown]
        mine_shown = [c.index - (h1_index or 0) for c in shown if c.date == day]
        row = [
            *counts,
            len(sources), len(mine), sum(s not in MODIFIED_SOURCES and s not in ("url", "htmldate") for s in sources),
            float(sources <= MODIFIED_SOURCES),
            n, float(r == 0), float(r == n - 1), r / max(n - 1, 1),
            float(url_day is not None), abs((day - url_day).days) if url_day else -1.0,
            float(url_day is not None and day > url_day),
            float(pick is not None), abs((day - pick).days) if pick else -1.0,
            (day - days[0]).days, (days[-1] - day).days,
            first / n_elements if first is not None and n_elements else -1.0,
            abs(first - h1_index) if first is not None and h1_index is not None else -1.0,
            float(first is not None and h1_index is not None and first < h1_index),
            float(any(c.in_article for c in in_page)), float(any(c.in_aside for c in in_page)),
            float(bool(in_page) and all(c.in_aside for c in in_page)),
            float(any(c.article_type for c in mine if c.source.startswith("jsonld"))),
            float(text_days.index(day)) if day in text_days else -1.0,
            sum(c.index is None and c.source not in ("url", "htmldate") for c in mine),
            float(shown_days.index(day)) if day in shown_days else -1.0,
            min((c.index - h1_index for c in placed), key=abs) if placed and h1_index is not None else -9999.0,
            len(shown_days), min(mine_shown, default=-1.0),
        ]
        rows.append([float(x) for x in row])
    keep = [i for i, day in enumerate(days) if day in chosen]
    return [days[i] for i in keep], [rows[i] for i in keep]


@dataclass(frozen=True)
class Rankers:
    """The packaged models' predict functions and thresholds (date_ranker.json)."""

    full: Callable  # over candidates with htmldate's pick
    threshold: float  # the full model's best day is given from this score up
    own: Callable  # over the page's own candidates (no htmldate)
    own_decides_at: float  # the own model's best day is the answer from this score up (own_decides)


@lru_cache(maxsize=1)
def _model() -> Rankers:
    """The packaged rankers, read once. The trees score through newsclean.cleaners.model.compiled as
    the line model's do (native code, bit-identical to LightGBM, cached per machine), so a worker
    with a warm cache never imports LightGBM for them."""
    from newsclean.cleaners.model.compiled import file_predictor

    meta = json.loads(META_FILE.read_text(encoding="utf-8"))
    if tuple(meta["features"]) != FEATURES or "own_decides_at" not in meta:
        raise RuntimeError(f"{META_FILE.name} was trained on other features; rebuild it with "
                           "python -m newsclean.cleaners.metadata.train_date_ranker")
    return Rankers(file_predictor(MODEL_FILE), float(meta["threshold"]),
                   file_predictor(OWN_MODEL_FILE), float(meta["own_decides_at"]))


def score_days(rows: Iterable[list[float]], predict: Callable | None = None):
    """Each row's score by `predict` (the full model by default)."""
    import numpy as np

    rows = list(rows)
    if not rows:
        return np.zeros(0)
    return (predict or _model().full)(np.asarray(rows, dtype=np.float64))


def best(days: list[dt.date], scores) -> tuple[dt.date | None, float]:
    """The best-scored day and its score (ties: the earliest day); (None, -1.0) without days."""
    if not days:
        return None, -1.0
    i = max(range(len(days)), key=lambda j: (scores[j], -j))
    return days[i], float(scores[i])


def choose(days: list[dt.date], scores, threshold: float) -> dt.date | None:
    """The best-scored day, or None when its score is under `threshold`."""
    day, score = best(days, scores)
    return day if day is not None and score >= threshold else None


def own_decides(days: list[dt.date], scores, at: float) -> dt.date | None:
    """The own model's answer without htmldate: its best day when it scores `at` or more and every
    other day `1 - at` or less (a page whose markup states two dates, its publication's and its
    revision's as published, is left to the full model); else None."""
    day, score = best(days, scores)
    if day is None or score < at:
        return None
    return day if sum(s > 1.0 - at for s in scores) <= 1 else None


def published_date(tree, url: str | None, htmldate: str | Callable[[], str | None] | None,
                   today: dt.date | None = None, jsonld: tuple | None = None) -> dt.date | None:
    """The page's publication date, or None when no candidate is likely enough. `htmldate`: its
    pick, or a function that finds it, called only when the page's own dates leave it open."""
    rankers = _model()
    page = date_candidates(tree, url, None, today, jsonld)
    days, rows = day_features(page)
    day = own_decides(days, score_days(rows, rankers.own), rankers.own_decides_at)
    if day is not None:
        return day
    with_pick = with_htmldate(page, htmldate() if callable(htmldate) else htmldate, today)
    if with_pick is not page:  # htmldate found a date: the days' features change with it
        days, rows = day_features(with_pick)
    return choose(days, score_days(rows, rankers.full), rankers.threshold)
