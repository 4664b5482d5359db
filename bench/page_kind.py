"""Non-article pages recognised: the page-kind model cross-validated by site on the dev pages.

usage: .venv/bin/python bench/page_kind.py [--text [--line-folds DIR]] [--features FILE.npz] [--second [N]]
                                           [--fragments-by-text [FILE.npz]] [--out bench/out/page_kind.json]

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

--fragments-by-text [FILE.npz] measures the HTML path as the pipeline decides: a whole page
(page_kind.is_whole_page) by the HTML model's out-of-fold prediction at its out-of-fold threshold,
a page that is not one by the text model on its visible text (extract_html's fragment_text, its
features from the text path's steps, with its URL as the record's), scored by the text model of its
site's fold (trained on the other folds' full-page texts, train_page_kind.text_rows, as the packaged
one is) at the text model's out-of-fold threshold. The text rows take minutes: they are cached in
FILE (default bench/out/page_kind_text_rows.npz); --features caches the HTML rows.

--second scores the packaged model on the pages of trafilatura-pages.jsonl.gz (trafilatura's
evaluation set, mostly articles, some not, no page kind labelled) with their URLs: the share the
pipeline would quarantine, by kind, and the URLs of those pages to look at; and how many are not
whole pages and how many of those the text model quarantines by their visible text.
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from newsclean.cleaners.model import train_page_kind as tpk  # noqa: E402
from newsclean.cleaners.shared_data import devset_dir  # noqa: E402


def fragment_rows(html_rows: tpk.PageRows, devset: Path) -> tpk.PageRows:
    """The text features of the pages html_rows does not judge (not whole pages), read from their
    visible text as the pipeline reads it (a page whose text has no body: a row of zeros)."""
    from newsclean.cleaners.engine.scoring import run_batch
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.pipeline import text_page_features_steps
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.text_page_features import TEXT_FEATURE_NAMES
    from newsclean.cleaners.types import DocumentError

    pages = {p["id"]: p for p in tpk._pages(devset)}
    fragments = [i for i, judged in enumerate(html_rows.judged) if not judged]
    texts, urls = [], []
    for i in fragments:
        page = pages[html_rows.ids[i]]
        with gzip.open(devset / page["html"], "rb") as fh:
            texts.append(extract_html(fh.read(), url=page["url"], page_kind=True).fragment_text)
        urls.append(page["url"])
    features = run_batch([text_page_features_steps(t, Settings(), {"url": u} if u else None) for t, u in zip(texts, urls)])
    X = np.zeros((len(fragments), len(TEXT_FEATURE_NAMES)))
    for k, f in enumerate(features):
        if isinstance(f, tuple):
            X[k] = f
        elif not isinstance(f, DocumentError):
            raise f
    return tpk.PageRows(X, html_rows.kind[fragments], html_rows.group[fragments], html_rows.ids[fragments],
                        TEXT_FEATURE_NAMES)


def fragments_by_text(html_rows: tpk.PageRows, html_report: dict, text_cache: Path) -> dict:
    """The HTML path's recall and precision out of fold with fragments judged by their text (see
    --fragments-by-text in the module docstring)."""
    devset = devset_dir()
    text = tpk.rows_for(devset, True, text_cache)
    fragments = fragment_rows(html_rows, devset)
    text_report = tpk.cross_validate(text, also=fragments)
    print(f"text model out of fold: threshold {text_report['threshold']:.4f}, recall {text_report['recall']:.4f} "
          f"at precision {text_report['precision']:.4f}")
    by_text = dict(zip(fragments.ids.tolist(), text_report["also_oof"] >= text_report["threshold"]))
    whole = html_rows.judged
    flagged = np.where(whole, html_report["oof"] >= html_report["threshold"],
                       [by_text.get(i, False) for i in html_rows.ids.tolist()])
    y = html_rows.y
    tp = int((flagged & (y == 1)).sum())
    result = {
        "text_threshold": text_report["threshold"],
        "fragments": {"articles": int((~whole & (y == 0)).sum()), "non_articles": int((~whole & (y == 1)).sum())},
        "fragments_flagged": {"articles": int((~whole & flagged & (y == 0)).sum()),
                              "non_articles": int((~whole & flagged & (y == 1)).sum())},
        "fragments_judged": int(fragments.judged.sum()),
        "recall": round(tp / max(1, int(y.sum())), 4),
        "precision": round(tp / max(1, int(flagged.sum())), 4),
        "articles_flagged": int((flagged & (y == 0)).sum()),
        "fragment_pages": [{"id": i, "kind": k, "p": round(float(p), 4), "named": str(n)}
                           for i, k, p, n in zip(fragments.ids.tolist(), fragments.kind.tolist(),
                                                 text_report["also_oof"], text_report["also_kind"])],
    }
    print(f"pages not whole: {result['fragments']} ({result['fragments_judged']} with a body the text model judges); "
          f"quarantined by their text: {result['fragments_flagged']}")
    for f in result["fragment_pages"]:
        print(f"  {f['id']:24s} {f['kind']:14s} P {f['p']:.4f} named {f['named']}")
    print(f"HTML path with fragments by text: recall {result['recall']:.4f} at precision {result['precision']:.4f} "
          f"({result['articles_flagged']} of {int((y == 0).sum())} articles flagged); target "
          f"{'met' if result['recall'] >= 0.90 and result['precision'] >= tpk.TARGET_PRECISION else 'not met'}")
    return result


def second_source(limit: int | None) -> dict:
    from newsclean.cleaners.engine.scoring import run_steps
    from newsclean.cleaners.extract_html import extract_html
    from newsclean.cleaners.page_kind import _kind_model, page_kind
    from newsclean.cleaners.pipeline import text_kind_steps
    from newsclean.cleaners.settings import Settings
    from newsclean.cleaners.types import DocumentError

    devset = devset_dir()
    meta, _ = _kind_model()
    with gzip.open(devset / "trafilatura-pages.jsonl.gz", "rt", encoding="utf-8") as fh:
        pages = [json.loads(line) for line in fh]
    pages = pages[:limit] if limit else pages
    flagged, kinds, read, fragments, by_text = [], Counter(), 0, 0, []
    for p in pages:
        with gzip.open(devset / p["html"], "rb") as fh:
            data = fh.read()
        try:
            ext = extract_html(data, url=p.get("url"), page_kind=True)
        except DocumentError:
            continue
        read += 1
        if ext.fragment_text is not None:  # not a whole page: the pipeline judges its text
            fragments += 1
            url = p.get("url")
            reason = run_steps(text_kind_steps(ext.fragment_text, Settings(quarantine_non_articles=True),
                                               {"url": url} if url else None))
            if reason is not None:
                by_text.append((reason.split(", not an article")[0], url))
            continue
        prob, kind = page_kind(ext.page)
        if prob >= meta["threshold"]:
            flagged.append((round(prob, 3), kind, p.get("url")))
            kinds[kind] += 1
    return {"pages": read, "flagged": len(flagged), "share": round(len(flagged) / max(1, read), 4),
            "kinds": dict(kinds), "urls": sorted(flagged, reverse=True),
            "fragments": fragments, "fragments_flagged": len(by_text), "fragment_urls": by_text}


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
    ap.add_argument("--fragments-by-text", nargs="?", type=Path, const=ROOT / "bench" / "out" / "page_kind_text_rows.npz",
                    default=None, metavar="FILE.npz",
                    help="judge the pages that are not whole pages by the text model on their visible text, out of fold "
                         "(the text rows cached in FILE.npz, default bench/out/page_kind_text_rows.npz)")
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
    if args.fragments_by_text is not None and not args.text:
        result["fragments_by_text"] = fragments_by_text(rows, report, args.fragments_by_text)
    if args.second is not None:
        second = second_source(args.second or None)
        print(f"trafilatura pages the packaged model quarantines: {second['flagged']} of {second['pages']} "
              f"({second['share']:.4f}); by kind {second['kinds']}")
        for prob, kind, url in second["urls"]:
            print(f"  {prob:.3f} {kind:14s} {url}")
        print(f"trafilatura pages not whole: {second['fragments']}; quarantined by their text: "
              f"{second['fragments_flagged']}")
        for what, url in second["fragment_urls"]:
            print(f"  {what} {url}")
        result["second"] = second
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
