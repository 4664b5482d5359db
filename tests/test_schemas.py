"""The pandera contracts: every check catches what it is for, validation is lazy, a failing article
moves to quarantine with the failed checks' names, and the cross-table checks see orphans."""
from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from newsclean.cleaners.batch import BatchResult
from newsclean.cleaners.store import atomic_write_parquet, to_arrow
from newsclean.schemas.describe import describe
from newsclean.schemas.tables import ARROW_SCHEMAS, KINDS
from newsclean.schemas.validate import check_tables, failing_rows, validate_batch

NOW = dt.datetime(2024, 5, 1, 12, 0, tzinfo=dt.timezone.utc)


def article(i: int = 0, **over) -> dict:
    text = over.pop("text", "The council approved the budget on Tuesday.\n\nIt takes effect in May.")
    row = {"doc_id": f"{i:016x}", "source": f"doc-{i}.txt", "url": None, "title": "Council Approves Budget",
           "text": text, "author": None, "outlet": "BBC News", "outlet_domain": "bbc.co.uk", "outlet_source": "text",
           "published": dt.date(2024, 4, 30), "published_source": "dateline", "n_words": len(text.split()),
           "n_removed": 1, "language": "en", "language_score": 0.99, "dup_cluster": f"{i:016x}", "dup_similarity": 1.0,
           "pipeline_version": "0.1.0+abc", "cleaned_at": NOW}
    row.update(over)
    return row


def removed(i: int = 0, **over) -> dict:
    row = {"doc_id": f"{i:016x}", "line": 1, "start": 0, "end": 10, "text": "Watch LIVE", "kind": "navigation",
           "rule": "ui_words", "whole_line": True}
    row.update(over)
    return row


def quarantined(source: str = "bad.txt", **over) -> dict:
    row = {"source": source, "doc_id": None, "stage": "decode", "error": "file is binary (not text); remove it"}
    row.update(over)
    return row


def test_valid_rows_pass():
    assert failing_rows("articles", [article(0), article(1, published=None, outlet_domain=None)]) == {}
    assert failing_rows("removed", [removed(0), removed(0, line=3, start=5, end=9, text="LIVE", whole_line=False)]) == {}
    assert failing_rows("quarantine", [quarantined(), quarantined("b.txt", doc_id="0123456789abcdef")]) == {}


ARTICLE_CASES = {
    "doc_id not 16 hex": ({"doc_id": "XYZ"}, "doc_id:str_matches"),
    "doc_id upper case": ({"doc_id": "0123456789ABCDEF"}, "doc_id:str_matches"),
    "empty text": ({"text": "", "n_words": 0}, "text:str_length"),
    "blank text": ({"text": "  \n\n ", "n_words": 0}, "text:text_has_words"),
    "no-break space": ({"text": "Fifty\u00a0people came to the meeting."}, "text:text_is_clean"),
    "mojibake": ({"text": "The caf\u00c3\u00a9 opened on Tuesday, the owner\u00e2\u20ac\u2122s first."}, "text:text_is_clean"),
    "n_words disagrees": ({"n_words": 99}, "n_words_matches_text"),
    "published before 1990": ({"published": dt.date(1989, 12, 31)}, "published:published_in_range"),
    "published in the future": ({"published": dt.date.today() + dt.timedelta(days=2)}, "published:published_in_range"),
    "published in year 1": ({"published": dt.date(1, 1, 1)}, "published"),
    "outlet_domain a subdomain": ({"outlet_domain": "www.bbc.co.uk"}, "outlet_domain:outlet_domain_is_registrable"),
    "outlet_domain a public suffix": ({"outlet_domain": "co.uk"}, "outlet_domain:outlet_domain_is_registrable"),
    "outlet_domain not a domain": ({"outlet_domain": "BBC News"}, "outlet_domain:outlet_domain_is_registrable"),
    "negative n_removed": ({"n_removed": -1}, "n_removed:greater_than_or_equal_to"),
}


@pytest.mark.parametrize("case", sorted(ARTICLE_CASES))
def test_each_article_check_catches_its_case(case):
    over, check = ARTICLE_CASES[case]
    fails = failing_rows("articles", [article(0), article(1, **over), article(2)])
    assert list(fails) == [1], fails
    assert any(check in name for name in fails[1]), fails


def test_unique_doc_id_and_source():
    fails = failing_rows("articles", [article(0), article(0, source="other.txt")])
    assert fails == {0: ["doc_id:field_uniqueness"], 1: ["doc_id:field_uniqueness"]}
    fails = failing_rows("articles", [article(0), article(1, source="doc-0.txt")])
    assert fails == {0: ["source:field_uniqueness"], 1: ["source:field_uniqueness"]}


REMOVED_CASES = {
    "kind not in the vocabulary": ({"kind": "spam"}, "kind:isin"),
    "line 0": ({"line": 0}, "line:greater_than_or_equal_to"),
    "start == end": ({"start": 4, "end": 4, "text": "", "whole_line": False}, "start_before_end"),
    "start > end": ({"start": 8, "end": 4, "text": "", "whole_line": False}, "start_before_end"),
    "text not the offsets' length": ({"text": "Watch"}, "text_matches_offsets"),
    "doc_id not hex": ({"doc_id": "nope"}, "doc_id:str_matches"),
    "whole line not from 0": ({"start": 2, "end": 12}, "whole_line_starts_at_0"),
}


@pytest.mark.parametrize("case", sorted(REMOVED_CASES))
def test_each_removed_check_catches_its_case(case):
    over, check = REMOVED_CASES[case]
    fails = failing_rows("removed", [removed(0), removed(1, **over)])
    assert list(fails) == [1] and any(check in name for name in fails[1]), fails


def test_kinds_vocabulary_is_the_pipelines():
    kind_col = next(c for c in describe()["removed"]["columns"] if c["name"] == "kind")
    assert kind_col["checks"][0]["params"]["allowed_values"] == list(KINDS)


def test_validation_is_lazy_and_names_every_failed_check():
    fails = failing_rows("articles", [article(0, doc_id="bad", text="x\u00a0y", n_words=7, published=dt.date(1980, 1, 1))])
    names = " ".join(fails[0])
    for check in ("doc_id:str_matches", "text:text_is_clean", "n_words_matches_text", "published_in_range"):
        assert check in names, names


def test_failing_article_moves_to_quarantine_with_its_removed_rows():
    result = BatchResult(
        articles=[article(0), article(1, n_words=3), article(2, text="A line. \n\nWatch LIVE", n_words=5)],
        removed=[removed(0), removed(1), removed(2)],
        quarantine=[quarantined()],
    )
    out = validate_batch(result)
    assert [a["doc_id"] for a in out.articles] == [f"{0:016x}"]
    assert [r["doc_id"] for r in out.removed] == [f"{0:016x}"]
    q = {r["source"]: r for r in out.quarantine}
    assert set(q) == {"bad.txt", "doc-1.txt", "doc-2.txt"}
    assert q["doc-1.txt"]["stage"] == "validate" and "n_words_matches_text" in q["doc-1.txt"]["error"]
    assert "removed_line_not_in_text" in q["doc-2.txt"]["error"]
    assert q["doc-1.txt"]["doc_id"] == f"{1:016x}"
    assert failing_rows("articles", out.articles) == failing_rows("quarantine", out.quarantine) == {}


def test_unrepairable_mojibake_is_quarantined_with_where_and_what_to_do():
    """A check mark whose UTF-8 bytes were cut upstream ("\u00e2\u009c", shown "âœ" once ftfy has read
    it) cannot be repaired: the reason says where it is and that the source is to blame, not newsclean."""
    text = "The table compares the tools.\n\nPricing \u00e2\u0153\n\nIt takes effect in May."
    out = validate_batch(BatchResult(articles=[article(0), article(1, text=text)]))
    assert [a["doc_id"] for a in out.articles] == [f"{0:016x}"]
    error = out.quarantine[0]["error"]
    assert error.startswith("output failed schema checks: text:text_is_clean (contains mojibake")
    assert "paragraph 2" in error and "Pricing \u00e2\u0153" in error
    assert "check how the source was fetched, decoded and saved" in error and "please report" not in error
    # a failure the input cannot explain still asks for a report
    nbsp = validate_batch(BatchResult(articles=[article(2, text="A\u00a0line here.")])).quarantine[0]["error"]
    assert "no-break space in paragraph 1: 'A\\xa0line here.'" in nbsp and nbsp.endswith("please report it with this file")


def test_bad_removed_row_quarantines_its_article():
    out = validate_batch(BatchResult(articles=[article(0), article(1)],
                                     removed=[removed(0), removed(1, start=5, end=5, text="", whole_line=False)]))
    assert [a["doc_id"] for a in out.articles] == [f"{0:016x}"]
    assert out.quarantine[0]["error"].startswith("output failed schema checks: removed.start_before_end;")


def test_bookkeeping_rows_are_made_valid_not_lost():
    out = validate_batch(BatchResult(quarantine=[
        quarantined("a.txt", stage="weird-stage"), quarantined("b.txt", error="bad"),
        quarantined("c.txt", doc_id="not-hex"), quarantined("c.txt", stage="read", error="second problem with c")]))
    q = {r["source"]: r for r in out.quarantine}
    assert set(q) == {"a.txt", "b.txt", "c.txt"}
    assert q["a.txt"]["stage"] == "validate" and "weird-stage" in q["a.txt"]["error"]
    assert len(q["b.txt"]["error"]) >= 10 and q["c.txt"]["doc_id"] is None and "second problem" in q["c.txt"]["error"]
    assert failing_rows("quarantine", out.quarantine) == {}


def _write(folder: Path, articles, removed_rows, quarantine_rows) -> Path:
    for name, rows in (("articles", articles), ("removed", removed_rows), ("quarantine", quarantine_rows)):
        atomic_write_parquet(to_arrow(name, rows), folder / f"{name}.parquet")
    return folder


def test_cross_table_checks(tmp_path):
    ok = _write(tmp_path, [article(0)], [removed(0), removed(5)], [quarantined(doc_id=f"{5:016x}")])
    assert check_tables(ok) == []  # a removed row may belong to a quarantined document
    bad = _write(tmp_path, [article(0), article(1, source="bad.txt")], [removed(0), removed(7)], [quarantined()])
    problems = " ".join(check_tables(bad))
    assert "removed_doc_id_known" in problems and "source_in_one_place" in problems
    dup = _write(tmp_path, [article(0), article(0, source="x.txt")], [], [quarantined(), quarantined()])
    problems = " ".join(check_tables(dup))
    assert "articles.doc_id unique" in problems and "quarantine.source unique" in problems


def test_schema_command_prints_and_exports_the_contract():
    cli = Path(sys.executable).with_name("newsclean")
    out = subprocess.run([str(cli), "schema", "--json"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    contract = json.loads(out.stdout)
    assert contract == json.loads(json.dumps(describe()))
    for table in ("articles", "removed", "quarantine", "lines"):
        cols = [c["name"] for c in contract[table]["columns"]]
        assert cols == ARROW_SCHEMAS[table].names
    names = {k["name"] for t in ("articles", "removed") for c in contract[t]["columns"] for k in c["checks"]}
    names |= {k["name"] for t in ("articles", "removed") for k in contract[t]["checks"]}
    for check in ("unique", "str_matches", "text_is_clean", "published_in_range", "outlet_domain_is_registrable",
                  "n_words_matches_text", "isin", "start_before_end", "representative_similarity_is_1"):
        assert check in names
    assert {k["name"] for k in contract["cross_table_checks"]} == {"removed_line_not_in_text", "removed_doc_id_known", "source_in_one_place",
                                                                   "lines_doc_id_known", "removed_span_in_lines", "dup_cluster_is_an_article"}
    text = subprocess.run([str(cli), "schema"], capture_output=True, text=True, timeout=60)
    assert text.returncode == 0
    for needle in ("articles.parquet", "removed.parquet", "quarantine.parquet", "lines.parquet", "date32[day]",
                   "timestamp[us, tz=UTC]", "n_words_matches_text", "removed_doc_id_known", "one_row_per_line"):
        assert needle in text.stdout, needle


def test_identical_documents_in_different_batches_are_resolved_not_fatal(tmp_path):
    """The same bytes under two names in two batches: the first copy stays an article, the second
    is quarantined naming it, the removed rows are not doubled, and the write step's checks pass."""
    from newsclean.cleaners import store
    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.settings import Settings
    from tests.conftest import SEEDS_RAW

    raw = tmp_path / "raw"
    raw.mkdir()
    seeds = sorted(SEEDS_RAW.glob("*.txt"))
    (raw / "a.txt").write_bytes(seeds[0].read_bytes())
    (raw / "b.txt").write_bytes(seeds[0].read_bytes())
    (raw / "c.txt").write_bytes(seeds[1].read_bytes())
    stage = tmp_path / "stage"
    for i, batch in enumerate([["a.txt"], ["b.txt", "c.txt"]]):
        store.write_part(stage, i, clean_sources(raw, batch, Settings()))
    for name in store.TABLES:
        store.merge_parts(stage, name)
    single = validate_batch(clean_sources(raw, ["a.txt"], Settings()))
    assert store.duplicate_keys(stage) == [] and check_tables(stage) == []
    arts = pq.read_table(stage / "articles.parquet").to_pandas()
    q = pq.read_table(stage / "quarantine.parquet").to_pandas()
    rem = pq.read_table(stage / "removed.parquet").to_pandas()
    assert list(arts["source"]) == ["a.txt", "c.txt"]
    assert list(q["source"]) == ["b.txt"] and "same bytes as a.txt" in q["error"][0]
    assert (rem["doc_id"] == single.articles[0]["doc_id"]).sum() == len(single.removed)


def test_a_removed_repeated_copy_may_leave_its_first_copy():
    text = "A line that is repeated on the page.\n\nThe council approved the budget."
    dup = removed(0, line=5, end=36, text="A line that is repeated on the page.", kind="boilerplate", rule="repeated_paragraph")
    out = validate_batch(BatchResult(articles=[article(0, text=text)], removed=[dup]))
    assert len(out.articles) == 1 and not out.quarantine
    other = dict(dup, rule="model")
    out = validate_batch(BatchResult(articles=[article(0, text=text)], removed=[other]))
    assert not out.articles and "removed_line_not_in_text" in out.quarantine[0]["error"]


def test_removed_line_check_is_positional_when_kept_lines_are_known():
    """A table of contents repeats a subheading: its copy at line 3 is removed, the subheading at
    line 9 stays. That is right, and must not quarantine the article; keeping line 3 itself is not."""
    text = "Key findings\n\nThe council approved the budget."
    toc = removed(0, line=3, end=12, text="Key findings", kind="navigation", rule="short_fragment")
    ok = validate_batch(BatchResult(articles=[article(0, text=text)], removed=[toc], kept_lines={f"{0:016x}": (9, 11)}))
    assert len(ok.articles) == 1 and not ok.quarantine
    bad = validate_batch(BatchResult(articles=[article(0, text=text)], removed=[toc], kept_lines={f"{0:016x}": (3, 11)}))
    assert not bad.articles and "removed_line_not_in_text" in bad.quarantine[0]["error"]


def test_full_page_text_with_a_table_of_contents_is_not_quarantined(tmp_path):
    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.settings import Settings

    body = ["The council voted on Tuesday to expand the downtown bus network after months of debate over costs.",
            "Council members said the new routes would serve neighbourhoods that have gone without reliable service.",
            "Budget", "The plan still needs approval from the regional transit authority, which meets again next month.",
            "Officials said the first new routes could open as early as next spring if the authority agrees."]
    page = ["Home", "News", "Contents", "Budget", "Routes", "Council backs bigger bus network", *body, "Share this article"]
    (tmp_path / "page.txt").write_text("\n\n".join(page))
    out = validate_batch(clean_sources(tmp_path, ["page.txt"], Settings()))
    assert len(out.articles) == 1, out.quarantine
    (art,) = out.articles
    assert "Budget" in art["text"].split("\n\n")
    assert any(r["text"] == "Budget" and r["line"] == 7 for r in out.removed)


def _validate_in_fresh_process(preamble: str) -> dict:
    code = preamble + """
import json, sys
from newsclean.schemas.validate import failing_rows
good = failing_rows("quarantine", [{"source": "a.txt", "doc_id": None, "stage": "read", "error": "a long enough reason"}])
bad = failing_rows("quarantine", [{"source": "a.txt", "doc_id": "zz", "stage": "nope", "error": "short"}])
print(json.dumps({"good": good, "bad": bad.get(0, []), "dask": "dask.dataframe" in sys.modules, "scipy": "scipy" in sys.modules}))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_validation_does_not_load_dask_dataframes_or_scipy():
    # pandera's Dask annotations would import dask.dataframe and scipy in every worker (45 MB)
    got = _validate_in_fresh_process("")
    assert got["good"] == {} and len(got["bad"]) == 3
    assert not got["dask"] and not got["scipy"]


def test_validation_is_the_same_in_a_process_that_uses_dask_dataframes():
    got = _validate_in_fresh_process("import dask.dataframe\n")
    assert got["good"] == {} and len(got["bad"]) == 3 and got["dask"]


# Values that break a row's types, nulls and ranges, for the equivalence below.
_ODD_VALUES = [None, "", "nope", "0123456789abcdef", -1, 0, 2**70, 1.5, float("nan"), True, dt.date(1980, 1, 1),
               dt.date(2024, 4, 30), NOW, "x\u00a0y", "â€™ mojibake", "navigation", [1], {"a": 1}]


def test_a_datetime_where_a_date_belongs_fails_the_date_check_either_way():
    """pyarrow would write a (time-zoned) datetime in `published` as its own day; the row fails
    pandera's date type, read through Arrow or as given (hypothesis found the two disagreeing)."""
    from unittest import mock

    from newsclean.schemas import validate

    rows = [article(0), article(1)]
    rows[1]["published"] = dt.datetime(2024, 5, 1, 23, 0, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    through_arrow = failing_rows("articles", rows, validate.arrow_table("articles", rows))
    with mock.patch.object(validate, "arrow_table", lambda *_: None):
        by_dicts = failing_rows("articles", rows)
    assert set(through_arrow) == set(by_dicts) == {1}
    assert any(c.startswith("published:") for c in through_arrow[1])


@settings(max_examples=40, deadline=None)  # each example validates twice (~0.15 s)
@given(st.sampled_from(["articles", "removed", "quarantine", "lines"]),
       st.lists(st.tuples(st.integers(0, 30), st.sampled_from(_ODD_VALUES)), max_size=4), st.integers(1, 4))
def test_rows_read_through_arrow_fail_exactly_as_read_from_dicts(name, changes, n_rows):
    """failing_rows reads a batch's rows through their Arrow table (the one then written) where they
    fit it; each row fails the same checks as when the rows are read as given, whatever is wrong
    with them."""
    from unittest import mock

    from newsclean.schemas import validate

    make = {"articles": article, "removed": removed, "quarantine": lambda i: quarantined(f"s{i}.txt"),
            "lines": lambda i: {"doc_id": f"{i:016x}", "line": 1, "text": "Watch LIVE"}}[name]
    rows = [make(i) for i in range(n_rows)]
    columns = ARROW_SCHEMAS[name].names
    for k, value in changes:
        rows[k % n_rows][columns[k % len(columns)]] = value
    through_arrow = failing_rows(name, rows, validate.arrow_table(name, rows))
    with mock.patch.object(validate, "arrow_table", lambda *_: None):  # every frame from the dicts
        by_dicts = failing_rows(name, rows)
    assert {i: sorted(c) for i, c in through_arrow.items()} == {i: sorted(c) for i, c in by_dicts.items()}
