"""How the text cleaner's time and memory grow with one document's length.

    .venv/bin/python bench/long_document.py [--lines 30000,60000,120000,400000] [--out bench/out/long-document.json]

A scrape is sometimes one huge text: a site mirror flattened to one file, a transcript, a forum
dump. Each size here is one generated document (seed 1): prose sentences of 3-30 words from a small
vocabulary, every third line the site's menu line ("Home | News | Sport"), as a page template
repeats it. Each size runs in a fresh process (`clean_texts` on the one document, the line model
warmed up first on a short text): its CPU seconds and the process's peak RSS. Linear growth doubles
the time when the lines double.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = ("the council voted on tuesday to expand bus network after months of debate over costs and "
         "routes").split()
MENU = "Home | News | Sport"


def document(n_lines: int, seed: int = 1) -> str:
    rng = random.Random(seed)
    return "\n".join(MENU if i % 3 == 0 else
                     " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 30))).capitalize() + "."
                     for i in range(n_lines))


def one(n_lines: int) -> dict:
    """In this process: clean one document of n_lines lines; CPU seconds and peak RSS."""
    import resource
    import time

    sys.path.insert(0, str(ROOT))
    from newsclean.cleaners.pipeline import clean_texts
    from newsclean.cleaners.settings import Settings

    settings = Settings(doc_timeout_s=3600)
    clean_texts(["Warm-up. The council voted on Tuesday to expand the bus network after months of debate."], settings)
    text = document(n_lines)
    c0 = time.process_time()
    out = clean_texts([text], settings)[0]
    cpu = time.process_time() - c0
    return {"lines": n_lines, "mb": round(len(text.encode()) / 1e6, 1), "cpu_s": round(cpu, 2),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "outcome": type(out).__name__ if not isinstance(out, BaseException) else f"{type(out).__name__}: {out}"[:200]}


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", default="30000,60000,120000,400000")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "long-document.json")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # the child process's size
    a = ap.parse_args(argv)
    if a.one:
        print(json.dumps(one(a.one)))
        return []
    rows = []
    for n in map(int, a.lines.split(",")):
        run = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True)
        rows.append(json.loads(run.stdout.strip().splitlines()[-1]))
        prev = rows[-2] if len(rows) > 1 else None
        growth = f"  x{rows[-1]['cpu_s'] / prev['cpu_s']:.2f} time for x{n / prev['lines']:.2f} lines" if prev else ""
        print(f"{n:>8} lines {rows[-1]['mb']:>6} MB  {rows[-1]['cpu_s']:>7} CPU-s  peak {rows[-1]['peak_rss_mb']} MB  "
              f"{rows[-1]['outcome']}{growth}", flush=True)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
