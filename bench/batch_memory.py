"""A worker's peak memory against its batch size: the peak per document must not grow with the
batch (a batch of 10,000 costs no more per document than one of 1,000), and the default batch must
keep a worker under 1 GB.

    .venv/bin/python bench/batch_memory.py [--sizes 500,1000,10000] [--corpus DIR] [--out bench/out/batch-memory.json]

Each size runs in a fresh process, as a worker does. It is warmed up first: the worker's model
warm-up (flows.clean_corpus), then a batch of the corpus's last WARM_DOCS documents, so that every
model, word list and language table a batch loads is in memory. Then the process's peak RSS is
reset (/proc/self/clear_refs) and one batch of the first N documents of a generated corpus
(bench/generate_corpus.py, text files, seed 7, N + WARM_DOCS documents; made under
bench/out/corpora/ when --corpus is not given) is cleaned and its parts written exactly as the flow's
`clean-batch` task does (its function, without Prefect). Reported per size: the RSS after warm-up
(the base), the batch's peak RSS (VmHWM), the peak per document, and what the batch added per
document above the base. The corpus pass's line statistics are left out: their size follows the
corpus, not the batch.
"""
from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WARM_DOCS = 64


def _status_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def one(corpus: Path, n: int) -> dict:
    """Clean the first n documents of `corpus` as one batch, in this process."""
    from newsclean.cleaners.settings import Settings
    from newsclean.flows import clean_corpus as flow

    every = sorted(str(p.relative_to(corpus)) for p in corpus.rglob("*.txt"))
    if len(every) < n + WARM_DOCS:
        raise SystemExit(f"{corpus} holds {len(every)} documents, fewer than {n} + {WARM_DOCS}")

    def batch(sources: list[str]) -> dict:
        with tempfile.TemporaryDirectory() as stage:
            return flow.clean_batch.fn(str(corpus), sources, Settings().model_dump(), stage, 0,
                                       dt.datetime.now(dt.timezone.utc).isoformat())

    batch(every[-WARM_DOCS:])  # runs the worker's warm-up too
    base = _status_mb("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # the peak RSS starts again from the current RSS
    t0 = time.process_time()
    counts = batch(every[:n])
    cpu = time.process_time() - t0
    peak = _status_mb("VmHWM")
    return {"docs": n, "cleaned": counts["docs_cleaned"], "quarantined": counts["docs_quarantined"],
            "base_mb": round(base, 1), "peak_mb": round(peak, 1),
            "peak_kb_per_doc": round(peak * 1024 / n, 2), "added_kb_per_doc": round((peak - base) * 1024 / n, 2),
            "cpu_s": round(cpu, 1)}


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="500,1000,10000", help="batch sizes, comma-separated (500 is the default batch)")
    ap.add_argument("--corpus", type=Path, help="a generated text corpus (default: made under bench/out/)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "batch-memory.json")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a child process: one batch of this size
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    corpus = args.corpus or ROOT / "bench" / "out" / "corpora" / f"batch-memory-{max(sizes) + WARM_DOCS}"
    if args.one:
        print(json.dumps(one(corpus, args.one)))
        return []
    if args.corpus is None and not corpus.exists():
        subprocess.run([sys.executable, str(ROOT / "bench" / "generate_corpus.py"), str(corpus),
                        "--docs", str(max(sizes) + WARM_DOCS), "--seed", "7"], check=True)
    rows = []
    for n in sizes:
        done = subprocess.run([sys.executable, __file__, "--one", str(n), "--corpus", str(corpus)],
                              check=True, capture_output=True, text=True, env=os.environ.copy())
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        print(json.dumps(rows[-1]), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return rows


if __name__ == "__main__":
    main()
