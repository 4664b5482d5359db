"""What htmldate's date search costs on the HTML path, and what it buys.

    .venv/bin/python bench/html_date_mode.py [--pages 461] [--rounds 3]

Runs newsclean.cleaners.pipeline.clean_document on the dev pages' HTML (no URL) in three date modes, each
mode's pass over all pages in turn (library caches emptied before each pass, the order rotating
from round to round, medians over rounds; alternating page by page favoured the modes that ran
second, on warm caches): as shipped (htmldate's extensive search with its last resort, search_page:
newsclean.cleaners.extract_html.DATE_PAGE_SEARCH on), the extensive search without search_page
(DATE_PAGE_SEARCH off), and htmldate's quick mode (the set_date_params extract_html.htmldate_pick calls
patched; htmldate runs where the date ranker asks for its pick). Prints
docs per CPU-second, the share of dated pages whose published date equals the annotated one, the
dates given on pages the truth has no date for (false dates), and the body F1
(shared/tools/score-devset) of each, plus trafilatura.extract's own rate for the ratio.
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
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args()
    import trafilatura
    import trafilatura.settings as tset  # where extract_html.htmldate_pick reads set_date_params

    from bench_baselines import load_pages, score
    from newsclean.cleaners.pipeline import clean_document
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError, RawDocument

    import statistics

    import newsclean.cleaners.extract_html as eh
    from html_speed import clear_library_caches

    pages = load_pages(a.pages)
    settings = Settings()
    original = tset.set_date_params
    modes = ("extensive", "no page search", "quick")
    names = (*modes, "trafilatura")
    cpu: dict = {m: [] for m in names}
    preds: dict = {m: {} for m in modes}
    dates: dict = {m: {} for m in modes}

    def run(mode, p):
        if mode == "trafilatura":
            trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace"))
            return
        tset.set_date_params = original if mode != "quick" else (lambda extensive=True: original(False))
        eh.DATE_PAGE_SEARCH = mode != "no page search"
        try:
            d = clean_document(RawDocument(source=p["html"], data=p["html_bytes"], format="html"), settings)
            preds[mode][p["id"]], dates[mode][p["id"]] = d.text, (str(d.published.value)[:10] if d.published else "")
        except DocumentError:
            preds[mode][p["id"]], dates[mode][p["id"]] = "", ""
        finally:
            tset.set_date_params = original
            eh.DATE_PAGE_SEARCH = True

    for mode in names:  # warm-up: imports, one-time loading
        for p in pages[:3]:
            run(mode, p)
    # each mode's pass over all pages, library caches emptied before it, the order rotating by round
    for r in range(a.rounds):
        for mode in names[r % len(names):] + names[: r % len(names)]:
            clear_library_caches()
            c = time.process_time()
            for p in pages:
                run(mode, p)
            cpu[mode].append(time.process_time() - c)
    n = len(pages)
    truth = {p["id"]: (p.get("published") or "")[:10] for p in pages}
    with_date = sum(bool(t) for t in truth.values())
    out = {"pages": n, "rounds": a.rounds, "pages_with_date": with_date, "pages_without_date": n - with_date}
    med = {m: statistics.median(cpu[m]) for m in names}
    for mode in modes:
        right = sum(bool(truth[i]) and d == truth[i] for i, d in dates[mode].items())
        out[mode] = {"docs_per_cpu_s": round(n / med[mode], 1), "rounds_docs_per_cpu_s": [round(n / c, 1) for c in cpu[mode]],
                     "vs_trafilatura": round(med["trafilatura"] / med[mode], 3),
                     "date_exact": round(right / max(with_date, 1), 3), "dates_right": right,
                     "false_dates_on_undated_pages": sum(bool(d) and not truth[i] for i, d in dates[mode].items()),
                     **score(preds[mode])}
    out["trafilatura_docs_per_cpu_s"] = round(n / med["trafilatura"], 1)
    out["trafilatura_rounds"] = [round(n / c, 1) for c in cpu["trafilatura"]]
    print(json.dumps(out, indent=2))
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    (ROOT / "bench" / "out" / "html_date_mode.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
