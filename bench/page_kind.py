"""Non-article pages recognised: the page-kind model cross-validated by site on the dev pages.

usage: .venv/bin/python bench/page_kind.py [--features FILE.npz] [--second [N]] [--out bench/out/page_kind.json]

The 461 article pages (pages.jsonl.gz) and the 934 labelled non-article pages (other-pages.jsonl.gz)
of shared/devset, their HTML read by extract_html as the pipeline reads it. Folds by the URL's
registrable domain (newsclean.cleaners.model.train_page_kind.cross_validate, what training runs):
prints the AUC of P(not an article), the threshold that reaches precision 0.97 out of fold, the
recall there, the articles it would quarantine, and per kind the recall and the share named right.

--second scores the packaged model on the pages of trafilatura-pages.jsonl.gz (trafilatura's
evaluation set, mostly articles, some not, no page kind labelled) with their URLs: the share the
pipeline would quarantine, by kind, and the URLs of those pages to look at.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.model import train_page_kind as tpk  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402


def second_source(limit: int | None) -> dict:
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.page_kind import _kind_model, page_kind
    from newsclean.cleaners.types import DocumentError

    devset = devset_dir()
    meta, _ = _kind_model()
    with gzip.open(devset / "trafilatura-pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    pages = pages[:limit] if limit else pages
    flagged, kinds, read = [], Counter(), 0
    for p in pages:
        with gzip.open(devset / p["html"], "rb") as fh:
            data = fh.read()
        try:
            ext = extract_html(data, url=p.get("url"), page_kind=True)
        except DocumentError:
            continue
        read += 1
        prob, kind = page_kind(ext.page)
        if prob >= meta["threshold"]:
            flagged.append((round(prob, 3), kind, p.get("url")))
            kinds[kind] += 1
    return {"pages": read, "flagged": len(flagged), "share": round(len(flagged) / max(1, read), 4),
            "kinds": dict(kinds), "urls": sorted(flagged, reverse=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--features", type=Path, default=None,
                    help="an .npz of the pages' features to reuse (written there when missing or when the feature "
                         "names changed; delete it after changing how a feature is computed)")
    ap.add_argument("--second", nargs="?", type=int, const=0, default=None,
                    help="also score the packaged model on the trafilatura pages (optionally the first N)")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "page_kind.json")
    args = ap.parse_args()

    rows = tpk.load_rows(args.features) if args.features else None
    if rows is None:
        rows = tpk.page_rows(devset_dir())
        if args.features:
            tpk.save_rows(rows, args.features)
    report = tpk.cross_validate(rows)
    tpk.print_report(report)
    met = report["recall"] >= 0.90 and report["precision"] >= tpk.TARGET_PRECISION
    print(f"target (recall >= 0.90 at precision >= {tpk.TARGET_PRECISION}): {'met' if met else 'not met'}")
    result = {k: v for k, v in report.items() if k not in ("oof", "oof_kind")}
    if args.second is not None:
        second = second_source(args.second or None)
        print(f"trafilatura pages the packaged model quarantines: {second['flagged']} of {second['pages']} "
              f"({second['share']:.4f}); by kind {second['kinds']}")
        for prob, kind, url in second["urls"]:
            print(f"  {prob:.3f} {kind:14s} {url}")
        result["second"] = second
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
