"""A real Dask cluster: `dask scheduler` and two `dask worker` processes on 127.0.0.1, each a process
of its own as on a cluster's machines, reporting to a real Prefect server. `newsclean run
--task-runner dask --dask-address ...` on a corpus in object storage (moto's S3 server on 127.0.0.1:
the seeds, a crawl archive and a big record file, cut into parts, one batch each) gives the same
tables as the default local run on the same files on disk, and both workers clean batches."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from newsclean.cleaners import store
from newsclean.cleaners.readers import ranges
from newsclean.flows.prefect_api import free_port
from tests.articles import PARAGRAPHS
from tests.conftest import SEEDS_RAW
from tests.test_raw_object_storage import s3_env  # noqa: F401  (the S3 server's fixture)
from tests.test_streaming_readers import _warc

pytestmark = [pytest.mark.prefect, pytest.mark.slow]

BIN = Path(sys.executable).parent


def _big_dump(path: Path, n: int = 40) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            text = "\n\n".join(["Watch LIVE", f"Story {i}: " + PARAGRAPHS[i % len(PARAGRAPHS)], *PARAGRAPHS[:3]])
            fh.write(json.dumps({"id": f"r{i}", "padding": "x" * 250_000, "text": text}) + "\n")


def _start(args: list[str], env: dict, log: Path) -> subprocess.Popen:
    with log.open("wb") as fh:
        return subprocess.Popen(args, env=env, stdout=fh, stderr=subprocess.STDOUT, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def cluster(tmp_path, prefect_server, s3_env):  # noqa: F811
    """(scheduler address, env): a scheduler and two single-threaded workers, separate processes,
    with the S3 server's endpoint and keys in their environment."""
    _, env = prefect_server
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**env, **s3_env, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    procs = [_start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                    env, tmp_path / "scheduler.log")]
    try:
        from distributed import Client

        deadline = time.monotonic() + 60
        for k in range(2):
            procs.append(_start([str(BIN / "dask"), "worker", address, "--nworkers", "1", "--nthreads", "1",
                                 "--no-dashboard", "--name", f"w{k}", "--local-directory", str(tmp_path / f"w{k}")],
                                env, tmp_path / f"worker{k}.log"))
        while True:
            try:
                with Client(address, timeout=5) as client:
                    if len(client.scheduler_info()["workers"]) == 2:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail("the Dask cluster did not come up: " + (tmp_path / "worker0.log").read_text()[-2000:])
            time.sleep(0.5)
        yield address, env
    finally:
        for proc in reversed(procs):
            _stop(proc)


BUCKET = "cluster"  # its own: moto keeps the buckets of earlier servers in one process


@pytest.fixture
def s3(s3_env):  # noqa: F811
    import s3fs

    fs = s3fs.S3FileSystem()
    if not fs.exists(BUCKET):
        fs.mkdir(BUCKET)
    return fs


def test_a_real_cluster_on_an_archive_in_object_storage_gives_the_local_tables(tmp_path, cluster, s3):
    from distributed import Client

    address, env = cluster
    raw = tmp_path / "raw"
    shutil.copytree(SEEDS_RAW, raw)
    _big_dump(raw / "dump.jsonl")
    (raw / "crawl").mkdir()
    (raw / "crawl" / "crawl.warc.gz").write_bytes(_warc(3))
    assert (raw / "dump.jsonl").stat().st_size > ranges.SPLIT_MIN_BYTES
    s3.put(str(raw), f"{BUCKET}/cluster-raw", recursive=True)
    raw_url = f"s3://{BUCKET}/cluster-raw"
    newsclean = [sys.executable, "-m", "newsclean.flows.cli", "run"]
    on_dask = subprocess.run([*newsclean, raw_url, str(tmp_path / "dask"), "--batch-size", "10", "--task-runner", "dask",
                              "--dask-address", address], env=env, capture_output=True, text=True, timeout=600)
    assert on_dask.returncode == 0, on_dask.stderr[-3000:]
    local = subprocess.run([*newsclean, str(raw), str(tmp_path / "local"), "--batch-size", "10"], env=env,
                           capture_output=True, text=True, timeout=600)
    assert local.returncode == 0, local.stderr[-3000:]

    with Client(address, timeout=10) as client:
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(executed) == 2 and all(n >= 1 for n in executed.values()), executed  # both workers cleaned
    summary = json.loads((tmp_path / "dask" / "run.json").read_text())
    assert summary["batches"] >= 4  # the dump's four parts, one batch each, and the seeds
    assert summary["docs_read"] >= 5 + 40 + 3  # the seeds, the dump's records, the archive's pages
    for name in store.TABLES:
        a, b = store.read_table(tmp_path / "local", name), store.read_table(tmp_path / "dask", name)
        if "cleaned_at" in a.columns:
            a, b = a.drop(columns=["cleaned_at"]), b.drop(columns=["cleaned_at"])
        sort = [c for c in ("source", "doc_id", "line", "start") if c in a.columns]
        a = a.sort_values(sort).reset_index(drop=True)
        b = b.sort_values(sort).reset_index(drop=True)
        assert a.equals(b), name
