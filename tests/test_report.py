"""newsclean.flows.report.build_report on tables written here with the output contract's columns."""
from __future__ import annotations

import json
from collections import Counter
import re
import shutil
import time
from pathlib import Path

import lxml.html
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from newsclean.flows.report import build_report
from newsclean.flows.report.build import segment_line

XSS = "<script>alert(1)</script>"


_SIMPLE = re.compile(r"([a-z0-9]*)((?:[#.][\w-]+|\[[\w-]+(?:='[^']*')?\])*)")


def css(el, selector: str) -> list:
    """A small CSS-selector subset (tag, #id, .class, [attr], [attr='v'], descendant) as XPath
    (lxml's own cssselect needs the cssselect package, which is not a dependency)."""
    parts = []
    for step in selector.split():
        m = _SIMPLE.fullmatch(step)
        assert m, step
        cond = []
        for tok in re.findall(r"#[\w-]+|\.[\w-]+|\[[^\]]+\]", m.group(2)):
            if tok[0] == "#":
                cond.append(f"@id='{tok[1:]}'")
            elif tok[0] == ".":
                cond.append(f"contains(concat(' ', normalize-space(@class), ' '), ' {tok[1:]} ')")
            else:
                name, _, val = tok[1:-1].partition("=")
                cond.append(f"@{name}={val}" if val else f"@{name}")
        parts.append((m.group(1) or "*") + "".join(f"[{c}]" for c in cond))
    return el.xpath(".//" + "//".join(parts))

# Raw documents: {source: text}. Lines are 1-based below.
RAW = {
    "a_story.txt": "\n".join([
        "Council approves the new bridge",                  # 1 title
        "",                                                  # 2
        "Home | News | Local | Sport",                       # 3 navigation
        "",                                                  # 4
        "SPRINGFIELD (Daily Bugle) - The council voted 7-2 on Monday to fund the bridge.",  # 5 dateline span
        "",                                                  # 6
        "Work starts in May. The mayor was pleased. Photo: J. Smith/AP",  # 7 caption span at end
        "",                                                  # 8
        "Sign up for our newsletter!",                       # 9 call_to_action
    ]),
    "b_xss.txt": "\n".join([
        "A headline with <b>markup</b> & ampersands",        # 1 title
        "",
        f"Some body text that quotes {XSS} literally.",      # 3
        "",
        "<img src=x onerror=alert(2)> is also just text here.",  # 5
        "",
        f"Related: {XSS}",                                   # 7 related_headline
    ]),
    "c_plain.txt": "Just one paragraph, nothing removed.",
}


def _articles_table(rows: list[dict]) -> pa.Table:
    cols = ["doc_id", "source", "title", "text", "outlet", "outlet_domain", "published",
            "published_source", "outlet_source", "n_words", "n_removed", "pipeline_version", "cleaned_at"]
    data = {c: [r.get(c) for r in rows] for c in cols}
    return pa.table({
        **{c: pa.array(data[c], pa.string()) for c in cols if c not in ("published", "n_words", "n_removed")},
        "published": pa.array(data["published"], pa.date32()),
        "n_words": pa.array(data["n_words"], pa.int32()),
        "n_removed": pa.array(data["n_removed"], pa.int32()),
    })


def _removed_table(rows: list[tuple]) -> pa.Table:
    doc_id, line, start, end, text, kind = (list(x) for x in zip(*rows)) if rows else ([],) * 6
    return pa.table({"doc_id": pa.array(doc_id, pa.string()), "line": pa.array(line, pa.int32()),
                     "start": pa.array(start, pa.int32()), "end": pa.array(end, pa.int32()),
                     "text": pa.array(text, pa.string()), "kind": pa.array(kind, pa.string())})


def _span(doc_id: str, source: str, line: int, text: str, kind: str) -> tuple:
    raw_line = RAW[source].split("\n")[line - 1]
    start = raw_line.index(text)
    return (doc_id, line, start, start + len(text), text, kind)


def write_small_run(tmp: Path, *, with_run_json: bool = True) -> tuple[Path, Path]:
    """A three-document run (one with <script> in it, one quarantined) in tmp/out, raw in tmp/raw."""
    import datetime as dt

    raw, out = tmp / "raw", tmp / "out"
    raw.mkdir(parents=True, exist_ok=True)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in RAW.items():
        (raw / name).write_text(text, encoding="utf-8")
    (raw / "broken.bin").write_bytes(b"\xff\xfe\x00<script>alert(3)</script>\x00")
    removed = [
        _span("aaaa000000000001", "a_story.txt", 3, "Home | News | Local | Sport", "navigation"),
        _span("aaaa000000000001", "a_story.txt", 5, "SPRINGFIELD (Daily Bugle) -", "dateline"),
        _span("aaaa000000000001", "a_story.txt", 7, "Photo: J. Smith/AP", "caption"),
        _span("aaaa000000000001", "a_story.txt", 9, "Sign up for our newsletter!", "call_to_action"),
        _span("bbbb000000000002", "b_xss.txt", 7, f"Related: {XSS}", "related_headline"),
    ]
    articles = [
        dict(doc_id="aaaa000000000001", source="a_story.txt", title="Council approves the new bridge",
             text="The council voted 7-2 on Monday to fund the bridge.\n\nWork starts in May. The mayor was pleased.",
             outlet="Daily Bugle", outlet_domain="dailybugle.com", published=dt.date(2024, 3, 4),
             published_source="dateline", outlet_source="dateline", n_words=17, n_removed=4,
             pipeline_version="0.1.0+test", cleaned_at="2026-11-21T00:00:00Z"),
        dict(doc_id="bbbb000000000002", source="b_xss.txt", title="A headline with <b>markup</b> & ampersands",
             text=f"Some body text that quotes {XSS} literally.\n\n<img src=x onerror=alert(2)> is also just text here.",
             outlet="<i>Evil</i> Outlet", outlet_domain=None, published=None, published_source=None,
             outlet_source="signature", n_words=14, n_removed=1, pipeline_version="0.1.0+test",
             cleaned_at="2026-11-21T00:00:00Z"),
        dict(doc_id="cccc000000000003", source="c_plain.txt", title=None,
             text="Just one paragraph, nothing removed.", outlet=None, outlet_domain=None, published=None,
             published_source=None, outlet_source=None, n_words=5, n_removed=0,
             pipeline_version="0.1.0+test", cleaned_at="2026-11-21T00:00:00Z"),
    ]
    pq.write_table(_articles_table(articles), out / "articles.parquet")
    pq.write_table(_removed_table(removed), out / "removed.parquet")
    pq.write_table(pa.table({"source": ["broken.bin"], "stage": ["decode"],
                             "error": [f"cannot decode {XSS}: not UTF-8"]}), out / "quarantine.parquet")
    if with_run_json:
        run = {"counts": {"docs_read": 4, "docs_cleaned": 3, "docs_quarantined": 1,
                          "removed_by_kind": {"navigation": 1, "dateline": 1, "caption": 1,
                                              "call_to_action": 1, "related_headline": 1}},
               "durations": {"total_s": 1.25, "clean_s": 0.5},
               "versions": {"newsclean": "0.1.0", "pipeline_version": "0.1.0+test"}}
        (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return out, raw


def without_build_values(html: str) -> str:
    """The page with its two per-build values blanked (the generation time and the CSP nonce), so
    that two builds from the same tables compare equal."""
    html = re.sub(r"generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "generated <time>", html)
    return re.sub(r"nonce(=\"|-)[A-Za-z0-9_-]+", r"nonce\1<nonce>", html)


def _tree(path: Path):
    return lxml.html.fromstring(path.read_text(encoding="utf-8"))


@pytest.fixture()
def small_report(tmp_path):
    out, raw = write_small_run(tmp_path)
    path = build_report(out, raw)
    return path, _tree(path), out, raw


def test_writes_report_atomically(small_report):
    path, _, out, _ = small_report
    assert path == out / "report.html" and path.is_file()
    assert [p.name for p in out.iterdir() if p.name.startswith(".report")] == []


def test_counts_and_chart(small_report):
    _, t, _, _ = small_report
    assert t.get_element_by_id("count-read").text_content() == "4"
    assert t.get_element_by_id("count-cleaned").text_content() == "3"
    assert t.get_element_by_id("count-quarantined").text_content() == "1"
    assert t.get_element_by_id("count-removed").text_content() == "5"
    bars = {g.get("data-kind"): int(g.get("data-n")) for g in css(t, "#kind-chart g")}
    assert bars == {"navigation": 1, "dateline": 1, "caption": 1, "call_to_action": 1, "related_headline": 1}
    assert not css(t, ".note.warn")  # run.json and the tables agree
    durations = t.get_element_by_id("durations").text_content()
    assert "total_s" in durations and "1.2 s" in durations
    assert "0.1.0+test" in t.get_element_by_id("versions").text_content()


def test_metadata_coverage(small_report):
    _, t, _, _ = small_report
    rows = {tr.get("data-field"): tr for tr in css(t, "#coverage tbody tr")}
    assert css(rows["title"], "td")[1].text_content() == "2"
    assert css(rows["published"], "td")[2].text_content() == "33.3%"
    sources = {s.get("data-source") for s in css(rows["outlet"], ".src")}
    assert sources == {"dateline", "signature"}


def test_struck_spans_carry_their_kinds(small_report):
    _, t, _, _ = small_report
    doc = t.get_element_by_id("doc-aaaa000000000001")
    dels = [(d.getparent().get("data-n"), d.get("data-kind"), d.text_content()) for d in css(doc, "del.rm")]
    assert dels == [("3", "navigation", "Home | News | Local | Sport"),
                    ("5", "dateline", "SPRINGFIELD (Daily Bugle) -"),
                    ("7", "caption", "Photo: J. Smith/AP"),
                    ("9", "call_to_action", "Sign up for our newsletter!")]
    for d in css(doc, "del.rm"):
        assert d.get("title").startswith(d.get("data-kind"))  # kind on hover
        assert f"k-{d.get('data-kind')}" in d.get("class")
    line7 = css(doc, "[data-n='7']")[0]
    assert line7.text_content() == RAW["a_story.txt"].split("\n")[6]  # kept text around the span intact
    assert "title-line" in css(doc, "[data-n='1']")[0].get("class")
    assert doc.get("data-kinds") == "call_to_action caption dateline navigation"
    meta = {tr.get("data-field"): tr for tr in css(doc, "table.meta tr[data-field]")}
    assert css(meta["published"], ".value")[0].text_content() == "2024-03-04"
    assert "dateline" in css(meta["published"], ".from")[0].text_content()
    assert css(meta["outlet"], ".value")[0].text_content() == "Daily Bugle"


def test_prev_next_links(small_report):
    _, t, _, _ = small_report
    docs = css(t, "article.doc")
    assert [d.get("data-source") for d in docs] == ["a_story.txt", "b_xss.txt", "c_plain.txt"]
    assert css(docs[0], "a.prev")[0].get("href") is None
    assert css(docs[0], "a.next")[0].get("href") == f"#{docs[1].get('id')}"
    assert css(docs[1], "a.prev")[0].get("href") == f"#{docs[0].get('id')}"
    assert css(docs[2], "a.next")[0].get("href") is None


def test_document_text_is_escaped(small_report):
    path, t, _, _ = small_report
    html = path.read_text(encoding="utf-8")
    assert XSS not in html and "<img src=x" not in html and "<b>markup" not in html and "<i>Evil" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    scripts = css(t, "script")
    assert len(scripts) == 1 and "alert" not in scripts[0].text_content()
    assert not css(t, "img") and not css(t, "b") and not css(t, "i")
    assert not [el for el in t.iter() if isinstance(el.tag, str) and any(a.startswith("on") for a in el.attrib)]
    doc = t.get_element_by_id("doc-bbbb000000000002")
    assert XSS in css(doc, "[data-n='3']")[0].text_content()
    assert css(doc, "del.rm")[0].text_content() == f"Related: {XSS}"
    assert XSS in t.get_element_by_id("quarantine-table").text_content()


def test_self_contained(small_report):
    path, t, _, _ = small_report
    for el in t.iter():
        if not isinstance(el.tag, str):
            continue
        for attr in ("src", "href"):
            v = el.get(attr)
            assert v is None or v.startswith("#"), (el.tag, attr, v)
    assert "http://" not in path.read_text().replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in path.read_text()


def test_outliers_and_quarantine(small_report):
    _, t, _, _ = small_report
    rows = css(t, "#outlier-table tbody tr")
    # a_story: 17 removed words / (17 + 17 kept); b_xss: 3 / (3 + 14); c_plain has nothing removed
    assert [r.get("data-doc-id") for r in rows] == ["aaaa000000000001", "bbbb000000000002"]
    assert css(rows[0], "a")[0].get("href") == "#doc-aaaa000000000001"
    q = css(t, "#quarantine-table tbody tr")
    assert len(q) == 1 and css(q[0], "td")[1].text_content() == "decode"
    assert "not UTF-8" in css(q[0], ".reason")[0].text_content()


def test_missing_raw_file_and_bad_offsets(tmp_path):
    out, raw = write_small_run(tmp_path)
    (raw / "c_plain.txt").unlink()
    rem = pq.read_table(out / "removed.parquet").to_pylist()
    rem.append(dict(doc_id="aaaa000000000001", line=99, start=0, end=3, text="Gone", kind="boilerplate"))
    rem.append(dict(doc_id="aaaa000000000001", line=7, start=500, end=520, text="The mayor was pleased.",
                    kind="boilerplate"))  # offsets off the line: found by its text
    pq.write_table(pa.Table.from_pylist(rem, schema=pq.read_schema(out / "removed.parquet")),
                   out / "removed.parquet")
    t = _tree(build_report(out, raw))
    c = t.get_element_by_id("doc-cccc000000000003")
    assert "raw text unavailable" in c.text_content()
    assert css(c, ".clean-text pre")[0].text_content() == "Just one paragraph, nothing removed."
    a = t.get_element_by_id("doc-aaaa000000000001")
    assert "Gone" in css(a, ".unplaced")[0].text_content()
    line7 = [(d.get("data-kind"), d.text_content()) for d in css(a, "[data-n='7'] del.rm")]
    assert line7 == [("boilerplate", "The mayor was pleased."), ("caption", "Photo: J. Smith/AP")]
    assert t.get_element_by_id("span-warnings") is not None
    # run.json's removed_by_kind no longer matches the table: said so
    assert "removed_by_kind differs" in t.text_content()


def test_without_run_json_counts_come_from_tables(tmp_path):
    out, raw = write_small_run(tmp_path, with_run_json=False)
    t = _tree(build_report(out, raw))
    assert t.get_element_by_id("count-read").text_content() == "4"
    assert t.get_element_by_id("count-cleaned").text_content() == "3"
    assert t.get_element_by_id("count-quarantined").text_content() == "1"


def test_empty_run(tmp_path):
    out, raw = tmp_path / "out", tmp_path / "raw"
    raw.mkdir()
    out.mkdir()
    t = _tree(build_report(out, raw))
    assert t.get_element_by_id("count-cleaned").text_content() == "0"
    assert not css(t, "article.doc")


def test_segment_line_overlaps_and_whole_line():
    segs, unplaced = segment_line("abcdefghij", [
        {"start": 2, "end": 5, "kind": "caption", "text": "cde"},
        {"start": 4, "end": 8, "kind": "navigation", "text": "efgh"},  # overlaps: clipped
        {"start": 0, "end": 1, "kind": "tag_list", "text": "a", "by": "rule_x"},
    ])
    assert unplaced == []
    assert [(s.text, s.kind) for s in segs] == [("a", "tag_list"), ("b", None), ("cde", "caption"),
                                                ("fgh", "navigation"), ("ij", None)]
    assert segs[0].note == "tag_list (by rule_x)"
    segs, _ = segment_line("whole", [{"start": 0, "end": 5, "kind": "weird kind", "text": "whole"}])
    assert [(s.text, s.kind, s.css) for s in segs] == [("whole", "weird kind", "k-other")]


# --------------------------------------------------------------------------------------------------
# Scale: a synthetic 100k-document run


RAW_LINES = [
    "Headline number {i} about the city council",
    "",
    "Home | News | Sport | Weather | Contact",
    "",
    "CITY (Wire) - The council met on Tuesday to discuss the budget for the next year, officials said.",
    "",
    "Members argued for two hours about roads, schools and the new library before a vote was taken.",
    "",
    "A photo of the council chamber. Photo: Staff",
    "",
    "Residents who spoke at the meeting were mostly in favour of the plan, according to the minutes.",
    "",
    "The mayor said the vote was a good result for everyone in the city and thanked the members.",
    "",
    "Share this article on social media",
    "",
    "Related: Council approves last year's budget after long debate",
]


def write_big_run(tmp: Path, n_docs: int = 100_000, n_raw: int = 600, seed: int = 1,
                  body_paragraphs: int = 40) -> tuple[Path, Path]:
    """n_docs articles whose sources point at n_raw raw files (the report reads only the ones it shows)."""
    rng = np.random.default_rng(seed)
    raw, out = tmp / "raw", tmp / "out"
    raw.mkdir(parents=True)
    out.mkdir(parents=True)
    for j in range(n_raw):
        lines = list(RAW_LINES)
        lines[0] = lines[0].format(i=j)
        # long documents (~25 KB, more than the report shows per document): the worst case for size
        para = " ".join(["Filler sentence with ordinary words & a <tag> to give the document its length."] * 8)
        lines.insert(12, "The vote was close and the debate went on late into the night.")
        lines += ["", para] * (body_paragraphs if j % 2 else body_paragraphs // 10)
        (raw / f"doc_{j:05d}.txt").write_text("\n".join(lines), encoding="utf-8")
    ids = np.array([f"{i:016x}" for i in range(n_docs)], dtype=object)
    sources = np.array([f"doc_{j:05d}.txt" for j in range(n_raw)], dtype=object)[np.arange(n_docs) % n_raw]
    n_words = rng.integers(50, 1500, n_docs)
    n_spans = rng.integers(0, 7, n_docs)
    n = len(ids)
    articles = pa.table({
        "doc_id": pa.array(ids, pa.string()), "source": pa.array(sources, pa.string()),
        "title": pa.array(np.where(rng.random(n) < 0.9, "A title", None), pa.string()),
        "text": pa.array(np.full(n, "kept text"), pa.string()),
        "outlet": pa.array(np.where(rng.random(n) < 0.5, "Wire", None), pa.string()),
        "outlet_domain": pa.array(np.full(n, None), pa.string()),
        "published": pa.array(np.where(rng.random(n) < 0.4, "2024-01-02", None), pa.string()).cast(pa.date32()),
        "published_source": pa.array(np.where(rng.random(n) < 0.4, "dateline", None), pa.string()),
        "n_words": pa.array(n_words, pa.int32()), "n_removed": pa.array(n_spans, pa.int32()),
        "pipeline_version": pa.array(np.full(n, "0.1.0+big"), pa.string()),
        "cleaned_at": pa.array(np.full(n, "2026-11-21T00:00:00Z"), pa.string()),
    })
    # removed rows: each doc gets its first n_spans of these (line, text, kind) triples
    choices = [(3, RAW_LINES[2], "navigation"), (5, "CITY (Wire) -", "dateline"),
               (9, "Photo: Staff", "caption"), (16, RAW_LINES[14], "call_to_action"),
               (18, RAW_LINES[16], "related_headline"), (1, "Headline", "boilerplate")]
    rows_doc = np.repeat(np.arange(n_docs), n_spans)
    within = np.arange(len(rows_doc)) - np.repeat(np.cumsum(n_spans) - n_spans, n_spans)
    line = np.array([c[0] for c in choices])[within]
    text = np.array([c[1] for c in choices], dtype=object)[within]
    kind = np.array([c[2] for c in choices], dtype=object)[within]
    starts = np.array([0, 0, RAW_LINES[8].index("Photo"), 0, 0, 0])[within]
    lens = np.array([len(c[1]) for c in choices])[within]
    removed = pa.table({"doc_id": pa.array(ids[rows_doc], pa.string()), "line": pa.array(line, pa.int32()),
                        "start": pa.array(starts, pa.int32()), "end": pa.array(starts + lens, pa.int32()),
                        "text": pa.array(text, pa.string()), "kind": pa.array(kind, pa.string())})
    n_q = n_docs // 100
    quarantine = pa.table({"source": pa.array([f"bad_{i}.txt" for i in range(n_q)], pa.string()),
                           "stage": pa.array(np.full(n_q, "decode"), pa.string()),
                           "error": pa.array(np.full(n_q, "cannot decode as UTF-8 or a known encoding; re-fetch it"),
                                             pa.string())})
    pq.write_table(articles, out / "articles.parquet")
    pq.write_table(removed, out / "removed.parquet")
    pq.write_table(quarantine, out / "quarantine.parquet")
    (out / "run.json").write_text(json.dumps({"counts": {"docs_read": n_docs + n_q, "docs_cleaned": n_docs,
                                                         "docs_quarantined": n_q}}), encoding="utf-8")
    return out, raw


@pytest.mark.slow
def test_100k_documents_sampled_and_small(tmp_path):
    out, raw = write_big_run(tmp_path)
    t0 = time.perf_counter()
    path = build_report(out, raw, max_docs=500, seed=3)
    took = time.perf_counter() - t0
    size = path.stat().st_size
    print(f"100k docs: report {size / 1e6:.2f} MB in {took:.1f} s")
    assert size < 20_000_000
    t = _tree(path)
    docs = css(t, "article.doc")
    assert len(docs) == 500
    assert "random sample (seed 3)" in t.get_element_by_id("sample-note").text_content()
    outlier_ids = [r.get("data-doc-id") for r in css(t, "#outlier-table tbody tr")]
    assert len(outlier_ids) == 20
    shown = {d.get("data-doc-id") for d in docs}
    assert set(outlier_ids) <= shown
    assert len(css(t, "#quarantine-table tbody tr")) == 1000
    assert t.get_element_by_id("count-cleaned").text_content() == "100000"
    assert css(t, "#span-warnings") == []  # every sampled span landed on its recorded text
    assert len(css(t, "del.rm")) == sum(int(d.get("data-n-spans")) for d in docs)
    # same seed, same sample
    again = {d.get("data-doc-id") for d in css(_tree(build_report(out, raw, max_docs=500, seed=3)), "article.doc")}
    assert again == shown


def test_sampling_keeps_outliers(tmp_path):
    out, raw = write_big_run(tmp_path, n_docs=2_000, n_raw=50)
    t = _tree(build_report(out, raw, max_docs=60, seed=0))
    docs = {d.get("data-doc-id") for d in css(t, "article.doc")}
    assert len(docs) == 60
    outliers = {r.get("data-doc-id") for r in css(t, "#outlier-table tbody tr")}
    assert len(outliers) == 20 and outliers <= docs
    other = {d.get("data-doc-id") for d in css(_tree(build_report(out, raw, max_docs=60, seed=1)), "article.doc")}
    assert other != docs and outliers <= other


def test_incremental_run_counts(tmp_path):
    """An incremental run's counts cover this run; carried-over rows explain the tables' extra rows."""
    out, raw = write_small_run(tmp_path)
    run = {"docs_read": 1, "docs_cleaned": 1, "docs_quarantined": 0, "removed_by_kind": {},
           "incremental": {"rows_carried": {"articles": 2, "quarantine": 1, "removed": 5}}}
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    t = _tree(build_report(out, raw))
    assert t.get_element_by_id("count-cleaned").text_content() == "1"
    note = t.get_element_by_id("incremental-note").text_content()
    assert "3 cleaned and 1 quarantined" in note and "2 and 1 were carried over" in note
    assert not css(t, ".note.warn")
    assert len(css(t, "article.doc")) == 3
    run["incremental"]["rows_carried"]["articles"] = 1  # now the numbers do not add up: said so
    (out / "run.json").write_text(json.dumps(run), encoding="utf-8")
    t = _tree(build_report(out, raw))
    assert "articles.parquet holds 3 rows" in css(t, ".note.warn")[0].text_content()


def test_removed_table_is_streamed_in_batches_with_the_same_counts(tmp_path, monkeypatch):
    """The report reads removed.parquet batch by batch (it grows ~230 rows per document): counts
    over small batches equal counts over the whole table."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from newsclean.flows.report import build as report_build

    rows = [{"doc_id": f"{i % 37:016x}", "line": i, "start": 0, "end": 3, "text": "a b c"[: 1 + i % 5],
             "kind": ["navigation", "caption", "boilerplate"][i % 3], "rule": "r", "whole_line": i % 2 == 0}
            for i in range(1000)]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "removed.parquet", row_group_size=100)
    monkeypatch.setattr(report_build, "REMOVED_BATCH_ROWS", 64)
    summary = report_build._removed_summary(tmp_path / "removed.parquet")
    full = pd.DataFrame(rows)
    assert summary.n_rows == 1000
    assert summary.kinds == Counter(full["kind"])
    assert summary.whole == Counter(full.loc[full["whole_line"], "kind"])
    assert summary.per_doc["n_spans"].to_dict() == full.groupby("doc_id").size().to_dict()
    assert summary.per_doc["removed_words"].to_dict() == full.assign(w=full["text"].str.split().str.len()).groupby("doc_id")["w"].sum().to_dict()
    assert summary.kinds_per_doc.to_dict() == {d: sorted(set(g)) for d, g in full.groupby("doc_id")["kind"]}
    some = {f"{3:016x}", f"{5:016x}"}
    assert sorted((r["doc_id"], r["line"]) for r in report_build._removed_rows_of(tmp_path / "removed.parquet", some)) == \
        sorted((r["doc_id"], r["line"]) for r in rows if r["doc_id"] in some)


def test_small_tables_report_in_the_flow_process_and_large_ones_in_a_child(tmp_path, monkeypatch):
    """write_report builds report.html in its own process up to REPORT_IN_PROCESS_MAX_DOCS documents
    (no child process starts) and in a child above it; both give the same page (bar the two
    per-build values: the generation time and the CSP nonce)."""
    import subprocess

    from newsclean.flows import clean_corpus

    out, raw = write_small_run(tmp_path)
    real_run, children = subprocess.run, []

    def recording_run(*args, **kwargs):
        if "build_report" in " ".join(map(str, args[0])):  # only report builders (others ask `file`)
            children.append(args[0])
        return real_run(*args, **kwargs)

    monkeypatch.setattr(subprocess, "run", recording_run)
    # outside a flow run, publishing the link artifact would start an ephemeral Prefect server
    monkeypatch.setattr("newsclean.flows.report.publish_report", lambda path: [])
    n_docs = 4  # the fixture's three articles and one quarantined file
    assert n_docs <= clean_corpus.REPORT_IN_PROCESS_MAX_DOCS
    assert clean_corpus.write_report.fn(str(out), str(raw), n_docs)[0] == str(out / "report.html")
    assert children == []
    in_process = (out / "report.html").read_text(encoding="utf-8")

    monkeypatch.setattr(clean_corpus, "REPORT_IN_PROCESS_MAX_DOCS", n_docs - 1)
    assert clean_corpus.write_report.fn(str(out), str(raw), n_docs)[0] == str(out / "report.html")
    assert len(children) == 1
    apart = (out / "report.html").read_text(encoding="utf-8")

    assert without_build_values(in_process) == without_build_values(apart)
    assert "Council approves the new bridge" in in_process


def test_lines_come_from_the_audit_trail_not_raw_dir(tmp_path):
    """With lines.parquet (the run's audit trail), the report reads no input: a document's lines
    show even when RAW_DIR is gone, so a record deep in a big archive is never read past."""
    out, raw = write_small_run(tmp_path)
    before = _tree(build_report(out, raw))
    lines = []
    for path in sorted(raw.iterdir()):
        doc_id = {"a_story.txt": "aaaa000000000001", "b_xss.txt": "bbbb000000000002", "c_plain.txt": "cccc000000000003"}.get(path.name)
        if doc_id:
            from newsclean.cleaners.pipeline import normalised_lines_for

            lines += [dict(doc_id=doc_id, line=n, text=t) for n, t in enumerate(normalised_lines_for(raw, path.name), 1) if t]
    pq.write_table(pa.Table.from_pylist(lines), out / "lines.parquet")
    shutil.rmtree(raw)
    after = _tree(build_report(out, raw))
    assert "raw text unavailable" not in after.text_content()
    for doc_id in ("aaaa000000000001", "bbbb000000000002", "cccc000000000003"):
        assert after.get_element_by_id(f"doc-{doc_id}").text_content() == before.get_element_by_id(f"doc-{doc_id}").text_content()


# The per-line markup as the report template wrote it with a loop, before the lines were rendered
# in Python (newsclean.flows.report.build.lines_html): the reference those bytes must keep.
_LOOP_TEMPLATE = """{% for ln in lines %}
<div class="ln{% if ln.removed %} removed{% endif %}{% if ln.is_title %} title-line{% endif %}" id="{{ anchor }}-L{{ ln.no }}" data-n="{{ ln.no }}">
{%- for s in ln.segments -%}
{%- if s.kind -%}<del class="rm {{ s.css }}{% if s.mismatch %} mismatch{% endif %}" data-kind="{{ s.kind }}" title="{{ s.note }}">{{ s.text }}</del>{%- else -%}{{ s.text }}{%- endif -%}
{%- endfor -%}
</div>
{% endfor %}
"""


def test_lines_html_is_the_template_loop_s_markup():
    import jinja2

    from newsclean.flows.report.build import Line, Segment, lines_html

    lines = [
        Line(1, [Segment("A <b>headline</b> & \"quotes\" 'too'")], is_title=True),
        Line(2, []),
        Line(3, [Segment("Home | News", "navigation", "k-navigation", "navigation (by menu_run)")], removed=True),
        Line(4, [Segment("SPRINGFIELD - "), Segment(XSS, "weird <kind>", "k-other", 'note "q" <x>', True),
                 Segment(" rest & more")]),
        Line(5, [Segment("kept"), Segment("", "caption", "k-caption", "caption")]),
    ]
    env = jinja2.Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
    for anchor in ("doc-aaaa000000000001", 'doc-"odd"&<id>'):
        want = env.from_string(_LOOP_TEMPLATE).render(lines=lines, anchor=anchor)
        assert str(lines_html(anchor, lines)) == want
