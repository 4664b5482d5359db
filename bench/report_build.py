"""report.html's build (newsclean.flows.report.build_report) on a finished run's OUT_DIR, in fresh
processes, this checkout against another.

    .venv/bin/python bench/report_build.py OUT_DIR RAW_DIR [--before OLD_TREE] [--rounds 3]

Each round builds the report once per tree, the order alternating, each build in a new process
(as the flow's child process builds it for more than 500 documents), and reads the CPU seconds of
the build alone (imports apart). With --before, also checks that both trees write the same
report, the build time and the random nonce of its script tag blanked. Prints the medians and
their ratio as JSON.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, shutil, sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from newsclean.flows.report import build_report
t = time.process_time()
path = build_report(Path(sys.argv[2]), sys.argv[3])
took = time.process_time() - t
shutil.copyfile(path, sys.argv[4])
print(json.dumps({"build_cpu_s": took}))
"""

_VARYING = re.compile(r'nonce-[A-Za-z0-9_-]+|nonce="[A-Za-z0-9_-]+"|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC')


def build(root: Path, out_dir: Path, raw_dir: str, copy_to: Path) -> float:
    done = subprocess.run([sys.executable, "-c", CHILD, str(root), str(out_dir), raw_dir, str(copy_to)],
                          cwd=root, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])["build_cpu_s"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("raw_dir")
    ap.add_argument("--before", type=Path, help="another checkout (e.g. a git worktree) to compare with")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    trees = {"now": ROOT, **({"before": a.before.resolve()} if a.before else {})}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        copies = {name: Path(tmp) / f"{name}.html" for name in trees}
        for r in range(a.rounds):
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                cpu[name].append(build(trees[name], a.out_dir, a.raw_dir, copies[name]))
        same = None
        if a.before:
            text = {name: _VARYING.sub("", path.read_text(encoding="utf-8")) for name, path in copies.items()}
            same = text["now"] == text["before"]
    medians = {name: statistics.median(v) for name, v in cpu.items()}
    report = {"out_dir": str(a.out_dir), "build_cpu_s": {k: round(v, 3) for k, v in medians.items()},
              "rounds": {k: [round(x, 3) for x in v] for k, v in cpu.items()}}
    if a.before:
        report.update(before_over_now=round(medians["before"] / medians["now"], 3), same_report=same)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
