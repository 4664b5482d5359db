"""Two runs of the same input give identical tables (excluding cleaned_at), however the work is
batched or which task runner runs it; and nothing is written outside OUT_DIR, whatever the input
names. The in-process checks use newsclean.cleaners.batch.clean_sources; one test runs the real CLI twice."""
from __future__ import annotations

import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.readers import discover
from newsclean.cleaners.settings import Settings
from newsclean.schemas.validate import validate_batch
from tests.conftest import ROOT, SEEDS_RAW
from tests.test_crash_safety import write_doc

CLI = str(Path(sys.executable).with_name("newsclean"))
HOSTILE_NAMES = ["..txt", "...txt", "..\\..\\evil.txt", "%2e%2e%2fescape.txt", "-rf.txt", "new\nline.txt",
                 "sp ace.txt", "\u65e5\u672c\u8a9e.txt", "out.txt", "clean.txt", ".hidden.txt", "~home.txt", "$HOME.txt"]


def make_raw(raw: Path) -> None:
    raw.mkdir(parents=True, exist_ok=True)
    for p in SEEDS_RAW.glob("*.txt"):
        shutil.copy(p, raw / p.name)
    for i in range(40):
        write_doc(raw, i)
    for j, name in enumerate(HOSTILE_NAMES):
        (raw / name).write_text(f"Storm Hits Coast {j}\n\nThe storm moved north on Tuesday, forecasters said, and {j} towns lost power.\n\n"
                                "Advertisement\n\nOfficials said repairs would take several days to complete across the region.\n")
    (raw / "empty.txt").write_bytes(b"")
    (raw / "binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    (raw / "records.jsonl").write_text(
        json.dumps({"id": "../../../tmp/evil", "url": "file:///etc/passwd", "title": "Council Approves Budget",
                    "text": "The council approved the budget on Tuesday after a long debate, officials said.\n\nIt takes effect in May."}) + "\n",
        encoding="utf-8")


def rows(result, drop=("cleaned_at",)):
    def clean(r):
        return {k: v for k, v in r.items() if k not in drop}
    return ([clean(r) for r in result.articles], [clean(r) for r in result.removed], [clean(r) for r in result.quarantine])


def test_same_rows_twice_and_whatever_the_batching(tmp_path):
    raw = tmp_path / "raw"
    make_raw(raw)
    sources, _ = discover(raw)
    settings = Settings()
    one = rows(validate_batch(clean_sources(raw, sources, settings, dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc))))
    two = rows(validate_batch(clean_sources(raw, sources, settings)))
    assert one == two
    batched = [validate_batch(clean_sources(raw, sources[i:i + 7], settings)) for i in range(0, len(sources), 7)]
    merged = tuple(sum((list(r[k]) for r in map(rows, batched)), []) for k in range(3))
    assert merged == one
    shuffled = sources[:]
    random.Random(3).shuffle(shuffled)
    again = rows(validate_batch(clean_sources(raw, shuffled, settings)))
    key = lambda r: r["source"]  # noqa: E731
    assert sorted(again[0], key=key) == sorted(one[0], key=key)
    assert len(one[0]) >= 50 and len(one[2]) >= 2


def _tree(base: Path) -> dict[str, tuple]:
    """Every path under base (not following links) with its size and mtime."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = p.lstat()
            out[str(p.relative_to(base))] = (st.st_size if not p.is_dir() else 0, st.st_mtime_ns if not p.is_dir() else 0)
    return out


@pytest.mark.slow
@pytest.mark.prefect
def test_two_cli_runs_give_identical_tables_and_write_only_out_dir(tmp_path, prefect_server):
    base = tmp_path / "work"
    raw = base / "raw"
    make_raw(raw)
    before = _tree(base)
    env = prefect_server[1]  # a client of the session's server: no ephemeral server start per run
    outs = []
    for runner, name in (("process", "out-1"), ("thread", "out-2")):
        out = base / name
        proc = subprocess.run([CLI, "run", str(raw), str(out), "--task-runner", runner, "--batch-size", "20"],
                              env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        outs.append(out)
    tables = []
    for out in outs:
        got = {}
        for name in ("articles", "removed", "quarantine", "lines"):
            got[name] = pq.read_table(out / f"{name}.parquet").to_pandas().drop(columns=["cleaned_at"], errors="ignore")
        tables.append(got)
    for name in ("articles", "removed", "quarantine", "lines"):
        pd.testing.assert_frame_equal(tables[0][name], tables[1][name])
    arts = tables[0]["articles"]
    assert set(HOSTILE_NAMES) <= set(arts["source"])
    assert not arts["doc_id"].duplicated().any() and not arts["source"].duplicated().any()
    # Nothing outside OUT_DIR: RAW_DIR is untouched, the working folders hold nothing new.
    after = _tree(base)
    assert {k: v for k, v in after.items() if not k.startswith(("out-1", "out-2"))} == before
    assert sorted(os.listdir(tmp_path)) == ["work"]
    for out in outs:
        assert {p.name for p in out.iterdir()} <= {"articles.parquet", "removed.parquet", "quarantine.parquet", "lines.parquet", "run.json",
                                                   "manifest.json", "report.html", ".staging", ".newsclean.lock", "corpus",
                                                   ".tables"}
