"""The `newsclean run` command end to end, through the real Prefect flow: in ephemeral mode as a user
runs it, and (the failing run) as a client of the session's Prefect server."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tests.conftest import ROOT, SEEDS_RAW
from tests.seedcheck import differences

CLI = [str(Path(sys.executable).with_name("newsclean"))]


def run_cli(*args: str, timeout: float = 240, env: dict | None = None) -> subprocess.CompletedProcess:
    """The CLI as a user runs it (its own temporary Prefect server), or with `env`."""
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=timeout,
                          env=env if env is not None else os.environ.copy(), cwd=ROOT)


@pytest.fixture(scope="module")
def seeds_run(tmp_path_factory):
    raw = tmp_path_factory.mktemp("raw")
    for p in SEEDS_RAW.glob("*.txt"):
        shutil.copy(p, raw / p.name)
    (raw / "empty.txt").write_bytes(b"")
    (raw / "nested").mkdir()
    (raw / "nested" / "all-debris.txt").write_text("Watch LIVE\n\nWhat do you think?\n")
    out = tmp_path_factory.mktemp("out")
    proc = run_cli("run", str(raw), str(out))
    return proc, out


@pytest.mark.prefect
def test_run_completes_with_exit_0_and_summary(seeds_run):
    proc, out = seeds_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "documents read" in proc.stdout and "quarantined" in proc.stdout
    summary = json.loads((out / "run.json").read_text())
    assert (summary["docs_read"], summary["docs_cleaned"], summary["docs_quarantined"]) == (7, 5, 2)
    assert summary["removed_by_kind"]["navigation"] == 4
    assert summary["versions"]["prefect"].startswith("3.")
    assert not (out / ".staging").exists() or not any((out / ".staging").iterdir())


@pytest.mark.prefect
def test_run_output_matches_golden(seeds_run, expected_seeds):
    _, out = seeds_run
    arts = pd.read_parquet(out / "articles.parquet")
    rem = pd.read_parquet(out / "removed.parquet")
    for name, exp in expected_seeds.items():
        (row,) = arts[arts["source"] == name].to_dict("records")
        assert len(row["doc_id"]) == 16
        removed = rem[rem["doc_id"] == row["doc_id"]].to_dict("records")
        assert differences(row, removed, exp) == []


@pytest.mark.prefect
def test_bad_documents_are_quarantined_with_reasons(seeds_run):
    _, out = seeds_run
    q = pd.read_parquet(out / "quarantine.parquet").set_index("source")
    assert set(q.index) == {"empty.txt", "nested/all-debris.txt"}
    assert "no article body found" in q.loc["nested/all-debris.txt", "error"]


@pytest.mark.prefect
def test_check_seeds_tool_agrees(seeds_run):
    tool = ROOT.parent / "shared" / "tools" / "check-seeds"
    if not tool.exists():
        pytest.skip("../shared/tools/check-seeds is not beside this checkout")
    _, out = seeds_run
    proc = subprocess.run([sys.executable, str(tool), str(out)], capture_output=True, text=True)
    assert proc.stdout.strip().endswith("5 passed, 0 failed"), proc.stdout


def test_missing_raw_dir_is_a_one_line_error(tmp_path):
    proc = run_cli("run", str(tmp_path / "nope"), str(tmp_path / "out"), timeout=60)
    assert proc.returncode != 0
    assert "does not exist" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_unwritable_out_dir_is_a_one_line_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    proc = run_cli("run", str(SEEDS_RAW), str(blocker / "out"), timeout=60)
    assert proc.returncode != 0
    assert "not writable" in proc.stderr and "Traceback" not in proc.stderr


def test_an_out_dir_that_is_the_raw_dir_is_refused(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / "a.txt").write_text("Council approves the budget\n\nThe council voted on Tuesday to approve it.\n")
    proc = run_cli("run", str(raw), str(tmp_path / "raw" / ".." / "raw"), timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "is RAW_DIR" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in raw.iterdir()) == ["a.txt"]  # nothing written into it


def test_an_out_dir_that_is_a_file_is_named_as_one(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    proc = run_cli("run", str(SEEDS_RAW), str(blocker), timeout=60)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "is a file, not a folder" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_the_folder_check_before_the_prefect_server_starts_imports_no_cleaning_rules(tmp_path):
    """`run` checks RAW_DIR and OUT_DIR before it starts the temporary Prefect server, whose start
    is a small run's longest wait: the check must stay light (the rules' patterns, ~0.6 s to
    import, load later, while the server starts)."""
    code = ("import sys; from newsclean.flows.cli import _check_dirs; "
            f"_check_dirs({str(SEEDS_RAW)!r}, {str(tmp_path / 'out')!r}); "
            "print(sorted(m for m in sys.modules if m.startswith(('newsclean.cleaners.rules', 'newsclean.cleaners.metadata.dates', 'prefect'))))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "[]", proc.stdout


@pytest.mark.prefect
def test_a_run_that_fails_in_the_flow_ends_in_its_one_line_error(tmp_path, prefect_server):
    """OUT_DIR passes the CLI's checks, but its generations folder is a file: the flow fails at
    the write step. The CLI ends with that error on one line and a non-zero exit, no traceback."""
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    shutil.copy(sorted(SEEDS_RAW.glob("*.txt"))[0], raw)
    out.mkdir()
    (out / ".tables").write_text("in the way\n")
    proc = run_cli("run", str(raw), str(out), env=prefect_server[1])  # a client of the session's server
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr + proc.stdout
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("error: the run failed: FileExistsError: ") and str(out / ".tables") in last, last
