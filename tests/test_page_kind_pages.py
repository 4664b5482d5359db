"""The page-kind decision on real pages: a page that is not an article is quarantined with its kind.

tests/data/page_kinds holds two real pages of each kind (WCXB, CC-BY-4.0; its README): a listing of
teasers, a forum thread, a product page, a service page, a documentation page and a shop's category
page. Each is quarantined by the HTML path with a reason that names its kind and the setting that
turns the decision off; with it off (the default), the page is cleaned as an article would be. Real article pages
(tests/data/html_pages) come out as they do with the decision off. A fragment of HTML (a record's
body, a page written by hand) is not judged by the HTML model but by its visible text, on the text
path's model: a forum thread's or a shop's fragment is quarantined, an article's stays.
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


def test_the_html_model_does_not_judge_a_fragment_of_html():
    """A record's body HTML (no head, a few elements) is outside what the HTML model learnt."""
    teasers = "".join(f'<div class="card"><h3><a href="/s/{i}">Story {i} of the day in the town</a></h3></div>'
                      for i in range(12))
    html = f"<div>{teasers}<p>{PARAGRAPHS[0]}</p><p>{PARAGRAPHS[1]}</p></div>"
    ext = extract_html(html.encode(), url="https://example.org/tag/council", page_kind=True)
    assert not is_whole_page(ext.page)
    assert kind_reason(ext.page) is None


FORUM_POSTS = [
    ("rivet_joe", "Has anyone else had trouble with the ferry timetable since the change last month?"),
    ("Marla K", "Same here. The 7:15 has been late every day this week."),
    ("tomcat77", "I emailed the operator and got a stock reply. Not much help."),
    ("oldboater", "Try calling the office in the morning, they were fine with me."),
    ("sparkplug", "Does the season ticket still cover the weekend boats?"),
    ("Denise_R", "Yes, as far as I know, but check the small print."),
    ("harbourfan", "Thanks all, I'll give them a ring tomorrow."),
    ("gk_lee", "Update: they said the old times come back in June."),
]
FORUM_FRAGMENT = ('<div><h2>Ferry timetable changes?</h2><div class="crumbs">Forum › Local transport</div>' + "".join(
    f'<div class="post"><div class="author">{user}</div><div class="date">Posted {i + 3} May 2024 at {i + 1}:{10 + i} pm'
    f'</div><p>{post}</p><div class="tools">Reply · Quote · Report</div></div>' for i, (user, post) in enumerate(FORUM_POSTS))
    + "<p>Page 1 of 3 · Next</p></div>")
PRODUCTS = ["Oak dining chair", "Pine bookcase", "Walnut side table", "Linen armchair", "Rattan lamp", "Wool rug",
            "Teak bench", "Glass coffee table", "Cotton cushion set", "Steel shelf unit"]
SHOP_FRAGMENT = ("<div><h2>Living room furniture</h2><p>Sort by: Price · Newest</p>" + "".join(
    f'<div class="item"><h3>{name}</h3><span class="price">£{49 + 20 * i}.00</span><p>In stock</p></div>'
    for i, name in enumerate(PRODUCTS)) + "<p>Showing 1-10 of 48 products</p></div>")
ARTICLE_FRAGMENT = ("<div><h1>Council votes to expand the city bus network</h1>"
                    + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</div>")


def _fragment(html: str) -> RawDocument:
    return RawDocument(source="fragment.html", data=html.encode(), format="html", meta={"url": "https://example.org/page"})


@pytest.mark.parametrize("html, says", [(FORUM_FRAGMENT, "a forum thread of 8 posts"), (SHOP_FRAGMENT, SAYS["collection"])],
                         ids=["forum", "shop"])
def test_a_fragment_that_is_not_an_article_is_quarantined_by_its_text(html, says):
    ext = extract_html(html.encode(), page_kind=True)
    assert not is_whole_page(ext.page) and ext.fragment_text
    with pytest.raises(DocumentError) as err:
        clean_document(_fragment(html), ON)
    assert err.value.stage == "decide"
    assert err.value.reason.startswith(says), err.value.reason
    assert ", not an article (page-kind model" in err.value.reason and f"set {KIND_SETTING} = false" in err.value.reason
    try:  # off, the fragment is not judged
        clean_document(_fragment(html), OFF)
    except DocumentError as off:
        assert "not an article (page-kind model" not in off.reason


def test_an_article_fragment_stays_an_article():
    assert clean_document(_fragment(ARTICLE_FRAGMENT), ON) == clean_document(_fragment(ARTICLE_FRAGMENT), OFF)


def test_a_whole_page_carries_no_fragment_text():
    """Only a page the HTML model does not judge is judged by its text (and only when asked)."""
    page = KIND_PAGES[0]
    raw = _raw("page_kinds", page["file"], page["url"])
    assert extract_html(raw.data, url=page["url"], page_kind=True).fragment_text is None
    assert extract_html(ARTICLE_FRAGMENT.encode()).fragment_text is None


def test_a_batch_judges_its_fragments_kinds_together_as_each_alone(monkeypatch):
    import newsclean.cleaners.page_kind as pk
    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.pipeline import clean_document_steps

    raws = [_fragment(h) for h in (FORUM_FRAGMENT, SHOP_FRAGMENT, ARTICLE_FRAGMENT)]
    alone = [_outcome(r) for r in raws]
    calls = []
    real = pk.page_kinds
    monkeypatch.setattr(pk, "page_kinds", lambda rows, name="page_kind": calls.append(len(rows)) or real(rows, name))
    together = run_batch([clean_document_steps(r, ON) for r in raws])
    assert [str(r) if isinstance(r, DocumentError) else r for r in together] == alone
    assert max(calls) > 1  # fragments decided in the same round are scored in one call


def _outcome(raw: RawDocument):
    try:
        return clean_document(raw, ON)
    except DocumentError as err:
        return str(err)


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
