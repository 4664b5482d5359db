"""Pages that are not an article: what a scraper saved instead of the story.

A crawl keeps some pages that hold no article at all: a bot check or an access block ("Checking
your browser before accessing …"), the empty shell of a page whose text a script would have made
("You need to enable JavaScript to run this app."), an error page ("404 Not Found"), a frameset, or
a redirect. Their lines are debris to the line rules (newsclean.cleaners.rules.navigation.ACCESS_NOTICE), but
what is left of such a page is a few lines of its notice, and writing that as an article would put
"This process is automatic." into the corpus. So a short document that holds such a notice is
quarantined with what to do about it, and so is a page whose markup says its content is elsewhere.
A long article that quotes a notice ("the site showed 'Access denied' for hours") stays: the notice
must be a line of its own, and the text short.

An HTML page can also be a whole page of the wrong kind: a section front or tag page of teasers, a
forum thread, a product page or a shop's category page, a service page, a documentation page.
kind_reason reads the page's features (newsclean.cleaners.page_features, computed by extract_html)
with the packaged page-kind model (cleaners/model/files/page_kind/: page_kind.lgb.txt and page_kind.json,
P(not an article) and which kind, trained by newsclean.cleaners.model.train_page_kind) and names the kind, with a count where
one is natural ("a listing of 24 teasers, not an article").
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Iterable

import numpy as np

from newsclean.cleaners.page_features import FEATURE_NAMES, feature
from newsclean.cleaners.rules.encoded_data import is_encoded_data
from newsclean.cleaners.rules.navigation import ACCESS_NOTICE
from newsclean.cleaners.types import Span

INTERSTITIAL_MAX_WORDS = 80  # a notice page's text; an article, even a brief, is longer
NOTICE_MAX_WORDS = 25  # a notice is a line of its own, not a sentence that quotes one
SHELL_MAX_CHARS = 200  # the text of a frameset or a redirect page: a line or two at most
REDIRECT_MAX_DELAY_S = 10  # a news page that reloads itself waits minutes

REASONS = {
    "bot_check": "the page is a bot check or an access block ({quote}), not the article; fetch it again "
                 "(more slowly, or with a browser)",
    "script_shell": "the page's text is made by a script in the browser ({quote}), so the saved page holds "
                    "none of the article; save it after rendering (with a headless browser)",
    "error_page": "the page is an error page ({quote}), not an article; check its URL or fetch it again",
}
_REFRESH = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[;,]\s*url\s*=\s*['\"]?([^'\"\s]+)", re.I)


def _quote(line: str) -> str:
    line = " ".join(line.split())
    return f'"{line[:57]}…"' if len(line) > 60 else f'"{line}"'


def interstitial_reason(title: str | None, text: str, removed: Iterable[Span] = ()) -> str | None:
    """Why a cleaned document is a notice page rather than an article (REASONS), or None: its text
    is short and its headline, one of its paragraphs or a line removed whole is an access notice."""
    if len(text.split(None, INTERSTITIAL_MAX_WORDS)) > INTERSTITIAL_MAX_WORDS:  # every document asks: no whole split
        return None
    return notice_reason([title or "", *text.split("\n\n"), *(s.text for s in removed if s.whole_line)])


def notice_reason(lines: Iterable[str]) -> str | None:
    """REASONS for the first of `lines` that is an access notice of its own, or None. On a
    document with no article body left, this says why better than "every line looks like debris"."""
    for line in lines:
        if line and len(line.split()) <= NOTICE_MAX_WORDS:
            m = ACCESS_NOTICE.search(line.strip())
            if m is not None and m.lastgroup in REASONS:
                return REASONS[m.lastgroup].format(quote=_quote(line))
    return None


def data_reason(text: str) -> str | None:
    """Why a document with no article body left is not text at all, or None: runs of encoded data
    (newsclean.cleaners.rules.encoded_data: base64, a minified script, a hex dump) are most of its characters."""
    if not is_encoded_data(text):
        return None
    longest = max(len(run) for run in text.split())
    return (f"the document is encoded data, not text (a run of {longest:,} characters without a space: base64, "
            "a script or a binary file read as text); check the file, or the record's text field")


def shell_reason(tree) -> str | None:
    """Why a page with (almost) no text holds no article, read from its markup: a frameset (the
    text is in the pages it frames) or a redirect (a meta refresh to another address); or None."""
    root = tree.getroottree().getroot()
    if next(root.iter("frameset"), None) is not None:
        sources = [f.get("src") for f in root.iter("frame") if f.get("src")]
        where = ", ".join(sources[:5]) if sources else "no source given"
        return f"the page is a frameset: its text is in the pages it frames ({where}); fetch those pages instead"
    for meta in root.iter("meta"):
        if (meta.get("http-equiv") or "").strip().lower() == "refresh":
            m = _REFRESH.match(meta.get("content") or "")
            if m is not None and float(m.group(1)) <= REDIRECT_MAX_DELAY_S:
                return f"the page redirects to {m.group(2)[:200]} (a meta refresh) and holds no article; fetch that address instead"
    return None


KIND_FILES = Path(__file__).resolve().parent / "model" / "files" / "page_kind"
KIND_SETTING = "quarantine_non_articles"
COUNT_MIN = 3  # a count under this is not worth saying ("a listing of 2 teasers")
# The model judges a page as a site serves it: a head of metadata, scripts and styles, and a body of
# many elements (all but 9 of the 1,395 dev pages have both). A fragment (an export's rendered body
# HTML) or a hand-made page has neither and lies outside what the model learnt: the pipeline judges
# its visible text with the text path's model instead (extract_html's fragment_text, TEXT_MODEL).
WHOLE_PAGE_HEAD = 5  # <meta>, <link>, <script>, <style> and <base> elements
WHOLE_PAGE_ELEMENTS = 50


def is_whole_page(features: tuple[float, ...]) -> bool:
    """Whether page_features describe a page as a site serves it (see WHOLE_PAGE_HEAD)."""
    return feature(features, "n_head") >= WHOLE_PAGE_HEAD and feature(features, "n_elements") >= WHOLE_PAGE_ELEMENTS


def _kind_phrase(kind: str, teasers: int = 0, posts: int = 0, products: int = 0) -> str:
    """What the page is, with a count where one is natural and known (0: not known): the teasers
    of a listing, the posts of a thread, the products of a category page."""
    if kind == "listing":
        return f"a listing of {teasers} teasers" if teasers >= COUNT_MIN else "a listing of teasers"
    if kind == "forum":
        return f"a forum thread of {posts} posts" if posts >= COUNT_MIN else "a forum thread"
    if kind == "collection":
        return f"a category page of {products} products" if products >= COUNT_MIN else "a shop's category page"
    return {"product": "a product page", "service": "a service or company page (what it offers)",
            "documentation": "a documentation page"}.get(kind, f"a {kind} page")


def _kind_text(kind: str, f: tuple[float, ...]) -> str:
    """_kind_phrase of an HTML page, counted from its markup (page_features)."""
    runs = int(feature(f, "repeat_linked_max"))
    return _kind_phrase(kind, teasers=max(int(feature(f, "n_linked_headings")), int(feature(f, "n_article")), runs),
                        # the run of blocks marked as posts, else the run that holds the most text
                        posts=int(feature(f, "repeat_post_max")) or int(feature(f, "run_text_items")),
                        products=runs)


TEXT_MODEL = "page_kind_text"  # the text path's model: page_kind_text.lgb.txt and page_kind_text.json


@lru_cache(maxsize=2)
def _kind_model(name: str = "page_kind"):
    """NAME.json and the page-kind booster NAME.lgb.txt (page_kind: an HTML page's, TEXT_MODEL: a
    text's), scored by LightGBM itself (one row per page; the compiled path of
    newsclean.cleaners.model.compiled does not reproduce this multiclass model)."""
    from newsclean.cleaners.model.compiled import read_booster
    from newsclean.cleaners.text_page_features import TEXT_FEATURE_NAMES

    meta = json.loads((KIND_FILES / f"{name}.json").read_text(encoding="utf-8"))
    if tuple(meta["features"]) != (TEXT_FEATURE_NAMES if name == TEXT_MODEL else FEATURE_NAMES):
        raise ValueError("the page-kind model's features are not this code's; retrain it with "
                         f"`python -m newsclean.cleaners.model.train_page_kind{' --text' if name == TEXT_MODEL else ''}`")
    return meta, read_booster(KIND_FILES / f"{name}.lgb.txt")


def page_kind(features: tuple[float, ...], name: str = "page_kind") -> tuple[float, str]:
    """P(the page is not an article) from its features (page_features, or text_page_features with
    name TEXT_MODEL), and its likeliest kind if it is not one (one of the json's classes after
    "article")."""
    return page_kinds([features], name)[0]


def page_kinds(rows: list[tuple[float, ...]], name: str = "page_kind") -> list[tuple[float, str]]:
    """page_kind of many pages in one call of the booster (each row scores as it does alone)."""
    meta, booster = _kind_model(name)
    proba = booster.predict(np.array(rows, dtype=np.float64), num_threads=1)
    kinds = np.argmax(proba[:, 1:], axis=1)
    return [(float(1.0 - p[0]), meta["classes"][1 + int(k)]) for p, k in zip(proba, kinds)]


def _reason(what: str, p: float) -> str:
    return f"{what}, not an article (page-kind model, P {p:.2f}); if such pages are articles, set {KIND_SETTING} = false"


def kind_reason(features: tuple[float, ...]) -> str | None:
    """Why an HTML page is not an article, naming its kind, or None (an article, a fragment: judged
    by its text instead, or no features). A whole page (is_whole_page) is not one when the page-kind model's P(not an article)
    reaches the threshold chosen by cross-validation (page_kind.json)."""
    if not features or not is_whole_page(features):
        return None
    meta, _ = _kind_model()
    p, kind = page_kind(features)
    if p < meta["threshold"]:
        return None
    return _reason(_kind_text(kind, features), p)


def _text_kind_text(kind: str, f: tuple[float, ...]) -> str:
    """_kind_phrase of a text, counted from its line shapes (text_page_features): headline-shaped
    lines for teasers, short lines with a date or a time for posts; products are not counted."""
    from newsclean.cleaners.text_page_features import feature as text_feature

    return _kind_phrase(kind, teasers=int(text_feature(f, "n_headlines")), posts=int(text_feature(f, "stamps")))


def text_kind_reason(features: tuple[float, ...] | None, scored: tuple[float, str] | None = None) -> str | None:
    """Why a text (the text path's page, text_page_features) is not an article, naming its kind,
    or None: the text page-kind model's P(not an article) under its cross-validated threshold
    (page_kind_text.json). `scored`: page_kind(features, TEXT_MODEL) when the caller has it (a
    batch scores its pages together: newsclean.cleaners.engine.scoring.KindRequest)."""
    if not features:
        return None
    meta, _ = _kind_model(TEXT_MODEL)
    p, kind = scored if scored is not None else page_kind(features, TEXT_MODEL)
    if p < meta["threshold"]:
        return None
    return _reason(_text_kind_text(kind, features), p)
