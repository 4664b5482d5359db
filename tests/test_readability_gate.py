"""trafilatura's readability fallback is skipped only where it cannot be chosen
(newsclean.cleaners.readability_gate), and the extraction is the same either way."""
from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from lxml.etree import tostring

from newsclean.cleaners import readability_gate as gate
from newsclean.cleaners.extract_html import extract_html, parse_html

trafilatura = pytest.importorskip("trafilatura")
import trafilatura.core as core  # noqa: E402
import trafilatura.external as ext  # noqa: E402
from trafilatura.utils import trim  # noqa: E402

PAGES = Path(__file__).parent / "data" / "html_pages"
ARTICLE = "".join(f"<p>Paragraph {i} of the council's report on the bus network, which grew by a tenth "
                  f"in the year to March and now reaches the outer districts.</p>" for i in range(12))


def _page(body: str, head: str = "") -> str:
    return f"<html><head><title>Buses</title>{head}</head><body>{body}</body></html>"


def _fixture_pages() -> list[bytes]:
    out = []
    for f in sorted(PAGES.glob("*.html.gz")):
        with gzip.open(f, "rb") as fh:
            out.append(fh.read())
    return out


class _CountingReadability(ext.ReadabilityDocument):
    runs = 0

    def __init__(self, *args, **kwargs):
        type(self).runs += 1
        super().__init__(*args, **kwargs)


@pytest.fixture
def readability_runs(monkeypatch):
    assert gate.installed(), "the installed trafilatura is not the one the gate was reviewed against"
    _CountingReadability.runs = 0
    monkeypatch.setattr(ext, "ReadabilityDocument", _CountingReadability)
    return _CountingReadability


def _readability_text(html: str) -> str:
    tree = parse_html(html)
    return trim(tostring(ext.try_readability(tree), method="text", encoding="utf-8").decode("utf-8"))


@pytest.mark.parametrize("html", [
    _page(ARTICLE),
    _page("<nav>Home News Sport</nav>" + ARTICLE + "<footer>© Example</footer>"),
    _page('<iframe src="https://www.youtube.com/embed/x"></iframe>' * 5 + ARTICLE),
    _page("<div>" + ARTICLE + "<script>var x = 'not text';</script><style>p{}</style></div>",
          head="<script>window.a = 1;</script>"),
    _page("<div>text<br>more text<div>inner <b>bold</b> tail</div> after</div>" * 20),
])
def test_the_bound_holds_for_readability_text(html):
    tree = parse_html(html)
    assert len(_readability_text(html)) <= min(gate.text_bound(tree, tight=True), gate.text_bound(tree))


def test_the_bound_holds_on_the_fixture_pages():
    from newsclean.cleaners.extract_html import decode_html

    for data in _fixture_pages():
        html = decode_html(data)[0]
        tree = parse_html(html)
        assert len(_readability_text(html)) <= min(gate.text_bound(tree, tight=True), gate.text_bound(tree))


def test_readability_is_skipped_where_it_cannot_win(readability_runs):
    html = _page("<nav>Home</nav>" + ARTICLE)  # trafilatura's body is most of the page
    with_gate = extract_html(html.encode())
    assert readability_runs.runs == 0
    with gate.gated(False):
        from newsclean.cleaners.extract_html import _extract_html

        without = _extract_html(html.encode(), url=None, header=None)
    assert readability_runs.runs >= 1
    assert with_gate == without


def test_readability_still_runs_where_it_could_win(readability_runs):
    # trafilatura's own body is a small part of a long page: readability's could be twice as long
    html = _page("<p>Short lead of the story here.</p>" + "<div>" + " ".join(
        f"Line {i} of a long text block in plain divs with no paragraph markup at all." for i in range(80)) + "</div>")
    extract_html(html.encode())
    assert readability_runs.runs >= 1


def test_outside_the_gate_trafilatura_runs_as_it_is(readability_runs):
    html = _page("<nav>Home</nav>" + ARTICLE)
    extract_html(html.encode())  # installs the gate
    readability_runs.runs = 0
    trafilatura.bare_extraction(html)
    assert readability_runs.runs >= 1


def test_the_fixture_pages_extract_the_same_with_and_without_the_gate(readability_runs):
    from newsclean.cleaners.extract_html import _extract_html

    for data in _fixture_pages():
        with gate.gated(True):
            on = _extract_html(data, url=None, header=None)
        with gate.gated(False):
            off = _extract_html(data, url=None, header=None)
        assert on == off


def test_a_bound_that_fails_runs_readability_as_without_the_gate(readability_runs, monkeypatch):
    def broken(*args, **kwargs):
        raise ValueError("odd tree")

    monkeypatch.setattr(gate, "_PageText", broken)  # reading the tree fails
    html = _page("<nav>Home</nav>" + ARTICLE)
    with gate.gated(False):
        from newsclean.cleaners.extract_html import _extract_html

        without = _extract_html(html.encode(), url=None, header=None)
    readability_runs.runs = 0
    assert extract_html(html.encode()) == without
    assert readability_runs.runs >= 1


def test_another_trafilatura_stops_the_gate_with_a_message(monkeypatch):
    from newsclean.cleaners.upstream import UpstreamMismatch

    before = core.compare_extraction
    monkeypatch.setattr(gate, "REVIEWED_SOURCE", "0" * 64)
    with pytest.raises(UpstreamMismatch, match=r"trafilatura 2\.\d+\.\d+: .*REVIEWED_SOURCE.*pip install 'trafilatura"):
        gate._install()
    assert core.compare_extraction is before


def test_the_reviewed_source_is_the_installed_one():
    # when this fails after a trafilatura upgrade: read the new compare_extraction,
    # _prefer_readability and try_readability, check the bound's argument still holds, and
    # write the new hash into REVIEWED_SOURCE (until then the HTML path stops with UpstreamMismatch)
    assert gate.source_hash() == gate.REVIEWED_SOURCE


def test_installing_again_replaces_the_gate_instead_of_stacking_it(monkeypatch):
    assert gate.installed()
    first = core.compare_extraction
    monkeypatch.setattr(gate, "_installed", None)  # as a second import of the module finds trafilatura
    assert gate.installed()
    assert core.compare_extraction is not first and core.compare_extraction.__wrapped__ is ext.compare_extraction
    assert not hasattr(ext.try_readability.__wrapped__, "__wrapped__")  # trafilatura's own, not the first gate
