"""The page-kind decision on real pages: a page that is not an article is quarantined with its kind.

tests/data/page_kinds holds two real pages of each kind (WCXB, CC-BY-4.0; its README): a listing of
teasers, a forum thread, a product page, a service page, a documentation page and a shop's category
page. Each is quarantined by the HTML path with a reason that names its kind and the setting that
turns the decision off; with it off (the default), the page is cleaned as an article would be. Real article pages
(tests/data/html_pages) come out as they do with the decision off, and a fragment of HTML (a
record's body, a page written by hand) is never judged.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from newsclean.cleaners.extract_html import extract_html
from newsclean.cleaners.page_kind import KIND_SETTING, is_whole_page, kind_reason
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import PARAGRAPHS

DATA = Path(__file__).parent / "data"
KIND_PAGES = json.loads((DATA / "page_kinds" / "pages.json").read_text(encoding="utf-8"))
ARTICLE_PAGES = [json.loads(line) for line in (DATA / "html_pages" / "expected.jsonl").read_text(encoding="utf-8").splitlines()
                 if json.loads(line)["url"]]
# what the reason says for each labelled kind
SAYS = {"listing": "a listing of", "forum": "a forum thread", "product": "a product page",
        "service": "a service or company page", "documentation": "a documentation page",
        "collection": ("a category page of", "a shop's category page")}
ON = Settings(quarantine_non_articles=True)  # the decision is opt-in
OFF = Settings()


def _raw(folder: str, file: str, url: str) -> RawDocument:
    with gzip.open(DATA / folder / file, "rb") as fh:
        return RawDocument(source=file, data=fh.read(), format="html", meta={"url": url})


@pytest.mark.parametrize("page", KIND_PAGES, ids=lambda p: f"{p['kind']}-{p['file'][:-8]}")
def test_a_page_that_is_not_an_article_is_quarantined_with_its_kind(page):
    with pytest.raises(DocumentError) as err:
        clean_document(_raw("page_kinds", page["file"], page["url"]), ON)
    reason = err.value.reason
    assert err.value.stage == "decide"
    says = SAYS[page["kind"]]
    assert reason.startswith(says), reason
    assert ", not an article" in reason and f"set {KIND_SETTING} = false" in reason


@pytest.mark.parametrize("page", [p for p in KIND_PAGES if p["kind"] == "listing"], ids=lambda p: p["file"][:-8])
def test_a_listing_names_how_many_teasers_it_holds(page):
    with pytest.raises(DocumentError) as err:
        clean_document(_raw("page_kinds", page["file"], page["url"]), ON)
    count = err.value.reason.split("a listing of ", 1)[1].split(" teasers", 1)[0]
    assert count.isdigit() and int(count) >= 3


@pytest.mark.parametrize("page", KIND_PAGES, ids=lambda p: f"{p['kind']}-{p['file'][:-8]}")
def test_with_the_setting_off_the_page_is_not_judged(page):
    try:
        clean_document(_raw("page_kinds", page["file"], page["url"]), OFF)
    except DocumentError as err:  # it may hold no article body at all: then it says so, not its kind
        assert "not an article (page-kind model" not in err.reason


@pytest.mark.parametrize("page", ARTICLE_PAGES, ids=lambda p: p["id"])
def test_real_article_pages_come_out_as_without_the_decision(page):
    raw = _raw("html_pages", page["file"], page["url"])
    ext = extract_html(raw.data, url=page["url"], page_kind=True)
    assert is_whole_page(ext.page) and kind_reason(ext.page) is None
    assert clean_document(raw, ON) == clean_document(raw, OFF)


def test_a_fragment_of_html_is_not_judged():
    """A record's body HTML (no head, a few elements) is outside what the model learnt."""
    teasers = "".join(f'<div class="card"><h3><a href="/s/{i}">Story {i} of the day in the town</a></h3></div>'
                      for i in range(12))
    html = f"<div>{teasers}<p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p></div>"
    ext = extract_html(html.encode(), url="https://example.org/tag/council", page_kind=True)
    assert not is_whole_page(ext.page)
    assert kind_reason(ext.page) is None


def test_the_decision_is_off_by_default_and_then_costs_nothing():
    """Off (the default), no page is judged and extract_html does not measure the page's kind."""
    page = KIND_PAGES[0]
    assert Settings().quarantine_non_articles is False
    raw = _raw("page_kinds", page["file"], page["url"])
    assert extract_html(raw.data, url=page["url"]).page == ()
    try:
        clean_document(raw, Settings())
    except DocumentError as err:
        assert "not an article (page-kind model" not in err.reason
