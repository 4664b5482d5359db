"""One writer per OUT_DIR: the lock file, its stale-lock recovery, and two real overlapping runs."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from newsclean.cleaners.runlock import LOCK_NAME, LockedError, RunLock, is_locked
from tests.conftest import ROOT, SEEDS_RAW

CLI = [str(Path(sys.executable).with_name("newsclean"))]
HOLD = ("import sys, time; from newsclean.cleaners.runlock import RunLock; l = RunLock(sys.argv[1]).acquire(); "
        "print('held', flush=True); time.sleep(float(sys.argv[2]))")


def _holder(out: Path, seconds: float = 60) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out), str(seconds)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout.readline().strip() == "held"
    return proc


def test_lock_is_reentrant_in_one_process_and_released(tmp_path):
    with RunLock(tmp_path) as a:
        with RunLock(tmp_path):
            assert is_locked(tmp_path)
        assert is_locked(tmp_path)
    assert a.stale is None and not is_locked(tmp_path)
    assert (tmp_path / LOCK_NAME).read_text() == ""  # released cleanly


def test_second_process_is_refused_with_the_holder_named(tmp_path):
    holder = _holder(tmp_path)
    try:
        assert is_locked(tmp_path)
        with pytest.raises(LockedError, match=f"pid {holder.pid}"):
            RunLock(tmp_path).acquire()
    finally:
        holder.kill()
        holder.wait()


def test_lock_of_a_killed_run_is_recovered(tmp_path):
    holder = _holder(tmp_path)
    holder.send_signal(signal.SIGKILL)
    holder.wait()
    assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == holder.pid  # the file is left behind...
    assert not is_locked(tmp_path)  # ...but nobody holds it
    lock = RunLock(tmp_path).acquire()
    try:
        assert f'"pid": {holder.pid}' in lock.stale
        assert json.loads((tmp_path / LOCK_NAME).read_text())["pid"] == os.getpid()
    finally:
        lock.release()


@pytest.mark.prefect
def test_flow_refuses_an_out_dir_another_process_writes(tmp_path):
    """The flow itself takes the lock (served, scheduled and deployed runs have no CLI in front)."""
    from prefect.task_runners import ThreadPoolTaskRunner

    from newsclean.flows.clean_corpus import clean_corpus

    out = tmp_path / "out"
    holder = _holder(out)
    try:
        state = clean_corpus.with_options(task_runner=ThreadPoolTaskRunner(1))(
            raw_dir=str(SEEDS_RAW), out_dir=str(out), return_state=True)
        assert state.is_failed()
        with pytest.raises(LockedError):
            state.result()
        assert not (out / "articles.parquet").exists()
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.prefect
@pytest.mark.slow
def test_two_real_overlapping_runs(tmp_path, prefect_server):
    """Run A is started; while it runs, run B on the same OUT_DIR fails at once; A completes."""
    raw, out = tmp_path / "raw", tmp_path / "out"
    raw.mkdir()
    for p in SEEDS_RAW.glob("*.txt"):
        (raw / p.name).write_bytes(p.read_bytes())
    env = prefect_server[1]  # a client of the session's server: no ephemeral server start per run
    a = subprocess.Popen(CLI + ["run", str(raw), str(out), "--task-runner", "thread"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while not is_locked(out):
            assert a.poll() is None, a.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        t0 = time.monotonic()
        b = subprocess.run(CLI + ["run", str(raw), str(out)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
        b_seconds = time.monotonic() - t0
        assert a.poll() is None, "run A ended before run B started: the runs did not overlap"
        assert b.returncode == 3, b.stderr
        assert "being written by another newsclean run" in b.stderr and f"pid {a.pid}" in b.stderr
        assert "Traceback" not in b.stderr
        assert b_seconds < 15  # refused before Prefect's start-up
        a_out, a_err = a.communicate(timeout=300)
        assert a.returncode == 0, a_err[-3000:]
    finally:
        if a.poll() is None:
            a.kill()
    assert not is_locked(out)
    summary = json.loads((out / "run.json").read_text())
    assert summary["docs_cleaned"] == 5 and len(pd.read_parquet(out / "articles.parquet")) == 5
