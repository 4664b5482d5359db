"""Idempotence on real pages: clean each dev page, clean its output (`title + "\\n\\n" + text`)
again, and count the pages where the second cleaning changes the title or text or removes anything.
The property tests check this on generated text; this checks it on the 461 dev pages' full-page
text, in either rendering.

    .venv/bin/python bench/idempotence_on_dev.py [--rendering text|text_inscriptis] [--devset PATH]

Prints each page that is not idempotent (its URL, both titles, both text lengths and what the second
cleaning removed), then the count.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cleaners.pipeline import clean_text  # noqa: E402
from cleaners.settings import Settings  # noqa: E402
from cleaners.types import DocumentError  # noqa: E402

DEVSET = Path("/work/shared/devset/pages.jsonl.gz")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rendering", choices=("text", "text_inscriptis"), default="text")
    ap.add_argument("--devset", type=Path, default=DEVSET)
    args = ap.parse_args()
    settings = Settings()
    cleaned = changed = 0
    with gzip.open(args.devset, "rt", encoding="utf-8") as fh:
        for page in map(json.loads, fh):
            text = page.get(args.rendering)
            if not text:
                continue
            try:
                first = clean_text(text, settings)
            except DocumentError:
                continue  # no body: nothing to clean again
            cleaned += 1
            output = (first.title + "\n\n" if first.title else "") + first.text
            try:
                second = clean_text(output, settings)
            except DocumentError as err:
                changed += 1
                print(f"no body the second time: {page.get('url')}: {err}")
                continue
            if (second.title, second.text) != (first.title, first.text) or second.removed:
                changed += 1
                print(f"changed: {page.get('url')}\n  title {first.title!r} -> {second.title!r}, text "
                      f"{len(first.text)} -> {len(second.text)} chars, removed "
                      f"{[(s.text[:50], s.by) for s in second.removed][:5]}")
    print(f"{args.rendering}: {cleaned} pages cleaned, {changed} not idempotent")
    return 0


if __name__ == "__main__":
    sys.exit(main())
