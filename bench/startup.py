"""A new process's start-up, phase by phase: what every worker, `newsclean run` and Python interpreter
pays before its first document.

    .venv/bin/python bench/startup.py [--runs 5] [--root DIR] [--out bench/out/startup.json]

Each run is a fresh process (the machine's caches warm: the compiled model and the language
tables are in the model cache folder, as on any machine after its first run). Phases, CPU seconds:
importing the cleaner (newsclean.cleaners.batch), loading the line model (model.warm_up), building
the language identifier, and cleaning the first seed document (rules' tables, the remaining lazy
loads), then signing it for the near-duplicate clusters (newsclean.cleaners.syndication: the
first batch's signatures, and whatever they import). Medians over --runs. --root: another
checkout's code (e.g. a `git worktree` of an older commit), run the same way, for a before/after
on the same machine.
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
import json, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
clock = time.process_time
t = clock(); import newsclean.cleaners.batch; imported = clock() - t
from newsclean.cleaners.model import warm_up
t = clock(); warm_up(); model = clock() - t
from newsclean.cleaners import language
t = clock(); language._identifier(); langid = clock() - t
from newsclean.cleaners.pipeline import clean_text
from newsclean.cleaners.settings import Settings
text = sorted(Path(sys.argv[2]).glob("*.txt"))[0].read_text(encoding="utf-8")
t = clock(); doc = clean_text(text, Settings()); first = clock() - t
from newsclean.cleaners import syndication
t = clock(); syndication.signatures([doc.text], Settings().dup_shingle_words); signed = clock() - t
print(json.dumps({"import": imported, "model": model, "language": langid, "first document": first,
                  "first signatures": signed, "total": clock()}))
"""


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs (default: this one)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "startup.json")
    args = ap.parse_args(argv)
    root = args.root.resolve()
    runs = []
    for _ in range(args.runs):
        done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(ROOT / "raw")], cwd=root,
                              check=True, capture_output=True, text=True)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    report = {"root": str(root), "runs": args.runs,
              "cpu_s": {phase: round(statistics.median(r[phase] for r in runs), 3) for phase in runs[0]}}
    print(json.dumps(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return report


if __name__ == "__main__":
    main()
