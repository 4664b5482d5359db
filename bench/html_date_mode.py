"""What htmldate's date search costs on the HTML path, and what it buys.

    .venv/bin/python bench/html_date_mode.py [--pages 461]

Runs cleaners.pipeline.clean_document on the dev pages' HTML (no URL) in three date modes,
alternating per page: as shipped (htmldate's extensive search with its last resort, search_page:
cleaners.extract_html.DATE_PAGE_SEARCH on), the extensive search without search_page
(DATE_PAGE_SEARCH off), and htmldate's quick mode (trafilatura's set_date_params patched). Prints
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
    a = ap.parse_args()
    import trafilatura
    import trafilatura.settings as tset

    from bench_baselines import load_pages, score
    from cleaners.pipeline import clean_document
    from cleaners.settings import Settings
    from cleaners.types import DocumentError, RawDocument

    import cleaners.extract_html as eh

    pages = load_pages(a.pages)
    settings = Settings()
    original = tset.set_date_params
    modes = ("extensive", "no page search", "quick")
    cpu = {m: 0.0 for m in (*modes, "trafilatura")}
    preds: dict = {m: {} for m in modes}
    dates_ok = {m: 0 for m in modes}
    false_dates = {m: 0 for m in modes}
    with_date = 0
    for p in pages:
        raw = RawDocument(source=p["html"], data=p["html_bytes"], format="html")
        truth = (p.get("published") or "")[:10]
        with_date += bool(truth)
        for mode in modes:
            tset.set_date_params = original if mode != "quick" else (lambda extensive=True: original(False))
            eh.DATE_PAGE_SEARCH = mode != "no page search"
            c = time.process_time()
            try:
                d = clean_document(raw, settings)
                text, pub = d.text, (str(d.published.value)[:10] if d.published else "")
            except DocumentError:
                text, pub = "", ""
            cpu[mode] += time.process_time() - c
            preds[mode][p["id"]] = text
            dates_ok[mode] += bool(truth) and pub == truth
            false_dates[mode] += bool(pub) and not truth
        tset.set_date_params = original
        eh.DATE_PAGE_SEARCH = True
        c = time.process_time()
        trafilatura.extract(p["html_bytes"].decode("utf-8", errors="replace"))
        cpu["trafilatura"] += time.process_time() - c
    n = len(pages)
    out = {"pages": n, "pages_with_date": with_date, "pages_without_date": n - with_date}
    for mode in modes:
        out[mode] = {"docs_per_cpu_s": round(n / cpu[mode], 1), "vs_trafilatura": round(cpu["trafilatura"] / cpu[mode], 3),
                     "date_exact": round(dates_ok[mode] / max(with_date, 1), 3), "dates_right": dates_ok[mode],
                     "false_dates_on_undated_pages": false_dates[mode], **score(preds[mode])}
    out["trafilatura_docs_per_cpu_s"] = round(n / cpu["trafilatura"], 1)
    print(json.dumps(out, indent=2))
    (ROOT / "bench" / "out").mkdir(parents=True, exist_ok=True)
    (ROOT / "bench" / "out" / "html_date_mode.json").write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
