"""Profile the hot path with pyinstrument and save the text reports in bench/out/ (git-ignored).

    .venv/bin/python bench/profile_hot_path.py [--pages 461] [--html 100] [--interval 0.001]

- bench/out/profile-text.txt: cleaners.pipeline.clean_text over the dev pages' full-page text;
- bench/out/profile-html.txt: cleaners.pipeline.clean_document on the first --html pages' HTML;
- bench/out/profile-stages.json: CPU seconds per stage of the text path, measured without a
  profiler (normalise_lines vs the decision passes vs the rest), so the profile's proportions can
  be checked against unprofiled time.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyinstrument import Profiler  # noqa: E402

from cleaners.lines import normalise_lines  # noqa: E402
from cleaners.pipeline import clean_document, clean_text  # noqa: E402
from cleaners.settings import Settings  # noqa: E402
from cleaners.types import DocumentError, RawDocument  # noqa: E402

DEVSET = Path("/work/shared/devset")
OUT = ROOT / "bench" / "out"


def _pages(limit: int | None) -> list[dict]:
    with gzip.open(DEVSET / "pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    return pages[:limit] if limit else pages


def _profile(fn, items, interval: float) -> str:
    prof = Profiler(interval=interval)
    prof.start()
    for it in items:
        try:
            fn(it)
        except DocumentError:
            pass
    prof.stop()
    return prof.output_text(unicode=True, color=False, show_all=False)


def stages(pages: list[dict], settings: Settings) -> dict:
    texts = [p["text"] for p in pages]
    c0 = time.process_time()
    for t in texts:
        normalise_lines(t, settings.keep_curly_quotes)
    c1 = time.process_time()
    for t in texts:
        try:
            clean_text(t, settings)
        except DocumentError:
            pass
    c2 = time.process_time()
    n = len(texts)
    return {"docs": n, "normalise_cpu_s": round(c1 - c0, 3), "clean_text_cpu_s": round(c2 - c1, 3),
            "rest_cpu_s": round((c2 - c1) - (c1 - c0), 3), "docs_per_cpu_s": round(n / (c2 - c1), 1),
            "ms_per_doc": round(1000 * (c2 - c1) / n, 2)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--html", type=int, default=100)
    ap.add_argument("--interval", type=float, default=0.001)
    a = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    settings = Settings()
    pages = _pages(a.pages)
    st = stages(pages, settings)
    (OUT / "profile-stages.json").write_text(json.dumps(st, indent=2) + "\n")
    report = _profile(lambda p: clean_text(p["text"], settings), pages, a.interval)
    (OUT / "profile-text.txt").write_text(report)
    print(f"text path: {st['docs_per_cpu_s']} docs/CPU-s ({st['ms_per_doc']} ms/doc), normalise {st['normalise_cpu_s']} s "
          f"of {st['clean_text_cpu_s']} s; profile in {OUT / 'profile-text.txt'}")
    if a.html:
        def html(p):
            with gzip.open(DEVSET / p["html"], "rb") as fh:
                data = fh.read()
            return clean_document(RawDocument(source=p["html"], data=data, format="html"), settings)
        (OUT / "profile-html.txt").write_text(_profile(html, pages[:a.html], a.interval))
        print(f"html path: profile in {OUT / 'profile-html.txt'}")
    return st


if __name__ == "__main__":
    main()
