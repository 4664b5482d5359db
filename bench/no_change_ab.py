"""A no-change re-run of two code trees on copies of one OUT, alternating: memory per role (flow
process, report.html child, API server, tree), wall and CPU seconds.

    .venv/bin/python bench/no_change_ab.py --before BEFORE_ROOT --after AFTER_ROOT \
        --corpus CORPUS --out OUT [--rounds 2] [--json results.json]

OUT must come from a run of CORPUS with the same pipeline version as both trees (otherwise the
re-run re-cleans everything). Each run gets a fresh copy of OUT (`cp -a`, the original is never
touched) and is measured as bench/bench_end_to_end.py measures (psutil polling of the whole tree);
the code under test is each tree's own (`python -m newsclean.flows.cli` from that tree, its report child too).
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_end_to_end as e2e  # noqa: E402


def run_tree(root: Path, corpus: Path, out_copy: Path, prefect_home: Path) -> dict:
    env = e2e.bench_env()
    env["PYTHONPATH"] = str(root)
    env["PREFECT_HOME"] = str(prefect_home)
    saved = e2e.ROOT
    e2e.ROOT = root  # measure() runs the command from ROOT: `python -m` puts the cwd first on sys.path
    try:
        m = e2e.newsclean_run(corpus, out_copy, env, fresh=False)
    finally:
        e2e.ROOT = saved
    m.pop("timeline", None)
    return m


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True, help="the OUT of a first run over CORPUS (copied, not changed)")
    ap.add_argument("--scratch", type=Path, help="folder for the copies of OUT (default: a new temporary folder)")
    ap.add_argument("--prefect-home", type=Path, default=HERE / "out" / "prefect")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args(argv)
    a.scratch = a.scratch or Path(tempfile.mkdtemp(prefix="no-change-ab-"))
    a.prefect_home.mkdir(parents=True, exist_ok=True)
    runs: dict[str, list[dict]] = {"before": [], "after": []}
    for r in range(a.rounds):
        order = ("before", "after") if r % 2 == 0 else ("after", "before")
        for side in order:
            copy = a.scratch / f"{side}-{r}" / a.out.name
            shutil.rmtree(copy.parent, ignore_errors=True)
            copy.parent.mkdir(parents=True)
            subprocess.run(["cp", "-a", str(a.out), str(copy)], check=True)
            m = run_tree(getattr(a, side).resolve(), a.corpus.resolve(), copy, a.prefect_home)
            runs[side].append(m)
            print(f"round {r + 1} {side}: wall {m['wall_s']:.1f} s, flow {m['flow_s']:.1f} s, cpu {m['cpu_s']:.1f} s, "
                  f"largest {m['peak_rss_mb']:.0f} MB, tree {m['peak_tree_rss_mb']:.0f} MB, "
                  f"roles {m['peak_rss_by_role_mb']}, cleaned {m['docs_cleaned']}", flush=True)
            shutil.rmtree(copy.parent, ignore_errors=True)
    summary = {side: {k: statistics.median(m[k] for m in ms) for k in ("wall_s", "flow_s", "cpu_s", "peak_rss_mb", "peak_tree_rss_mb")}
               | {"peak_rss_by_role_mb": {role: statistics.median(m["peak_rss_by_role_mb"][role] for m in ms)
                                          for role in ms[0]["peak_rss_by_role_mb"]}}
               for side, ms in runs.items()}
    print(json.dumps(summary, indent=2))
    if a.json:
        a.json.write_text(json.dumps({"runs": runs, "median": summary}, indent=2, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
