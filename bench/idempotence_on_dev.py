"""Idempotence on real pages: clean each dev page, clean its output (`title + "\\n\\n" + text`)
again, and count the pages where the second cleaning changes the title or text or removes anything.
The property tests check this on generated text; this checks it on the 461 dev pages' full-page
text, in either rendering. `--rendering html` cleans each page's HTML (the HTML path) and then its
output as text: not a contract (the HTML path keeps what trafilatura's markup shows to be body, such
as table rows and list items, which plain text cannot show), but a measure of how the text path
treats clean structured text.

    .venv/bin/python bench/idempotence_on_dev.py [--rendering text|text_inscriptis|html] [--devset PATH]

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

from newsclean.cleaners.pipeline import clean_document, clean_text  # noqa: E402
from newsclean.cleaners.settings import Settings  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402
from newsclean.cleaners.types import DocumentError, RawDocument  # noqa: E402

DEVSET = devset_dir() / "pages.jsonl.gz"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rendering", choices=("text", "text_inscriptis", "html"), default="text")
    ap.add_argument("--devset", type=Path, default=DEVSET)
    args = ap.parse_args()
    settings = Settings()
    cleaned = changed = 0
    removed_by: dict[str, int] = {}
    with gzip.open(args.devset, "rt", encoding="utf-8") as fh:
        for page in map(json.loads, fh):
            try:
                first = _first_cleaning(page, args.rendering, args.devset.parent, settings)
                if first is None:
                    continue
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
                for span in second.removed:
                    removed_by[span.by] = removed_by.get(span.by, 0) + 1
                print(f"changed: {page.get('url')}\n  title {first.title!r} -> {second.title!r}, text "
                      f"{len(first.text)} -> {len(second.text)} chars, removed "
                      f"{[(s.text[:50], s.by) for s in second.removed][:5]}")
    print(f"{args.rendering}: {cleaned} pages cleaned, {changed} not idempotent")
    if removed_by:
        print("removed the second time, by rule:", dict(sorted(removed_by.items(), key=lambda kv: -kv[1])))
    return 0


def _first_cleaning(page: dict, rendering: str, devset_dir: Path, settings: Settings):
    if rendering != "html":
        text = page.get(rendering)
        return clean_text(text, settings) if text else None
    path = devset_dir / "html" / f"{page['id'].rsplit('/', 1)[-1]}.html.gz"
    if not path.exists():
        return None
    raw = RawDocument(source=path.name, data=gzip.decompress(path.read_bytes()), format="html",
                      meta={"url": page.get("url")} if page.get("url") else {})
    return clean_document(raw, settings)


if __name__ == "__main__":
    sys.exit(main())
