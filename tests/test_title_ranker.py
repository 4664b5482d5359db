"""The HTML headline ranker: what a page states as its headline, the candidates, the choice."""
from __future__ import annotations

import pytest

from newsclean.cleaners.extract_html import extract_html, parse_html
from newsclean.cleaners.metadata import title_ranker as tr
from newsclean.cleaners.model.compiled import read_booster
from tests.articles import PARAGRAPHS

HEADLINE = "Council votes to expand the city bus network"
BODY = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)


def _page(head: str = "", before: str = "", article: str = "", after: str = "") -> str:
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>{head}</head><body>"
            f"<header>{before}</header><article>{article}{BODY}</article>{after}</body></html>")


def _title(html: str, url: str | None = "https://www.example-gazette.com/news/2024/council-votes-bus-network") -> str | None:
    return extract_html(html.encode("utf-8"), url=url).title


def test_evidence_reads_every_statement_of_the_headline():
    jsonld = ('<script type="application/ld+json">{"@context": "https://schema.org", "@graph": ['
              '{"@type": "Organization", "name": "Example Gazette"},'
              '{"@type": "NewsArticle", "headline": "Council votes to expand bus network &amp; more"}]}</script>')
    html = _page(head=f"<title>Buses | Example Gazette</title><meta property='og:title' content='OG headline'>"
                      f"<meta name='twitter:title' content='TW headline'>{jsonld}",
                 before="<h1 class='site-logo'>Example Gazette</h1>",
                 article=f"<h1>{HEADLINE}</h1><h2>Related stories</h2>", after="<h2>Outside the article</h2>")
    titles = tr.page_titles_evidence(parse_html(html), "Trafilatura's title")
    assert [(s, t) for s, t, _ in titles.headings] == [("h1", "Example Gazette"), ("h1", HEADLINE), ("h2", "Related stories")]
    assert titles.metas == (("og", "OG headline"), ("twitter", "TW headline"), ("title", "Buses | Example Gazette"),
                            ("jsonld_headline", "Council votes to expand bus network & more"),
                            ("trafilatura", "Trafilatura's title"))
    logo, headline, related = (dict(zip(tr.HEADING_FIELDS, h)) for _, _, h in titles.headings)
    assert logo["in_header"] == 1 and logo["marked"] == 0 and logo["in_article"] == 0
    assert headline["in_article"] == 1 and headline["order"] == 1 and headline["last"] == 1
    assert related["in_article"] == 1


def test_candidates_merge_copies_and_split_titles_at_their_separators():
    titles = tr.PageTitles(headings=(("h1", HEADLINE, (0.0,) * len(tr.HEADING_FIELDS)),),
                           metas=(("og", HEADLINE + "!"), ("title", f"News: {HEADLINE} | Example Gazette")),
                           sitename="Example Gazette", host="www.example-gazette.com")
    by_text = {c.text: c for c in tr.candidates(titles)}
    assert by_text[HEADLINE].sources == {"h1", "og", "piece_middle"}  # the <h1>'s form, without og's "!"
    assert by_text["Example Gazette"].sources == {"piece_last"}
    assert by_text["News"].sources == {"piece_first"} and by_text["News"].cuts == {"colon"}
    assert by_text[f"News: {HEADLINE}"].sources == {"piece_head", "stripped"}
    assert tr.strip_site_suffix("Headline here - BBC News", "BBC News", "www.bbc.co.uk") == "Headline here"
    assert tr.strip_site_suffix("Left - Right", None, None) == "Left - Right"


def test_the_site_name_in_an_h1_is_not_the_headline():
    html = _page(head=f"<title>{HEADLINE} | Example Gazette</title><meta property='og:title' content='{HEADLINE}'>"
                      "<meta property='og:site_name' content='Example Gazette'>",
                 before="<h1>Example Gazette</h1>")
    assert _title(html) == HEADLINE


def test_related_and_newsletter_headings_do_not_win_over_the_headline():
    html = _page(head=f"<title>{HEADLINE} - Example Gazette</title><meta property='og:title' content='{HEADLINE}'>",
                 article=f"<h2>Sign up for our newsletter</h2><h1>{HEADLINE}</h1><h2>Related stories</h2>"
                         "<h2>Mayor promises faster trains by next summer</h2>")
    assert _title(html) == HEADLINE


def test_a_title_with_the_site_name_first_gives_the_headline():
    html = _page(head=f"<title>Example Gazette | {HEADLINE}</title><meta property='og:site_name' content='Example Gazette'>")
    assert _title(html) == HEADLINE


def test_without_an_h1_the_title_loses_its_site_suffix():
    html = _page(head=f"<title>{HEADLINE} - Example Gazette</title>")
    assert _title(html, url=None) == HEADLINE


def test_a_teaser_list_heading_before_the_headline_does_not_win():
    html = _page(head=f"<title>{HEADLINE} | Example Gazette</title><meta property='og:title' content='{HEADLINE}'>",
                 before="<h1>Most read</h1>", article=f"<h1>{HEADLINE}</h1>")
    assert _title(html) == HEADLINE


@pytest.mark.parametrize("headings, metas, expected", [
    # the <h1> every meta title agrees with
    ((("h1", HEADLINE),), (("og", HEADLINE), ("title", f"{HEADLINE} | Example Gazette")), HEADLINE),
    # an <h1> that names the site, against a headline all meta titles state
    ((("h1", "Example Gazette"),), (("og", HEADLINE), ("twitter", HEADLINE), ("title", f"{HEADLINE} | Example Gazette")),
     HEADLINE),
    # an <h1> that names the site, against an unrelated meta title
    ((("h1", "Example Gazette"),), (("og", "Something else entirely"),), "Something else entirely"),
    # only <title>: its piece without the site's name
    ((), (("title", f"{HEADLINE} | Example Gazette"),), HEADLINE),
])
def test_the_ranker_on_crafted_candidate_sets(headings, metas, expected):
    titles = tr.PageTitles(headings=tuple((s, t, (0.0,) * len(tr.HEADING_FIELDS)) for s, t in headings), metas=metas,
                           sitename="Example Gazette", host="www.example-gazette.com")
    assert tr.choose_title(titles, "https://www.example-gazette.com/politics/council-votes-bus-network") == expected


def test_a_page_that_states_no_headline_has_none():
    assert tr.choose_title(tr.PageTitles()) is None
    assert _title(_page(), url=None) is None


def test_the_packaged_ranker_reads_this_codes_features():
    assert tuple(read_booster(tr.MODEL_FILE).feature_name()) == tr.FEATURES
    rows = tr.features(tr.candidates(tr.PageTitles(metas=(("title", f"{HEADLINE} | Example Gazette"),))), tr.PageTitles())
    assert tr.scores(rows) == pytest.approx(read_booster(tr.MODEL_FILE).predict(rows, num_threads=1))


def test_training_reads_the_evidence_extract_html_hands_the_ranker():
    from newsclean.cleaners.metadata.train_title_ranker import page_evidence

    html = _page(head=f"<title>{HEADLINE} | Example Gazette</title><meta property='og:title' content='{HEADLINE}'>"
                      "<meta property='og:site_name' content='Example Gazette'>",
                 before="<h1>Example Gazette</h1>").encode("utf-8")
    url = "https://www.example-gazette.com/news/council-votes"
    ext = extract_html(html, url=url)
    assert page_evidence(html, url) == (ext.titles, ext.url)


def test_a_single_candidate_is_the_headline_without_scoring(monkeypatch):
    page = tr.PageTitles(metas=(("og", "Council approves the harbour budget"),))
    cands = tr.candidates(page)
    X = tr.features(cands, page)
    assert len(cands) == 1 and cands[tr.best(X, tr.scores(X))].text == "Council approves the harbour budget"

    def must_not_score(X):
        raise AssertionError("one candidate was scored")

    monkeypatch.setattr(tr, "scores", must_not_score)
    assert tr.choose_title(page) == "Council approves the harbour budget"


@pytest.mark.parametrize("stated, expected", [
    # every source states the headline with a section label, or the outlet's name on its own site:
    # the label goes, as the text path cuts it from its headline line
    (f"{HEADLINE} | Opinion", HEADLINE),
    (f"{HEADLINE} – Example Gazette", HEADLINE),
    (f"{HEADLINE} | Part 1", HEADLINE),
    # look-alikes that stay: a subtitle after a colon, a separated clause that is no label (a
    # function word), a separator inside a word, several separators (a list, not a label)
    (f"{HEADLINE}: A Beginner's Guide", f"{HEADLINE}: A Beginner's Guide"),
    ("Zero Waste - A Beginner's Guide", "Zero Waste - A Beginner's Guide"),
    ("My Debt-Free Journey", "My Debt-Free Journey"),
    (f"{HEADLINE} | Opinion | Politics", f"{HEADLINE} | Opinion | Politics"),
])
def test_the_headline_loses_a_trailing_label_that_every_source_states(stated, expected):
    html = _page(head=f"<title>{stated}</title><meta property='og:title' content=\"{stated}\">",
                 article=f"<h1>{stated}</h1>")
    assert _title(html) == expected


def test_the_packaged_ranker_is_what_training_on_the_dev_pages_gives():
    """A change to the candidates' features (the label cut's tests among them) must come with the
    ranker retrained: a booster trained on the dev pages' features as this code computes them
    scores every candidate as the packaged one does (training is deterministic: one thread, a fixed
    seed)."""
    import numpy as np

    from newsclean.cleaners.metadata import train_title_ranker as trainer
    from newsclean.cleaners.shared_data import devset_dir

    if not (devset_dir() / "pages.jsonl.gz").is_file():
        pytest.skip("the dev pages are not beside the checkout (set NEWSCLEAN_SHARED)")
    rows = [r for r in trainer.page_rows(devset_dir(), log=lambda *a: None) if len(r.cands)]
    X = np.vstack([r.X for r in rows])
    retrained = trainer.fit(rows).predict(X)  # P(the headline), as scores() gives it
    assert np.allclose(retrained, tr.scores(X), rtol=0, atol=1e-6), \
        "retrain: python -m newsclean.cleaners.metadata.train_title_ranker"
