"""The run report in a real headless chromium (Debian's package, see browser_fixture.py)."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

try:  # tests/ is a package (tests/__init__.py); fall back to a plain folder on sys.path
    from tests.browser_fixture import browser, open_page, screenshot  # noqa: F401  (fixtures)
    from tests.test_report import XSS, write_small_run
except ImportError:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from browser_fixture import browser, open_page, screenshot  # noqa: F401
    from test_report import XSS, write_small_run

from newsclean.flows.report import build_report  # noqa: E402

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


# --------------------------------------------------------------------------------------------------
# The report of a real `newsclean run` on the sample corpus (plus one hostile article)

REPO = Path(__file__).resolve().parents[1]
HOSTILE = "900_hostile_markup.txt"
HOSTILE_TEXT = "\n\n".join([
    "City council <b>approves</b> library budget after long debate",
    "The city council approved the library budget on Tuesday after a debate that lasted more than "
    "three hours, with members arguing over opening hours, staff numbers and the cost of new books.",
    f"One resident pasted {XSS} into the public comment form, and the clerk read it out as written "
    "before the chair moved on to the next speaker without comment.",
    "Another comment contained <img src=x onerror=alert(2)> and was also entered into the minutes "
    "exactly as it was submitted, the clerk said after the meeting.",
    "The library will extend its weekend opening hours from March, and the council will review the "
    "budget again at the end of the year when the new branch has been open for six months.",
])
# A seed of the sample corpus whose removals cover five kinds (see tests/golden/seeds_expected.jsonl).
SEED = "002_b6644f9eb1b60515.txt"


def _newsclean() -> list[str]:
    exe = Path(sys.executable).parent / "newsclean"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "newsclean.flows.cli"]


@pytest.fixture(scope="session")
def sample_run(tmp_path_factory, prefect_server):
    """`newsclean run raw OUT` once per session on a copy of the sample corpus plus a hostile article;
    returns (out_dir, raw_dir, report_path)."""
    import shutil
    import subprocess

    base = tmp_path_factory.mktemp("sample_run")
    raw, out = base / "raw", base / "OUT"
    shutil.copytree(REPO / "raw", raw)
    (raw / HOSTILE).write_text(HOSTILE_TEXT, encoding="utf-8")
    proc = subprocess.run([*_newsclean(), "run", str(raw), str(out)], cwd=base, capture_output=True, text=True,
                          env={**prefect_server[1], "PREFECT_LOGGING_LEVEL": "WARNING"},  # the session's Prefect server
                          timeout=600)
    assert proc.returncode == 0, f"newsclean run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    report = out / "report.html"
    if not report.exists():  # until the flow writes it itself
        report = build_report(out, raw)
    return out, raw, report


@pytest.fixture()
def sample(sample_run, open_page):
    return open_page(sample_run[2])


@pytest.mark.slow
@pytest.mark.prefect
def test_sample_counts(sample_run, sample):
    import json

    import pyarrow.parquet as pq

    out, raw, _ = sample_run
    run = json.loads((out / "run.json").read_text())
    page = sample.page
    n_raw = len(list(raw.iterdir()))
    assert page.inner_text("#count-read") == str(run["docs_read"]) == str(n_raw)
    assert page.inner_text("#count-cleaned") == str(run["docs_cleaned"]) == str(pq.read_metadata(out / "articles.parquet").num_rows)
    assert page.inner_text("#count-quarantined") == str(run["docs_quarantined"])
    removed = pq.read_table(out / "removed.parquet").to_pandas()
    assert page.inner_text("#count-removed") == str(len(removed))
    chart = dict(page.eval_on_selector_all("#kind-chart g", "gs => gs.map(g => [g.dataset.kind, +g.dataset.n])"))
    assert chart == removed["kind"].value_counts().to_dict()
    assert page.locator(".note.warn").count() == 0, page.locator(".note.warn").all_inner_texts()
    assert page.locator("article.doc").count() == run["docs_cleaned"]
    screenshot(page, "report.png")
    assert sample.dialogs == [] and sample.errors == [] and sample.blocked == []


@pytest.mark.slow
@pytest.mark.prefect
def test_sample_spans_marked_with_their_kinds(sample_run, sample, expected_seeds):
    import pyarrow.parquet as pq

    out, _, _ = sample_run
    page = sample.page
    arts = pq.read_table(out / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    removed = pq.read_table(out / "removed.parquet").to_pandas()
    for doc_id, source in zip(arts["doc_id"], arts["source"]):
        shown = page.eval_on_selector_all(
            f"article.doc[data-doc-id='{doc_id}'] del.rm",
            "els => els.map(e => [+e.closest('.ln').dataset.n, e.dataset.kind, e.textContent])")
        rows = removed[removed["doc_id"] == doc_id].sort_values(["line", "start"])
        want = [[int(r.line), r.kind, " ".join(r.text.split())] for r in rows.itertuples()]
        assert [[n, k, " ".join(t.split())] for n, k, t in shown] == want, source
    # the seed's removals, as the seeds file states them, are marked with their kinds
    shown = page.eval_on_selector_all(
        f"article.doc[data-source='{SEED}'] del.rm",
        "els => els.map(e => [+e.closest('.ln').dataset.n, e.dataset.kind, e.textContent])")
    want = [[r["line"], r["kind"], r["text"]] for r in expected_seeds[SEED]["removed"]]
    assert len({k for _, k, _ in want}) >= 4
    assert shown == want, "the pipeline's removals for the seed differ from tests/golden"


@pytest.mark.slow
@pytest.mark.prefect
def test_sample_kind_filter(sample_run, sample):
    import pyarrow.parquet as pq

    out, _, _ = sample_run
    page = sample.page
    arts = pq.read_table(out / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    removed = pq.read_table(out / "removed.parquet", columns=["doc_id", "kind"]).to_pandas()
    source_of = dict(zip(arts["doc_id"], arts["source"]))
    assert len(set(removed["kind"])) >= 3
    for kind in sorted(set(removed["kind"])):
        page.select_option("#kind-filter", kind)
        want_docs = sorted(source_of[d] for d in set(removed.loc[removed["kind"] == kind, "doc_id"]))
        assert sorted(_visible_docs(page)) == want_docs, kind
        n = int((removed["kind"] == kind).sum())
        assert page.get_attribute("#filter-status", "data-spans") == str(n)
        assert page.locator("#kind-results li").count() == n
        undimmed = page.eval_on_selector_all(
            "article.doc:not([hidden]) del.rm:not(.dim)", "els => els.map(e => e.dataset.kind)")
        assert undimmed == [kind] * n
        assert page.url.endswith(f"#kind={kind}")
    page.select_option("#kind-filter", "caption")
    page.locator("#kind-results li a").first.click()  # jumps to the line
    assert re.search(r"#doc-[0-9a-f]+-L[0-9]+$", page.url), page.url
    screenshot(page, "report-filter-caption.png", full_page=False)
    page.select_option("#kind-filter", "")
    assert len(_visible_docs(page)) == len(arts)
    assert sample.errors == []


@pytest.mark.slow
@pytest.mark.prefect
def test_sample_hostile_article_is_text(sample_run, sample):
    page = sample.page
    page.wait_for_timeout(300)
    assert sample.dialogs == []
    # textContent: documents off screen are not rendered (content-visibility), so innerText skips them
    text = page.text_content("#documents") + page.text_content("#quarantine")
    assert XSS in text and "<img src=x onerror=alert(2)>" in text and "<b>approves</b>" in text
    assert page.locator("script").count() == 1 and page.locator("img").count() == 0
    assert page.locator("b").count() == 0
    # opening the document by its link runs nothing either
    doc = page.locator(f"article.doc[data-source='{HOSTILE}']")
    if doc.count():
        page.goto(page.url.split("#")[0] + "#" + doc.get_attribute("id"))
        assert XSS in doc.inner_text()  # now on screen: rendered as text
        screenshot(page, "report-hostile.png", full_page=False)
    assert sample.dialogs == [] and sample.errors == []
