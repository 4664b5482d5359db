"""Every development page as a user's corpus, through `newsclean run`: what ends in quarantine, and why.

    .venv/bin/python bench/devset_corpus.py WORK_DIR [--settings FILE] [--checkout DIR] [--out bench/out/devset-corpus.json]

The 2,385 pages of the dev set (pages.jsonl.gz, trafilatura-pages.jsonl.gz, other-pages.jsonl.gz)
are written to WORK_DIR/raw twice, as the saved page (`.html`) and as its full-page text (`.txt`),
then `newsclean run WORK_DIR/raw WORK_DIR/clean --full` cleans them as one corpus. Printed: the
run's wall time, documents read, cleaned and quarantined, and the quarantine rows by stage and by
reason (numbers and names folded, so that one reason counts once). Every page is real and most are
articles: a quarantined article page is a document lost, a reason that does not say what to do is
a bug. --checkout DIR runs the CLI of another checkout (an earlier commit's worktree) on the same
corpus, for a before/after.
"""
from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SETS = ("pages", "trafilatura-pages", "other-pages")


def write_corpus(devset: Path, raw: Path) -> int:
    """Each dev page as WORK/raw/<id>.html and <id>.txt; how many pages."""
    raw.mkdir(parents=True, exist_ok=True)
    n = 0
    for name in SETS:
        with gzip.open(devset / f"{name}.jsonl.gz", "rt", encoding="utf-8") as fh:
            for line in fh:
                page = json.loads(line)
                stem = page["id"].replace("/", "_")
                with gzip.open(devset / page["html"], "rb") as html:
                    (raw / f"{stem}.html").write_bytes(html.read())
                (raw / f"{stem}.txt").write_text(page["text"], encoding="utf-8")
                n += 1
    return n


def reason_key(error: str) -> str:
    """A quarantine reason with its particulars folded: numbers, quoted text and file names."""
    error = re.sub(r"'[^']*'|\"[^\"]*\"|\([^)]*\)", "…", error)
    return re.sub(r"\d+(?:\.\d+)?", "N", error)[:110]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("work", type=Path)
    ap.add_argument("--settings", type=Path, help="a settings TOML for the run")
    ap.add_argument("--checkout", type=Path, default=ROOT, help="the checkout whose CLI runs (default: this one)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "devset-corpus.json")
    a = ap.parse_args(argv)

    import pyarrow.parquet as pq

    from newsclean.cleaners.shared_data import devset_dir, require_devset

    pages = write_corpus(require_devset(devset_dir()), a.work.resolve() / "raw")
    work = a.work.resolve()
    cmd = [sys.executable, "-m", "newsclean.flows.cli", "run", str(work / "raw"), str(work / "clean"), "--full"]
    if a.settings:
        cmd += ["--settings", str(a.settings.resolve())]
    t0 = time.perf_counter()
    # run from the checkout's folder: its newsclean package is the one imported
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=a.checkout)
    wall = time.perf_counter() - t0
    run = json.loads((work / "clean" / "run.json").read_text(encoding="utf-8"))
    rows = pq.read_table(work / "clean" / "quarantine.parquet").to_pylist()
    out = {"pages": pages, "wall_s": round(wall, 1), "read": run["docs_read"], "cleaned": run["docs_cleaned"],
           "quarantined": run["docs_quarantined"], "by_stage": dict(Counter(r["stage"] for r in rows).most_common()),
           "by_reason": [[stage, reason, n] for (stage, reason), n in
                         Counter((r["stage"], reason_key(r["error"])) for r in rows).most_common()]}
    print(f"{pages} pages, {out['read']} documents: {out['cleaned']} cleaned, {out['quarantined']} quarantined "
          f"in {out['wall_s']} s wall")
    for stage, reason, n in out["by_reason"]:
        print(f"  {n:5d}  {stage:9s} {reason}")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main()
