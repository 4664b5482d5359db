"""Pages that nest their elements deeply: a tag opened per paragraph and never closed (<font>,
<div>) takes a page past libxml2's default depth limit of 256, where the parser silently drops
everything deeper. The page is parsed again with the limit at 2,048 levels; past that, a page that
gave no text is quarantined with a reason that says so, not as an empty document."""
from __future__ import annotations

import sys

import pytest

from newsclean.cleaners.extract_html import DEEP_LIMIT, TOO_DEEP, extract_html, parse_html, visible_text
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError, RawDocument
from tests.articles import PARAGRAPHS

HEAD = "<html><head><title>Council votes to expand bus network</title></head><body>"


def _clean(html: str, html_body: str = "trafilatura"):
    return clean_document(RawDocument(source="page.html", data=html.encode("utf-8"), format="html"),
                          Settings(html_body=html_body))


@pytest.mark.parametrize("html_body", ["trafilatura", "page"])
@pytest.mark.parametrize("depth", [300, 1000])
def test_article_under_unclosed_divs_is_kept(depth, html_body):
    html = HEAD + "<div>" * depth + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</body></html>"
    doc = _clean(html, html_body)
    for paragraph in PARAGRAPHS:
        assert paragraph in doc.text


def test_every_paragraph_of_a_font_per_paragraph_page_is_kept():
    # each paragraph opens <font> and <p> and closes neither: 2 levels per paragraph, 400 levels
    paragraphs = [f"{p} (Part {i}.)" for i in range(40) for p in PARAGRAPHS[:5]]
    html = HEAD + "".join(f"<font><p>{p}" for p in paragraphs) + "</body></html>"
    text = extract_html(html.encode("utf-8")).text
    assert paragraphs[-1] in text and paragraphs[150] in text


def test_nothing_above_the_deep_limit_is_quarantined_with_its_reason():
    html = HEAD + "<div>" * (DEEP_LIMIT + 500) + "".join(f"<p>{p}</p>" for p in PARAGRAPHS) + "</body></html>"
    with pytest.raises(DocumentError) as err:
        _clean(html)
    assert err.value.stage == "extract" and str(err.value) == TOO_DEEP


def test_visible_text_walks_a_tree_deeper_than_the_recursion_limit():
    depth = sys.getrecursionlimit() + 200
    tree = parse_html("<html><body>" + "<div>" * depth + "<p>Deep text.</p><p>More.</p>" + "</div>" * depth
                      + "<p>After.</p></body></html>")
    assert visible_text(tree) == "Deep text.\n\nMore.\n\nAfter."


def test_a_shallow_page_parses_as_trafilatura_parses_it():
    from lxml import etree
    from trafilatura.utils import load_html

    html = HEAD + "<div><p>" + PARAGRAPHS[0] + "</p></div></body></html>"
    assert etree.tostring(parse_html(html)) == etree.tostring(load_html(html))
