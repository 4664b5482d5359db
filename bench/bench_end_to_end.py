"""End to end: `newsclean run` on generated corpora of growing size.

    .venv/bin/python bench/bench_end_to_end.py [--sizes 1000,10000] [--repeats 3] [--incremental]
        [--corpus-root bench/out/corpora] [--out bench/out/end_to_end.json] [--html-share 0]

For each size N it generates (or reuses) a text corpus (bench/generate_corpus.py, seed 7) and runs
`newsclean run CORPUS OUT` in a fresh OUT, `--repeats` times, polling the whole process tree with
psutil every 0.1 s. It records per run:
- wall time of the command, and the flow's own durations from OUT/run.json (discover, clean,
  write, total); start-up = wall - flow total (interpreter, imports, the Prefect ephemeral server);
- CPU seconds of the process tree (user + system, summed over every process seen);
- peak RSS: the largest single process, and the largest sum over the tree at one instant (the pool
  workers and the Prefect server included); and the peak of each role: the flow process ("root"),
  the largest pool worker, the Prefect API server, and the child that builds report.html
  ("report"); a timeline of the roles every ~1 s.

From the medians it reports docs/s and MB/s of input, and the marginal rate between the smallest
and largest size, (N - n) / (T_N - T_n): the fixed start-up cancels out.

--incremental: after the runs at the largest size, re-run on the same OUT with nothing changed,
then after rewriting 1% of the files (a different remix of the same base page), and report both
times against the first run's.

PREFECT_HOME defaults to a persistent bench/out/prefect so the ephemeral database is created once.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from generate_corpus import Generator, Shares, ensure_corpus  # noqa: E402

# `newsclean` of the code under ROOT (python -m newsclean.flows.cli with ROOT first on PYTHONPATH), so that a
# clean export of a commit (git archive) can be measured while others edit the working tree.
NEWSCLEAN = [sys.executable, "-m", "newsclean.flows.cli"]


def bench_env() -> dict:
    env = dict(os.environ)
    env.setdefault("PREFECT_HOME", str(ROOT / "bench" / "out" / "prefect"))
    env.update({"PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
                "PREFECT_LOGGING_LEVEL": "WARNING", "PREFECT_SERVER_LOGGING_LEVEL": "CRITICAL"})
    Path(env["PREFECT_HOME"]).mkdir(parents=True, exist_ok=True)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def pss_kb(pid: int) -> int | None:
    """The process's proportional set size (its private pages plus its share of the pages it shares
    with other processes, such as the shared libraries every worker maps) from Linux's
    /proc/PID/smaps_rollup; None where that is not available. Summed over a process tree it counts
    each page once, where summed RSS counts a shared page in every process that maps it."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def measure(cmd: list[str], env: dict | None = None, interval: float = 0.1, log: Path | None = None) -> dict:
    """Run cmd; wall time, CPU seconds and peak RSS of its process tree (psutil polling), and, once
    a second, the tree's summed PSS (see pss_kb)."""
    started = time.perf_counter()
    out = open(log, "wb") if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=str(ROOT))
    root = psutil.Process(proc.pid)
    cpu: dict[int, float] = {}
    servers: set[int] = set()  # Prefect API servers (uvicorn) started inside the tree
    workers: set[int] = set()
    reports: set[int] = set()  # the short-lived child that builds report.html
    peak_one = peak_tree = 0
    peak_tree_pss: int | None = None
    role_peaks = {"root": 0, "worker": 0, "server": 0, "report": 0}
    # every ~1 s: [t, flow process, largest worker, API server, tree, report child] MB
    timeline: list[list[float]] = []
    last_sample = -1.0
    while proc.poll() is None:
        try:
            procs = [root] + root.children(recursive=True)
        except psutil.NoSuchProcess:
            break
        total = 0
        roles = {"root": 0, "worker": 0, "server": 0, "report": 0}
        for p in procs:
            try:
                with p.oneshot():
                    rss = p.memory_info().rss
                    t = p.cpu_times()
                cpu[p.pid] = t.user + t.system
                if p.pid not in servers and p.pid not in workers and p.pid not in reports and p is not root:
                    cmd = " ".join(p.cmdline())
                    if "uvicorn" in cmd:
                        servers.add(p.pid)
                    elif "multiprocessing" in cmd and "resource_tracker" not in cmd:
                        workers.add(p.pid)
                    elif "build_report" in cmd:
                        reports.add(p.pid)
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            total += rss
            peak_one = max(peak_one, rss)
            role = "root" if p is root else "server" if p.pid in servers else "worker" if p.pid in workers \
                else "report" if p.pid in reports else None
            if role:
                roles[role] = max(roles[role], rss)
        peak_tree = max(peak_tree, total)
        for k, v in roles.items():
            role_peaks[k] = max(role_peaks[k], v)
        now = time.perf_counter() - started
        if now - last_sample >= 1.0:
            last_sample = now
            pss = [pss_kb(p.pid) for p in procs]
            if all(v is not None for v in pss):
                peak_tree_pss = max(peak_tree_pss or 0, sum(pss) * 1024)
            timeline.append([round(now, 1), *(round(roles[k] / 2**20) for k in ("root", "worker", "server")), round(total / 2**20),
                             round(roles["report"] / 2**20)])
        time.sleep(interval)
    wall = time.perf_counter() - started
    if log:
        out.close()
    return {"returncode": proc.returncode, "wall_s": round(wall, 3), "cpu_s": round(sum(cpu.values()), 2),
            "peak_rss_mb": round(peak_one / 2**20, 1), "peak_tree_rss_mb": round(peak_tree / 2**20, 1),
            "peak_tree_pss_mb": round(peak_tree_pss / 2**20, 1) if peak_tree_pss is not None else None,
            "peak_rss_by_role_mb": {k: round(v / 2**20, 1) for k, v in role_peaks.items()},
            "api_servers_started": len(servers), "worker_processes": len(workers), "timeline": timeline}


LAUNCHERS = {"cli": NEWSCLEAN, "shared-server": [sys.executable, str(ROOT / "bench" / "newsclean_shared_server.py")]}


def newsclean_run(corpus: Path, out: Path, env: dict, extra: list[str] = (), fresh: bool = True,
                  launcher: str = "cli") -> dict:
    if fresh and out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    log = out.parent / f"{out.name}.log"
    m = measure([*LAUNCHERS[launcher], "run", str(corpus), str(out), *extra], env, log=log)
    if m["returncode"] != 0:
        raise RuntimeError(f"newsclean run failed ({m['returncode']}); see {log}:\n" + log.read_text()[-3000:])
    summary = json.loads((out / "run.json").read_text())
    d = summary.get("durations_s", {})
    m.update({"flow_s": d.get("total"), "clean_s": d.get("clean"), "discover_s": d.get("discover"), "write_s": d.get("write"),
              "startup_s": round(m["wall_s"] - (d.get("total") or 0), 2),
              "docs_read": summary.get("docs_read"), "docs_cleaned": summary.get("docs_cleaned"),
              "docs_quarantined": summary.get("docs_quarantined"),
              "docs_skipped": summary.get("docs_skipped", summary.get("docs_unchanged")),
              "flow_memory_mb": summary.get("memory_mb"), "corpus_s": d.get("corpus_statistics")})
    return m


def med(runs: list[dict], key: str) -> float | None:
    vals = [r[key] for r in runs if r.get(key) is not None]
    return round(statistics.median(vals), 3) if vals else None


def touch_share(corpus: Path, share: float, seed: int = 99) -> int:
    """Rewrite `share` of the corpus's .txt files with a different remix of their base page."""
    files = sorted(corpus.rglob("*.txt"))
    rng = random.Random(seed)
    picked = rng.sample(files, max(1, int(len(files) * share)))
    gen = Generator(seed=seed)
    for i, path in enumerate(picked):
        page = gen.pages[rng.randrange(len(gen.pages))]
        text = "\n\n".join(gen.remix(page, random.Random(f"touch:{seed}:{i}")))
        path.write_bytes(text.encode("utf-8") + f"\n\nUpdated {i}".encode())
    return len(picked)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="1000,10000", help='sizes, optionally with repeats each: "1000:3,10000:2"')
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--incremental", action="store_true")
    ap.add_argument("--change-share", type=float, default=0.01,
                    help="share of files rewritten for the incremental changed re-run (0: no-change re-run only)")
    ap.add_argument("--corpus-root", type=Path, default=ROOT / "bench" / "out" / "corpora")
    ap.add_argument("--work", type=Path, default=ROOT / "bench" / "out" / "e2e")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "end_to_end.json")
    ap.add_argument("--html-share", type=float, default=0.0)
    ap.add_argument("--jsonl-share", type=float, default=0.0)
    ap.add_argument("--launcher", default="cli", choices=sorted(LAUNCHERS),
                    help="cli: newsclean as users run it; shared-server: one Prefect server for flow and workers (bench/newsclean_shared_server.py)")
    ap.add_argument("--extra", default="", help="extra arguments for newsclean run, e.g. '--task-runner thread'")
    a = ap.parse_args(argv)
    env = bench_env()
    # "1000,10000" or with per-size repeats "1000:3,10000:2"
    reps = {int(x.split(":")[0]): int(x.split(":")[1]) if ":" in x else a.repeats for x in a.sizes.split(",")}
    sizes = list(reps)
    shares = Shares(html=a.html_share, jsonl=a.jsonl_share)
    extra = a.extra.split()
    results: dict = {"sizes": {}, "cpus": os.cpu_count(), "shares": shares.__dict__, "extra": extra, "launcher": a.launcher}
    # Warm the Prefect database once so that no timed run pays for creating it.
    warm = ensure_corpus(a.corpus_root / "warm-20", 20, 7, shares)
    newsclean_run(a.corpus_root / "warm-20", a.work / "warm", env, extra)
    del warm
    for n in sizes:
        corpus = a.corpus_root / f"text-{n}" if shares.html == shares.jsonl == 0 else a.corpus_root / f"mix-{n}"
        manifest = ensure_corpus(corpus, n, 7, shares)
        runs = []
        for r in range(reps[n]):
            m = newsclean_run(corpus, a.work / f"out-{n}", env, extra, launcher=a.launcher)
            print(f"  N={n:,} run {r + 1}: wall {m['wall_s']:.1f} s, flow {m['flow_s']:.1f} s, cpu {m['cpu_s']:.0f} s, "
                  f"peak rss {m['peak_rss_mb']:.0f} MB (tree {m['peak_tree_rss_mb']:.0f} MB, tree pss {m['peak_tree_pss_mb']} MB)", file=sys.stderr)
            runs.append(m)
        results["sizes"][n] = {"manifest": manifest, "runs": runs,
                               **{f"median_{k}": med(runs, k) for k in ("wall_s", "flow_s", "clean_s", "startup_s", "cpu_s", "peak_rss_mb", "peak_tree_rss_mb", "peak_tree_pss_mb")}}
        s = results["sizes"][n]
        s["docs_per_s_wall"] = round(n / s["median_wall_s"], 1)
        s["docs_per_s_flow"] = round(n / s["median_flow_s"], 1)
        s["mb_per_s_wall"] = round(manifest["bytes"] / 1e6 / s["median_wall_s"], 2)
    if len(sizes) >= 2:
        lo, hi = min(sizes), max(sizes)
        slo, shi = results["sizes"][lo], results["sizes"][hi]
        dt = shi["median_wall_s"] - slo["median_wall_s"]
        results["marginal"] = {
            "n": lo, "N": hi, "docs_per_s": round((hi - lo) / dt, 1) if dt > 0 else None,
            "mb_per_s": round((shi["manifest"]["bytes"] - slo["manifest"]["bytes"]) / 1e6 / dt, 2) if dt > 0 else None,
            "fixed_startup_s": round(slo["median_wall_s"] - lo * dt / (hi - lo), 2) if dt > 0 else None,
            "cpu_s_per_doc": round((shi["median_cpu_s"] - slo["median_cpu_s"]) / (hi - lo), 5),
        }
    if a.incremental:
        # Re-runs on the OUT of the last timed run at the largest size: first nothing changed, then
        # 1% of the files rewritten (restored afterwards, so the corpus stays what its manifest says).
        n = max(sizes)
        corpus = a.corpus_root / (f"text-{n}" if shares.html == shares.jsonl == 0 else f"mix-{n}")
        out = a.work / f"out-{n}"
        first = results["sizes"][n]["runs"][-1]
        nochange = newsclean_run(corpus, out, env, extra, fresh=False, launcher=a.launcher)
        print(f"  N={n:,} no-change re-run: wall {nochange['wall_s']:.1f} s, flow {nochange['flow_s']:.1f} s", file=sys.stderr)
        results["incremental"] = {"N": n, "first": first, "no_change": nochange,
                                  "no_change_ratio": round(nochange["wall_s"] / first["wall_s"], 3),
                                  "no_change_ratio_flow": round(nochange["flow_s"] / first["flow_s"], 3) if first["flow_s"] else None}
        if a.change_share > 0:
            saved = {p: (p.read_bytes(), p.stat()) for p in sorted(corpus.rglob("*.txt"))}
            try:
                changed = touch_share(corpus, a.change_share)
                onepct = newsclean_run(corpus, out, env, extra, fresh=False, launcher=a.launcher)
            finally:
                for p, (data, st) in saved.items():
                    if p.read_bytes() != data:
                        p.write_bytes(data)
                        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
            print(f"  N={n:,} {a.change_share:.0%} changed re-run: wall {onepct['wall_s']:.1f} s, flow {onepct['flow_s']:.1f} s", file=sys.stderr)
            summary = json.loads((out / "run.json").read_text())
            results["incremental"].update({"changed_files": changed, "one_percent": onepct, "one_percent_plan": summary.get("incremental"),
                                           "one_percent_ratio": round(onepct["wall_s"] / first["wall_s"], 3)})
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(results, indent=2, default=str) + "\n")
    def short(v):  # the printed summary without the memory timelines (they are in --out)
        if isinstance(v, dict):
            return {k: short(x) for k, x in v.items() if k != "timeline"}
        return v

    print(json.dumps({k: short(v) for k, v in results.items() if k != "sizes"} | {
        "sizes": {n: {k: v for k, v in s.items() if k not in ("runs", "manifest")} for n, s in results["sizes"].items()}},
        indent=2, default=str))
    return results


if __name__ == "__main__":
    main()
