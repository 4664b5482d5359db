"""Incremental runs: the manifest, corpus-context fingerprints, carried-over rows, and the real flow
(Prefect ephemeral mode, in this process) cleaning only what changed."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from newsclean.cleaners import corpus_context, manifest, store
from newsclean.cleaners.corpus import DocContext
from newsclean.cleaners.types import RawDocument
from newsclean.cleaners.settings import Settings
from tests.conftest import SEEDS_RAW

SHARED = "Subscribe to our weekly newsletter for the best stories from the region"


def _article(topic: str, n: int, extra: str | None = None) -> str:
    body = "\n\n".join(f"The {topic} council said on Tuesday that item {i} of the {topic} plan would go ahead "
                       f"after months of debate among residents and local officials." for i in range(n))
    return f"Council backs {topic} plan\n\n{body}\n\n" + (extra + "\n" if extra else "")


# ---------------------------------------------------------------- manifest (no Prefect)

def test_scan_hashes_only_files_that_look_changed(tmp_path):
    (tmp_path / "a.txt").write_text("one")
    (tmp_path / "b.txt").write_text("two")
    first, hashed = manifest.scan_table(tmp_path, ["a.txt", "b.txt"], manifest.Table.empty())
    assert hashed == 2 and first.entry(0).sha256 == hashlib.sha256(b"one").hexdigest()
    prev = manifest.Table("v1", first.sources, first.size, first.mtime_ns, first.sha256, first.context)
    again, hashed = manifest.scan_table(tmp_path, ["a.txt", "b.txt"], prev)
    assert hashed == 0 and again.to_manifest().sources == first.to_manifest().sources
    os.utime(tmp_path / "a.txt", ns=(time.time_ns(), time.time_ns() + 5_000_000_000))  # touched, same bytes
    touched, hashed = manifest.scan_table(tmp_path, ["a.txt", "b.txt"], prev)
    assert hashed == 1 and touched.entry(0).sha256 == first.entry(0).sha256
    (tmp_path / "b.txt").unlink()
    gone, hashed = manifest.scan_table(tmp_path, ["a.txt", "b.txt"], prev)
    assert gone.entry(1).sha256 == "" and gone.entry(1).size == -1  # unreadable: "changed", quarantined by the cleaning step


def _plan(prev: manifest.Manifest, cur: dict, version: str, have_rows=None, recheck=None):
    """plan_table over dict manifests: (clean, keep, deleted) as sorted lists, and the plan."""
    pt, ct = manifest.Table.from_manifest(prev), manifest.Table.from_manifest(manifest.Manifest(None, cur))
    mask = (lambda names: None if names is None else np.isin(ct.sources, sorted(names)))
    p = manifest.plan_table(pt, ct, version, have_rows=mask(have_rows), recheck=mask(recheck))
    return ct.sources[p.clean].tolist(), ct.sources[p.keep].tolist(), p.deleted.tolist(), p


def test_plan_new_changed_deleted_context_and_version():
    E = manifest.Entry
    prev = manifest.Manifest("v1", {"keep": E(1, 1, "k", "c"), "edit": E(1, 1, "e", "c"), "gone": E(1, 1, "g", "c"),
                                    "ctx": E(1, 1, "x", "c1")})
    cur = {"keep": E(1, 1, "k", "c"), "edit": E(2, 2, "E", "c"), "ctx": E(1, 1, "x", "c2"), "new": E(1, 1, "n", "c")}
    clean, keep, deleted, p = _plan(prev, cur, "v1")
    assert (clean, keep, deleted) == (["ctx", "edit", "new"], ["keep"], ["gone"])
    assert (p.new, p.changed, p.context_changed, p.full_reason) == (1, 1, 1, None)
    clean, keep, _, p = _plan(prev, cur, "v2")
    assert clean == sorted(cur) and keep == [] and "pipeline version changed" in p.full_reason
    clean, _, _, p = _plan(prev, cur, "v1", have_rows={"ctx", "edit"})  # "keep" lost its rows: clean it again
    assert "keep" in clean and p.missing_rows == 1
    clean, keep, _, p = _plan(prev, cur, "v1", recheck={"keep"})  # e.g. quarantined as a copy of a changed file
    assert "keep" in clean and p.rechecked == 1 and keep == []
    clean, _, _, p = _plan(prev, {**cur, "keep": E(1, 1, "", "c")}, "v1")  # unreadable now
    assert "keep" in clean and p.changed == 2


def test_manifest_round_trip_and_corrupt_file(tmp_path):
    m = manifest.Manifest("v", {"a b/ü.txt": manifest.Entry(3, 4, "ab", "cd")})
    manifest.save(m, tmp_path)
    assert manifest.load(tmp_path) == m
    (tmp_path / manifest.MANIFEST).write_text("{not json")
    assert manifest.load(tmp_path) == manifest.Manifest()  # unreadable: a full run follows


def test_file_source_maps_record_rows_to_their_file():
    srcs = sorted(["a.txt", "dump.jsonl", "dump.jsonl.bak", "sub/x.txt"])
    assert store.file_source("a.txt", srcs) == "a.txt"
    assert store.file_source("dump.jsonl#12", srcs) == "dump.jsonl"
    assert store.file_source("dump.jsonl.bak", srcs) == "dump.jsonl.bak"
    assert store.file_source("dump.jsonlx", srcs) is None
    assert store.file_source("other.txt", srcs) is None


# ---------------------------------------------------------------- corpus context (no Prefect)

def test_context_fingerprint_changes_only_where_a_line_becomes_a_template(tmp_path):
    cfg = Settings()
    (tmp_path / "a.txt").write_text(_article("harbour", 3, SHARED))
    (tmp_path / "b.txt").write_text(_article("library", 3, SHARED))
    (tmp_path / "c.txt").write_text(_article("railway", 3))
    (tmp_path / "c2.txt").write_text(_article("museum", 4))
    (tmp_path / "c3.txt").write_text(_article("bridge", 5))
    srcs = ["a.txt", "b.txt", "c.txt", "c2.txt", "c3.txt"]  # 5 -> 6 documents: same corpus-size bucket
    before = corpus_context.fingerprints(corpus_context.build(tmp_path, srcs, cfg), tmp_path, srcs, cfg)
    # a fourth document repeating the shared line: it now occurs in 3 documents (the template threshold)
    (tmp_path / "d.txt").write_text(_article("stadium", 3, SHARED))
    srcs4 = srcs + ["d.txt"]
    after = corpus_context.fingerprints(corpus_context.build(tmp_path, srcs4, cfg), tmp_path, srcs4, cfg)
    assert after["a.txt"] != before["a.txt"] and after["b.txt"] != before["b.txt"]
    assert after["c.txt"] == before["c.txt"]  # its lines' counts did not cross a bucket
    # the flow's way: slices hashed into part files (by workers), statistics and fingerprints from
    # the parts alone, statistics saved and loaded again: the same numbers as one pass in memory
    stage = tmp_path / "stage"
    stage.mkdir()
    parts = [corpus_context.write_slice(tmp_path, part, cfg, stage, i) for i, part in enumerate((srcs4[:2], srcs4[2:]))]
    stats, from_files = corpus_context.from_parts(parts, srcs4, cfg)
    assert from_files == after and stats.n_docs == 6
    loaded = corpus_context.load(str(corpus_context.save(stats, stage)))
    lines = corpus_context.document_lines(RawDocument("a.txt", data=(tmp_path / "a.txt").read_bytes()), cfg)
    assert (loaded.doc_context(lines).df == stats.doc_context(lines).df).all() and loaded.doc_context(lines).df.max() == 3


def test_context_fingerprint_ignores_counts_past_the_cap():
    """Counts of DF_CAP documents and more are one bucket (a template whatever its count); below
    the cap the power-of-two buckets and the template flag still tell."""
    cfg = Settings()
    cap = corpus_context.DF_CAP

    def fp(*df):
        a = np.array(df, dtype=np.int32)
        return corpus_context.context_fingerprint(DocContext(df=a, df_site=np.ones_like(a), n_docs=1000, n_site_docs=1), cfg)

    assert fp(1, cap) == fp(1, cap + 1) == fp(1, 40 * cap)
    assert fp(1, cap - 1) != fp(1, cap)
    assert fp(1, 2) != fp(1, 3)  # the template threshold
    assert fp(1, 4) != fp(1, 8)


# ---------------------------------------------------------------- the real flow, incremental

def _tables(out: Path) -> dict[str, pd.DataFrame]:
    t = {name: store.read_table(out, name) for name in store.TABLES}
    t["articles"] = t["articles"].drop(columns=["cleaned_at"]).sort_values("source").reset_index(drop=True)
    t["removed"] = t["removed"].sort_values(["doc_id", "line", "start"]).reset_index(drop=True)
    t["quarantine"] = t["quarantine"].sort_values("source").reset_index(drop=True)
    t["lines"] = t["lines"].sort_values(["doc_id", "line"]).reset_index(drop=True)
    return t


def _digests(out: Path) -> dict[str, str]:
    return {n: hashlib.sha256((out / f"{n}.parquet").read_bytes()).hexdigest() for n in store.TABLES}


@pytest.fixture(scope="module")
def flow_fn():
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus
    # Threads: these tests are about what is cleaned, not where (test_flow_dask compares runners).
    return clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))


@pytest.mark.prefect
@pytest.mark.slow
def test_incremental_runs_clean_only_what_changed(tmp_path, flow_fn):
    raw, out = tmp_path / "raw", tmp_path / "out"
    shutil.copytree(SEEDS_RAW, raw)
    (raw / "local").mkdir()
    for i, topic in enumerate(["harbour", "library", "railway", "museum"]):
        (raw / "local" / f"{topic}.txt").write_text(_article(topic, 3 + i))
    (raw / "empty.txt").write_bytes(b"")
    (raw / "local" / "zz-railway-copy.txt").write_bytes((raw / "local" / "railway.txt").read_bytes())

    first = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert first["incremental"]["full_reason"] == "no previous manifest"
    assert first["docs_cleaned"] == first["tables"]["articles"] > 0
    m = json.loads((out / "manifest.json").read_text())
    assert m["pipeline_version"] == Settings().pipeline_version and len(m["sources"]) == first["incremental"]["sources_total"]

    # 1. nothing changed: no cleaning work, byte-identical tables
    digests = _digests(out)
    dead = out / store.STAGING / "deadrun00000" / "articles"  # left by a killed run
    dead.mkdir(parents=True)
    (dead / "part-00000.parquet").write_bytes(b"half a file")
    second = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert not (out / store.STAGING / "deadrun00000").exists()
    assert second["docs_cleaned"] == 0 and second["batches"] == 0
    assert second["incremental"]["sources_to_clean"] == 0 and second["incremental"]["files_hashed"] == 0
    assert second["corpus"]["reused"]  # no file changed: no corpus pass either
    assert json.loads((out / "run.json").read_text())["docs_cleaned"] == 0
    assert _digests(out) == digests

    q = store.read_table(out, "quarantine").set_index("source")
    assert "same bytes as local/railway.txt" in q.loc["local/zz-railway-copy.txt", "error"]

    # 2. edit one, delete one, add one, touch one (same bytes, new mtime); delete the original of a copy
    (raw / "local" / "harbour.txt").write_text(_article("harbour", 5))
    (raw / "local" / "library.txt").unlink()
    (raw / "local" / "railway.txt").unlink()
    (raw / "local" / "stadium.txt").write_text(_article("stadium", 4))
    touched = raw / "local" / "museum.txt"
    os.utime(touched, ns=(time.time_ns(), time.time_ns() + 5_000_000_000))
    third = flow_fn(raw_dir=str(raw), out_dir=str(out))
    inc = third["incremental"]
    assert not third["corpus"]["reused"] and third["corpus"]["n_docs"] == 10
    assert (inc["new"], inc["changed"], inc["sources_deleted"], inc["files_hashed"]) == (1, 1, 2, 3)
    # the copy is decided again: its corpus context changed (its twin is gone) or, failing that, as a recheck
    assert inc["context_changed"] + inc["rechecked"] >= 1
    assert inc["sources_to_clean"] == 2 + inc["context_changed"] + inc["rechecked"]
    assert third["docs_cleaned"] == inc["sources_to_clean"]
    arts = store.read_table(out, "articles")
    assert "local/library.txt" not in set(arts["source"]) and "local/stadium.txt" in set(arts["source"])
    assert "local/zz-railway-copy.txt" in set(arts["source"])  # the copy is now the one article

    # ... and the tables equal a from-scratch run on the same RAW_DIR (excluding cleaned_at)
    fresh = flow_fn(raw_dir=str(raw), out_dir=str(tmp_path / "fresh"))
    assert fresh["incremental"]["full_reason"]
    got, want = _tables(out), _tables(tmp_path / "fresh")
    for name in store.TABLES:
        pd.testing.assert_frame_equal(got[name], want[name], check_like=True)

    # 3. a settings change re-cleans everything
    fourth = flow_fn(raw_dir=str(raw), out_dir=str(out), settings={"keep_curly_quotes": True})
    assert "pipeline version changed" in fourth["incremental"]["full_reason"]
    assert fourth["incremental"]["sources_to_clean"] == fourth["incremental"]["sources_total"]
    assert set(store.read_table(out, "articles")["pipeline_version"]) == {Settings(keep_curly_quotes=True).pipeline_version}


def test_clean_batch_gives_the_corpus_statistics_to_the_line_model(tmp_path, monkeypatch):
    """The corpus pass's statistics reach the cleaning of each document (read-only, loaded from
    the staging folder by the batch task), through the task's plain function."""
    from newsclean.cleaners.corpus import CorpusStats
    from newsclean.flows.clean_corpus import clean_batch, corpus_statistics, hash_lines

    cfg = Settings()
    raw, stage = tmp_path / "raw", tmp_path / "stage"
    raw.mkdir()
    stage.mkdir()
    for topic in ("harbour", "library", "railway"):
        (raw / f"{topic}.txt").write_text(_article(topic, 3, SHARED))
    srcs = sorted(p.name for p in raw.iterdir())
    parts = [hash_lines.fn(str(raw), srcs[:1], cfg.__dict__, str(stage), 0), hash_lines.fn(str(raw), srcs[1:], cfg.__dict__, str(stage), 1)]
    info = corpus_statistics.fn(parts, srcs, cfg.__dict__, str(stage))
    assert info["n_docs"] == 3 and Path(info["path"]).exists() and set(info["fingerprints"]) == set(srcs)

    seen: list[int] = []
    real = CorpusStats.context_of  # what doc_context and a document's context_fn both answer with

    def recording(self, h, kh, url=None):
        ctx = real(self, h, kh, url)
        seen.append(int(ctx.df.max()) if len(ctx.df) else 0)
        return ctx

    monkeypatch.setattr(CorpusStats, "context_of", recording)
    corpus_context.load.cache_clear()
    counts = clean_batch.fn(str(raw), srcs, cfg.__dict__, str(stage), 0, "2026-01-01T00:00:00+00:00", info["path"])
    assert counts["docs_read"] == 3
    if not cfg.use_model:
        pytest.skip("the line model is off: nothing reads corpus context")
    assert seen and max(seen) == 3  # the shared line was counted in all 3 documents
