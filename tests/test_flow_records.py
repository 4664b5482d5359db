"""What a run writes is a self-contained, consistent record: every removed span resolves from
OUT_DIR alone (lines.parquet), run.json's counts are the tables' counts (a document quarantined at
validation included), and title and author name where they came from."""
from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from newsclean.cleaners import store
from newsclean.cleaners.pipeline import clean_document, normalised_lines_for
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import RawDocument
from tests.articles import PARAGRAPHS
from tests.conftest import ROOT, SEEDS_RAW

pytestmark = pytest.mark.prefect

HTML_PAGES = ROOT / "tests" / "data" / "html_pages"
# A text whose cleaning removes lines, and whose clean text keeps a check mark cut upstream to
# "\u00e2\u0153" that ftfy cannot repair: quarantined at validation, after its removals were found.
# Such words are cut (newsclean.cleaners.rules.mojibake) but for one glued to a table's pipe, which
# would take a cell with it: that one is kept, and the document fails the articles table's text check.
UNREPAIRABLE = "\n\n".join(["Watch LIVE", "Council backs bigger bus network", *PARAGRAPHS[:2],
                            "| Plan | Price |\n|---|---|\n| Pricing | \u00e2\u0153|\n| Support | yes |",
                            *PARAGRAPHS[2:], "Sign up for our newsletter!"])


def _flow():
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus
    return clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=1))


def write_corpus(raw: Path) -> None:
    """The seeds, two HTML pages, a record file, a copy, an empty file and a text quarantined at
    validation."""
    shutil.copytree(SEEDS_RAW, raw)
    for name in ("0014.html.gz", "5654.html.gz"):
        shutil.copy(HTML_PAGES / name, raw / name)
    (raw / "records.jsonl").write_text(json.dumps({"title": "Record headline", "author": "Rec Ord",
                                                   "text": "\n\n".join(["Watch LIVE", *PARAGRAPHS])}) + "\n")
    (raw / "unrepairable.txt").write_text(UNREPAIRABLE, encoding="utf-8")
    (raw / "empty.txt").write_bytes(b"")
    first = sorted(SEEDS_RAW.glob("*.txt"))[0]
    (raw / "zz-copy.txt").write_bytes(first.read_bytes())


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    base = tmp_path_factory.mktemp("records")
    raw, out = base / "raw", base / "out"
    write_corpus(raw)
    summary = _flow()(raw_dir=str(raw), out_dir=str(out))
    return raw, out, summary


def test_every_removed_span_is_rebuilt_from_out_alone(run):
    raw, out, _ = run
    removed = pd.read_parquet(out / "removed.parquet")
    lines = pd.read_parquet(out / "lines.parquet")
    arts = pd.read_parquet(out / "articles.parquet")
    assert (out / "lines.parquet").is_symlink()  # published with the other tables, in the same generation
    text_of = {(d, n): t for d, n, t in zip(lines["doc_id"], lines["line"], lines["text"])}
    assert len(removed) > 0
    rebuilt = [text_of[(d, n)][s:e] for d, n, s, e in zip(removed["doc_id"], removed["line"], removed["start"], removed["end"])]
    assert rebuilt == list(removed["text"])
    assert set(lines["doc_id"]) == set(arts["doc_id"])  # every article's lines, nobody else's
    html = arts[arts["source"].str.endswith(".html.gz")]
    assert len(html) == 2 and removed["doc_id"].isin(html["doc_id"]).any()  # an HTML body's spans resolve too
    # the lines are the normalised lines the cleaner saw (for HTML: of the extracted body)
    for doc_id, source in zip(arts["doc_id"], arts["source"]):
        want = normalised_lines_for(raw, source)
        mine = lines[lines["doc_id"] == doc_id]
        assert dict(zip(mine["line"], mine["text"])) == {n: t for n, t in enumerate(want, 1) if t}, source


def test_run_json_counts_are_the_tables_counts(run):
    raw, out, summary = run
    assert json.loads((out / "run.json").read_text()) | {"artifacts": None} == json.loads(json.dumps(summary, default=str)) | {"artifacts": None}
    arts = pd.read_parquet(out / "articles.parquet")
    removed = pd.read_parquet(out / "removed.parquet")
    quarantine = pd.read_parquet(out / "quarantine.parquet")
    # the corpus has a document quarantined at validation whose cleaning had removed lines
    doc = clean_document(RawDocument("unrepairable.txt", (raw / "unrepairable.txt").read_bytes()), Settings())
    assert doc.removed
    q = quarantine.set_index("source")
    assert q.loc["unrepairable.txt", "stage"] == "validate" and "mojibake" in q.loc["unrepairable.txt", "error"]
    assert q.loc["zz-copy.txt", "stage"] == "validate"

    assert summary["docs_cleaned"] == len(arts)
    assert summary["docs_quarantined"] == len(quarantine)
    assert summary["quarantined_by_stage"] == dict(Counter(quarantine["stage"]))
    assert summary["removed_by_kind"] == dict(Counter(removed["kind"]))
    whole = removed["whole_line"].astype(bool)
    assert summary["lines_removed"] == dict(Counter(removed.loc[whole, "kind"]))
    assert summary["spans_removed"] == dict(Counter(removed.loc[~whole, "kind"]))
    assert summary["tables"] == {"articles": len(arts), "removed": len(removed), "quarantine": len(quarantine),
                                 "lines": len(pd.read_parquet(out / "lines.parquet"))}


def test_the_report_shows_no_count_mismatch_and_where_title_and_author_came_from(run):
    import lxml.html

    from tests.test_report import css

    _, out, _ = run
    tree = lxml.html.fromstring((out / "report.html").read_text(encoding="utf-8"))
    assert not css(tree, ".note.warn"), [n.text_content() for n in css(tree, ".note.warn")]
    rows = {tr.get("data-field"): tr for tr in css(tree, "#coverage tbody tr")}
    for field in ("title", "author"):
        sources = {s.get("data-source") for s in css(rows[field], ".src")}
        assert sources and sources <= {"record", "html", "text"}, field
        assert "not recorded" not in rows[field].text_content()
    arts = pd.read_parquet(out / "articles.parquet").set_index("source")
    assert tuple(arts.loc["records.jsonl#L1", ["title_source", "author_source"]]) == ("record", "record")
    assert set(arts.loc[[s for s in arts.index if s.endswith(".html.gz")], "title_source"]) == {"html"}


def test_an_out_dir_without_lines_is_cleaned_again_in_full(run, tmp_path):
    """An OUT_DIR written before lines.parquet existed has no lines for the documents a run would
    carry over: the next run cleans everything."""
    _, out, _ = run
    assert store.previous_schema_ok(out)
    older = tmp_path / "older"
    shutil.copytree(out, older, symlinks=True)
    (older / "lines.parquet").unlink()
    assert not store.previous_schema_ok(older)


def test_with_audit_lines_off_the_lines_table_is_empty(tmp_path):
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    for p in sorted(SEEDS_RAW.glob("*.txt"))[:2]:
        shutil.copy(p, raw / p.name)
    summary = _flow()(raw_dir=str(raw), out_dir=str(out), settings=Settings(audit_lines=False))
    assert summary["settings"]["audit_lines"] is False
    lines = pd.read_parquet(out / "lines.parquet")
    assert list(lines.columns) == ["doc_id", "line", "text"] and len(lines) == 0
    assert len(pd.read_parquet(out / "removed.parquet")) > 0 and summary["tables"]["lines"] == 0
