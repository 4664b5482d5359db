"""Per-document work around the cleaner: the corpus pass's line hashes, and what writing a batch
costs (validating and writing its tables, the near-duplicate signatures), on the dev pages.

    .venv/bin/python bench/write_path.py [--rounds 5] [--root DIR ...] [--write-pages 200] [--out bench/out/write-path.json]

Each round is a fresh process per checkout (--root: this one by default; several roots alternate
round by round, for a before/after on the same machine, e.g. a `git worktree` of an older commit).
A process first hashes 60 pages untimed (one-time loads), then times, in CPU ms per page:
`corpus.line_hashes` over each page's full-page text lines (what the corpus pass does to every
document), `syndication.signatures` over the pages' true bodies (what writing a batch does to
every article), and `store.write_part` on the batch of the first --write-pages pages cleaned as
text (their articles, removed and lines rows validated, then written; signatures included).
Medians over rounds.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import copy, json, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from newsclean.cleaners import batch, corpus, store, syndication  # first: bench_baselines puts this checkout on the path
from newsclean.cleaners.settings import Settings
sys.path.insert(0, sys.argv[2])
from bench_baselines import load_pages
pages = load_pages()
n_write = int(sys.argv[3])
with tempfile.TemporaryDirectory() as raw:
    for k, p in enumerate(pages[:n_write]):
        Path(raw, f"{k:04d}.txt").write_text(p["text"], encoding="utf-8")
    cleaned = batch.clean_sources(raw, sorted(x.name for x in Path(raw).iterdir()), Settings())
texts, bodies = [p["text"] for p in pages], [p["truth"] for p in pages]
for t in texts[-60:]:
    corpus.line_hashes(t.split("\n"))
syndication.signatures(bodies[-60:], 5)
clock = time.process_time
t = clock(); [corpus.line_hashes(x.split("\n")) for x in texts]; hashes = clock() - t
t = clock(); syndication.signatures(bodies, 5); sigs = clock() - t
with tempfile.TemporaryDirectory() as stage:
    store.write_part(Path(stage), 0, copy.deepcopy(cleaned))  # one-time loads
    result = copy.deepcopy(cleaned)
    t = clock(); store.write_part(Path(stage), 1, result); written = clock() - t
n = len(pages)
print(json.dumps({"line_hashes": 1000 * hashes / n, "signatures": 1000 * sigs / n,
                  "write_part": 1000 * written / max(1, len(cleaned.articles))}))
"""


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--root", type=Path, action="append", help="a checkout whose code runs (default: this one)")
    ap.add_argument("--write-pages", type=int, default=200, help="pages cleaned into the batch write_part writes")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "write-path.json")
    args = ap.parse_args(argv)
    roots = [r.resolve() for r in (args.root or [ROOT])]
    runs: dict[str, list[dict]] = {str(r): [] for r in roots}
    for _ in range(args.rounds):
        for root in roots:  # alternating: a busy spell hits every checkout alike
            done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(ROOT / "bench"), str(args.write_pages)], cwd=root,
                                  check=True, capture_output=True, text=True)
            runs[str(root)].append(json.loads(done.stdout.strip().splitlines()[-1]))
    report = {"rounds": args.rounds, "cpu_ms_per_page": {
        root: {part: round(statistics.median(r[part] for r in rs), 3) for part in rs[0]} for root, rs in runs.items()}}
    print(json.dumps(report, indent=1))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
