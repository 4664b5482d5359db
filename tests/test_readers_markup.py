"""HTML labelled as text (a page saved as .txt, a record's text field holding markup) goes the HTML
path (newsclean.cleaners.readers.markup), and text that only mentions tags stays text."""
from __future__ import annotations

import json

import pytest

from newsclean.cleaners.pipeline import clean_document
from newsclean.cleaners.readers import read_source
from newsclean.cleaners.readers.markup import looks_like_html
from newsclean.cleaners.settings import Settings
from tests.articles import BODY, page


def _clean_file(tmp_path, name: str, data: str):
    (tmp_path / name).write_text(data, encoding="utf-8")
    (raw,) = read_source(tmp_path, name, Settings())
    return raw, clean_document(raw, Settings())


def test_page_saved_as_txt_gives_the_same_article_as_saved_as_html(tmp_path):
    raw, as_txt = _clean_file(tmp_path, "page.txt", page())
    _, as_html = _clean_file(tmp_path, "page.html", page())
    assert raw.format == "html"
    assert (as_txt.title, as_txt.text) == (as_html.title, as_html.text)
    assert as_txt.text == BODY and "<" not in as_txt.text


def test_record_text_field_holding_markup_is_read_as_html(tmp_path):
    fragment = "\n".join(f"<p>{p}</p>" for p in BODY.split("\n\n"))
    record = {"id": "1", "title": "Council votes to expand the city bus network", "text": fragment}
    (tmp_path / "a.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    (raw,) = read_source(tmp_path, "a.jsonl", Settings())
    assert raw.format == "html"
    doc = clean_document(raw, Settings())
    assert doc.text == BODY


@pytest.mark.parametrize("text", [
    BODY,
    "You may use these HTML tags and attributes: <a href=\"\" title=\"\"> <abbr> <b> <em> <i> <strong>\n\n" + BODY,
    "Use <br> for a line break in the template, she said.\n\n" + BODY,
    # scraped text with a leaked tag pair (a caption) is still text
    "<p>The mayor at the opening. Photo: City Hall</p>\n\n" + BODY,
])
def test_text_that_mentions_tags_stays_text(text):
    assert not looks_like_html(text)
