"""Ctrl-C at the terminal stops `newsclean run` at once, leaves no worker process behind and says
nothing alarming, and the next run goes ahead.

A terminal sends SIGINT to the whole foreground process group: the run's process and its pool's
workers alike. The workers leave it to the run (newsclean.flows.clean_corpus.process_runner), whose
wait for them wakes twice a second, and which kills them before the interrupt goes on."""
from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

DEVSET = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"


def _group(pgid: int) -> list[str]:
    """The command lines of the processes of a process group."""
    out = subprocess.run(["ps", "-o", "pgid=,args=", "-e"], capture_output=True, text=True).stdout
    return [line.split(None, 1)[1] for line in out.splitlines() if line.split(None, 1)[0] == str(pgid)]


@pytest.mark.prefect
def test_ctrl_c_stops_the_run_and_its_workers_at_once(tmp_path, prefect_server):
    raw = tmp_path / "raw"
    raw.mkdir()
    pages = [json.loads(line) for line in gzip.open(DEVSET, "rt", encoding="utf-8")]
    for copy in range(8):  # distinct documents: each copy ends in a sentence of its own
        for i, page in enumerate(pages):
            (raw / f"{copy}-{i:03d}.txt").write_text(f"{page['text']}\n\nThis is copy {copy} of page {i}.\n", encoding="utf-8")
    settings = tmp_path / "settings.toml"
    settings.write_text("[newsclean]\nbatch_size = 40\n")  # many batches: the process pool cleans them
    out = tmp_path / "out"
    cmd = [str(Path(sys.executable).with_name("newsclean")), "run", str(raw), str(out), "--settings", str(settings)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=prefect_server[1],
                            start_new_session=True)
    err_chunks: list[bytes] = []
    reader = threading.Thread(target=lambda: err_chunks.extend(iter(lambda: proc.stderr.read1(4096), b"")), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 120
        # the first batch written: the others are being cleaned in the workers
        while not list(out.glob(".staging/*/articles/part-*.parquet")):
            assert proc.poll() is None and time.monotonic() < deadline, "the run never wrote a batch"
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before the interrupt: give it more documents"
        os.killpg(proc.pid, signal.SIGINT)
        t = time.monotonic()
        proc.wait(timeout=60)
        stopped_in = time.monotonic() - t
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    err = b"".join(err_chunks)
    err = err.decode("utf-8", "replace")
    assert proc.returncode == 130, err[-3000:]
    assert stopped_in < 15, f"stopped {stopped_in:.1f} s after Ctrl-C"
    time.sleep(1.0)
    # (an exited process the container's init has not reaped yet, "<defunct>", holds nothing)
    assert not [a for a in _group(proc.pid) if "resource_tracker" not in a and "<defunct>" not in a], _group(proc.pid)
    assert "leaked semaphore" not in err and "Exception in thread" not in err, err[-3000:]
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=prefect_server[1])
    assert again.returncode == 0, again.stderr[-3000:]
    assert (out / "articles.parquet").exists()
