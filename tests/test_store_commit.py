"""store.commit publishes a run's tables (and manifest) as ONE generation with one atomic switch.

The crash tests stop commit at every file-system step in turn (the k-th mutating call raises, and
every later one too, like a SIGKILL: no clean-up handler gets to run) and check that OUT_DIR then
reads as exactly one run's tables: all three tables and the manifest from the same run, passing the
cross-table checks. The next commit repairs everything and leaves no garbage.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners import manifest, store
from newsclean.cleaners.readers import discover
from newsclean.schemas.validate import check_tables

NAMES = [f"{n}.parquet" for n in store.TABLES]


def stage_run(out: Path, tag: str, with_manifest: bool = True) -> Path:
    """A finished staging folder of run `tag` (as validate_tables leaves it), parts included."""
    stage = out / store.STAGING / tag
    (stage / "articles").mkdir(parents=True)
    store.atomic_write_parquet(store.to_arrow("articles", []), stage / "articles" / "part-00000.parquet")
    arts = [{"doc_id": f"{tag}-{i}", "source": f"{tag}/{i}.txt", "text": f"text {tag} {i}", "dup_cluster": f"{tag}-{i}",
             "dup_similarity": 1.0} for i in range(3)]
    rem = [{"doc_id": f"{tag}-{i}", "line": 1, "start": 0, "end": 3, "text": "abc", "kind": "boilerplate"} for i in range(3)]
    quar = [{"source": f"{tag}/q.txt", "doc_id": f"{tag}-q", "stage": "clean", "error": tag}]
    lines = [{"doc_id": f"{tag}-{i}", "line": 1, "text": "abc"} for i in range(3)]
    for name, rows in (("articles", arts), ("removed", rem), ("quarantine", quar), ("lines", lines)):
        store.atomic_write_parquet(store.to_arrow(name, rows), stage / f"{name}.parquet")
    if with_manifest:
        manifest.save(manifest.Manifest(tag, {f"{tag}/0.txt": manifest.Entry(1, 2, tag)}), stage)
    return stage


def write_legacy(out: Path, tag: str) -> None:
    """OUT_DIR as older newsclean versions left it: regular files renamed one by one."""
    stage = stage_run(out, tag)
    for name in NAMES + [manifest.MANIFEST]:
        os.replace(stage / name, out / name)
    shutil.rmtree(out / store.STAGING)


def run_of(out: Path, manifest_expected: bool = True) -> str:
    """The one run OUT_DIR reads as (fails when the tables and manifest come from different runs)."""
    assert check_tables(out) == []
    tags = set()
    for name in store.TABLES:
        df = store.read_table(out, name)
        tags |= {d.split("-")[0] for d in df["doc_id"].dropna()}
    # What ../shared/tools/check-seeds does.
    tags |= {d.split("-")[0] for d in pd.read_parquet(out / "articles.parquet")["doc_id"]}
    if manifest_expected:
        tags.add(manifest.load(out).pipeline_version)
    assert len(tags) == 1, f"OUT_DIR mixes runs: {sorted(map(str, tags))}"
    return tags.pop()


class Crash(Exception):
    pass


MUTATING = [(os, "replace"), (os, "rename"), (os, "symlink"), (os, "link"), (os, "unlink"), (os, "mkdir"),
            (os, "rmdir"), (shutil, "rmtree")]


def crash_at(monkeypatch, k: int) -> dict:
    """Make the k-th mutating file-system call (and every one after it) raise Crash."""
    state = {"calls": 0, "dead": False}

    def wrap(fn):
        def inner(*args, **kwargs):
            if state["dead"]:
                raise Crash("process is dead")
            state["calls"] += 1
            if state["calls"] == k:
                state["dead"] = True
                raise Crash(f"killed at step {k}: {fn.__name__}{args[:2]}")
            return fn(*args, **kwargs)
        return inner

    for mod, name in MUTATING:
        monkeypatch.setattr(mod, name, wrap(getattr(mod, name)))
    return state


def assert_clean_layout(out: Path, tag: str) -> None:
    tables = out / store.GENERATIONS
    current = tables / store.CURRENT
    assert current.is_symlink()
    live = os.readlink(current)
    assert "/" not in live and (tables / live).is_dir()
    assert sorted(p.name for p in tables.iterdir()) == sorted([store.CURRENT, live])  # older generations gone
    for name in NAMES + [manifest.MANIFEST]:
        assert (out / name).is_symlink(), name
        assert os.readlink(out / name) == f"{store.GENERATIONS}/{store.CURRENT}/{name}"  # relative
        assert (tables / live / name).is_file()
    assert sorted(p.name for p in (tables / live).iterdir()) == sorted(NAMES + [manifest.MANIFEST])
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []
    assert not (out / store.STAGING).exists() or not any((out / store.STAGING).iterdir())
    assert run_of(out) == tag


def write_mid_migration(out: Path, tag: str) -> None:
    """A migration that died half-way: the legacy generation is live, one name is already a link."""
    write_legacy(out, tag)
    tables = out / store.GENERATIONS
    tables.mkdir()
    (tables / "gen-legacy").mkdir()
    for name in NAMES + [manifest.MANIFEST]:
        os.link(out / name, tables / "gen-legacy" / name)
    os.symlink("gen-legacy", tables / store.CURRENT)
    (out / "articles.parquet").unlink()
    os.symlink(f"{store.GENERATIONS}/{store.CURRENT}/articles.parquet", out / "articles.parquet")


@pytest.mark.parametrize("start", ["generations", "legacy", "mid-migration"])
def test_crash_at_every_step_of_commit_leaves_one_consistent_run(tmp_path, monkeypatch, start):
    seen = []
    k = 0
    while True:
        k += 1
        assert k < 200, "commit never completed"
        out = tmp_path / f"out-{k}"
        out.mkdir()
        if start == "legacy":
            write_legacy(out, "A")
        elif start == "mid-migration":
            write_mid_migration(out, "A")
        else:
            store.commit(stage_run(out, "A"), out)
        assert run_of(out) == "A"
        stage = stage_run(out, "B")
        with monkeypatch.context() as m:
            state = crash_at(m, k)
            try:
                store.commit(stage, out)
                finished = True
            except Crash:
                finished = False
        got = run_of(out)
        seen.append(got)
        if start != "generations":  # mid-migration: each name is the old regular file or the new symlink
            for name in NAMES + [manifest.MANIFEST]:
                assert (out / name).is_file()
        # The next run repairs whatever the crash left and removes the garbage (the flow drops
        # dead runs' staging folders first: newsclean.flows.clean_corpus._remove_leftover_staging).
        shutil.rmtree(out / store.STAGING, ignore_errors=True)
        store.commit(stage_run(out, "C"), out)
        assert_clean_layout(out, "C")
        shutil.rmtree(out)
        if finished:
            assert got == "B" and state["calls"] < k
            break
    # Crashes before the switch read as A, after it as B; both happened.
    assert seen[0] == "A" and seen[-1] == "B" and seen == sorted(seen), seen
    assert k > 8  # the test really stepped through commit


def test_symlink_layout_after_runs_and_readers(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    paths = store.commit(stage_run(out, "A"), out)
    assert paths == {n: out / f"{n}.parquet" for n in store.TABLES}
    assert_clean_layout(out, "A")
    first = os.readlink(out / store.GENERATIONS / store.CURRENT)
    store.commit(stage_run(out, "B"), out)
    assert_clean_layout(out, "B")
    assert not (out / store.GENERATIONS / first).exists()
    # The readers of the previous tables (incremental runs) work through the links.
    assert store.previous_schema_ok(out)
    assert store.sources_with_rows(out, ["B/0.txt", "B/q.txt", "X/0.txt"]) == {"B/0.txt", "B/q.txt"}
    assert store.sources_quarantined_at(out, "clean", ["B/q.txt"]) == {"B/q.txt"}
    stage = out / store.STAGING / "C"
    assert store.carry_over(stage, out, ["B/1.txt"]) == {"articles": 1, "quarantine": 0, "removed": 1, "lines": 1}
    assert manifest.load(out).pipeline_version == "B"
    # A commit without a manifest in the staging folder keeps the tables consistent; the manifest
    # link then points at nothing and loads as empty (the next flow run re-cleans everything).
    for name in store.TABLES:
        store.merge_parts(stage, name)
    store.commit(stage, out)
    assert check_tables(out) == [] and len(store.read_table(out, "articles")) == 1
    assert manifest.load(out) == manifest.Manifest()


def test_migration_from_regular_files(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    write_legacy(out, "A")
    (out / "run.json").write_text("{}\n")
    inodes = {name: (out / name).stat().st_ino for name in NAMES + [manifest.MANIFEST]}
    # Migration step alone: the old files become a generation of hard links (nothing copied), live
    # at once, and each regular file is swapped for its symlink.
    (out / store.GENERATIONS).mkdir()
    store._migrate_legacy(out, out / store.GENERATIONS)
    for name, ino in inodes.items():
        assert (out / name).is_symlink() and (out / name).stat().st_ino == ino
    assert run_of(out) == "A"
    store.commit(stage_run(out, "B"), out)
    assert_clean_layout(out, "B")
    assert (out / "run.json").is_file() and not (out / "run.json").is_symlink()
    assert sorted(p.name for p in out.iterdir() if p.name != store.STAGING) == \
        sorted(NAMES + [manifest.MANIFEST, "run.json", store.GENERATIONS])


def test_first_commit_on_old_layout(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    write_legacy(out, "A")
    store.commit(stage_run(out, "B"), out)
    assert_clean_layout(out, "B")


def test_migration_without_hard_links_replaces_files_after_the_switch(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    write_legacy(out, "A")

    def no_link(*a, **k):
        raise OSError(1, "hard links not supported")

    monkeypatch.setattr(os, "link", no_link)
    store.commit(stage_run(out, "B"), out)
    assert_clean_layout(out, "B")


def test_out_dir_inside_raw_dir_is_not_read_as_input(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "a.txt").write_text("An article.\n")
    out = raw / "clean"
    out.mkdir()
    store.commit(stage_run(out, "A"), out)
    # Even before the links exist (a first run that died right after its switch).
    for name in NAMES + [manifest.MANIFEST]:
        (out / name).unlink()
    sources, skipped = discover(raw)
    assert sources == ["a.txt"]
    assert all(not s.startswith("clean/.tables/gen-") or "OUT_DIR" in why for s, why in skipped)
    store.commit(stage_run(out, "B"), out)
    sources, skipped = discover(raw)
    assert sources == ["a.txt"] and [s for s, _ in skipped] == ["clean"]
