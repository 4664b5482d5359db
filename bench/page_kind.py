"""Non-article pages recognised: the page-kind model cross-validated by site on the dev pages.

usage: .venv/bin/python bench/page_kind.py [--text [--line-folds DIR]] [--features FILE.npz] [--second [N]]
                                           [--out bench/out/page_kind.json]

The 461 article pages (pages.jsonl.gz) and the 934 labelled non-article pages (other-pages.jsonl.gz)
of shared/devset, their HTML read by extract_html as the pipeline reads it. Folds by the URL's
registrable domain (newsclean.cleaners.model.train_page_kind.cross_validate, what training runs):
prints the AUC of P(not an article), the threshold that reaches precision 0.97 out of fold, the
recall there, the articles it would quarantine, and per kind the recall and the share named right.

--text cross-validates the text path's model the same way (train_page_kind --text): each page's
full-page `text` cleaned by the text path, its features read from its lines and the decision; it
also prints how many pages the text path already quarantines for having no body, by kind.
--line-folds DIR (with --text) scores each page with the two-fold line model that did not train on
its site (bench/cv_folds.py's DIR/fold0, DIR/fold1): the packaged line model trained on the article
pages, which makes them look more like articles to it than an unseen article does.

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
                    help="also score the packaged HTML model on the trafilatura pages (optionally the first N)")
    ap.add_argument("--text", action="store_true", help="the text path's model (from each page's full-page text)")
    ap.add_argument("--line-folds", type=Path, default=None,
                    help="with --text: score each page with the two-fold line model that did not train on its site")
    ap.add_argument("--out", type=Path, default=None, help="default bench/out/page_kind.json (page_kind_text.json with --text)")
    args = ap.parse_args()
    out = args.out or ROOT / "bench" / "out" / ("page_kind_text.json" if args.text else "page_kind.json")

    rows = tpk.rows_for(devset_dir(), args.text, args.features, args.line_folds)
    report = tpk.cross_validate(rows)
    tpk.print_report(report)
    met = report["recall"] >= 0.90 and report["precision"] >= tpk.TARGET_PRECISION
    print(f"target (recall >= 0.90 at precision >= {tpk.TARGET_PRECISION}): {'met' if met else 'not met'}")
    print(f"articles quarantined: {report['articles_flagged']} of {report['articles']} "
          f"({report['articles_flagged'] / report['articles']:.1%})")
    result = {k: v for k, v in report.items() if k not in ("oof", "oof_kind")}
    if args.text:
        no_body = Counter(rows.kind[~rows.judged].tolist())
        caught = (report["oof"] >= report["threshold"]) & (rows.y == 1)
        print(f"pages the text path quarantines for having no body (not judged): {dict(no_body)}; "
              f"non-articles quarantined either way: {(int(caught.sum()) + sum(v for k, v in no_body.items() if k != tpk.ARTICLE)) / report['non_articles']:.4f}")
        result["no_body"] = dict(no_body)
    if args.second is not None:
        second = second_source(args.second or None)
        print(f"trafilatura pages the packaged model quarantines: {second['flagged']} of {second['pages']} "
              f"({second['share']:.4f}); by kind {second['kinds']}")
        for prob, kind, url in second["urls"]:
            print(f"  {prob:.3f} {kind:14s} {url}")
        result["second"] = second
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
