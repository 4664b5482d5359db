"""The report and the cross-table checks in bounded memory (issue 7): per-document numbers are arrays,
key columns are read one at a time and compared with arrow set look-ups. Results must equal those of
the pandas / Python-set code they replaced, which is kept below as the reference."""
from __future__ import annotations

import shutil
import tracemalloc
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners import store
from newsclean.cleaners.batch import duplicate_reason
from newsclean.flows.report import build as report_build
from newsclean.flows.report import build_report
from newsclean.schemas.tables import ARROW_SCHEMAS
from newsclean.schemas.validate import check_tables, resolve_duplicates
from tests.test_report import without_build_values, write_big_run, write_small_run

# --------------------------------------------------------------------------------------------------
# The replaced code (the report's first implementation), as references


def ref_check_tables(folder: Path) -> list[str]:
    arts = pq.read_table(folder / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    quar = pq.read_table(folder / "quarantine.parquet", columns=["doc_id", "source"]).to_pandas()
    problems = []
    known = set(arts["doc_id"]) | set(quar["doc_id"].dropna())
    removed_ids: set = set(pq.read_table(folder / "removed.parquet", columns=["doc_id"]).column(0).to_pylist())
    orphans = sorted(removed_ids - known, key=str)
    if orphans:
        problems.append(f"removed_doc_id_known: {len(orphans)} removed doc_ids are in neither articles nor quarantine, e.g. {orphans[:3]}")
    both = sorted(set(arts["source"]) & set(quar["source"]))
    if both:
        problems.append(f"source_in_one_place: {len(both)} sources are both articles and quarantined, e.g. {both[:3]}")
    for col in ("doc_id", "source"):
        dup = arts[col][arts[col].duplicated()]
        if len(dup):
            problems.append(f"articles.{col} unique: {len(dup)} duplicates, e.g. {list(dup.head(3))}")
    dup = quar["source"][quar["source"].duplicated()]
    if len(dup):
        problems.append(f"quarantine.source unique: {len(dup)} duplicates, e.g. {list(dup.head(3))}")
    return problems


def ref_resolve_duplicates(folder: Path) -> int:
    keys = pq.read_table(folder / "articles.parquet", columns=["doc_id", "source"]).to_pandas()
    dup_mask = keys["doc_id"].duplicated(keep="first")
    if not dup_mask.any():
        return 0
    kept = keys[~dup_mask].set_index("doc_id")["source"]
    moved = keys[dup_mask]
    dup_ids = set(moved["doc_id"])
    arts = pq.read_table(folder / "articles.parquet")
    pq.write_table(arts.filter(pa.array(~dup_mask.to_numpy())), folder / "articles.parquet")
    rem = pq.read_table(folder / "removed.parquet")
    seen, mask = set(), []
    for r in rem.select(["doc_id", "line", "start", "end", "kind", "rule"]).to_pylist():
        if r["doc_id"] not in dup_ids:
            mask.append(True)
            continue
        key = tuple(r.values())
        mask.append(key not in seen)
        seen.add(key)
    pq.write_table(rem.filter(pa.array(mask, pa.bool_())), folder / "removed.parquet")
    quar = pq.read_table(folder / "quarantine.parquet")
    extra = [{"source": s, "doc_id": d, "stage": "validate",
              "error": duplicate_reason(s, kept[d], d)}
             for d, s in zip(moved["doc_id"], moved["source"])]
    pq.write_table(pa.concat_tables([quar.cast(ARROW_SCHEMAS["quarantine"]),
                                     pa.Table.from_pylist(extra, schema=ARROW_SCHEMAS["quarantine"])]),
                   folder / "quarantine.parquet")
    return len(extra)


def ref_coverage(articles: pd.DataFrame) -> list[dict]:
    n = len(articles)
    rows = []
    for name, src_col in report_build._META_FIELDS:
        if name not in articles.columns:
            continue
        col = articles[name]
        has = col.notna()
        if col.dtype == object:
            has &= col.astype(str).str.strip().ne("")
        k = int(has.sum())
        sources = []
        if src_col in articles.columns and k:
            vc = articles.loc[has, src_col].fillna("(unknown)").astype(str).value_counts()
            sources = [{"name": s, "n": int(c), "share": c / k} for s, c in vc.items()]
        rows.append({"field": name, "n": k, "share": (k / n) if n else 0.0, "sources": sources,
                     "has_source_column": src_col in articles.columns})
    return rows


# --------------------------------------------------------------------------------------------------
# Random tables with every kind of disagreement


def _hex(i: int) -> str:
    return f"{i:016x}"


def random_tables(folder: Path, seed: int, n: int = 60) -> Path:
    """articles with duplicate doc_ids and sources, quarantine rows sharing sources with articles
    (and each other, and null doc_ids), removed rows of articles, of quarantined documents and of
    unknown documents; small row groups so that everything is read in several pieces."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    art_ids = [_hex(int(i)) for i in rng.integers(0, n, n)]  # collisions: duplicate doc_ids
    art_src = [f"s{int(i):03d}.txt" for i in rng.integers(0, 2 * n, n)]
    articles = [{"doc_id": d, "source": s, "text": "a b", "n_words": 2, "n_removed": 0, "dup_cluster": d, "dup_similarity": 1.0,
                 "pipeline_version": "v", "cleaned_at": pd.Timestamp("2026-11-21", tz="UTC")}
                for d, s in zip(art_ids, art_src)]
    n_q = n // 3
    quarantine = [{"source": f"s{int(rng.integers(0, 3 * n)):03d}.txt",
                   "doc_id": None if rng.random() < 0.3 else _hex(int(rng.integers(n, 2 * n))),
                   "stage": "decode", "error": "cannot decode this file"} for _ in range(n_q)]
    known = art_ids + [q["doc_id"] for q in quarantine if q["doc_id"]]
    removed = []
    for i in range(5 * n):
        d = known[int(rng.integers(0, len(known)))] if rng.random() < 0.9 else _hex(int(rng.integers(5 * n, 6 * n)))
        removed.append({"doc_id": d, "line": int(rng.integers(1, 4)), "start": 0, "end": 3, "text": "abc",
                        "kind": ["navigation", "caption"][i % 2], "rule": "r", "whole_line": True})
    for name, rows in (("articles", articles), ("removed", removed), ("quarantine", quarantine)):
        pq.write_table(store.to_arrow(name, rows), folder / f"{name}.parquet", row_group_size=7)
    return folder


@pytest.fixture()
def small_batches(monkeypatch):
    """Every streamed read in pieces of a few rows."""
    import newsclean.schemas.validate as validate

    real = store.iter_batches
    monkeypatch.setattr(store, "iter_batches", lambda path, columns=None, rows=200_000: real(path, columns, 5))
    monkeypatch.setattr(validate, "KEY_BATCH_ROWS", 4)
    monkeypatch.setattr(report_build, "REMOVED_BATCH_ROWS", 6)
    monkeypatch.setattr(report_build, "ARTICLE_BATCH_ROWS", 3)


@pytest.mark.parametrize("seed", range(8))
def test_check_tables_equals_the_set_version(tmp_path, seed, small_batches):
    folder = random_tables(tmp_path, seed)
    expected = ref_check_tables(folder)
    assert any(p.startswith("removed_doc_id_known") for p in expected)
    assert check_tables(folder) == expected


def test_check_tables_names_each_problem_exactly(tmp_path, small_batches):
    """Duplicates across and within tables and a removed row of an unknown document, each reported
    with its count and first examples, in the reference's words."""
    rows = lambda ids, srcs: [{"doc_id": d, "source": s, "text": "a b", "n_words": 2, "n_removed": 0,  # noqa: E731
                               "dup_cluster": d, "dup_similarity": 1.0, "pipeline_version": "v", "cleaned_at": pd.Timestamp("2026-11-21", tz="UTC")}
                              for d, s in zip(ids, srcs)]
    rem = lambda ids: [{"doc_id": d, "line": 1, "start": 0, "end": 1, "text": "x", "kind": "caption",  # noqa: E731
                        "rule": "r", "whole_line": True} for d in ids]
    quar = lambda pairs: [{"source": s, "doc_id": d, "stage": "read", "error": "could not read it"}  # noqa: E731
                          for s, d in pairs]
    ok = store.to_arrow("articles", rows([_hex(1), _hex(2)], ["a.txt", "b.txt"]))
    pq.write_table(ok, tmp_path / "articles.parquet")
    pq.write_table(store.to_arrow("removed", rem([_hex(1), _hex(9), _hex(2)])), tmp_path / "removed.parquet")
    pq.write_table(store.to_arrow("quarantine", quar([("q.txt", _hex(9)), ("r.txt", None)])), tmp_path / "quarantine.parquet")
    assert check_tables(tmp_path) == [] == ref_check_tables(tmp_path)  # a removed row of a quarantined document

    pq.write_table(store.to_arrow("articles", rows([_hex(1), _hex(2), _hex(1), _hex(1), _hex(3)],
                                                   ["a.txt", "b.txt", "c.txt", "a.txt", "q.txt"])), tmp_path / "articles.parquet")
    pq.write_table(store.to_arrow("removed", rem([_hex(7), _hex(1), _hex(8), _hex(7), _hex(6), _hex(5)])), tmp_path / "removed.parquet")
    pq.write_table(store.to_arrow("quarantine", quar([("q.txt", _hex(9)), ("b.txt", None), ("q.txt", None)])),
                   tmp_path / "quarantine.parquet")
    expected = [
        f"removed_doc_id_known: 4 removed doc_ids are in neither articles nor quarantine, e.g. {[_hex(5), _hex(6), _hex(7)]}",
        "source_in_one_place: 2 sources are both articles and quarantined, e.g. ['b.txt', 'q.txt']",
        f"articles.doc_id unique: 2 duplicates, e.g. {[_hex(1), _hex(1)]}",
        "articles.source unique: 1 duplicates, e.g. ['a.txt']",
        "quarantine.source unique: 1 duplicates, e.g. ['q.txt']",
    ]
    assert check_tables(tmp_path) == expected == ref_check_tables(tmp_path)


@pytest.mark.parametrize("seed", range(6))
def test_resolve_duplicates_equals_the_pandas_version(tmp_path, seed, small_batches):
    a = random_tables(tmp_path / "a", seed)
    b = tmp_path / "b"
    shutil.copytree(a, b)
    assert resolve_duplicates(a) == ref_resolve_duplicates(b) > 0
    for name in ("articles", "removed", "quarantine"):
        got, want = pq.read_table(a / f"{name}.parquet"), pq.read_table(b / f"{name}.parquet")
        assert got.cast(want.schema).to_pylist() == want.to_pylist(), name
    assert not any(p.startswith("articles.doc_id unique") for p in check_tables(a))  # none left
    assert resolve_duplicates(a) == 0


# --------------------------------------------------------------------------------------------------
# The report's whole-table numbers


def test_coverage_in_batches_equals_the_whole_table_version(tmp_path, small_batches):
    rng = np.random.default_rng(4)
    n = 200
    pick = lambda values, p_null: [None if rng.random() < p_null else values[int(rng.integers(0, len(values)))]  # noqa: E731
                                   for _ in range(n)]
    table = pa.table({
        "doc_id": [_hex(i) for i in range(n)],
        "title": pick(["A title", "  ", "", "Other"], 0.2),  # blank titles
        "title_source": pick(["html", "first_line", "record"], 0.1),
        "published": pa.array(pick([pd.Timestamp("2024-01-02").date(), pd.Timestamp("2023-05-06").date()], 0.5), pa.date32()),
        "published_source": pick(["url", "html", "dateline", "record"], 0.3),  # ties are likely
        "outlet": pick(["Wire", "Daily"], 0.4),
        "outlet_source": pick(["html", "url"], 0.0),
        "author": pick(["A. Writer"], 0.7),
        "url": pick(["https://x.example/a"], 0.9),
    })
    pq.write_table(table, tmp_path / "articles.parquet", row_group_size=17)
    names = [c for c in report_build._ARTICLE_COLUMNS if c in table.column_names]
    got = report_build._coverage(tmp_path / "articles.parquet", names, n)
    assert got == ref_coverage(table.select(names).to_pandas())
    assert [s["name"] for s in got[1]["sources"]]  # the published field has origins


def test_removed_summary_counts_rows_of_other_documents_in_the_totals_only(tmp_path, small_batches):
    rows = [{"doc_id": d, "kind": k, "text": t, "whole_line": w} for d, k, t, w in [
        ("a", "caption", "one two", True), ("x", "navigation", "gone", True), ("a", "caption", " three ", False),
        ("b", "navigation", "", None), ("a", None, "four", True), (None, "caption", "five", True),
        ("b", "tag_list", "six seven", False)]]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "removed.parquet", row_group_size=2)
    s = report_build._removed_summary(tmp_path / "removed.parquet", pa.array(["b", "a", "c"]))
    assert s.n_rows == 7
    assert s.kinds == Counter({"caption": 3, "navigation": 2, "tag_list": 1})
    assert s.whole == Counter({"caption": 2, "navigation": 1})
    assert s.n_spans.tolist() == [2, 3, 0] and s.words.tolist() == [2, 4, 0]
    assert [s.kinds_at(i) for i in range(3)] == [["navigation", "tag_list"], ["caption"], []]


def test_report_does_not_depend_on_batch_sizes(tmp_path, monkeypatch):
    """Every table read in pieces of a few rows gives the same page as whole reads: sample,
    outliers, per-document numbers and kinds, coverage, quarantine."""
    out, raw = write_big_run(tmp_path, n_docs=600, n_raw=40)
    normalise = lambda p: without_build_values(p.read_text())  # noqa: E731
    whole = normalise(build_report(out, raw, max_docs=50, seed=2))
    real = store.iter_batches
    monkeypatch.setattr(store, "iter_batches", lambda path, columns=None, rows=200_000: real(path, columns, 7))
    monkeypatch.setattr(report_build, "REMOVED_BATCH_ROWS", 11)
    monkeypatch.setattr(report_build, "ARTICLE_BATCH_ROWS", 5)
    assert normalise(build_report(out, raw, max_docs=50, seed=2)) == whole
    small_out, small_raw = write_small_run(tmp_path / "small")
    first = normalise(build_report(small_out, small_raw))
    monkeypatch.setattr(report_build, "ARTICLE_BATCH_ROWS", 1)
    monkeypatch.setattr(report_build, "REMOVED_BATCH_ROWS", 1)
    assert normalise(build_report(small_out, small_raw)) == first


def _python_peak(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_report_python_memory_does_not_grow_with_the_corpus(tmp_path):
    """Python-level peak (tracemalloc: numpy arrays and Python objects, not arrow buffers) for 2k and
    20k documents: the per-document numbers are arrays of a few bytes per document (~80 measured);
    the per-document dicts and pandas columns of the code before cost ~800."""
    runs = {n: write_big_run(tmp_path / str(n), n_docs=n, n_raw=20) for n in (300, 2_000, 20_000)}
    build_report(*runs[300], max_docs=20)  # imports and caches first
    small, big = (_python_peak(lambda n=n: build_report(*runs[n], max_docs=20, seed=0)) for n in (2_000, 20_000))
    per_doc = (big - small) / 18_000
    assert per_doc < 200, f"{per_doc:.0f} bytes per document"


def test_cross_table_checks_python_memory_does_not_grow_with_the_corpus(tmp_path):
    """The same for check_tables: ~30 bytes per document now, ~400 with the Python sets before."""
    folders = {n: random_tables(tmp_path / str(n), 1, n) for n in (300, 1_000, 10_000)}
    check_tables(folders[300])
    small, big = (_python_peak(lambda n=n: check_tables(folders[n])) for n in (1_000, 10_000))
    per_doc = (big - small) / 9_000
    assert per_doc < 120, f"{per_doc:.0f} bytes per document"
