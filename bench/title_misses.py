"""Why the text path's headline misses: each miss of a predictions file put in one class, against
what the page's full-page text could give at best.

    .venv/bin/python bench/title_misses.py PRED.jsonl [--devset PAGES] [--examples 5] [--out FILE]

PRED.jsonl holds one {"id", "title"} per dev page (`newsclean eval --pred`, or a fold run's
`bench/out/cv/TAG/pipeline.jsonl` from bench/cv_folds.py: out of fold). Titles are compared as
`newsclean eval` scores them (newsclean.cleaners.corpus.fold_title: lower case, punctuation and
spaces folded). A page's true headline is

- `a line`: one of the text's lines, folded, is exactly the headline;
- `inside a line`: no line is, but one holds it (a "Headline | Outlet" line, a headline glued to a
  label or a subtitle);
- `absent`: no line holds it (the annotation took the <title> or og:title, a paraphrase of the
  page's own headline, which full-page text never shows).

The ceiling is the share of pages whose headline is a line or inside one: what a perfect choice of
line and cut would score. Each miss is classed as `none` (no headline given), `wrong line` (the true
headline is a line, another was given), `cut` (the given and the true headline hold one another:
a label or a subtitle cut or left where the annotation did otherwise), `inside a line` (the truth
is only part of a line, and the given title is not that part) or `absent`.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLASSES = ("none", "wrong line", "cut", "inside a line", "absent")


def _holds(text: str, part: str) -> bool:
    """Whether folded `text` holds folded `part` as whole words ("app" is not inside "application")."""
    return f" {part} " in f" {text} "


def headline_place(title: str, lines: list[str]) -> str:
    """Where a folded headline stands in a page's folded lines: "a line", "inside a line" or "absent"."""
    if title in lines:
        return "a line"
    if any(_holds(line, title) for line in lines):
        return "inside a line"
    return "absent"


def miss_class(truth: str, given: str | None, place: str) -> str:
    """The class of a miss (see the module docstring); truth and given folded, place headline_place's."""
    if not given:
        return "none"
    if place == "absent":
        return "absent"
    if _holds(truth, given) or _holds(given, truth):
        return "cut"
    return "wrong line" if place == "a line" else "inside a line"


def breakdown(pages: list[dict], preds: dict[str, dict]) -> dict:
    from newsclean.cleaners.model.labels import fold_title

    places: Counter = Counter()
    classes: Counter = Counter()
    examples: dict[str, list] = defaultdict(list)
    n = hits = 0
    for page in pages:
        truth = fold_title(page.get("title"))
        if not truth or page["id"] not in preds:
            continue
        n += 1
        place = headline_place(truth, [fold_title(line) for line in page["text"].split("\n")])
        places[place] += 1
        given_raw = preds[page["id"]].get("title")
        given = fold_title(given_raw) if given_raw else ""
        if given == truth:
            hits += 1
            continue
        kind = miss_class(truth, given, place)
        classes[kind] += 1
        examples[kind].append({"id": page["id"], "truth": page.get("title"), "given": given_raw})
    return {
        "pages": n,
        "exact": round(hits / n, 4) if n else 0.0,
        "ceiling": round((places["a line"] + places["inside a line"]) / n, 4) if n else 0.0,
        "headline is": dict(places),
        "misses": {k: classes[k] for k in CLASSES if classes[k]},
        "examples": dict(examples),
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pred", type=Path)
    ap.add_argument("--devset", type=Path, help="pages.jsonl.gz (default: the shared dev pages)")
    ap.add_argument("--examples", type=int, default=5, help="misses shown per class")
    ap.add_argument("--out", type=Path, help="also write the whole result (every miss) as JSON")
    args = ap.parse_args(argv)
    if args.devset is None:
        from newsclean.cleaners.shared_data import devset_dir

        args.devset = devset_dir() / "pages.jsonl.gz"
    with gzip.open(args.devset, "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    with args.pred.open(encoding="utf-8") as fh:
        preds = {d["id"]: d for d in map(json.loads, fh)}
    result = breakdown(pages, preds)
    print(f"{result['pages']} pages: title exact {result['exact']:.3f}, ceiling {result['ceiling']:.3f} "
          f"(the headline is {', '.join(f'{k}: {v}' for k, v in result['headline is'].items())})")
    for kind, count in result["misses"].items():
        print(f"  {kind}: {count}")
        for ex in result["examples"][kind][:args.examples]:
            print(f"    {ex['id']}: {ex['truth']!r} <- {ex['given']!r}")
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1), encoding="utf-8")
    return result


if __name__ == "__main__":
    main()
