"""Ctrl-C at the terminal, or a SIGTERM to the run's process (a scheduler stopping it), stops
`newsclean run` at once, leaves no worker process behind and says nothing alarming, and the next run
goes ahead.

A terminal sends SIGINT to the whole foreground process group: the run's process and its pool's
workers alike. The workers leave it to the run (newsclean.flows.clean_corpus.process_runner), whose
wait for them wakes twice a second, and which kills them before the interrupt goes on. Batches in
the run's own threads (--task-runner thread) cannot be killed: they stop at their next lock-step
group (newsclean.cleaners.batch.BatchStopped)."""
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

import pyarrow.parquet as pq
import pytest

DEVSET = Path(__file__).parent / "data" / "devset_subset" / "pages.jsonl.gz"


def _group(pgid: int) -> list[str]:
    """The command lines of the processes of a process group."""
    out = subprocess.run(["ps", "-o", "pgid=,args=", "-e"], capture_output=True, text=True).stdout
    return [line.split(None, 1)[1] for line in out.splitlines() if line.split(None, 1)[0] == str(pgid)]


@pytest.mark.prefect
@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm", "ctrl-c, threads"])
def test_an_interrupt_stops_the_run_and_its_workers_at_once(tmp_path, prefect_server, how):
    raw = tmp_path / "raw"
    raw.mkdir()
    pages = [json.loads(line) for line in gzip.open(DEVSET, "rt", encoding="utf-8")]
    threads = how.endswith("threads")
    for copy in range(16 if threads else 8):  # distinct documents: each copy ends in a sentence of its own
        for i, page in enumerate(pages):
            (raw / f"{copy}-{i:03d}.txt").write_text(f"{page['text']}\n\nThis is copy {copy} of page {i}.\n", encoding="utf-8")
    settings = tmp_path / "settings.toml"
    runner = []
    if threads:
        # batches of 700 in the run's threads, which cannot be killed, each written 40 documents at
        # a time: the interrupt comes with most of a batch (~15 s) still to clean
        settings.write_text("[newsclean]\nbatch_size = 700\npiece_docs = 40\n")
        runner = ["--task-runner", "thread"]
    else:
        settings.write_text("[newsclean]\nbatch_size = 40\n")  # many batches: the process pool cleans them
    out = tmp_path / "out"
    cmd = [str(Path(sys.executable).with_name("newsclean")), "run", str(raw), str(out), "--settings", str(settings), *runner]
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
        if how.startswith("ctrl-c"):
            os.killpg(proc.pid, signal.SIGINT)  # as the terminal sends it: to the whole group
        else:
            proc.send_signal(signal.SIGTERM)
        t = time.monotonic()
        proc.wait(timeout=60)
        stopped_in = time.monotonic() - t
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    err = b"".join(err_chunks)
    err = err.decode("utf-8", "replace")
    assert proc.returncode == (130 if how.startswith("ctrl-c") else -signal.SIGTERM), err[-3000:]
    assert stopped_in < 6, f"stopped {stopped_in:.1f} s after the {how}"  # not once the batches end
    time.sleep(1.0)
    # (an exited process the container's init has not reaped yet, "<defunct>", holds nothing)
    assert not [a for a in _group(proc.pid) if "resource_tracker" not in a and "<defunct>" not in a], _group(proc.pid)
    assert "leaked semaphore" not in err and "Exception in thread" not in err, err[-3000:]
    # The next run goes ahead over what the interrupted one left behind (its staging, its lock),
    # and its tables hold exactly the documents now in raw/: none of the interrupted run's staged
    # rows. It runs over the first copy only: its subject is the state left behind, and the whole
    # corpus again would double the test's time.
    for extra in raw.glob("*-*.txt"):
        if not extra.name.startswith("0-"):
            extra.unlink()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=prefect_server[1])
    assert again.returncode == 0, again.stderr[-3000:]
    sources = [*pq.read_table(out / "articles.parquet", columns=["source"]).column("source").to_pylist(),
               *pq.read_table(out / "quarantine.parquet", columns=["source"]).column("source").to_pylist()]
    assert sorted(sources) == sorted(p.name for p in raw.iterdir())


def _sleep() -> None:
    time.sleep(60)


@pytest.mark.parametrize("interrupt", ["KeyboardInterrupt", "TerminationSignal"])
def test_the_run_kills_its_workers_when_interrupted_or_terminated(interrupt):
    """Ctrl-C is KeyboardInterrupt in the run; a SIGTERM is Prefect's TerminationSignal there. On
    either, the pool's workers (the run's multiprocessing children) are killed, not waited for."""
    import multiprocessing

    from prefect.exceptions import TerminationSignal

    from newsclean.flows import clean_corpus

    error = KeyboardInterrupt() if interrupt == "KeyboardInterrupt" else TerminationSignal(signal.SIGTERM)
    worker = multiprocessing.get_context("spawn").Process(target=_sleep)
    try:
        with pytest.raises(type(error)):
            with clean_corpus._stopping_workers_on_interrupt():
                worker.start()
                raise error
        worker.join(timeout=5)
        assert worker.exitcode == -signal.SIGKILL
        assert clean_corpus._interrupted()  # the batches in the run's own threads are told to stop too
    finally:
        # The flag stays set for the interrupted run's threads until the next run starts and clears
        # it; here no run follows, and a later test in this process cleans batches through the
        # task function itself (tests/test_batch_pieces.py), which would stop at once.
        clean_corpus._INTERRUPTED.clear()


def test_a_batch_asked_to_stop_ends_at_its_next_lock_step_group(tmp_path):
    """A batch in a thread of an interrupted run (threads cannot be killed) stops before its next
    group instead of cleaning to its end; one never asked to stop is cleaned whole."""
    from newsclean.cleaners.batch import BatchStopped, clean_sources_in_pieces
    from newsclean.cleaners.settings import Settings

    pages = [json.loads(line) for line in gzip.open(DEVSET, "rt", encoding="utf-8")][:12]
    for i, page in enumerate(pages):
        (tmp_path / f"{i:02d}.txt").write_text(page["text"], encoding="utf-8")
    sources = sorted(p.name for p in tmp_path.iterdir())
    cfg = Settings(lockstep_docs=4)
    asked = []

    def stop_after_one_group() -> bool:
        asked.append(1)
        return len(asked) > 1

    pieces = clean_sources_in_pieces(tmp_path, sources, cfg, stop=stop_after_one_group)
    with pytest.raises(BatchStopped):
        list(pieces)
    assert len(asked) == 2  # asked before the first group (go on) and the second (stop)
    whole = list(clean_sources_in_pieces(tmp_path, sources, cfg, stop=lambda: False))
    assert sum(p.docs_read for p in whole) == len(sources)
