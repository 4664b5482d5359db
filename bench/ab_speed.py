"""A/B CPU time of newsclean.cleaners.pipeline.clean_text between two code trees, alternating fresh processes.

    .venv/bin/python bench/ab_speed.py BEFORE_ROOT AFTER_ROOT [--reps 3] [--pages 200] [--rounds 1] [--warm-up ROOTS]
        [--lockstep N] [--devset PAGES]

Each root is a folder holding a cleaners/ package (e.g. the two snapshots bench/snapshot_compare.sh
makes). Each process cleans the first --pages dev pages after a 5-page warm-up and prints its CPU
seconds; the medians and their ratio are printed. Processes alternate A, B, A, B... so machine
noise hits both alike.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

CODE = r'''
import sys, gzip, json, time
sys.path.insert(0, sys.argv[1])
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
from newsclean.cleaners.types import DocumentError
pages = [json.loads(l) for l in gzip.open(sys.argv[5])][:int(sys.argv[2])]
s = Settings()
if sys.argv[3] == "1":
    import newsclean.cleaners.model
    if hasattr(newsclean.cleaners.model, "warm_up"):
        newsclean.cleaners.model.warm_up()
group = int(sys.argv[6])
def run(ps):
    if group > 1:  # in lock step groups, as newsclean.cleaners.batch cleans a batch
        from newsclean.cleaners.pipeline import clean_texts
        for i in range(0, len(ps), group):
            clean_texts([p["text"] for p in ps[i:i + group]], s)
        return
    for p in ps:
        try:
            clean_text(p["text"], s)
        except DocumentError:
            pass
run(pages[:5])
for _ in range(int(sys.argv[4])):  # the last round is timed (later rounds: warm rule and word caches)
    t = time.process_time()
    run(pages)
    cpu = time.process_time() - t
print(cpu)
'''


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--pages", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=1, help="rounds over the pages per process; the last is "
                    "timed (1: cold caches, as a new worker sees new pages; 2+: warm, as bench_baselines)")
    ap.add_argument("--warm-up", default="", help="roots (comma-separated; 'all') whose process calls "
                    "newsclean.cleaners.model.warm_up() first, as a worker would (gc.freeze after model load)")
    ap.add_argument("--lockstep", type=int, default=1, help="clean the pages in lock step groups of this many "
                    "(newsclean.cleaners.pipeline.clean_texts, as a batch cleans them; 1: clean_text one at a time)")
    ap.add_argument("--devset", type=Path, default=devset_dir() / "pages.jsonl.gz",
                    help="the dev pages (default: $NEWSCLEAN_SHARED/devset, else ../shared/devset)")
    a = ap.parse_args()
    if a.before == a.after:
        ap.error("BEFORE and AFTER must differ (copy the folder to compare a root with itself)")
    res: dict[str, list[float]] = {a.before: [], a.after: []}
    for _ in range(a.reps):
        for root in (a.before, a.after):
            warm = "1" if a.warm_up == "all" or root in a.warm_up.split(",") else "0"
            out = subprocess.run([sys.executable, "-c", CODE, root, str(a.pages), warm, str(a.rounds), str(a.devset), str(a.lockstep)], capture_output=True, text=True, check=True)
            res[root].append(float(out.stdout.strip().splitlines()[-1]))
    med = {r: statistics.median(v) for r, v in res.items()}
    for r, v in res.items():
        print(f"{r}: CPU s {[round(x, 2) for x in v]}, median {med[r]:.2f} ({1000 * med[r] / a.pages:.1f} ms/doc, "
              f"{a.pages / med[r]:.1f} docs/CPU-s)")
    pairs = sorted(b / n for b, n in zip(res[a.before], res[a.after]))
    print(f"speed-up {med[a.before] / med[a.after]:.2f}x; paired ratios (before/after, run by run) "
          f"{[round(r, 3) for r in pairs]}, median {statistics.median(pairs):.3f}")


if __name__ == "__main__":
    main()
