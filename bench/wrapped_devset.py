"""The text cleaner on hard-wrapped copies of the dev pages (newsclean.cleaners.unwrap).

    .venv/bin/python bench/wrapped_devset.py [--width 72] [--pages 461] [--no-unwrap]

Each block (line) of a dev page's full-page `text` is wrapped with textwrap.fill at --width, with
no blank line between blocks (the hardest case: a paragraph's end cannot be told from a wrap by a
blank line). Both the original and the wrapped text go through newsclean.cleaners.pipeline.clean_text (no
corpus pass, no URL) and are scored as shared/tools/score-devset scores. --no-unwrap turns the
joining off, to show what it is worth.
"""
from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--width", type=int, default=72)
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--no-unwrap", action="store_true")
    a = ap.parse_args(argv)

    import newsclean.cleaners.lines as lines_module
    from newsclean.cleaners.lines import split_lines
    from newsclean.cleaners.model.score import score
    from newsclean.cleaners.model.train import DEVSET, load_jsonl
    from newsclean.cleaners.pipeline import clean_text
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError
    from newsclean.cleaners.unwrap import wrap_width

    if a.no_unwrap:
        lines_module.unwrap = lambda lines: lines
    pages = load_jsonl(DEVSET / "pages.jsonl.gz")[: a.pages]
    settings = Settings()

    def clean(text: str) -> dict:
        try:
            doc = clean_text(text, settings)
            return {"text": doc.text, "title": doc.title}
        except DocumentError:
            return {"text": "", "title": None}

    original, wrapped, detected = {}, {}, 0
    for p in pages:
        text = "\n".join(textwrap.fill(line, a.width) if line.strip() else "" for line in p["text"].split("\n"))
        detected += wrap_width([" ".join(ln.split()) for ln in split_lines(text)]) is not None
        original[p["id"]] = clean(p["text"])
        wrapped[p["id"]] = clean(text)
    print(f"{len(pages)} dev pages wrapped at {a.width}: detected as hard-wrapped {detected}"
          f"{' (joining off)' if a.no_unwrap else ''}")
    for name, preds in (("original", original), ("wrapped", wrapped)):
        s = score(pages, preds)
        print(f"{name:9s} F1 {s['F1']:.3f}  P {s['P']:.3f}  R {s['R']:.3f}  leak {s['leak']:.3f}  title {s['title']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
