"""The HTML path's publication date: every date a page offers is a candidate with its source and
place (newsclean.cleaners.metadata.date_ranker), and the packaged ranker picks the publication date
among them, or none; dates that look like it (the page's revision, a reader's comment, a related
article's) do not win."""
from __future__ import annotations

import datetime as dt
import json

import pytest

from newsclean.cleaners.extract_html import extract_html, page_metadata, parse_html
from newsclean.cleaners.metadata import date_ranker as dr
from newsclean.cleaners.model.compiled import read_booster

PUBLISHED, MODIFIED, COMMENT, RELATED, OLDER = (dt.date(2024, 3, 5), dt.date(2024, 6, 20), dt.date(2024, 3, 7),
                                               dt.date(2024, 1, 9), dt.date(2023, 11, 2))
BODY = ("<p>The storm reached the coast on Tuesday night, and the town's harbour flooded before dawn. "
        "Residents said the water rose faster than in 2019, when the sea wall was last raised.</p>"
        "<p>The council will meet on Friday to decide how the repairs are paid for, its leader said.</p>")

ARTICLE = f"""<html><head><title>Storm hits coast</title>
<meta property="article:published_time" content="2024-03-05T08:00:00+00:00">
<meta property="article:modified_time" content="2024-06-20T10:00:00+00:00">
<meta name="parsely-pub-date" content="2024-03-05T08:00:00Z">
<script type="application/ld+json">{{"@context": "https://schema.org", "@type": "NewsArticle",
 "headline": "Storm hits coast", "datePublished": "2024-03-05T08:00:00Z", "dateModified": "2024-06-20T10:00:00Z",
 "isPartOf": {{"@type": "CreativeWorkSeries", "datePublished": "2010-01-01"}}}}</script>
</head><body><header><nav><a href="/">Home</a></nav></header>
<article><h1>Storm hits coast</h1>
<div class="byline">By Jane Roe, <time datetime="2024-03-05">March 5, 2024</time></div>
<p class="updated">Updated June 20, 2024</p>
{BODY}
</article>
<aside class="related"><h3>Related</h3><ul>
<li><a href="/a">Older storm</a> <time datetime="2023-11-02">Nov 2, 2023</time></li>
<li><a href="/b">Flood defences</a> <span class="date">January 9, 2024</span></li></ul></aside>
<section id="comments"><div class="comment"><span class="comment-date">March 7, 2024 at 9:15 am</span>
<p>Stay safe!</p></div></section>
</body></html>"""


def _sources(page: dr.PageDates) -> dict[str, set[dt.date]]:
    out: dict[str, set[dt.date]] = {}
    for c in page.candidates:
        out.setdefault(c.source, set()).add(c.date)
    return out


def test_candidates_carry_their_source():
    page = dr.date_candidates(parse_html(ARTICLE), "https://example.com/2024/03/05/storm", "2024-03-05")
    got = _sources(page)
    assert got["htmldate"] == {PUBLISHED} and got["url"] == {PUBLISHED}
    assert got["meta_published"] == {PUBLISHED}  # article:published_time and parsely-pub-date
    assert got["meta_modified"] == {MODIFIED}
    assert got["jsonld_published"] == {PUBLISHED} and got["jsonld_modified"] == {MODIFIED}
    assert got["jsonld_nested"] == {dt.date(2010, 1, 1)}  # the series' date, not the article's
    assert got["text_modified"] == {MODIFIED}  # "Updated June 20, 2024"
    assert {PUBLISHED, OLDER} <= got["time"]
    assert {COMMENT, RELATED} <= got["text"]
    assert dt.date(2019, 1, 1) not in {c.date for c in page.candidates}  # a year in the story is no date


def test_candidates_know_where_they_sit():
    page = dr.date_candidates(parse_html(ARTICLE), None, None)
    by = {(c.source, c.date): c for c in page.candidates}
    byline = by[("time", PUBLISHED)]
    assert byline.shown and byline.in_article and not byline.in_aside
    assert page.h1_index is not None and 0 < byline.index - page.h1_index < 5
    for look_alike in (("time", OLDER), ("text", RELATED), ("text", COMMENT)):
        assert by[look_alike].in_aside and by[look_alike].shown, look_alike
    assert not by[("meta_published", PUBLISHED)].shown and by[("meta_published", PUBLISHED)].index is None


def test_meta_names_are_read_generically():
    html = """<html><head><meta name="sailthru.date" content="2021-07-22 10:00:00">
    <meta name="DC.date.issued" content="2021-07-22"><meta name="last-modified" content="2022-01-03">
    <meta name="viewport" content="width=device-width"><meta name="date" content="22/07/2021">
    <meta itemprop="dateCreated" content="20210722"></head><body><p>x</p></body></html>"""
    got = _sources(dr.date_candidates(parse_html(html)))
    assert got["meta_published"] == {dt.date(2021, 7, 22)}  # DC.date.issued, dateCreated (20210722)
    assert got["meta_modified"] == {dt.date(2022, 1, 3)}
    assert got["meta_date"] == {dt.date(2021, 7, 22)}  # sailthru.date, date (day first)


def test_dates_out_of_range_and_broken_markup_are_no_candidates():
    html = """<html><head><script type="application/ld+json">{"datePublished": "2999-01-01", </script>
    <script type="application/ld+json">{"datePublished": "1970-01-01T00:00:00Z"}</script></head>
    <body><time datetime="soon">Soon</time><p>Posted 31 February 2020</p></body></html>"""
    assert dr.date_candidates(parse_html(html)).candidates == []


def test_the_published_date_wins_over_its_look_alikes():
    tree = parse_html(ARTICLE)
    assert dr.published_date(tree, None, None) == PUBLISHED
    assert dr.published_date(tree, None, MODIFIED.isoformat()) == PUBLISHED  # htmldate's pick is one candidate


def test_a_comment_or_related_date_alone_gives_no_date():
    html = f"""<html><body><article><h1>Storm hits coast</h1>{BODY}</article>
    <aside class="related"><ul><li><a href="/a">Older storm</a> <time datetime="2023-11-02">Nov 2, 2023</time></li></ul></aside>
    <section id="comments"><div class="comment"><span>March 7, 2024 at 9:15 am</span><p>Nice</p></div></section>
    </body></html>"""
    tree = parse_html(html)
    assert {c.date for c in dr.date_candidates(tree).candidates} == {OLDER, COMMENT}
    assert dr.published_date(tree, None, None) is None


def test_the_byline_date_under_the_headline_is_taken():
    html = f"""<html><body><article><h1>Storm hits coast</h1><p class="meta">By Jane Roe | March 5, 2024</p>
    {BODY}</article></body></html>"""
    assert dr.published_date(parse_html(html), None, None) == PUBLISHED


def test_extract_html_takes_the_ranked_date_over_htmldates_pick():
    # only a revision date in the markup: htmldate gives it; the byline under the headline wins
    html = f"""<html><head><meta property="article:modified_time" content="2024-06-20T10:00:00Z"></head><body>
    <article><h1>Storm hits coast</h1><p class="byline">By Jane Roe | March 5, 2024</p>{BODY}</article></body></html>"""
    assert page_metadata(parse_html(html), None).date == MODIFIED.isoformat()
    assert extract_html(html.encode()).published == PUBLISHED
    assert extract_html(ARTICLE.encode(), url="https://example.com/news/storm-hits-coast").published == PUBLISHED


@pytest.mark.parametrize("scores, threshold, expected", [
    ([0.2, 0.9, 0.3], 0.5, 1),
    ([0.2, 0.4, 0.3], 0.5, None),  # no day likely enough: none
    ([0.7, 0.7], 0.5, 0),  # a tie: the earlier day
])
def test_choose_takes_the_best_day_over_the_threshold(scores, threshold, expected):
    days = [dt.date(2024, 1, d) for d in range(1, len(scores) + 1)]
    assert dr.choose(days, scores, threshold) == (days[expected] if expected is not None else None)


def test_packaged_ranker_was_trained_on_these_features():
    meta = json.loads(dr.META_FILE.read_text(encoding="utf-8"))
    assert tuple(meta["features"]) == dr.FEATURES
    assert 0.0 < meta["threshold"] < 1.0
    assert meta["threshold"] < meta["own_decides_at"] <= 1.0  # the own model decides only where it is sure
    cv = meta["cv"]
    for key in ("with_url", "without_url"):  # the two models together lose nothing against the full one
        assert cv["ranker"][key]["date_exact"] >= cv["full_model"][key]["date_exact"]
        assert cv["ranker"][key]["date_wrong"] <= cv["full_model"][key]["date_wrong"]


@pytest.mark.parametrize("attr, path", [("full", dr.MODEL_FILE), ("own", dr.OWN_MODEL_FILE)])
def test_the_rankers_score_through_compiled_trees_as_lightgbm_does(attr, path):
    """The packaged rankers run as native code (newsclean.cleaners.model.compiled), bit for bit what
    LightGBM gives, on rows at every split threshold of their trees."""
    import numpy as np

    from newsclean.cleaners.model.compiled import probe_rows

    predict = getattr(dr._model(), attr)
    assert getattr(predict, "compiled", False)
    rows = probe_rows(path.read_text(encoding="utf-8"), len(dr.FEATURES), rows=128, seed=3)
    assert np.array_equal(predict(rows), read_booster(path).predict(rows, num_threads=1))


class _Pick:
    """htmldate's pick as published_date asks for it, counting the calls."""

    def __init__(self, value):
        self.value, self.calls = value, 0

    def __call__(self):
        self.calls += 1
        return self.value


def test_htmldate_is_not_asked_where_the_page_states_its_date():
    """A page whose markup and byline agree on one publication date: the own model decides, and
    htmldate's search (the dearest step of the page's metadata) never runs."""
    pick = _Pick(MODIFIED.isoformat())
    assert dr.published_date(parse_html(ARTICLE), None, pick) == PUBLISHED
    assert pick.calls == 0


def test_htmldate_is_asked_where_the_page_leaves_the_date_open():
    """Only a revision date in the markup: the own model is not sure, htmldate's pick joins the
    candidates and the full model decides, as it would have with the pick from the start."""
    html = f"""<html><head><meta property="article:modified_time" content="2024-06-20T10:00:00Z"></head><body>
    <article><h1>Storm hits coast</h1>{BODY}</article></body></html>"""
    tree = parse_html(html)
    pick = _Pick(MODIFIED.isoformat())
    lazily = dr.published_date(tree, None, pick)
    assert pick.calls == 1
    page = dr.date_candidates(tree, None, MODIFIED.isoformat())
    days, rows = dr.day_features(page)
    assert lazily == dr.choose(days, dr.score_days(rows), dr._model().threshold)


def test_with_htmldate_places_the_pick_as_date_candidates_does():
    tree = parse_html(ARTICLE)
    url = "https://example.com/2024/03/05/storm"
    assert dr.with_htmldate(dr.date_candidates(tree, url), "2024-03-05") == dr.date_candidates(tree, url, "2024-03-05")
    assert dr.with_htmldate(dr.date_candidates(tree, url), None) == dr.date_candidates(tree, url)


def test_extract_html_asks_htmldate_only_through_the_date_ranker(monkeypatch):
    """The HTML path's metadata runs without htmldate; its pick, when the ranker asks, is the one
    trafilatura's extract_metadata gives on the same tree."""
    import newsclean.cleaners.extract_html as eh

    tree = parse_html(ARTICLE)
    url = "https://example.com/news/storm-hits-coast"
    without = page_metadata(tree, url, with_date=False)
    assert without.date is None
    assert eh.htmldate_pick(tree, without.url) == page_metadata(tree, url).date == PUBLISHED.isoformat()
    calls = []
    monkeypatch.setattr(eh, "htmldate_pick", lambda *a: calls.append(a) or None)
    assert extract_html(ARTICLE.encode(), url=url).published == PUBLISHED
    assert calls == []  # the page states its date: htmldate never ran


def test_the_page_json_ld_is_read_once_for_both_rankers():
    """extract_html parses the page's JSON-LD once (newsclean.cleaners.metadata.jsonld) and hands the
    blocks to the date and the headline rankers: given the blocks, each reads the same as alone."""
    from newsclean.cleaners.metadata import title_ranker as tr
    from newsclean.cleaners.metadata.jsonld import jsonld_blocks

    html = ('<html><head><script type="application/ld+json">{"@type": "NewsArticle", "headline": "Storm hits the coast",'
            ' "datePublished": "2024-03-05T08:00:00Z"}</script><script type="application/ld+json">not json</script>'
            '</head><body><h1>Storm hits the coast</h1><p>Text.</p></body></html>')
    tree = parse_html(html)
    blocks = jsonld_blocks(tree)
    assert blocks == ({"@type": "NewsArticle", "headline": "Storm hits the coast", "datePublished": "2024-03-05T08:00:00Z"},)
    assert dr.date_candidates(tree, jsonld=blocks) == dr.date_candidates(tree)
    assert tr.page_titles_evidence(tree, jsonld=blocks) == tr.page_titles_evidence(tree)
    assert ("jsonld_headline", "Storm hits the coast") in tr.page_titles_evidence(tree).metas


# The candidate finder as XPaths (each element's and text's place: its position in root.iter()):
# date_candidates finds the same elements by lxml's iteration and cheaper XPaths.
_SHOWN_XPATH = "/html/body/descendant::*[self::time or starts-with(@itemprop, 'date')][not(self::meta)]"
_H1_XPATH = "/html/body/descendant::h1[1]"


def _reference_places(root) -> tuple[list, list, object]:
    """(the shown dates' elements, the accepted year texts (element, text), the first <h1>) as the
    XPaths select them, in document order."""
    from newsclean.cleaners.rules.dateline import DATE_RE

    shown = root.xpath(_SHOWN_XPATH)
    texts = []
    for text in root.xpath("/html/body/descendant::text()[contains(., '20') or contains(., '19')]"
                           "[string-length(.) <= $most]", most=dr.TEXT_MAX_CHARS):
        el = text.getparent()
        if el is None or (text.is_text and el.tag in dr._NOT_TEXT) or not dr._YEARISH.search(text) or not DATE_RE.search(text):
            continue
        texts.append((el, str(text)))
        if len(texts) >= dr.TEXT_MAX_CANDIDATES:
            break
    h1 = root.xpath(_H1_XPATH)
    return shown, texts, h1[0] if h1 else None


def _places_match(html: str) -> None:
    today = dt.date(2026, 11, 28)
    tree = parse_html(html)
    root = tree.getroottree().getroot()
    page = dr.date_candidates(tree, None, None, today)
    position = {el: n for n, el in enumerate(root.iter())}
    shown, texts, h1 = _reference_places(root)
    assert page.h1_index == (position[h1] if h1 is not None else None)
    assert page.n_nodes == len(position)
    dated = lambda el, value: dr._value_date(value, today) is not None  # noqa: E731
    want_shown = [position[el] for el in shown
                  if dated(el, el.get("datetime") or el.get("content") or el.text_content()[:dr.TEXT_MAX_CHARS])]
    got_shown = [c.index for c in page.candidates if c.shown and c.source.startswith(("time", "itemprop"))]
    assert got_shown == want_shown
    got_texts = [c.index for c in page.candidates if c.source in ("text", "text_modified")]
    assert got_texts == [position[el] for el, value in texts if dated(el, value)]
LOOKALIKE_DATES = """<html><head><meta itemprop="datePublished" content="2024-01-01"></head><body>
<div><h2>Not the headline</h2><time datetime="2024-03-05">5 March 2024</time></div>
<p itemprop="dateModified" content="2024-06-20">Updated 20 June 2024</p>
<time itemprop="datePublished" datetime="2024-03-04">4 March 2024</time>
<meta itemprop="dateCreated" content="2024-02-02">
<h1>First headline</h1><h1>Second headline</h1>
<span itemprop="datetext">no date here</span><span itemprop="about">12 May 2020</span>
<script>var built = "2021-01-01";</script><time>2 April 2019</time>
<legend>Title</legend> 20 December 2025
</body><body><h1>A second body's headline</h1><time datetime="2020-02-02">2 Feb 2020</time></body></html>"""


@pytest.mark.parametrize("html", [ARTICLE, LOOKALIKE_DATES, "<html><body><p>No date, no headline.</p></body></html>",
                                  "<div><time datetime='2024-01-01'>x</time></div>"])
def test_the_candidates_sit_where_the_xpaths_find_them(html):
    _places_match(html)


def test_the_candidates_sit_where_the_xpaths_find_them_on_the_fixture_pages():
    import gzip
    from pathlib import Path

    from newsclean.cleaners.extract_html import decode_html

    pages = Path(__file__).parent / "data" / "html_pages"
    for line in (pages / "expected.jsonl").read_text(encoding="utf-8").splitlines():
        with gzip.open(pages / json.loads(line)["file"], "rb") as fh:
            _places_match(decode_html(fh.read())[0])
