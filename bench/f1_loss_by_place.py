"""Where the text path's body F1 is lost: debris kept above the article, inside it, or below it.

    .venv/bin/python bench/f1_loss_by_place.py PRED.jsonl [--devset PAGES] [--examples N]

PRED.jsonl holds one {"id", "text"} per dev page (`newsclean eval --pred`, or a fold run's
`bench/out/cv/TAG/pipeline.jsonl` from bench/cv_folds.py: out of fold). For each page, an output
paragraph is "true" when its tokens (as shared/tools/score-devset folds them) occur in the page's
truth, and the article's span in the output runs from its first true paragraph to its last. The
kept paragraphs that are not true are split by place: above that span, inside it, below it. For
each place the script prints the mean F1 the pages would gain if every such paragraph were removed
(an oracle: what a perfect decision of that kind of line would be worth), the paragraphs and their
tokens, and with --examples the largest gains below the article with the first paragraphs there.
A paragraph counts as true only when the truth holds all of its tokens in a row, so it reads the
text path best, whose lines are the truth's own: on the HTML path a body cut into paragraphs
otherwise than the truth (a list or a table written as one line) counts as untrue in part, and
removing it can lower F1 ("inside" then comes out negative).
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.shared_data import devset_dir  # noqa: E402

PLACES = ("above", "inside", "below")
_DROP = {cp: None for cp in range(sys.maxunicode + 1) if unicodedata.category(chr(cp))[0] in "PS"}


def tokens(text: str) -> list[str]:
    """score-devset's tokens: NFKC, lower case, punctuation and symbols deleted, split on white space."""
    return unicodedata.normalize("NFKC", text or "").lower().translate(_DROP).split()


def f1(pred: list[str], true: list[str]) -> float:
    if not pred or not true:
        return 0.0
    overlap = sum((Counter(pred) & Counter(true)).values())
    if not overlap:
        return 0.0
    p, r = overlap / len(pred), overlap / len(true)
    return 2 * p * r / (p + r)


def page_gains(output: str, truth: str) -> tuple[dict[str, float], dict[str, int], dict[str, int], list[str]]:
    """Per place: the F1 gained by removing the output's untrue paragraphs there, their number and
    their tokens; and the paragraphs below the article."""
    paragraphs = [p for p in output.split("\n") if tokens(p)]
    true_tokens = tokens(truth)
    haystack = " " + " ".join(true_tokens) + " "
    is_true = [f" {' '.join(tokens(p))} " in haystack for p in paragraphs]
    gains, count, size = dict.fromkeys(PLACES, 0.0), dict.fromkeys(PLACES, 0), dict.fromkeys(PLACES, 0)
    if not any(is_true):
        return gains, count, size, []
    first, last = is_true.index(True), len(is_true) - 1 - is_true[::-1].index(True)
    place = ["above" if i < first else "below" if i > last else "inside" for i in range(len(paragraphs))]
    base = f1(tokens("\n".join(paragraphs)), true_tokens)
    for where in PLACES:
        kept = [p for p, ok, at in zip(paragraphs, is_true, place) if ok or at != where]
        gains[where] = f1(tokens("\n".join(kept)), true_tokens) - base
        for p, ok, at in zip(paragraphs, is_true, place):
            if not ok and at == where:
                count[where] += 1
                size[where] += len(tokens(p))
    return gains, count, size, paragraphs[last + 1:]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pred", type=Path)
    ap.add_argument("--devset", type=Path, default=None, help="pages.jsonl.gz (default: the shared dev pages)")
    ap.add_argument("--examples", type=int, default=0)
    a = ap.parse_args(argv)
    pages_file = a.devset or devset_dir() / "pages.jsonl.gz"
    with gzip.open(pages_file, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    preds = {r["id"]: r for r in map(json.loads, a.pred.open(encoding="utf-8"))}
    total, count, size = dict.fromkeys(PLACES, 0.0), Counter(), Counter()
    below: list[tuple[float, str, list[str]]] = []
    for page in pages:
        gains, n, k, tail = page_gains(preds.get(page["id"], {}).get("text", ""), page["truth"])
        for where in PLACES:
            total[where] += gains[where]
            count[where] += n[where]
            size[where] += k[where]
        below.append((gains["below"], page["id"], tail))
    report = {where: {"mean_f1_gain": round(total[where] / len(pages), 4), "paragraphs": count[where],
                      "tokens": size[where]} for where in PLACES}
    for where in PLACES:
        r = report[where]
        print(f"{where:6}  mean F1 gain if removed {r['mean_f1_gain']:.4f}  paragraphs {r['paragraphs']:5}  tokens {r['tokens']:6}")
    for gain, page_id, tail in sorted(below, reverse=True)[:a.examples]:
        print(f"{gain:.3f} {page_id}")
        for paragraph in tail[:3]:
            print(f"        {paragraph[:100]}")
    return report


if __name__ == "__main__":
    main()
