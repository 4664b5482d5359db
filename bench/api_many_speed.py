"""The Python API on many documents: newsclean.clean_text called on each, against
newsclean.clean_texts on them all (lock-step groups of lockstep_docs): CPU per document, and the
same Articles.

    .venv/bin/python bench/api_many_speed.py [--pages 461] [--rounds 3] [--html] [--out bench/out/api-many-speed.json]

The dev pages' full-page text (--html: their HTML, clean_html against clean_htmls). Rounds
alternate the two ways; before each, the rules' caches are emptied (newsclean.cleaners.rules.
clear_caches), so every page is new to both, as a corpus brings them. CPU time, the median kept.
Every page must give the same Article (or the same DocumentError) both ways.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import newsclean  # noqa: E402
from newsclean.cleaners.rules import clear_caches  # noqa: E402


def one_by_one(clean, documents: list) -> list:
    out = []
    for document in documents:
        try:
            out.append(clean(document))
        except newsclean.DocumentError as err:
            out.append(err)
    return out


def _key(result) -> tuple:
    if isinstance(result, newsclean.DocumentError):
        return ("error", result.stage, result.reason)
    return ("article", result)


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--html", action="store_true", help="the pages' HTML instead of their text")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "api-many-speed.json")
    args = ap.parse_args(argv)
    from bench_baselines import load_pages

    pages = load_pages(args.pages)
    documents = [p["html_bytes"] for p in pages] if args.html else [p["text"] for p in pages]
    alone, many = (newsclean.clean_html, newsclean.clean_htmls) if args.html else (newsclean.clean_text, newsclean.clean_texts)
    one_by_one(alone, documents[:5])  # the model and word lists loaded
    times: dict[str, list[float]] = {"one at a time": [], "in lock step": []}
    results = {}
    for _ in range(args.rounds):
        for name, run in (("one at a time", lambda: one_by_one(alone, documents)), ("in lock step", lambda: many(documents))):
            clear_caches()
            t0 = time.process_time()
            results[name] = run()
            times[name].append(time.process_time() - t0)
    same = [_key(a) == _key(b) for a, b in zip(results["one at a time"], results["in lock step"])]
    report = {"pages": len(documents), "html": args.html, "rounds": args.rounds,
              "cpu_ms_per_doc": {k: round(statistics.median(v) * 1000 / len(documents), 2) for k, v in times.items()},
              "ratio": round(statistics.median(times["one at a time"]) / statistics.median(times["in lock step"]), 3),
              "same_results": sum(same), "different": [i for i, s in enumerate(same) if not s]}
    print(json.dumps(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    if not all(same):
        raise SystemExit(f"{len(same) - sum(same)} documents differ between the two ways")
    return report


if __name__ == "__main__":
    main()
