"""The HTML path's speed-ups change no output.

- extract_html, its body chosen (newsclean.cleaners.pipeline.read_html: the choice between trafilatura's
  body and the page's visible text moved there from extract_html), on a fixed set of dev pages
  (tests/data/html_pages: WCXB v1.0, CC-BY-4.0) gives exactly the extraction the code before the
  speed-ups gave (expected.jsonl was written by
  cleaners/extract_html.py of commit 02a00c6, through bench/html_fixtures.py): body text, mode,
  fallback, title, sitename, url, author, headline candidates, and htmldate's date, that code's
  published date (now one candidate of newsclean.cleaners.metadata.date_ranker, which chooses the
  page's date); except that the date of the two pages decided only by htmldate's last resort
  (search_page, now off: newsclean.cleaners.extract_html.DATE_PAGE_SEARCH), whose truth has no date,
  is None where that code gave its guess;
- page_metadata gives the fields trafilatura's own extract_metadata gives;
- page_chars counts what the per-text-node sum over the visible text counted.
The whole-set check (461 dev pages with and without URL plus 990 pages of trafilatura's evaluation
set, and the cleaned documents too) is bench/html_identity.py.

The expected values depend on trafilatura's version (2.3.1 when written). After an upgrade,
rewrite them with the old code and the new library (`git show 02a00c6:cleaners/extract_html.py >
BEFORE.py; .venv/bin/python bench/html_fixtures.py BEFORE.py --ids ...`, the ids listed
in expected.jsonl) and check that page_metadata still mirrors trafilatura's extract_metadata.
"""
from __future__ import annotations

import datetime as dt
import gzip
import json
from pathlib import Path

import pytest

from newsclean.cleaners.extract_html import _VISIBLE_TEXT, nonspace_chars, page_chars, page_metadata, parse_html
from newsclean.cleaners.pipeline import read_html

PAGES = Path(__file__).parent / "data" / "html_pages"
FIELDS = ("text", "mode", "fallback", "encoding", "title", "sitename", "url", "author", "headlines")


def _expected() -> list[dict]:
    return [json.loads(line) for line in (PAGES / "expected.jsonl").read_text(encoding="utf-8").splitlines()]


def _data(rec: dict) -> bytes:
    with gzip.open(PAGES / rec["file"], "rb") as fh:
        return fh.read()


@pytest.mark.parametrize("rec", _expected(), ids=lambda r: f"{r['id']}{'' if r['url'] else '-nourl'}")
def test_extraction_is_what_it_was_before_the_speed_ups(rec):
    ext = read_html(_data(rec), url=rec["url"])  # extract_html's candidates, the body chosen
    got = {f: repr(getattr(ext, f)) for f in FIELDS}
    assert got == {f: rec["extraction"][f] for f in FIELDS}
    assert repr(_htmldate_pick(rec)) == rec["extraction"]["published"]


def _htmldate_pick(rec: dict) -> dt.date | None:
    """htmldate's date as extract_html reads it (page_metadata on the same tree)."""
    from newsclean.cleaners.extract_html import decode_html, repair_source_mojibake

    tree = parse_html(repair_source_mojibake(decode_html(_data(rec))[0]))
    pick = page_metadata(tree, rec["url"]).date
    return dt.date.fromisoformat(pick[:10]) if pick else None


def test_fixtures_cover_every_mode():
    modes = {eval(r["extraction"]["mode"]) for r in _expected()}  # noqa: S307 (our own repr of a str)
    assert {"trafilatura", "trafilatura recall mode", "visible text"} <= modes


@pytest.mark.parametrize("rec", [r for r in _expected() if r["url"]], ids=lambda r: r["id"])
def test_page_metadata_matches_trafilatura(rec):
    from trafilatura.metadata import extract_metadata
    from trafilatura.settings import set_date_params

    from newsclean.cleaners.extract_html import decode_html

    tree = parse_html(decode_html(_data(rec))[0])
    ours = page_metadata(tree, None, page_search=True)  # htmldate's whole cascade, as trafilatura runs it
    theirs = extract_metadata(tree, None, set_date_params(True))
    for field in ("title", "author", "url", "hostname", "date", "sitename"):
        assert getattr(ours, field) == getattr(theirs, field), field


def _slow_page_chars(tree) -> int:
    return sum(nonspace_chars(t) for t in _VISIBLE_TEXT(tree))


@pytest.mark.parametrize("html", [
    "<html><body><p>One two</p><script>var x = 1;</script> tail <style>p{}</style><p>three</p></body></html>",
    "<html><body><noscript><p>hidden <b>bold</b></p><script>x()</script></noscript>after</body></html>",
    "<html><body><template><p>tpl</p></template><div>a<span> b </span>c</div>\n\t</body></html>",
    "<html><head><title>t</title></head></html>",
    "<p>bare fragment</p>",
    "<html><body><p>caf\u00e9 \u00a0 na\u00efve</p><!-- comment --></body></html>",
])
def test_page_chars_counts_the_visible_text(html):
    tree = parse_html(html)
    assert page_chars(tree) == _slow_page_chars(tree)


def test_page_chars_on_the_fixture_pages():
    from newsclean.cleaners.extract_html import decode_html

    for rec in _expected():
        tree = parse_html(decode_html(_data(rec))[0])
        assert page_chars(tree) == _slow_page_chars(tree)
