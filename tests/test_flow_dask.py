"""Scale-out: the same flow on a real dask.distributed LocalCluster (2 worker processes) through
prefect-dask gives the same tables as the default process runner."""
from __future__ import annotations

import shutil

import pandas as pd
import pytest

from newsclean.cleaners import store
from tests.conftest import SEEDS_RAW

pytestmark = [pytest.mark.prefect, pytest.mark.slow]


def _article(topic: str, n: int) -> str:
    body = "\n\n".join(f"The {topic} board said on Monday that phase {i} of the {topic} works would start "
                       f"in spring after a long consultation with residents." for i in range(n))
    return f"Board approves {topic} works\n\n{body}\n\nShare this article\n"


def test_dask_local_cluster_gives_identical_output(tmp_path, monkeypatch, capfd):
    from distributed import LocalCluster

    import newsclean.flows.clean_corpus as cc
    from newsclean.flows.clean_corpus import clean_corpus, runner_for

    raw = tmp_path / "raw"
    shutil.copytree(SEEDS_RAW, raw)
    for i, topic in enumerate(["harbour", "library", "railway", "museum", "bridge"]):
        (raw / f"local-{topic}.txt").write_text(_article(topic, 2 + i))
    (raw / "empty.txt").write_bytes(b"")
    settings = {}

    # The default runner, as a user gets it (this small corpus is one batch in the flow's process).
    default = clean_corpus(raw_dir=str(raw), out_dir=str(tmp_path / "process"), settings=settings)
    assert default["batches"] == 1
    # On Dask: let small batches through so that both worker processes get one.
    monkeypatch.setattr(cc, "MIN_BATCH", 2)
    # The Dask workers must use this process's Prefect API (as `newsclean run` arranges), not start their own.
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    cc.share_api_with_workers()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      local_directory=str(tmp_path / "dask-scratch")) as cluster:
        flow = clean_corpus.with_options(task_runner=runner_for("dask", cluster.scheduler_address))
        on_dask = flow(raw_dir=str(raw), out_dir=str(tmp_path / "dask"), settings=settings)
        ran = {prefix for prefix in cluster.scheduler.task_prefixes}
        workers = len(cluster.scheduler.workers)

    assert workers == 2
    # the cluster's start and end stay off the terminal (newsclean.flows.env: dask logs at Prefect's level)
    err = capfd.readouterr().err
    assert "Scheduler at" not in err and "Start Nanny" not in err and "Register worker" not in err, err[-2000:]
    assert any(p.startswith("clean-batch") or p.startswith("clean_batch") for p in ran), ran
    assert any(p.startswith("hash-lines") or p.startswith("hash_lines") for p in ran), ran  # the corpus pass too
    assert on_dask["batches"] == 2
    assert (on_dask["docs_read"], on_dask["docs_cleaned"], on_dask["docs_quarantined"]) == \
        (default["docs_read"], default["docs_cleaned"], default["docs_quarantined"])
    for name in store.TABLES:
        a = store.read_table(tmp_path / "process", name)
        b = store.read_table(tmp_path / "dask", name)
        if name == "articles":
            a, b = a.drop(columns=["cleaned_at"]), b.drop(columns=["cleaned_at"])
        pd.testing.assert_frame_equal(a, b)  # same rows in the same order
