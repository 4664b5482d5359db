"""Normalising a batch's texts one by one against with their lines scanned together
(newsclean.cleaners.lines.line_forms_many, a LinesRequest's batch answer): the same lines, the time.

    .venv/bin/python bench/line_scans_speed.py [--pages 461] [--group 32] [--rounds 3] [--out bench/out/line-scans-speed.json]

Two sets of texts: the dev pages' full-page text (the text path), and the body trafilatura
extracts from the same pages' HTML (the HTML path's chosen body, newsclean.cleaners.extract_html).
Each is normalised alone (normalise_lines) and in groups of --group (the lock step's size) with
the group's lines scanned at once; rounds alternate, CPU time, the median kept. The lines must be
equal.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from newsclean.cleaners.lines import line_forms_many, normalise_lines  # noqa: E402


def alone(texts: list[str], group: int) -> list[list[str]]:
    return [normalise_lines(text) for text in texts]


def scanned_together(texts: list[str], group: int) -> list[list[str]]:
    out = []
    for i in range(0, len(texts), group):
        part = texts[i:i + group]
        out += [normalise_lines(text, False, forms) for text, forms in zip(part, line_forms_many(part, False))]
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--group", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "line-scans-speed.json")
    args = ap.parse_args(argv)
    from bench_baselines import load_pages
    from newsclean.cleaners.extract_html import extract_html

    pages = load_pages(args.pages)
    texts = [page["text"] for page in pages]
    bodies = [extract_html(page["html_bytes"]).text for page in pages]
    out: dict = {"pages": len(texts), "group": args.group}
    for label, batch in (("full-page text", texts), ("HTML bodies", bodies)):
        if alone(batch, args.group) != scanned_together(batch, args.group):
            raise SystemExit(f"{label}: the lines differ")
        spent: dict[str, list[float]] = {"alone": [], "together": []}
        for _ in range(args.rounds):
            for name, fn in (("alone", alone), ("together", scanned_together)):
                t = time.process_time()
                fn(batch, args.group)
                spent[name].append(time.process_time() - t)
        row = {name: round(statistics.median(v) / len(batch) * 1000, 3) for name, v in spent.items()}
        out[label] = {"ms_a_page": row, "non_ascii": sum(not t.isascii() for t in batch)}
        print(f"{label}: CPU-ms a page alone {row['alone']}, scanned together {row['together']} "
              f"({out[label]['non_ascii']} of {len(batch)} texts not ASCII)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main()
