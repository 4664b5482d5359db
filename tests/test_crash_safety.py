"""Crash safety, for real: `newsclean run` subprocesses over a few hundred documents are killed
with SIGKILL (the whole process group) at 20 random points of a run, chosen with a seeded RNG.

Set-up: OUT_DIR holds the complete output of corpus state A; RAW_DIR is then changed to state B
(documents added, changed and deleted), and the uninterrupted run is made: from a copy of A's
output, one run over B (the same start every killed run has; incremental runs only re-clean what
changed).

Each kill point: OUT_DIR is reset to A's output, a run over B starts and is killed at a random
moment after its staging folder appears (uniform over 1.15x the length of a run, so some kills
land in the final renames and after). Afterwards the output must be readable and valid (pandera
models, cross-table checks, run.json and manifest.json parse), and each table must be A's or B's,
never a mix or a partial file. After every tenth kill the next run is let finish: its tables
must equal the uninterrupted run's (excluding cleaned_at), with no duplicates. The kills run in two
lanes at once, each with its own OUT_DIR and seeded RNG.

To keep the test within its budget the runs share the session's Prefect server (conftest, instead
of an ephemeral server per run) and use the thread task runner with a small batch size, so that kills
land between batch parts, merges and renames.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from newsclean.schemas.tables import MODELS
from newsclean.schemas.validate import check_tables
from tests.conftest import ROOT
from tests.test_properties import DATELINES, DEBRIS, HEADLINES, PROSE

pytestmark = [pytest.mark.slow, pytest.mark.prefect]

N_KILLS = 20
LANES = 2
SEED = 5_2026
CLI = str(Path(sys.executable).with_name("newsclean"))
TABLES = ("articles", "removed", "quarantine")


def write_doc(raw: Path, i: int, variant: int = 0) -> None:
    rng = random.Random(i * 1000 + variant)
    lines = [rng.choice(DEBRIS)] if rng.random() < 0.5 else []
    lines.append(f"{rng.choice(HEADLINES)} {i}")
    body = [rng.choice(PROSE).replace("the", f"the {rng.randint(0, 10**6)}", 1) for _ in range(rng.randint(2, 6))]
    if rng.random() < 0.5:
        body[0] = rng.choice(DATELINES) + body[0]
    lines += body
    for _ in range(rng.randint(0, 3)):
        lines.insert(rng.randint(0, len(lines)), rng.choice(DEBRIS))
    sub = raw / f"part{i % 4}"
    sub.mkdir(exist_ok=True)
    (sub / f"doc {i:04d}.txt").write_text("\n\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def env(prefect_server):
    """The environment of every run here: a client of the session's Prefect server."""
    return prefect_server[1]


def cli(env: dict, raw: Path, out: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    proc = subprocess.run([CLI, "run", str(raw), str(out), "--batch-size", "25", "--task-runner", "thread"],
                          env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


def tables(out: Path) -> dict[str, pd.DataFrame]:
    """The three tables, without cleaned_at, rows in a canonical order."""
    keys = {"articles": ["source"], "removed": ["doc_id", "line", "start"], "quarantine": ["source"]}
    got = {}
    for name in TABLES:
        df = pq.read_table(out / f"{name}.parquet").to_pandas().drop(columns=["cleaned_at"], errors="ignore")
        got[name] = df.sort_values(keys[name]).reset_index(drop=True)
    return got


def same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    try:
        pd.testing.assert_frame_equal(a, b, check_dtype=False)
        return True
    except AssertionError:
        return False


def assert_valid(out: Path) -> None:
    """Readable, passes the pandera models and the cross-table checks, no duplicate rows."""
    for name in TABLES:
        df = pq.read_table(out / f"{name}.parquet").to_pandas()
        MODELS[name].validate(df, lazy=True)
    assert check_tables(out) == []
    rem = pq.read_table(out / "removed.parquet").to_pandas()
    assert not rem.duplicated(["doc_id", "line", "start"]).any()
    json.loads((out / "run.json").read_text(encoding="utf-8"))
    if (out / "manifest.json").exists():
        json.loads((out / "manifest.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def states(env, tmp_path_factory):
    base = tmp_path_factory.mktemp("crash")
    raw = base / "raw"
    raw.mkdir()
    for i in range(200):
        write_doc(raw, i)
    (raw / "part0" / "empty.txt").write_bytes(b"")
    (raw / "part1" / "debris.txt").write_text("Watch LIVE\n\nWhat do you think?\n")
    out_a = base / "out-a"
    cli(env, raw, out_a)
    for i in range(200, 240):  # B: 40 new, 10 changed, 10 deleted
        write_doc(raw, i)
    for i in range(10):
        write_doc(raw, i, variant=1)
    for i in range(190, 200):
        (raw / f"part{i % 4}" / f"doc {i:04d}.txt").unlink()
    out_b = base / "out-b"  # the uninterrupted run: from A's output to B's, like every killed run
    shutil.copytree(out_a, out_b, symlinks=True)
    t0 = time.perf_counter()
    cli(env, raw, out_b)
    run_seconds = json.loads((out_b / "run.json").read_text())["durations_s"]["total"]
    return {"base": base, "raw": raw, "a": out_a, "b": out_b, "run_seconds": run_seconds, "cli_seconds": time.perf_counter() - t0}


def test_states_differ_and_are_valid(states):
    assert_valid(states["a"])
    assert_valid(states["b"])
    a, b = tables(states["a"]), tables(states["b"])
    assert len(a["articles"]) + len(a["quarantine"]) == 202 and len(b["articles"]) + len(b["quarantine"]) == 232
    assert len(a["articles"]) >= 150 and len(b["articles"]) >= 170
    assert not same(a["articles"], b["articles"]) and not same(a["removed"], b["removed"])


def staged_parts(staging: Path) -> int:
    """The part files in a live run's staging folder (for the kill log). The run removes its own
    folders as it goes (a statistics folder once merged), so one can vanish during the walk:
    os.walk skips it, where Path.rglob raises."""
    return sum(1 for _, _, files in os.walk(staging) for name in files
               if name.startswith("part-") and name.endswith(".parquet"))


def kill_lane(env, states, lane: int, n_kills: int) -> list:
    """n_kills runs over B, each from a fresh copy of A's output in the lane's own OUT_DIR, killed at
    a random moment (the lane's seeded RNG); after every tenth kill a run is let finish. Returns the log."""
    rng = random.Random(SEED + lane)
    raw, out = states["raw"], states["base"] / f"out-{lane}"
    want_a, want_b = tables(states["a"]), tables(states["b"])
    window = max(1.0, states["run_seconds"]) * 1.15
    log = []
    kills = attempts = 0
    while kills < n_kills:
        attempts += 1
        assert attempts <= 3 * n_kills, f"lane {lane} could not land {n_kills} kills: {log}"
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(states["a"], out, symlinks=True)
        proc = subprocess.Popen([CLI, "run", str(raw), str(out), "--batch-size", "25", "--task-runner", "thread"],
                                env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        staging = out / ".staging"
        while proc.poll() is None and not (staging.exists() and any(staging.iterdir())):
            time.sleep(0.02)
        delay = rng.uniform(0, window)
        time.sleep(delay)
        if proc.poll() is not None:
            log.append(("finished before the kill", round(delay, 2)))
            continue
        parts = staged_parts(staging)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(30)
        kills += 1
        # The output stays readable and valid, and each table is a whole version: A's or B's.
        assert_valid(out)
        got = tables(out)
        versions = {name: ("A" if same(got[name], want_a[name]) else "B" if same(got[name], want_b[name]) else "?")
                    for name in TABLES}
        log.append((round(delay, 2), parts, "".join(versions.values())))
        assert "?" not in versions.values(), f"lane {lane}, kill {kills}: a table is neither A's nor B's: {versions}"
        if kills % 10 == 0 or kills == n_kills:  # the next run completes and equals the uninterrupted run
            cli(env, raw, out)
            assert_valid(out)
            got = tables(out)
            for name in TABLES:
                pd.testing.assert_frame_equal(got[name], want_b[name], check_dtype=False)
            assert not got["articles"]["doc_id"].duplicated().any() and not got["articles"]["source"].duplicated().any()
            # The killed runs' staging folders are gone once a run completes.
            assert not (out / ".staging").exists() or not any((out / ".staging").iterdir())
            leftovers = sorted(p.name for p in out.iterdir() if p.name.endswith(".tmp"))
            log.append(("completed run", "leftover tmp files in OUT_DIR:", leftovers))
    return log


def test_sigkill_at_20_random_points(env, states):
    # Two lanes of kills at once, each in its own OUT_DIR: a killed run spends most of its life
    # starting up on one core, so two lanes take about the time of one.
    with ThreadPoolExecutor(LANES) as pool:
        lanes = [pool.submit(kill_lane, env, states, lane, N_KILLS // LANES) for lane in range(LANES)]
        logs = [lane.result() for lane in lanes]
    for lane, log in enumerate(logs):
        print(f"\nlane {lane} kill log (delay s, staged parts, table versions A/B): {log}")
    assert sum(1 for log in logs for entry in log if isinstance(entry[0], float)) == N_KILLS
    # Nothing was written outside OUT_DIR: the folder beside it holds only what this test made.
    assert sorted(p.name for p in states["base"].iterdir()) == [*(f"out-{lane}" for lane in range(LANES)), "out-a", "out-b", "raw"]
