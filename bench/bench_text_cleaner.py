"""Speed of the text cleaner on the development pages, on one core.

    .venv/bin/python bench/bench_text_cleaner.py [--runs 5] [--pages 461]

Reports pages/s (median of --runs runs, each over the same pages) for:
  model      features + both model stages + title on already-normalised lines (newsclean.cleaners.model);
  lines+model  normalisation (newsclean.cleaners.lines) + the above;
  pipeline   the real text path, newsclean.cleaners.pipeline.clean_text (rules, decision, model, metadata).
The process is pinned to one CPU and LightGBM runs single-threaded.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--skip-pipeline", action="store_true")
    a = ap.parse_args(argv)
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass
    from newsclean.cleaners.lines import normalise_lines
    from newsclean.cleaners.model import LineModel
    from newsclean.cleaners.model.train import DEVSET, load_jsonl
    from newsclean.cleaners.settings import Settings

    pages = load_jsonl(DEVSET / "pages.jsonl.gz")[: a.pages]
    texts = [p["text"] for p in pages]
    model = LineModel.default()
    lines = [[s for s in normalise_lines(t) if s] for t in texts]
    model.analyse(lines[0])  # warm up (lookup tables, boosters)

    def timed(fn) -> tuple[float, float]:
        """Median pages/s over wall-clock time and over the process's CPU time (the latter is what
        one core does when the machine is shared with other jobs)."""
        wall, cpu = [], []
        for _ in range(a.runs):
            t0, c0 = time.perf_counter(), time.process_time()
            fn()
            wall.append(len(texts) / (time.perf_counter() - t0))
            cpu.append(len(texts) / (time.process_time() - c0))
        return statistics.median(wall), statistics.median(cpu)

    res = {"model": timed(lambda: [model.analyse(ls) for ls in lines]),
           "lines+model": timed(lambda: [model.analyse([s for s in normalise_lines(t) if s]) for t in texts])}
    if not a.skip_pipeline:
        from newsclean.cleaners.pipeline import clean_text
        from newsclean.cleaners.types import DocumentError
        settings = Settings()

        def pipe():
            for t in texts:
                try:
                    clean_text(t, settings)
                except DocumentError:
                    pass
        res["pipeline"] = timed(pipe)
    n_lines = sum(map(len, lines))
    print(f"{len(texts)} dev pages, {n_lines} non-empty lines, median of {a.runs} runs, one core")
    print(f"{'':12s} {'wall':>8s} {'cpu':>8s}  (pages/s)")
    for k, (w, c) in res.items():
        print(f"{k:12s} {w:8.1f} {c:8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
