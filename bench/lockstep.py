"""The columnar engine's lock step: speed and memory of a batch cleaned N documents at a time.

    .venv/bin/python bench/lockstep.py [--pages 461] [--sizes 1,8,32,128] [--rounds 3] [--before DIR]
    .venv/bin/python bench/lockstep.py --corpus DIR --pages 1000 --sizes 32 --rounds 1   # a generated corpus

Writes the dev pages' full-page text as .txt files once (a temporary folder), then for each
Settings.lockstep_docs in --sizes runs newsclean.cleaners.batch.clean_sources over all of them in a fresh
process (rules' caches empty: new pages, as a corpus brings them), --rounds times in alternation,
and reports the median CPU milliseconds per document, the ratio to lockstep_docs=1 measured in the
same run, and the process's peak RSS. Every size must give the same rows (checked: a digest of
the articles and removed rows). With --before DIR (a folder holding another version's cleaners/
package, e.g. `git worktree add ../before <commit>`), that version is run the same way with its
default settings, as the first row: the ratio is then against it. With --corpus DIR (e.g. one
bench/generate_corpus.py wrote), the first --pages of its .txt files are the batch instead of the
dev pages: run it at two sizes to see how a batch's peak memory grows with its documents. Raw
numbers: bench/out/lockstep.json.
"""
from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = r"""
import hashlib, json, resource, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from newsclean.cleaners.batch import clean_sources
from newsclean.cleaners.model import warm_up
from newsclean.cleaners.settings import Settings
folder, size = Path(sys.argv[1]), int(sys.argv[2])
warm_up()
sources = sorted(p.name for p in folder.glob("*.txt"))
t = time.process_time()
out = clean_sources(folder, sources, Settings(lockstep_docs=size) if size else Settings())
cpu = time.process_time() - t
rows = [{k: v for k, v in a.items() if k not in ("cleaned_at", "pipeline_version")} for a in out.articles]
digest = hashlib.sha256(json.dumps([rows, out.removed, out.quarantine], default=str, sort_keys=True).encode()).hexdigest()
print(json.dumps({"size": size, "docs": len(sources), "cpu_s": cpu,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "digest": digest}))
"""


def main(argv: list[str] | None = None) -> dict:
    from newsclean.cleaners.shared_data import devset_dir

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--sizes", default="1,8,32,128")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--devset", type=Path, default=devset_dir())
    ap.add_argument("--before", type=Path, default=None, help="another version's root, run first with its defaults")
    ap.add_argument("--corpus", type=Path, default=None, help="a folder of .txt files to clean instead of the dev pages")
    a = ap.parse_args(argv)
    sizes = ([0] if a.before else []) + [int(s) for s in a.sizes.split(",")]
    if a.corpus is not None:
        texts = [p.read_bytes() for p in sorted(a.corpus.rglob("*.txt"))[: a.pages]]
    else:
        with gzip.open(a.devset / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
            texts = [json.loads(line)["text"].encode("utf-8") for line in fh][: a.pages]
    runs: dict[int, list[dict]] = {s: [] for s in sizes}
    with tempfile.TemporaryDirectory() as tmp:
        for i, data in enumerate(texts):
            (Path(tmp) / f"{i:06d}.txt").write_bytes(data)
        for _ in range(a.rounds):
            for size in sizes:
                root = a.before if size == 0 else ROOT
                done = subprocess.run([sys.executable, "-c", CHILD, tmp, str(size), str(root)], capture_output=True,
                                      text=True, cwd=root, check=True)
                runs[size].append(json.loads(done.stdout.strip().splitlines()[-1]))
    digests = {r["digest"] for rs in runs.values() for r in rs}
    base = statistics.median(r["cpu_s"] for r in runs[sizes[0]])
    table = []
    for size in sizes:
        cpu = statistics.median(r["cpu_s"] for r in runs[size])
        table.append({"lockstep_docs": size if size else f"before ({a.before.name})", "docs": runs[size][0]["docs"], "ms_per_doc": round(1000 * cpu / runs[size][0]["docs"], 2),
                      "vs_first": round(base / cpu, 3), "peak_rss_mb": round(max(r["peak_rss_mb"] for r in runs[size]), 1),
                      "rounds_cpu_s": [round(r["cpu_s"], 2) for r in runs[size]]})
    result = {"same_output": len(digests) == 1, "table": table}
    out = ROOT / "bench" / "out"
    out.mkdir(parents=True, exist_ok=True)
    (out / "lockstep.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"same output at every size: {result['same_output']}")
    print(f"{'lockstep_docs':>13} {'CPU-ms/doc':>10} {'speed vs first':>14} {'peak RSS MB':>11}  rounds (CPU s)")
    for row in table:
        print(f"{row['lockstep_docs']!s:>13} {row['ms_per_doc']:>10} {row['vs_first']:>14} {row['peak_rss_mb']:>11}  {row['rounds_cpu_s']}")
    return result


if __name__ == "__main__":
    main()
