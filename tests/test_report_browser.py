"""The run report in a real headless chromium (Debian's package, see browser_fixture.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_fixture import browser, open_page, screenshot  # noqa: E402,F401  (fixtures)
from test_report import XSS, write_small_run  # noqa: E402

from flows.report import build_report  # noqa: E402

pytestmark = pytest.mark.browser


def _visible_docs(page) -> list[str]:
    return page.eval_on_selector_all("article.doc", "els => els.filter(e => !e.hidden).map(e => e.dataset.source)")


@pytest.fixture()
def small(tmp_path, open_page):
    out, raw = write_small_run(tmp_path)
    return open_page(build_report(out, raw))


def test_counts_spans_and_hover(small):
    page = small.page
    assert page.inner_text("#count-read") == "4"
    assert page.inner_text("#count-cleaned") == "3"
    assert page.inner_text("#count-quarantined") == "1"
    assert page.locator("#kind-chart g").count() == 5
    doc = page.locator("#doc-aaaa000000000001")
    spans = doc.locator("del.rm").evaluate_all(
        "els => els.map(e => [e.closest('.ln').dataset.n, e.dataset.kind, e.textContent])")
    assert spans == [["3", "navigation", "Home | News | Local | Sport"],
                     ["5", "dateline", "SPRINGFIELD (Daily Bugle) -"],
                     ["7", "caption", "Photo: J. Smith/AP"],
                     ["9", "call_to_action", "Sign up for our newsletter!"]]
    caption = doc.locator("del.rm[data-kind=caption]")
    # struck through, coloured by kind, kind on hover
    style = caption.evaluate("e => { const s = getComputedStyle(e); return [s.textDecorationLine, s.textDecorationColor]; }")
    assert "line-through" in style[0] and style[1] == "rgb(232, 113, 10)"
    assert caption.get_attribute("title") == "caption"
    caption.hover()
    assert caption.evaluate("e => getComputedStyle(e, '::after').content") == '"caption"'
    screenshot(page, "report-small.png")
    assert small.dialogs == [] and small.errors == [] and small.blocked == []


def test_kind_filter(small):
    page = small.page
    assert _visible_docs(page) == ["a_story.txt", "b_xss.txt", "c_plain.txt"]
    page.select_option("#kind-filter", "related_headline")
    assert _visible_docs(page) == ["b_xss.txt"]
    assert page.get_attribute("#filter-status", "data-spans") == "1"
    assert page.locator("#kind-results li").all_inner_texts() == [f"b_xss.txt:7 Related: {XSS}"]
    # prev/next follow the filtered list
    assert page.get_attribute("#doc-bbbb000000000002 a.prev", "href") is None
    page.select_option("#kind-filter", "caption")
    assert _visible_docs(page) == ["a_story.txt"]
    dimmed = page.eval_on_selector_all("#doc-aaaa000000000001 del.rm.dim", "els => els.map(e => e.dataset.kind)")
    assert sorted(dimmed) == ["call_to_action", "dateline", "navigation"]
    page.select_option("#kind-filter", "")
    assert _visible_docs(page) == ["a_story.txt", "b_xss.txt", "c_plain.txt"]
    assert page.get_attribute("#doc-aaaa000000000001 a.next", "href") == "#doc-bbbb000000000002"
    assert small.errors == []


def test_script_in_an_article_is_text(small):
    page = small.page
    page.wait_for_timeout(200)
    assert small.dialogs == []
    line = page.inner_text("#doc-bbbb000000000002 [data-n='3']")
    assert line == f"Some body text that quotes {XSS} literally."
    assert "<img src=x onerror=alert(2)>" in page.inner_text("#doc-bbbb000000000002")
    assert page.locator("script").count() == 1 and page.locator("img").count() == 0
    assert XSS in page.inner_text("#quarantine-table")
    page.click("#quarantine-table summary")
    assert "alert(3)" in page.inner_text("#quarantine-table pre.preview")
    assert small.dialogs == [] and small.errors == []
