"""The corpus pass of an incremental run re-reads only the files whose bytes changed: every file's
line hashes are kept in OUT/.line-hashes/ (newsclean.cleaners.corpus_context.LineHashCache), keyed by the
file's path and sha256 (the manifest's), and the statistics and fingerprints built from cached and
new parts are exactly those of a full pass."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from newsclean.cleaners import corpus_context, manifest, store
from newsclean.cleaners.settings import Settings

SHARED = "Subscribe to our newsletter for the latest stories every morning."


def _article(topic: str, n: int, extra: str = "") -> str:
    body = [f"The {topic} committee met on Tuesday to discuss plans number {i} for the {topic} in the town centre, "
            f"and members agreed that the {topic} needs a careful review before the winter season begins." for i in range(n)]
    return "\n\n".join([f"News about the {topic}", *body, extra, SHARED]) + "\n"


def _corpus(root: Path) -> list[str]:
    root.mkdir(parents=True, exist_ok=True)
    for i, topic in enumerate(["harbour", "library", "railway", "museum", "bridge", "stadium"]):
        (root / f"{topic}.txt").write_text(_article(topic, 3 + i, SHARED if i % 2 else ""))
    (root / "empty.txt").write_bytes(b"")
    return sorted(p.name for p in root.iterdir())


def _stats_equal(a, b) -> bool:
    return a.n_docs == b.n_docs and all(
        np.array_equal(getattr(getattr(a, "_" + n), f), getattr(getattr(b, "_" + n), f))
        for n in ("overall", "site", "site_docs") for f in ("keys", "counts"))


def _incremental_pass(raw: Path, cache: corpus_context.LineHashCache, sources: list[str], sha: np.ndarray, cfg, tag: str):
    used, cached = cache.lookup(sources, sha)
    todo = [s for s, c in zip(sources, cached) if not c]
    todo_sha = [h.decode() for h, c in zip(sha.tolist(), cached) if not c]
    cache.folder.mkdir(parents=True, exist_ok=True)
    new = [corpus_context.write_slice(raw, todo, cfg, cache.folder, 0, todo_sha, f"part-{tag}-00000.npz")] if todo else []
    stats, prints = corpus_context.statistics_of([*used, *new], sources, cfg)
    cache.tidy(used, new, tag)
    return stats, prints, todo


def test_cached_line_hashes_give_a_full_pass_results_and_reread_only_changed_files(tmp_path, monkeypatch):
    cfg = Settings()
    raw = tmp_path / "raw"
    sources = _corpus(raw)
    cache = corpus_context.LineHashCache(tmp_path / "out" / corpus_context.CACHE_DIR, cfg)
    table, _ = manifest.scan_table(raw, sources, manifest.Table.empty())
    stats0, prints0, read0 = _incremental_pass(raw, cache, sources, table.sha256, cfg, "run0")
    assert read0 == sources  # nothing cached yet

    reads: list[str] = []
    real = corpus_context.read_source

    def counting(raw_dir, source, settings, *args, **kwargs):
        reads.append(source)
        return real(raw_dir, source, settings, *args, **kwargs)

    monkeypatch.setattr(corpus_context, "read_source", counting)
    # edit one file, delete one, add one; touch one (new mtime, same bytes: its sha256 is unchanged)
    (raw / "library.txt").write_text(_article("library", 7, SHARED))
    (raw / "museum.txt").unlink()
    (raw / "theatre.txt").write_text(_article("theatre", 4, SHARED))
    sources = sorted(p.name for p in raw.iterdir())
    table, _ = manifest.scan_table(raw, sources, table)
    stats1, prints1, read1 = _incremental_pass(raw, cache, sources, table.sha256, cfg, "run1")
    assert read1 == reads == ["library.txt", "theatre.txt"]

    fresh_stats, fresh_prints = corpus_context.statistics_of([corpus_context.hash_slice(raw, sources, cfg)], sources, cfg)
    assert _stats_equal(stats1, fresh_stats) and np.array_equal(prints1, fresh_prints)
    assert not _stats_equal(stats0, stats1)
    # the same again: nothing to read; the cache holds each current file once
    reads.clear()
    stats2, prints2, read2 = _incremental_pass(raw, cache, sources, table.sha256, cfg, "run2")
    assert read2 == reads == [] and _stats_equal(stats2, fresh_stats) and np.array_equal(prints2, fresh_prints)
    files = np.concatenate([corpus_context.read_slice(p).files for p in cache.parts()])
    assert sorted(files.tolist()) == sources


def test_cache_is_not_reused_across_settings_or_unknown_hashes(tmp_path):
    cfg = Settings()
    raw = tmp_path / "raw"
    sources = _corpus(raw)
    folder = tmp_path / corpus_context.CACHE_DIR
    table, _ = manifest.scan_table(raw, sources, manifest.Table.empty())
    _incremental_pass(raw, corpus_context.LineHashCache(folder, cfg), sources, table.sha256, cfg, "a")
    used, cached = corpus_context.LineHashCache(folder, cfg).lookup(sources, table.sha256)
    assert cached.all()
    other = Settings(keep_curly_quotes=True)  # another pipeline version
    assert not corpus_context.LineHashCache(folder, other).lookup(sources, table.sha256)[1].any()
    unknown = table.sha256.copy()
    unknown[0] = b""  # the file could not be hashed: always read again
    assert not corpus_context.LineHashCache(folder, cfg).lookup(sources, unknown)[1][0]
    # a damaged part is a cache miss, not an error
    for p in corpus_context.LineHashCache(folder, cfg).parts():
        p.write_bytes(b"not a zip")
    assert not corpus_context.LineHashCache(folder, cfg).lookup(sources, table.sha256)[1].any()


def test_tidy_merges_small_parts_and_drops_stale_ones(tmp_path):
    cfg = Settings()
    raw = tmp_path / "raw"
    sources = _corpus(raw)
    cache = corpus_context.LineHashCache(tmp_path / corpus_context.CACHE_DIR, cfg)
    cache.folder.mkdir()
    table, _ = manifest.scan_table(raw, sources, manifest.Table.empty())
    sha = [h.decode() for h in table.sha256.tolist()]
    parts = [corpus_context.write_slice(raw, [s], cfg, cache.folder, i, [h], f"part-x-{i:05d}.npz")
             for i, (s, h) in enumerate(zip(sources, sha))]
    used, cached = cache.lookup(sources, table.sha256)
    assert cached.all() and len(used) == len(sources)
    before = corpus_context.statistics_of(used, sources, cfg)
    cache.tidy(used, [], "t")
    assert len(cache.parts()) == 1  # small parts merged
    used, cached = cache.lookup(sources, table.sha256)
    after = corpus_context.statistics_of(used, sources, cfg)
    assert cached.all() and _stats_equal(before[0], after[0]) and np.array_equal(before[1], after[1])
    cache.tidy([], [], "u")  # nobody uses them any more
    assert cache.parts() == []


@pytest.mark.prefect
@pytest.mark.slow
def test_flow_rerun_reads_only_the_changed_file_and_equals_a_fresh_run(tmp_path):
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus

    flow_fn = clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(max_workers=2))
    raw, out = tmp_path / "raw", tmp_path / "out"
    _corpus(raw)
    first = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert first["corpus"]["files_read"] == first["incremental"]["sources_total"]
    (raw / "railway.txt").write_text(_article("railway", 6, SHARED))
    second = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert second["corpus"]["files_read"] == 1 and not second["corpus"]["reused"]
    # the cache goes live with the tables (OUT/.tables/current/line-hashes), nothing else in OUT_DIR
    assert store.live_path(out, corpus_context.CACHE_DIR).is_dir() and corpus_context.CACHE_DIR in store.SIDECARS
    assert not (out / corpus_context.CACHE_DIR).exists()
    third = flow_fn(raw_dir=str(raw), out_dir=str(out))  # nothing changed: no pass, the cache carried on
    assert third["corpus"]["reused"] and len(list(store.live_path(out, corpus_context.CACHE_DIR).glob("part-*.npz")))
    (raw / "harbour.txt").write_text(_article("harbour", 2, SHARED))
    fourth = flow_fn(raw_dir=str(raw), out_dir=str(out))
    assert fourth["corpus"]["files_read"] == 1
    fresh = flow_fn(raw_dir=str(raw), out_dir=str(tmp_path / "fresh"), full=True)
    assert fresh["corpus"]["files_read"] == fresh["incremental"]["sources_total"]
    for name in store.TABLES:
        a, b = store.read_table(out, name), store.read_table(tmp_path / "fresh", name)
        a = a.drop(columns=["cleaned_at"], errors="ignore").sort_values(list(a.columns[:2])).reset_index(drop=True)
        b = b.drop(columns=["cleaned_at"], errors="ignore").sort_values(list(b.columns[:2])).reset_index(drop=True)
        assert a.equals(b), name
    m = json.loads((out / "manifest.json").read_text())
    assert m["format"] == manifest.FORMAT and m["sources"] == sorted(p.name for p in raw.iterdir())
    shutil.rmtree(tmp_path / "fresh")
