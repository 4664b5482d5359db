"""trafilatura's regular-expression XPaths run as Python loops inside the HTML path
(newsclean.cleaners.xpath_gate), and every loop selects exactly what its XPath selects."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from newsclean.cleaners import readability_gate
from newsclean.cleaners import xpath_gate as gate
from newsclean.cleaners.extract_html import decode_html, extract_html, parse_html

trafilatura = pytest.importorskip("trafilatura")
import trafilatura.xpaths as xpaths  # noqa: E402

PAGES = Path(__file__).parent / "data" / "html_pages"
TRANSCRIBED = ("OVERALL_DISCARD_XPATH[0]", "OVERALL_DISCARD_XPATH[1]", "REMOVE_COMMENTS_AND_LISTS_XPATH[0]",
               "RAW_TREE_PRUNE_XPATH[0]", "RAW_TREE_PRUNE_XPATH[1]", "TEASER_DISCARD_XPATH[0]", "DISCARD_IMAGE_ELEMENTS[0]",
               "BODY_XPATH[0]", "BODY_XPATH[2]", "BODY_XPATH[3]")


def _gated() -> list[gate.GatedXPath]:
    gate.installed()
    return [x for name in dir(xpaths) if isinstance(getattr(xpaths, name), list)
            for x in getattr(xpaths, name) if isinstance(x, gate.GatedXPath)]


def _fixture_trees():
    for f in sorted(PAGES.glob("*.html.gz")):
        with gzip.open(f, "rb") as fh:
            yield f.name, parse_html(decode_html(fh.read())[0])


def test_every_transcribed_expression_is_installed_for_the_pinned_trafilatura():
    assert gate.installed() == TRANSCRIBED
    assert len(_gated()) == len(TRANSCRIBED)


@pytest.fixture
def compared(monkeypatch):
    """Every gated call inside the block evaluates both the loop and the XPath and records both."""
    seen: list[tuple[str, list, list]] = []
    call = gate.GatedXPath.__call__

    def both(self, tree, **variables):
        got = call(self, tree, **variables)
        seen.append((self.path, got, self.xpath(tree, **variables)))
        return got

    monkeypatch.setattr(gate.GatedXPath, "__call__", both)
    return seen


def test_the_loops_select_what_the_xpaths_select_inside_trafilatura_on_the_fixture_pages(compared):
    from trafilatura import bare_extraction

    for _, tree in _fixture_trees():
        with gate.gated(), readability_gate.gated():
            for mode in ({}, {"favor_recall": True}, {"favor_precision": True}):
                bare_extraction(tree, include_comments=False, **mode)
    assert len({path for path, _, _ in compared}) == len(TRANSCRIBED)
    assert sum(bool(xpath_says) for _, _, xpath_says in compared) >= 40  # not only empty selections (43 here)
    for path, loop_says, xpath_says in compared:
        assert loop_says == xpath_says, path


# Look-alikes for each detail the loops transcribe: which of @id|@class (or @id|@style) comes first,
# translate()'s single-letter case folding, the case-insensitive 'fulltext', not(.//h1), ol/ul
# needing the second test, `[1]` per parent against `(…)[1]` of all, missing and empty attributes.
LOOKALIKES = """<html><body>
<div id="x1" class="cookie-notice">class second: not read by re:test(@id|@class)</div>
<div class="cookie-notice" id="x2">class first: read</div>
<div id="" class="">empty attributes</div>
<section role="Navigation">N folded</section><section role="NAVIGATION">only N folded</section>
<span data-lp-replacement-content="">a flag attribute</span>
<p data-component="MostPopularStoriesList">popular</p>
<div id="hidden-a" style="color:red">id first</div><div style="color:red" id="hiddenb">style first, no 'hidden'</div>
<div style="display: none">x</div><div style="display:none">y</div><div aria-hidden="true">z</div>
<div class="reply-box">r</div><div id="q" class="reply-box">id first: 'q'</div>
<ul id="disqus_thread"><li>a list needs the second test</li></ul><div id="disqus_thread">a div does not</div>
<ol class="comment-list"><li>c</li></ol><details id="comments">d</details>
<div class="infinite-scroll"><h1>kept: it holds the headline</h1></div><div class="infinite-scroll">gone</div>
<aside id="mvp-post-add-box"><h1>gone all the same</h1></aside>
<main><div class="post">first of its parent</div><div class="entry">second of the same parent
  <div class="articleBody">first of another parent</div></div></main>
<article class="FullText">case-insensitive fulltext</article>
<div id="Main-Content">CM folded</div><div id="MAIN-CONTENT">not folded</div>
<div class="Page-Content">P folded</div>
<list class="menu-x"><item class="share-y">converted tags</item></list>
<div id="Teaser-box">T folded</div><p class="TEASER">only T folded</p><span class="img-caption">c</span>
<item id="captionText">c</item><aside class="elementor-share-buttons--view">s</aside>
<section class="elementor-Share-buttons">case matters</section>
</body></html>"""


@pytest.mark.parametrize("html", [LOOKALIKES, "<html><body><p>nothing to select</p></body></html>"])
def test_the_loops_select_what_the_xpaths_select_on_lookalikes(html):
    tree = parse_html(html)
    for expression in _gated():
        with gate.gated():
            assert expression(tree) == expression.xpath(tree), expression.path
    if html is LOOKALIKES:
        assert all(expression.xpath(tree) for expression in _gated())  # each has something to find


def test_outside_the_gate_the_xpath_runs(monkeypatch):
    def loop_must_not_run(tree):
        raise AssertionError("the loop ran outside gated()")

    tree = parse_html(LOOKALIKES)
    for expression in _gated():
        monkeypatch.setattr(expression, "select", loop_must_not_run)
        assert expression(tree) == expression.xpath(tree)
        with gate.gated(False):
            expression(tree)


def test_extract_html_runs_the_loops(monkeypatch):
    loops = []
    for expression in _gated():
        select = expression.select
        monkeypatch.setattr(expression, "select", lambda tree, select=select: loops.append(1) or select(tree))
    with gzip.open(sorted(PAGES.glob("*.html.gz"))[0], "rb") as fh:
        extract_html(fh.read())
    assert len(loops) >= 4


def test_a_changed_expression_keeps_its_xpath_and_a_new_token_needs_nothing():
    name, index, template, build = gate.TEMPLATES[0]
    path = getattr(xpaths, name)[index].path
    assert gate.transcription(path, template, build) is not None
    more_tokens = path.replace("cookie", "cookie|gdpr", 1)
    assert more_tokens != path and gate.transcription(more_tokens, template, build) is not None
    assert gate.transcription(path.replace("self::span", "self::span or self::aside"), template, build) is None
    assert gate.transcription(path.replace("cookie", "cookie|", 1), template, build) is None  # matches ''
    assert gate.transcription(path.replace("cookie", "cookie(", 1), template, build) is None  # not a pattern

