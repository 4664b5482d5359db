"""Prefect's own share of a clean-corpus run, for a batch size.

    .venv/bin/python bench/prefect_overhead.py RAW_DIR [--batch-size 500] [--workers 2]

Runs the same work twice on RAW_DIR (a corpus from bench/generate_corpus.py):
1. the `clean-corpus` flow with its process runner (timed inside the flow, so Prefect's ~15 s
   ephemeral start-up is excluded: it is paid once per process, not per batch);
2. the same steps without Prefect: each task's plain function (`.fn`) in order, the batches in a
   multiprocessing spawn Pool with as many workers.
Prefect overhead = (1 - 2) / 1. The issue's target: under 5% of the run's wall time.
Both runs do a full clean (--full) into their own OUT_DIR, after one warm-up pass of the model.

Wall time on a shared machine drifts with other people's load, so the same ratio is also given in
CPU seconds (this process + its finished worker processes + Prefect's ephemeral server process,
read 3 s after the run so that the server's deferred work is counted): `prefect_overhead_cpu`.
That one is less sensitive to load, but it also counts the ephemeral server's background loops
(which run whether or not tasks do).

Finally, Prefect's cost per task run is measured directly (20 no-op tasks: wall time in the client
and CPU in the server), and set against the median batch's cleaning time: `per_batch_overhead`,
the share of a batch's time that is Prefect's. This is the number the batch size controls.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import multiprocessing as mp
import os
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("PREFECT_HOME", str(Path(__file__).resolve().parent.parent / ".prefect"))
from newsclean.flows.env import configure  # noqa: E402

configure()


def _batch(args):
    from newsclean.flows.clean_corpus import clean_batch
    return clean_batch.fn(*args)


def _hash(args):
    from newsclean.flows.clean_corpus import hash_lines
    return hash_lines.fn(*args)


def without_prefect(raw: str, out: Path, settings: dict, workers: int) -> dict:
    from newsclean.cleaners import manifest, store
    from newsclean.cleaners.settings import Settings
    from newsclean.flows import clean_corpus as cc

    cfg = Settings(**settings)
    t0 = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    stage = out / store.STAGING / uuid.uuid4().hex[:12]
    stage.mkdir(parents=True)
    sources, skipped = cc.discover_sources.fn(raw)
    entries, _ = cc.fingerprint_sources.fn(raw, sources, str(out))
    batches = cc.plan_batches(sources, cfg.batch_size, workers)
    hash_args = [(raw, b, settings, str(stage), i) for i, b in enumerate(batches)]
    if len(batches) == 1:
        parts = [_hash(hash_args[0])]
    else:
        with mp.get_context("spawn").Pool(workers) as pool:
            parts = pool.map(_hash, hash_args, chunksize=1)
    corpus = cc.corpus_statistics.fn(parts, sources, settings, str(stage))
    t_clean = time.perf_counter()
    now = dt.datetime.now(dt.timezone.utc).isoformat()
    args = [(raw, b, settings, str(stage), i, now, corpus["path"]) for i, b in enumerate(batches)]
    if len(batches) == 1:
        results = [_batch(args[0])]
    else:
        with mp.get_context("spawn").Pool(workers) as pool:
            results = pool.map(_batch, args, chunksize=1)
    t_clean = time.perf_counter() - t_clean
    cc.validate_tables.fn(str(stage))
    cc.write_tables.fn(str(stage), str(out), {"pipeline_version": cfg.pipeline_version, "sources": entries})
    return {"total": time.perf_counter() - t0, "clean": t_clean, "batches": len(batches),
            "docs": sum(r["docs_read"] for r in results), "task_seconds": sum(r["seconds"] for r in results)}


def _server_procs():
    import psutil

    me = psutil.Process()
    return [p for p in me.children(recursive=True)
            if any("uvicorn" in a or "prefect.server" in a for a in (p.cmdline() or []))]


def _cpu() -> float:
    """CPU seconds of this process, its reaped children, and Prefect's server subprocess."""
    import resource

    total = 0.0
    for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN):
        r = resource.getrusage(who)
        total += r.ru_utime + r.ru_stime
    for p in _server_procs():
        try:
            t = p.cpu_times()
            total += t.user + t.system
        except Exception:  # noqa: BLE001
            pass
    return total


def per_task_cost(n: int = 20) -> dict:
    from prefect import flow, task
    from prefect.task_runners import ThreadPoolTaskRunner

    @task
    def noop(i: int) -> int:
        return i

    @flow(task_runner=ThreadPoolTaskRunner(1))
    def tasks_only(k: int) -> float:
        t = time.perf_counter()
        for i in range(k):
            noop.submit(i).result()
        return time.perf_counter() - t

    tasks_only(2)  # warm
    time.sleep(3)
    srv0 = _server_cpu()
    wall = tasks_only(n)
    time.sleep(3)
    return {"client_s_per_task": round(wall / n, 4), "server_cpu_s_per_task": round((_server_cpu() - srv0) / n, 4)}


def _server_cpu() -> float:
    total = 0.0
    for p in _server_procs():
        t = p.cpu_times()
        total += t.user + t.system
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("raw_dir")
    ap.add_argument("--batch-size", type=int, default=500)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    from prefect.task_runners import ProcessPoolTaskRunner

    from newsclean.cleaners.batch import clean_sources
    from newsclean.cleaners.settings import Settings
    from newsclean.flows.clean_corpus import clean_corpus

    settings = {"batch_size": args.batch_size}
    raw = str(Path(args.raw_dir).resolve())
    # warm-up: load the model and code once in this process
    first = sorted(Path(raw).rglob("*.txt"))[:20]
    clean_sources(Path(raw), [p.relative_to(raw).as_posix() for p in first], Settings(**settings))

    flow = clean_corpus.with_options(task_runner=ProcessPoolTaskRunner(max_workers=args.workers))
    # warm-up: start Prefect's ephemeral server (its start-up is not per-batch overhead)
    with tempfile.TemporaryDirectory() as warm:
        for p in first[:3]:
            shutil.copy(p, Path(warm) / p.name)
        clean_corpus(raw_dir=warm, out_dir=str(Path(warm) / "out"), settings=settings)
    results = []
    for rep in range(args.repeat):  # alternate the order: a shared machine's load drifts
        tmp = Path(tempfile.mkdtemp(prefix="nc-overhead-"))
        try:
            order = ("plain", "flow") if rep % 2 == 0 else ("flow", "plain")
            for which in order:
                time.sleep(3)
                c0 = _cpu()
                if which == "plain":
                    plain = without_prefect(raw, tmp / "plain", settings, args.workers)
                else:
                    s = flow(raw_dir=raw, out_dir=str(tmp / "flow"), settings=settings, full=True)
                time.sleep(3)
                if which == "plain":
                    plain["cpu"] = _cpu() - c0
                else:
                    s["cpu"] = _cpu() - c0
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        with_p = s["durations_s"]["total"]
        result = {
            "docs": plain["docs"], "batch_size": args.batch_size, "batches": s["batches"], "workers": args.workers,
            "flow_s": round(with_p, 2), "flow_clean_s": s["durations_s"]["clean"],
            "plain_s": round(plain["total"], 2), "plain_clean_s": round(plain["clean"], 2),
            "flow_task_seconds": round(s["batch_task_seconds"], 2), "plain_task_seconds": round(plain["task_seconds"], 2),
            "prefect_overhead": round((with_p - plain["total"]) / with_p, 4),
            "flow_cpu_s": round(s["cpu"], 2), "plain_cpu_s": round(plain["cpu"], 2),
            "prefect_overhead_cpu": round((s["cpu"] - plain["cpu"]) / s["cpu"], 4),
            "flow_durations": s["durations_s"],
            "load_avg": os.getloadavg()[0],
        }
        results.append(result)
        print(json.dumps(result), flush=True)
    cost = per_task_cost()
    per_batch = sorted(r["flow_task_seconds"] / r["batches"] for r in results)[len(results) // 2]
    print(json.dumps({**cost, "median_batch_s": round(per_batch, 2),
                      "per_batch_overhead": round((cost["client_s_per_task"] + cost["server_cpu_s_per_task"]) / per_batch, 4)}))
    med = lambda key: sorted(r[key] for r in results)[len(results) // 2]  # noqa: E731
    print(json.dumps({"median_prefect_overhead": med("prefect_overhead"), "median_prefect_overhead_cpu": med("prefect_overhead_cpu")}))


if __name__ == "__main__":
    main()
