"""The HTML path's metadata shortcuts give what trafilatura and htmldate give, and are taken.

- page_date is htmldate's find_date: the same date on the fixture dev pages (with and without URL),
  the <meta>/JSON-LD fast path returns before any pruned copy or text search, and the last resort
  (search_page, which a stand-in takes the place of) runs only when asked;
- page_author gives trafilatura's extract_author on the fixture pages and on hand-made pages where
  the discarded parts (dates, figures, comments) sit inside and around the byline, and hands over
  to trafilatura where its one-pass reading would not be exact;
- page_titles gives the first og:title, twitter:title and <title> the XPaths gave.
The whole-set check (1,910 cases: 461 dev pages with and without URL, 990 pages of trafilatura's
evaluation set) is bench/html_identity.py, its result in bench/RESULTS.md (HTML path speed).
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

import newsclean.cleaners.extract_html as eh

PAGES = Path(__file__).parent / "data" / "html_pages"


def _pages() -> list[tuple[str, str | None, str]]:
    out = []
    for line in (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        with gzip.open(PAGES / rec["file"], "rb") as fh:
            out.append((rec["id"], rec["url"], eh.decode_html(fh.read())[0]))
    return out


CASES = _pages()


def _config():
    from trafilatura.settings import set_date_params

    return set_date_params(True)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}{'' if c[1] else '-nourl'}")
def test_page_date_is_htmldate_find_date(case):
    from htmldate import find_date

    _, url, html = case
    tree = eh.parse_html(html)
    assert eh.page_date(tree, url, _config(), page_search=True) == find_date(tree, url=url, **_config())


def _dated_page(head: str, body: str = "<p>Nothing dated here.</p>") -> str:
    return f"<html><head><title>A page</title>{head}</head><body><article>{body}</article></body></html>"


def test_meta_date_fast_path_is_taken_and_agrees_with_the_extensive_search(monkeypatch):
    import htmldate.core as hd
    from htmldate import find_date

    pages = [
        _dated_page('<meta property="article:published_time" content="2021-03-04T10:00:00Z">'),
        _dated_page('<script type="application/ld+json">{"@type": "NewsArticle", "datePublished": "2019-07-08"}</script>'),
    ]
    expected = [find_date(eh.parse_html(p), **_config()) for p in pages]
    assert expected == ["2021-03-04", "2019-07-08"]

    def must_not_run(*args, **kwargs):
        raise AssertionError("the extensive search ran although the page has a meta/JSON-LD date")

    monkeypatch.setattr(hd, "discard_unwanted", must_not_run)
    monkeypatch.setattr(hd, "search_page", must_not_run)
    assert [eh.page_date(eh.parse_html(p), None, _config()) for p in pages] == expected


def test_search_page_runs_only_when_asked(monkeypatch):
    import htmldate.core as hd

    # no date anywhere but a copyright line: only htmldate's page search finds (guesses) one
    page = _dated_page("", "<p>Some text without any date.</p><footer>© 2011 Someone</footer>")
    tree = eh.parse_html(page)
    guessed = eh.page_date(tree, None, _config(), page_search=True)
    assert guessed == "2011-01-01"
    calls = []
    real = hd.search_page.__wrapped__  # htmldate's own, under the stand-in page_date put in its place
    monkeypatch.setattr(hd.search_page, "__wrapped__", lambda *a, **k: calls.append(1) or real(*a, **k))
    assert eh.page_date(tree, None, _config(), page_search=False) is None
    assert calls == []
    monkeypatch.setattr(eh, "DATE_PAGE_SEARCH", False)
    assert eh.page_date(tree, None, _config()) is None
    monkeypatch.setattr(eh, "DATE_PAGE_SEARCH", True)
    assert eh.page_date(tree, None, _config()) == guessed
    assert calls == [1]


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: c[0])
def test_page_author_is_trafilatura_extract_author(case):
    from trafilatura.metadata import extract_author

    tree = eh.parse_html(case[2])
    assert eh.page_author(tree) == extract_author(tree)


HAND_MADE = [
    # the byline's date and figure are deleted from trafilatura's copy: their tails join the text
    '<div class="byline">By <time>May 3</time> Jane <figure>pic</figure>Doe and <span class="date">x</span>John Roe</div>',
    # the first candidate sits in a discarded sidebar; the second is the answer
    '<div class="sidebar"><span class="author">Side Bar Person</span></div><p class="byline">Written by Ann Lee</p>',
    # leading discarded children: their tails go to the parent's text
    '<span class="author-name"><time>today</time>Mary<figure>f</figure> Major</span>',
    # a too-long first match, then the generic last-resort expression
    '<a rel="author">' + "word " * 40 + '</a><div data-component="Byline">Kim Park</div>',
    # author element, itemprop, writer class
    '<author>Pat Doe</author>',
    '<div itemprop="author"><span>Lee</span> <span>Chan</span></div>',
    '<em class="staff-writer">Ruth Ng</em>',
    # nothing to find
    '<p>No byline here.</p>',
    # one class value on a tag the discard expression tests and on one it does not: only the
    # first is deleted (the values' tests are computed once per page, the tags tested each time)
    '<li class="sidebar"><span class="author">Li Keeps</span></li><div class="sidebar"><span class="author">Div Goes</span></div>',
    '<div class="sidebar"><span class="author">Div Goes</span></div><li class="sidebar"><span class="author">Li Keeps</span></li>',
    # a discarded ancestor several levels up; a discarded grandchild inside the match
    '<section id="comment-list"><div><p><a class="author">Deep Gone</a></p></div></section>'
    '<div class="byline"><span>By <span><span class="date">Mon</span>Ann</span> Smith</span></div>',
    # a value that only an id test matches, then the same value as a class
    '<div id="authorBox">Id Person</div><div class="authorBox">Class Person</div>',
    '<p class="post-author-name">Name Class</p><span class="screenname">Screen Name</span>',
    '<h3 id="xiaobian">Xiao Bian</h3><figure><p class="byline">In Figure</p></figure>',
]


@pytest.mark.parametrize("body", HAND_MADE)
def test_page_author_reads_the_pruned_copy_like_trafilatura(body):
    from trafilatura.metadata import extract_author

    tree = eh.parse_html(f"<html><head><title>t</title></head><body><article>{body}<p>Text.</p></article></body></html>")
    assert eh.page_author(tree) == extract_author(tree)


def test_page_author_takes_the_one_pass_path_and_hands_over_when_it_would_not_be_exact(monkeypatch):
    import trafilatura.metadata as tm

    assert eh._same_author_xpaths()  # the installed trafilatura has the transcribed expressions
    calls = []
    real = tm.extract_author
    monkeypatch.setattr(tm, "extract_author", lambda tree: calls.append(1) or real(tree))
    plain = '<html><body><div class="byline">By Jane Doe</div><p>Text.</p></body></html>'
    assert eh.page_author(eh.parse_html(plain)) == "Jane Doe"
    assert calls == []
    # a <rel> element (AUTHOR_XPATHS test its text) or a comment: trafilatura's own function
    with_rel = '<html><body><div><rel>me</rel>Jo Bo</div><p>Text.</p></body></html>'
    assert eh.page_author(eh.parse_html(with_rel)) == real(eh.parse_html(with_rel))
    assert calls == [1]
    import lxml.html

    commented = lxml.html.document_fromstring('<html><body><div class="byline">By <!-- c -->Jane Doe</div></body></html>')
    assert eh.page_author(commented) == real(commented)
    assert calls == [1, 1]
    # other expressions in another trafilatura version: its own function
    monkeypatch.setattr(tm, "AUTHOR_XPATHS", tm.AUTHOR_XPATHS[:2])
    assert not eh._same_author_xpaths()
    eh.page_author(eh.parse_html(plain))
    assert calls == [1, 1, 1]


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: c[0])
def test_page_titles_are_the_first_meta_and_title_matches(case):
    tree = eh.parse_html(case[2])
    old = []
    for xp in ('//meta[@property="og:title"]/@content', '//meta[@name="twitter:title"]/@content', "//title"):
        for v in tree.xpath(xp)[:1]:
            old.append(v if isinstance(v, str) else " ".join(v.text_content().split()))
    assert eh.page_titles(tree) == old


def test_page_titles_edge_cases():
    html = ('<html><head><meta property="og:title"><meta property="og:title" content="OG">'
            '<meta name="twitter:title" property="og:title" content="TW"><title> The   title </title>'
            '<title>second</title></head><body><h1>H</h1></body></html>')
    assert eh.page_titles(eh.parse_html(html)) == ["OG", "TW", "The title"]


@pytest.mark.parametrize("case", CASES[::3], ids=lambda c: c[0])
def test_tree_nodes_have_lxml_html_classes(case):
    """The parser's element classes are chosen in C (html_class_lookup), each node's the class
    lxml.html's own lookup gives it, on the page and on trafilatura's copy of it."""
    from copy import copy

    import lxml.html
    from lxml import etree

    html = eh._XML_DECL.sub("", case[2], count=1)
    ours = eh._load_html(html)
    theirs = lxml.html.fromstring(etree.tostring(ours.getroottree(), encoding="utf-8"),
                                  parser=lxml.html.HTMLParser(encoding="utf-8"))
    assert [type(n) for n in ours.iter()] == [type(n) for n in theirs.iter()]
    assert [type(n) for n in copy(ours).iter()] == [type(n) for n in ours.iter()]


def test_html_class_lookup_covers_lxml_html_classes():
    import lxml.html

    by_tag = dict(eh.html_class_lookup().get_namespace(None).items())
    theirs = lxml.html.HtmlElementClassLookup()._element_classes  # lxml.html's table (tags with a class of their own)
    assert {tag.encode(): cls for tag, cls in theirs.items()} == by_tag
    page = "<html><body><form><label>l</label><input><select><option>o</option></select><textarea></textarea></form>" \
           "<p>p</p></body></html>"
    tree = eh.parse_html(page)
    assert [type(n).__name__ for n in tree.iter()] == [type(n).__name__ for n in lxml.html.document_fromstring(page).iter()]
    assert isinstance(tree.find(".//form"), lxml.html.FormElement)


@pytest.mark.parametrize("case", CASES[::2], ids=lambda c: c[0])
def test_tree_parsed_from_utf8_bytes_is_trafilaturas(case):
    from lxml import etree
    from trafilatura.utils import load_html

    html = eh._XML_DECL.sub("", case[2], count=1)
    assert etree.tostring(eh._load_html(html).getroottree()) == etree.tostring(load_html(html).getroottree())


@pytest.mark.parametrize("html", [
    "<!DOCTYPE html><html><body><p>x\x00y\x0b z</p></body></html>",  # characters repair_faulty_html removes
    '<html lang="en"/>\n<head><title>t</title></head><body><p>Self-closed html tag.</p></body>',
    "<p>only a fragment</p>",  # dubious: not a page for trafilatura
    "plain text, no markup at all",
    "<html><body>\ud800 lone surrogate</body></html>",
])
def test_odd_inputs_parse_as_trafilatura_parses_them(html):
    from lxml import etree
    from trafilatura.utils import load_html

    ours, theirs = eh._load_html(html), load_html(html)
    assert (ours is None) == (theirs is None)
    if ours is not None:
        assert etree.tostring(ours.getroottree()) == etree.tostring(theirs.getroottree())


def test_the_metadata_stand_ins_are_replaced_not_stacked_when_put_in_again(monkeypatch):
    import htmldate.core as hd
    import trafilatura.metadata as tm

    tree = eh.parse_html(_dated_page('<meta property="article:published_time" content="2021-03-04T10:00:00Z">'))
    fields = ("title", "author", "url", "hostname", "date", "sitename")
    first = [getattr(eh.page_metadata(tree), f) for f in fields]
    assert first[0] == "A page" and first[4] == "2021-03-04"
    monkeypatch.setattr(eh, "_shortcuts_installed", False)  # as a second import of the module finds them
    assert [getattr(eh.page_metadata(tree), f) for f in fields] == first
    for fn in (tm.extract_author, tm.extract_catstags, tm.extract_license, hd.search_page):
        assert fn.is_stand_in and not getattr(fn.__wrapped__, "is_stand_in", False)


def _page_bytes() -> list[bytes]:
    out = []
    for line in (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines():
        with gzip.open(PAGES / json.loads(line)["file"], "rb") as fh:
            out.append(fh.read())
    return out


def test_the_page_bytes_parse_as_its_text():
    """A page read strictly as UTF-8 is parsed from its own bytes (utf8_source), not from its text
    encoded again: the same tree."""
    from lxml import etree

    seen = 0
    for data in _page_bytes():
        html, encoding = eh.decode_html(data)
        utf8 = eh.utf8_source(data, encoding)
        if utf8 is None:
            continue
        seen += 1
        assert html.encode("utf-8") == utf8
        assert etree.tostring(eh.parse_html(html, utf8)) == etree.tostring(eh.parse_html(html))
    assert seen


def test_only_a_strict_utf8_reading_gives_the_bytes():
    import codecs

    from lxml import etree

    text = "<html><head><meta charset='utf-8'></head><body><p>Café</p></body></html>"
    assert eh.utf8_source(text.encode("utf-8"), eh.decode_html(text.encode("utf-8"))[1]) == text.encode("utf-8")
    with_bom = codecs.BOM_UTF8 + text.encode("utf-8")
    assert eh.utf8_source(with_bom, eh.decode_html(with_bom)[1]) is None
    latin = text.replace("utf-8", "iso-8859-1").encode("cp1252")
    assert eh.decode_html(latin)[1] == "cp1252" and eh.utf8_source(latin, "cp1252") is None
    # an XML declaration the parser cannot take is cut from the text: the bytes no longer match it
    decl = "<?xml version='1.0' encoding='utf-8'?>" + text
    assert etree.tostring(eh.parse_html(decl, decl.encode("utf-8"))) == etree.tostring(eh.parse_html(decl))
