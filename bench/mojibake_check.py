"""The articles schema's text_is_clean check as it was (text_problem one text at a time, ftfy.badness.is_bad
behind a character screen) against the column check (newsclean.schemas.tables.Articles._clean_text: BADNESS_RE
translated for polars, newsclean.cleaners.lines.has_mojibake_many): the same answers, the time.

    NEWSCLEAN_SHARED=... .venv/bin/python bench/mojibake_check.py [--pages 461] [--rounds 5] [--lines]
        [--out bench/out/mojibake-check.json]

On the dev pages' article bodies (`truth`); with --lines also on every line of their full-page texts
(`text`), the normalisation's question, where has_mojibake (RE2, one line at a time) is timed too.
CPU time, the checks alternating within each round, the median round kept; the one-off translation
of BADNESS_RE (once a process) is timed apart, before the rounds.
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

import pandas as pd  # noqa: E402
from ftfy.badness import is_bad  # noqa: E402

from newsclean.cleaners import lines as L  # noqa: E402
from newsclean.schemas.tables import MOJIBAKE, NO_BREAK_SPACE, Articles, text_problem  # noqa: E402


def has_mojibake_before(text: str) -> bool:
    """newsclean.cleaners.lines.has_mojibake before the translation: is_bad behind the character screen."""
    return bool(L._MOJIBAKE_REQUIRED.search(text)) and is_bad(text)


def text_problem_before(t) -> str | None:
    """newsclean.schemas.tables.text_problem before the column check."""
    if not isinstance(t, str):
        return "not a string"
    if "\u00a0" in t:
        return NO_BREAK_SPACE
    if not t.isascii() and has_mojibake_before(t):
        return MOJIBAKE
    return None


# each answers, per item, whether it fails: a body the check, a line has_mojibake
BODY_CHECKS = {
    "one by one, before": lambda s: (~s.map(lambda t: text_problem_before(t) is None).astype(bool)).tolist(),
    "one by one, RE2": lambda s: (~s.map(lambda t: text_problem(t) is None).astype(bool)).tolist(),
    "column": lambda s: (~Articles._clean_text(s)).tolist(),
}
LINE_CHECKS = {
    "one by one, before": lambda lines: [not ln.isascii() and has_mojibake_before(ln) for ln in lines],
    "one by one, RE2": lambda lines: [L.has_mojibake(ln) for ln in lines],
    "column": lambda lines: L.has_mojibake_many(lines),
}


def timed(checks: dict, data, n: int, rounds: int) -> dict:
    """Median CPU-ms of each check over `data` per one of `n` documents, and how many items fail;
    SystemExit unless all checks agree."""
    spent: dict[str, list[float]] = {name: [] for name in checks}
    answers = {}
    for _ in range(rounds):
        for name, check in checks.items():
            t = time.process_time()
            answers[name] = check(data)
            spent[name].append(time.process_time() - t)
    first, *rest = answers.values()
    if any(a != first for a in rest):
        raise SystemExit("the checks' answers differ")
    return {"ms_a_document": {name: round(statistics.median(v) / n * 1000, 4) for name, v in spent.items()},
            "failing": sum(first)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=461)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--lines", action="store_true", help="also every line of the full-page texts")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "mojibake-check.json")
    args = ap.parse_args(argv)
    from bench_baselines import load_pages

    pages = load_pages(args.pages)
    bodies = pd.Series([p["truth"] for p in pages])
    t = time.process_time()
    L._badness_re2(), Articles._clean_text(bodies.head(1))  # translate BADNESS_RE, compile it for RE2
    out: dict = {"pages": len(pages), "rounds": args.rounds, "translation_ms": round((time.process_time() - t) * 1000, 1)}
    print(f"translating BADNESS_RE and compiling it: {out['translation_ms']} CPU-ms, once a process")
    work = [("bodies", BODY_CHECKS, bodies, len(bodies))]
    if args.lines:
        lines = [line for p in pages for line in L.split_lines(p["text"])]
        work.append(("full-page text lines", LINE_CHECKS, lines, len(pages)))
    for label, checks, data, n in work:
        row = timed(checks, data, n, args.rounds)
        ms = row["ms_a_document"]
        row["ratio"] = round(ms["one by one, before"] / ms["column"], 1)
        out[label] = {"items": len(data), "non_ascii": sum(not t.isascii() for t in data)} | row
        print(f"{label} ({len(data)}, {out[label]['non_ascii']} not ASCII, {row['failing']} failing): CPU-ms a document, "
              + ", ".join(f"{name} {v}" for name, v in ms.items()) + f"; before / column {row['ratio']}x")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return out


if __name__ == "__main__":
    main()
