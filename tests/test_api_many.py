"""newsclean.clean_texts and clean_htmls: many documents cleaned in lock step, as a run's batches
are (each decision pass of a group scored in one call), each giving what clean_text or clean_html
gives it alone; a failure is a DocumentError in its place, never the end of the others."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest

import newsclean
from newsclean.cleaners import batch
from tests.conftest import SEEDS_RAW

DEBRIS_ONLY = "Home\nNews\nSport\n\nWatch LIVE"
BINARY = "\x00\x01\x02 not text " * 40
MARKUP = ("<html><head><title>Council backs buses</title></head><body><nav>Home | News</nav><article>"
          "<h1>Council backs buses</h1><p>The city council voted on Tuesday to expand the downtown bus network "
          "after months of debate over costs and routes across the city.</p><p>Council members said the new "
          "routes would serve neighbourhoods that have gone without reliable service for years.</p></article></body></html>")


def _alone(clean, document, **kwargs):
    try:
        return clean(document, **kwargs)
    except newsclean.DocumentError as err:
        return err


def _same(a, b) -> bool:
    if isinstance(a, newsclean.DocumentError) or isinstance(b, newsclean.DocumentError):
        return type(a) is type(b) and (a.stage, a.reason) == (b.stage, b.reason)
    return a == b


@pytest.fixture(scope="module")
def texts() -> list[str]:
    seeds = [p.read_text(encoding="utf-8") for p in sorted(SEEDS_RAW.glob("*.txt"))]
    return [seeds[0], DEBRIS_ONLY, *seeds[1:3], BINARY, MARKUP, seeds[3]]


def test_each_text_gets_what_clean_text_gives_it(texts):
    urls = [None, None, "https://www.example.com/news/2024/05/14/bus-network", None, None, None, "https://news.example.org/a"]
    many = newsclean.clean_texts(texts, urls=urls, settings={"lockstep_docs": 3})
    alone = [_alone(newsclean.clean_text, text, url=url) for text, url in zip(texts, urls)]
    assert len(many) == len(texts)
    assert [type(m).__name__ for m in many] == ["Article", "DocumentError", "Article", "Article", "DocumentError", "Article", "Article"]
    assert all(_same(m, a) for m, a in zip(many, alone))
    assert many[2].published is not None and many[2].outlet_domain == "example.com"  # the url is metadata


def test_a_group_is_scanned_and_scored_together(texts, line_scans):
    seeds = [texts[0], texts[2], texts[3], texts[6]]
    newsclean.clean_texts(seeds)
    assert [n for n, _ in line_scans] == [4]  # one scan of the four texts' lines: one lock-step group
    line_scans.clear()
    newsclean.clean_texts(seeds, settings={"lockstep_docs": 3})
    assert [n for n, _ in line_scans] == [3, 1]


def test_each_page_gets_what_clean_html_gives_it():
    pages = [gzip.decompress(p.read_bytes()) for p in sorted((Path(__file__).parent / "data" / "html_pages").glob("*.html.gz"))[:4]]
    pages[1] = pages[1].decode("utf-8", "replace")  # a page already decoded, as a string
    many = newsclean.clean_htmls(pages)
    assert all(_same(m, _alone(newsclean.clean_html, page)) for m, page in zip(many, pages))
    assert sum(isinstance(m, newsclean.Article) for m in many) >= 3


def test_an_error_inside_the_cleaner_is_that_documents_failure_only(texts, monkeypatch):
    real = batch.clean_document_steps

    def failing(raw, settings):
        if b"BOOM" in raw.data:
            raise RuntimeError("a bug in the cleaner")
        return (yield from real(raw, settings))

    monkeypatch.setattr(batch, "clean_document_steps", failing)
    many = newsclean.clean_texts([texts[0], texts[2] + "\n\nBOOM", texts[3]])
    assert isinstance(many[0], newsclean.Article) and isinstance(many[2], newsclean.Article)
    assert isinstance(many[1], newsclean.DocumentError) and many[1].stage == "clean"
    assert "internal error RuntimeError: a bug in the cleaner" in many[1].reason


def test_one_url_per_document():
    with pytest.raises(ValueError, match="one url"):
        newsclean.clean_texts(["a", "b"], urls=["https://example.com/a"])
