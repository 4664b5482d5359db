"""Where the HTML path's time goes, stage by stage, without a profiler's distortion.

    .venv/bin/python bench/profile_html.py [--pages 461] [--out bench/out/profile-html-stages.json]

Runs newsclean.cleaners.pipeline.clean_document on the dev pages' HTML (no URL, as bench_baselines.py) with
timing wrappers around the stages (functions looked up by name at call time, so wrapping them
times every call): decoding, parsing, metadata (and within it trafilatura's author search), the
date ranker (and within it htmldate's find_date, on the pages it is asked for), trafilatura's body extraction (first call) and its recall-mode retry
(second call), the page measures, the visible-text fallback, the line cleaner on the body
(pipeline._clean_extracted, and within it clean_text), metadata resolution. Prints CPU ms per
page for each stage and how many pages entered it; trafilatura.extract() defaults on the same
pages, timed in the same process, gives the comparator. Library caches are emptied before each
pass (see html_speed.clear_library_caches).
"""
from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


class Timer:
    def __init__(self):
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.depth: dict[str, int] = {}

    def wrap(self, module, attr: str, label: str | None = None, nth: dict | None = None):
        """Replace module.attr by a timed wrapper. `nth` maps a call index within one page to a
        label (e.g. the first bare_extraction is the body, the second the recall retry)."""
        fn = getattr(module, attr)
        label = label or attr
        counter = {"n": 0}

        @functools.wraps(fn)  # keeps the signature newsclean.cleaners.upstream checks
        def timed(*args, **kwargs):
            name = label if nth is None else nth.get(counter["n"], label)
            counter["n"] += 1
            if self.depth.get(name):  # recursion: time the outermost call only
                return fn(*args, **kwargs)
            self.depth[name] = 1
            c0 = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.cpu[name] = self.cpu.get(name, 0.0) + time.process_time() - c0
                self.calls[name] = self.calls.get(name, 0) + 1
                self.depth[name] = 0

        timed.reset = lambda: counter.update(n=0)
        setattr(module, attr, timed)
        return timed


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--warmup", type=int, default=60,
                    help="pages (from the end of the dev set) run first, untimed: one-time loading such as "
                         "dateparser's per-language tables, which a long run pays once")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "profile-html-stages.json")
    a = ap.parse_args(argv)

    import logging

    logging.disable(logging.CRITICAL)
    import trafilatura
    import trafilatura.metadata as tm

    import newsclean.cleaners.extract_html as eh
    import newsclean.cleaners.pipeline as pipeline
    from bench_baselines import load_pages
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError, RawDocument
    from html_speed import clear_library_caches

    everything = load_pages()
    pages = everything[: a.pages] if a.pages else everything
    warm = everything[-a.warmup:] if a.warmup else []
    settings = Settings()
    t = Timer()
    t.wrap(pipeline, "extract_html", "extract_html (all)")
    t.wrap(eh, "decode_html", "decode")
    t.wrap(eh, "parse_html", "parse (lxml via trafilatura.load_html)")
    if hasattr(eh, "page_metadata"):
        t.wrap(eh, "page_metadata", "metadata (all)")
    t.wrap(eh, "htmldate_pick", "of the date ranker: htmldate's find_date, where the page's own dates leave it open")
    t.wrap(tm, "extract_author", "metadata: trafilatura extract_author")
    if hasattr(eh, "page_author"):
        t.wrap(eh, "page_author", "metadata: author (page_author: trafilatura's author XPaths in one pass)")
    import trafilatura as tr
    bare = t.wrap(tr, "bare_extraction", "trafilatura body", nth={0: "trafilatura body", 1: "trafilatura recall retry"})
    t.wrap(eh, "page_chars", "page_chars (exact page size, only when the body is under half the whole <body> text)")
    if hasattr(eh, "body_chars"):
        t.wrap(eh, "body_chars", "body_chars (whole <body> text, the bound)")
    t.wrap(eh, "visible_text", "visible_text (fallback)")
    if hasattr(eh, "page_titles_evidence"):
        t.wrap(eh, "page_titles_evidence", "headline statements (page_titles_evidence)")
    t.wrap(eh, "choose_title", "choose_title (the headline ranker)")
    t.wrap(eh, "jsonld_blocks", "JSON-LD blocks (read by both rankers)")
    t.wrap(eh.date_ranker, "published_date", "published_date (the date ranker: candidates, features, model)")
    t.wrap(eh, "shell_reason", "shell_reason (only short bodies)")
    import htmldate.extractors as hx
    t.wrap(hx, "_external_date", "metadata: htmldate's dateparser fallback")
    t.wrap(pipeline, "normalise_lines", "normalise_lines (the body's lines)")
    t.wrap(pipeline, "read_text_metadata", "metadata the body's text states (dateline, byline)")
    t.wrap(pipeline, "resolve", "metadata resolution")

    def ours(p):
        bare.reset()
        try:
            pipeline.clean_document(RawDocument(source=p["html"], data=p["html_bytes"], format="html"), settings)
        except DocumentError:
            pass

    for p in warm + pages[:3]:  # warm-up: imports, lazy tables
        ours(p)
        trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace"))
    t.cpu.clear()
    t.calls.clear()
    clear_library_caches()
    c0 = time.process_time()
    for p in pages:
        ours(p)
    total = time.process_time() - c0
    clear_library_caches()
    c0 = time.process_time()
    for p in pages:
        trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace"))
    traf = time.process_time() - c0
    n = len(pages)
    rows = {k: {"ms_per_page": round(1000 * v / n, 2), "calls": t.calls[k]} for k, v in t.cpu.items()}
    res = {"pages": n, "clean_document_ms_per_page": round(1000 * total / n, 2),
           "trafilatura_extract_ms_per_page": round(1000 * traf / n, 2),
           "ratio_docs_per_cpu_s": round(traf / total, 3), "stages": rows}
    print(f"{n} pages: clean_document {res['clean_document_ms_per_page']} ms/page, trafilatura.extract "
          f"{res['trafilatura_extract_ms_per_page']} ms/page (ratio {res['ratio_docs_per_cpu_s']})")
    for k, v in rows.items():
        print(f"  {k:48s} {v['ms_per_page']:7.2f} ms/page  ({v['calls']} calls)")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(res, indent=2) + "\n")
    return res


if __name__ == "__main__":
    main()
