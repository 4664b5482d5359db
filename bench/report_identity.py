"""The report before and after a change: same OUT, same raw corpus, byte-identical report.html once
the two per-build values (the generation time and the CSP nonce) are blanked; with each build's
peak memory (max RSS of the child that builds it, from /usr/bin/time -v or ru_maxrss).

    .venv/bin/python bench/report_identity.py --before BEFORE_ROOT --after AFTER_ROOT \
        --case OUT:RAW [--case OUT2:RAW2 ...] [--json results.json]

Each root is a source tree (a `git archive` export) whose flows/report/build.py is used; OUT is
copied once per side into a scratch folder (the report is written next to the tables), so the
OUT given is never modified. Both sides use the same cleaners/ (the --after root's by default,
`--cleaners-root` to choose), since the report reads raw lines through newsclean.cleaners.pipeline.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_NONCE = re.compile(r"nonce(=\"|-)[A-Za-z0-9_-]+")
_GENERATED = re.compile(r"generated \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")

CHILD = r"""
import importlib.util, resource, sys, time
from pathlib import Path
report_root, out, raw = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
spec = importlib.util.spec_from_file_location("report_build_under_test", Path(report_root) / "flows/report/build.py")
mod = importlib.util.module_from_spec(spec)
sys.modules[spec.name] = mod
spec.loader.exec_module(mod)
t0, c0 = time.perf_counter(), time.process_time()
mod.build_report(out, raw)
print("RESULT", time.perf_counter() - t0, time.process_time() - c0,
      resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""

TABLES = ("articles.parquet", "removed.parquet", "quarantine.parquet", "run.json")


def normalise(html: str) -> str:
    return _GENERATED.sub("generated <time>", _NONCE.sub(r"nonce\1<nonce>", html))


def build(report_root: Path, cleaners_root: Path, out: Path, raw: Path, scratch: Path) -> dict:
    """Copy OUT's tables into scratch (a folder of OUT's name: the report shows its name and path,
    so both sides build in the same place), build the report there with report_root's build.py."""
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    for name in TABLES:
        if (out / name).exists():
            shutil.copyfile(out / name, scratch / name)  # follows the live links
    env = dict(os.environ, PYTHONPATH=str(cleaners_root))
    cmd = [sys.executable, "-c", CHILD, str(report_root), str(scratch), str(raw)]
    timed = Path("/usr/bin/time").exists()
    if timed:
        cmd = ["/usr/bin/time", "-v", *cmd]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=str(cleaners_root))
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-3000:])
    line = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")][-1].split()
    rss = int(line[3])
    if timed:
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
        rss = int(m.group(1)) // 1024 if m else rss
    html = (scratch / "report.html").read_text(encoding="utf-8")
    shutil.copyfile(scratch / "report.html", scratch.parent / f"report-{report_root.name}.html")
    norm = normalise(html)
    return {"wall_s": round(wall, 2), "build_s": round(float(line[1]), 2), "cpu_s": round(float(line[2]), 2),
            "max_rss_mb": rss, "bytes": len(html.encode()), "sha256_normalised": hashlib.sha256(norm.encode()).hexdigest(),
            "html": norm}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, required=True, help="source tree of the old report builder")
    ap.add_argument("--after", type=Path, required=True, help="source tree of the new report builder")
    ap.add_argument("--cleaners-root", type=Path, help="tree whose cleaners/ both sides import (default: --after)")
    ap.add_argument("--case", action="append", required=True, help="OUT:RAW")
    ap.add_argument("--scratch", type=Path, help="scratch folder (default: a temporary one, removed)")
    ap.add_argument("--keep", action="store_true", help="keep the scratch copies and reports")
    ap.add_argument("--json", type=Path, help="write the measurements here")
    args = ap.parse_args(argv)
    cleaners_root = (args.cleaners_root or args.after).resolve()
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="report-identity-"))
    results, ok = [], True
    try:
        for i, case in enumerate(args.case):
            out, raw = (Path(p).resolve() for p in case.split(":", 1))
            row = {"out": str(out), "raw": str(raw)}
            for side, root in (("before", args.before), ("after", args.after)):
                r = build(root.resolve(), cleaners_root, out, raw, scratch / str(i) / out.name)
                html = r.pop("html")
                row[side] = r
                row[f"_{side}_html"] = html
            same = row.pop("_before_html") == row.pop("_after_html")
            row["identical_after_normalising"] = same
            ok &= same
            results.append(row)
            b, a = row["before"], row["after"]
            print(f"{out}: identical={same}  before {b['max_rss_mb']} MB {b['build_s']} s  "
                  f"after {a['max_rss_mb']} MB {a['build_s']} s  ({a['bytes']:,} bytes)", flush=True)
    finally:
        if not args.keep and args.scratch is None:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
