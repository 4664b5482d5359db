"""The flow's per-source state is columnar: the manifest, the plan and the context fingerprints are
numpy arrays (no Python object per source), so the flow's process holds a bounded number of bytes
per source, and the columnar forms decide exactly what the dict forms decide."""
from __future__ import annotations

import json
import random
import tracemalloc

import numpy as np

from newsclean.cleaners import corpus_context, manifest


def _random_manifest(n: int, rng: random.Random, version: str = "v1") -> manifest.Manifest:
    return manifest.Manifest(version, {
        f"site-{i % 37:02d}/{i:07d}.txt": manifest.Entry(rng.randrange(1, 99999), rng.randrange(1, 10**18),
                                                        f"{rng.getrandbits(256):064x}", f"{rng.getrandbits(64):016x}")
        for i in range(n)})


def test_table_round_trip_and_reads_the_first_format(tmp_path):
    m = _random_manifest(50, random.Random(1))
    m.sources["a b/ü.txt"] = manifest.Entry(3, 4, "", None)  # unreadable, no context
    manifest.save(m, tmp_path)
    assert manifest.load(tmp_path) == m
    assert json.loads((tmp_path / manifest.MANIFEST).read_text())["format"] == manifest.FORMAT
    t = manifest.load_table(tmp_path)
    assert t.sources.tolist() == sorted(m.sources) and t.to_manifest() == m
    # format 1 (a dict per source), as older runs wrote it: still read
    old = {"format": 1, "pipeline_version": m.pipeline_version,
           "sources": {s: {"size": e.size, "mtime_ns": e.mtime_ns, "sha256": e.sha256, "context": e.context}
                       for s, e in m.sources.items()}}
    (tmp_path / manifest.MANIFEST).write_text(json.dumps(old))
    assert manifest.load(tmp_path) == m
    (tmp_path / manifest.MANIFEST).write_text('{"format": 2, "sources": ["a"], "size": []}')
    assert len(manifest.load_table(tmp_path)) == 0  # damaged: a full run follows


def test_plan_table_gives_each_source_its_first_reason_on_a_random_manifest():
    rng = random.Random(7)
    prev = _random_manifest(400, rng)
    cur = {}
    for i, (s, e) in enumerate(sorted(prev.sources.items())):
        r = rng.random()
        if r < 0.1:
            continue  # deleted
        if r < 0.2:
            e = manifest.Entry(e.size, e.mtime_ns, f"{rng.getrandbits(256):064x}", e.context)  # changed bytes
        elif r < 0.3:
            e = manifest.Entry(e.size, e.mtime_ns, e.sha256, f"{rng.getrandbits(64):016x}")  # context moved
        elif r < 0.33:
            e = manifest.Entry(-1, -1, "", e.context)  # unreadable now
        cur[s] = e
    for i in range(20):
        cur[f"new/{i}.txt"] = manifest.Entry(1, 1, f"{i:064x}", "0" * 16)
    names = sorted(cur)
    have = {s for s in names if rng.random() < 0.95}
    recheck = {s for s in names if rng.random() < 0.05}

    def reason(s: str, have_rows, rechecked) -> str | None:
        """Why source s is cleaned (the first reason that holds), or None: its rows are kept."""
        old, new = prev.sources.get(s), cur[s]
        if old is None:
            return "new"
        if not new.sha256 or new.sha256 != old.sha256:
            return "changed"
        if new.context != old.context:
            return "context_changed"
        if have_rows is not None and s not in have_rows:
            return "missing_rows"
        if rechecked is not None and s in rechecked:
            return "rechecked"
        return None

    pt, ct = manifest.Table.from_manifest(prev), manifest.Table.from_manifest(manifest.Manifest("v1", cur))
    assert ct.sources.tolist() == names
    for have_rows, rechecked in [(None, None), (have, recheck)]:
        q = manifest.plan_table(pt, ct, "v1", have_rows=None if have_rows is None else np.isin(ct.sources, sorted(have_rows)),
                                recheck=None if rechecked is None else np.isin(ct.sources, sorted(rechecked)))
        why = [reason(s, have_rows, rechecked) for s in names]
        assert q.clean.tolist() == [w is not None for w in why]
        assert q.deleted.tolist() == sorted(set(prev.sources) - set(cur))
        counts = q.counts()
        for k in ("new", "changed", "context_changed", "missing_rows", "rechecked"):
            assert counts[k] == why.count(k), k
        assert counts["sources_to_clean"] + counts["sources_kept"] == len(names) and counts["full_reason"] is None
    full = manifest.plan_table(pt, ct, "v2")
    assert full.clean.all() and "pipeline version changed" in full.full_reason


def test_fingerprints_are_an_array_with_the_hex_of_a_dict():
    values = np.array([0, 1, 2**63 + 5, 2**64 - 1], dtype=np.uint64)
    fp = corpus_context.Fingerprints(np.array(["a", "b", "c", "d"]), values)
    assert dict(fp) == {s: f"{int(v):016x}" for s, v in zip("abcd", values.tolist())}
    assert fp.as_bytes().tolist() == [f"{int(v):016x}".encode() for v in values.tolist()]
    assert fp.get("zz") is None


def test_the_manifest_costs_a_bounded_number_of_bytes_per_source(tmp_path):
    """Loading, scanning and planning 20,000 sources: what stays in memory is the arrays (under
    250 bytes per source: path, sizes, hashes), and the peak stays within a few times that."""
    n = 20_000
    m = _random_manifest(n, random.Random(3))
    manifest.save(m, tmp_path)
    del m
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        t = manifest.load_table(tmp_path)
        plan = manifest.plan_table(t, t, "v1", have_rows=np.ones(len(t), dtype=bool))
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(t) == n and not plan.clean.any()
    assert (held - base) / n < 250, (held - base) / n
    assert (peak - base) / n < 2_500, (peak - base) / n
