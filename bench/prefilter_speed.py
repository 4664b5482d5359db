"""What the RE2 prefilter in front of the rules' start patterns saves (cleaners/rules/prefilter.py).

    .venv/bin/python bench/prefilter_speed.py [--rounds 5] [--pages 461]

One process, round-robin: each round cleans the dev pages' text with the prefilter and without it
(start_union alone, as before), every text cache emptied before each pass (new pages, as a corpus
brings them), and prints CPU seconds, their medians and the paired ratios; with --html, the same
for the HTML path's line cleaner on the bodies trafilatura extracts from the pages' HTML (extracted
once, before the timed passes). Then, on every distinct
line of those pages, the cost of the start test itself both ways and how many lines each lets
through (the prefilter's must include every line the alternation matches).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--html", action="store_true", help="time the HTML path's line cleaner instead of the text path")
    a = ap.parse_args(argv)

    from bench_baselines import load_pages
    from html_speed import clear_library_caches

    import newsclean.cleaners.model
    from newsclean.cleaners import rules
    from newsclean.cleaners.lines import normalise_lines
    from newsclean.cleaners.pipeline import _clean_extracted, clean_text, read_html
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    pages = load_pages(a.pages)
    settings = Settings()
    newsclean.cleaners.model.warm_up()
    with_prefilter = rules._Proposer.started

    def union_only(self, text: str) -> bool:
        return self.start_union.search(text) is not None

    if a.html:
        bodies = []
        for p in pages:
            try:
                bodies.append(read_html(p["html_bytes"]))
            except DocumentError:
                pass

        def clean_one(i: int) -> None:
            _clean_extracted(bodies[i], settings, "bench", str(i), {})
        inputs = range(len(bodies))
    else:
        def clean_one(i: int) -> None:
            clean_text(pages[i]["text"], settings)
        inputs = range(len(pages))

    def clean_all(indices=inputs) -> float:
        clear_library_caches()
        t = time.process_time()
        for i in indices:
            try:
                clean_one(i)
            except DocumentError:
                pass
        return time.process_time() - t

    clean_all(inputs[:5])  # warm-up: imports, the prefilter's build, lazy tables
    cpu: dict[str, list[float]] = {"without": [], "with": []}
    for r in range(a.rounds):
        for name in (("without", "with") if r % 2 == 0 else ("with", "without")):
            rules._Proposer.started = with_prefilter if name == "with" else union_only
            cpu[name].append(clean_all())
    rules._Proposer.started = with_prefilter
    for name, v in cpu.items():
        med = statistics.median(v)
        print(f"{name} prefilter: CPU s {[round(x, 2) for x in v]}, median {med:.2f} ({len(inputs) / med:.1f} docs/CPU-s)")
    pairs = sorted(w / x for w, x in zip(cpu["without"], cpu["with"]))
    print(f"speed-up {statistics.median(cpu['without']) / statistics.median(cpu['with']):.3f}x; "
          f"paired ratios {[round(x, 3) for x in pairs]}, median {statistics.median(pairs):.3f}")

    texts = list({t for p in pages for t in normalise_lines(p["text"]) if t})
    proposer = rules._DEFAULT
    prefilter = proposer.prefilter
    t = time.perf_counter()
    union = [proposer.start_union.search(x) is not None for x in texts]
    t_union = time.perf_counter() - t
    t = time.perf_counter()
    passed = [prefilter.may_match(x) for x in texts]
    t_pre = time.perf_counter() - t
    missed = sum(u and not q for u, q in zip(union, passed))
    print(f"{len(texts)} distinct lines: start_union {1e6 * t_union / len(texts):.2f} µs a line "
          f"({sum(union)} match), prefilter {1e6 * t_pre / len(texts):.2f} µs ({sum(passed)} pass, "
          f"{missed} missed)")


if __name__ == "__main__":
    main()
