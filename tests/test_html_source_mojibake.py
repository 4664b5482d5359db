"""A page whose own source holds double-encoded UTF-8 (a CMS that encoded its text twice) or a lone
cp1252 byte: the C1 control characters that leaves are repaired before parsing, because trafilatura
drops control characters from its output and the repair is impossible after it ("LLCâs")."""
from __future__ import annotations

from newsclean.cleaners.extract_html import extract_html, repair_source_mojibake
from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument
from tests.articles import PARAGRAPHS, page


def _twice(text: str) -> str:
    """The text as a CMS that encodes UTF-8 twice stores it."""
    return text.encode("utf-8").decode("latin-1")


def test_double_encoded_source_text_comes_out_repaired():
    paragraphs = [PARAGRAPHS[0].replace("officials", _twice("the city’s officials")),
                  _twice("Ratings: ⭐⭐⭐ — ") + PARAGRAPHS[1], *PARAGRAPHS[2:]]
    html = page("Council votes to expand the city bus network", paragraphs=paragraphs)
    doc = clean_document(RawDocument(source="p.html", data=html.encode("utf-8"), format="html"), Settings())
    assert "city's officials" in doc.text and "Ratings: ⭐⭐⭐ —" in doc.text
    assert "â" not in doc.text


def test_a_lone_cp1252_byte_in_utf8_source_is_a_quote():
    html = page(paragraphs=[PARAGRAPHS[0].replace("say will", "say we\x92ll"), *PARAGRAPHS[1:]])
    text = extract_html(html).text
    assert "we’ll" in text or "we'll" in text


def test_a_page_without_c1_characters_is_not_touched():
    html = page()
    assert repair_source_mojibake(html) is html
    html_with_mojibake_lookalike = page(paragraphs=["Café owners said the naïve plan would fail, and the mayor agreed.",
                                                    *PARAGRAPHS])
    assert repair_source_mojibake(html_with_mojibake_lookalike) is html_with_mojibake_lookalike


def test_the_page_bytes_are_searched_in_place_of_its_text():
    """Given the UTF-8 bytes the text was decoded from, repair_source_mojibake searches them for C1
    characters instead of the text: the same repairs, and a clean page is the same object."""
    clean = page(paragraphs=["Café owners said the naïve plan would fail, and the mayor agreed.", *PARAGRAPHS])
    twice = page(paragraphs=[PARAGRAPHS[0].replace("officials", _twice("the city’s officials")), *PARAGRAPHS[1:]])
    lone = page(paragraphs=[PARAGRAPHS[0].replace("say will", "say we\x92ll"), *PARAGRAPHS[1:]])
    for html in (clean, twice, lone):
        assert repair_source_mojibake(html, html.encode("utf-8")) == repair_source_mojibake(html)
    assert repair_source_mojibake(clean, clean.encode("utf-8")) is clean
    assert repair_source_mojibake(twice, twice.encode("utf-8")) != twice
